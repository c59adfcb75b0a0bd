package dev.loomcrawl.crawler.values;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PolitenessKeyTest {

    @ParameterizedTest
    @CsvSource({
            "www.example.com, example.com",
            "a.b.example.co.uk, example.co.uk",
            "example.co.uk, example.co.uk",
            "cdn1.static.example.org, example.org",
            "127.0.0.1, 127.0.0.1",
            "[::1], [::1]",
            "localhost, localhost"})
    void aDomainIsTheRegisteredOneByThePublicSuffixList(String host, String domain) {
        assertThat(PolitenessKey.domainOf(host)).isEqualTo(domain);
    }

    @ParameterizedTest
    @CsvSource({
            "www.example.com:443, HOST",
            "[::1]:8080, HOST",
            "example.co.uk, DOMAIN",
            "93.184.216.34, IP",
            "[2001:db8::1], IP"})
    void aKeySaysItsLevel(String key, PolitenessKey level) {
        assertThat(PolitenessKey.kindOf(key)).isEqualTo(level);
    }

    @ParameterizedTest
    @CsvSource({"host, HOST", "domain, DOMAIN", "ip, IP", "HOST, HOST", "' Domain ', DOMAIN"})
    void parsesTheThreeLabelsInAnyCase(String label, PolitenessKey key) {
        assertThat(PolitenessKey.parse("politenessKey", label)).isEqualTo(key);
    }

    @ParameterizedTest
    @CsvSource({"hosts", "address", "''"})
    void refusesAnythingElseNamingTheField(String label) {
        assertThatThrownBy(() -> PolitenessKey.parse("politenessKey", label)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("host, domain or ip");
    }
}
