package dev.loomcrawl.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BenchCommandTest {

    /** The whole bench, small: farm in its own process, both modes, farm-side checks, JSON and HTML out. */
    @Test
    void smokeRun(@TempDir Path out) throws Exception {
        CrawlCommandTest.Result r = CrawlCommandTest.run("bench", "--scenario=seed", "--hosts=20", "--pages-per-host=5",
                "--latency=20", "--modes=virtual,pool:4", "--runs=1", "--warmup=0", "--max-in-flight=500", "--json",
                "--out=" + out);
        assertThat(r.exit()).as(r.err()).isZero();
        JsonNode json = new ObjectMapper().readTree(r.out());
        assertThat(json.get("violations")).isEmpty();
        assertThat(json.get("modes")).hasSize(2);
        JsonNode pool = json.get("modes").get(1);
        assertThat(pool.get("mode").asText()).isEqualTo("pool:4");
        assertThat(pool.get("bindingLimit").asText()).isNotBlank();
        assertThat(pool.get("ratioToVirtual").asDouble()).isPositive();
        assertThat(json.get("runs").get(0).get("farm").get("maxInFlightPerHost").asInt()).isLessThanOrEqualTo(8);
        assertThat(Files.readString(out.resolve("report.html"))).contains("<canvas id=\"threads\">").contains("Chart");
        assertThat(r.err()).contains("pool:4");
    }
}
