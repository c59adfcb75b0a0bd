package dev.loomcrawl.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loomcrawl.cli.CrawlCommandTest.Result;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The command line is built with only the command it names; what a person sees must not change with it. */
class MainTest {

    @Test
    void eachCommandIsRegisteredUnderTheNameItDeclares() {
        Main.COMMANDS.forEach((name, command) ->
                assertThat(new CommandLine(command.get()).getCommandName()).as(name).isEqualTo(name));
    }

    @Test
    void bareHelpStillListsEveryCommand() {
        Result r = CrawlCommandTest.run("--help");
        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains("crawl", "resume", "jobs", "export", "serve", "mock-sites", "demo", "bench")
                .doesNotContain("aot-training"); // hidden
    }

    @Test
    void aNamedCommandParsesAndHelpsAsBefore() {
        Result help = CrawlCommandTest.run("crawl", "--help");
        assertThat(help.exit()).isZero();
        assertThat(help.out()).contains("Usage: loomcrawl crawl", "--max-pages");
        Result version = CrawlCommandTest.run("--version");
        assertThat(version.exit()).isZero();
        assertThat(version.out()).contains("loomcrawl");
    }

    @Test
    void anUnknownCommandIsOneLineAndExitCodeTwo() {
        Result r = CrawlCommandTest.run("crawll", "http://example.test/");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err().strip().lines()).hasSize(1);
        assertThat(r.err()).startsWith("loomcrawl: ").contains("crawll").doesNotContain("Exception", "\tat ");
        assertThat(CrawlCommandTest.run("crawwl").err()).contains("did you mean crawl");
        assertThat(CrawlCommandTest.run("servee", "--port=0").err()).contains("did you mean serve?");
    }
}
