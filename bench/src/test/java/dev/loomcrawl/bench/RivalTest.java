package dev.loomcrawl.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RivalTest {

    @Test
    void placeholdersAreFilledInEachWord() {
        Rival rival = Rival.parse("  sh -c  run --seeds={seeds} -d {max-depth} -p {per-host} http://h0.loomcrawl.test:{port}/ ");
        assertThat(rival.argv(Path.of("/tmp/seeds.txt"), 3, 8, 18083)).containsExactly("sh", "-c", "run",
                "--seeds=/tmp/seeds.txt", "-d", "3", "-p", "8", "http://h0.loomcrawl.test:18083/");
        assertThat(rival.label()).isEqualTo("rival: sh -c  run --seeds={seeds} -d {max-depth} -p {per-host}"
                + " http://h0.loomcrawl.test:{port}/");
    }

    @Test
    void aCommandThatCannotRunIsRefused(@TempDir Path dir) throws Exception {
        Path notExecutable = Files.writeString(dir.resolve("crawler"), "#!/bin/sh\n");
        assertThatThrownBy(() -> Rival.parse(" ")).hasMessageStartingWith("--rival needs a command");
        assertThatThrownBy(() -> Rival.parse("no-such-crawler-anywhere {seeds}"))
                .hasMessage("--rival: cannot run 'no-such-crawler-anywhere': no such executable file on the PATH");
        assertThatThrownBy(() -> Rival.parse(notExecutable + " {seeds}")) // there, but not executable
                .hasMessage("--rival: cannot run '" + notExecutable + "': no such executable file");
        assertThatThrownBy(() -> Rival.parse(dir + " {seeds}")) // a folder
                .hasMessage("--rival: cannot run '" + dir + "': no such executable file");
        Files.setPosixFilePermissions(notExecutable, PosixFilePermissions.fromString("rwx------"));
        assertThat(Rival.parse(notExecutable + " {seeds}").command()).isEqualTo(notExecutable + " {seeds}");
        assertThat(Rival.parse(notExecutable + " -seeds {seeds}").label()).isEqualTo("rival: crawler -seeds {seeds}");
    }
}
