package dev.loomcrawl.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The release archive {@code ./mvnw package} makes, unpacked in a folder of its own, runs without the checkout. */
class ReleaseIT {
    private static String run(Path dir, String... args) throws Exception {
        String[] command = new String[args.length + 1];
        command[0] = dir.resolve("bin/loomcrawl").toString();
        System.arraycopy(args, 0, command, 1, args.length);
        ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true);
        builder.environment().put("JAVA_HOME", Path.of(System.getProperty("java.home")).toString());
        Process p = builder.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        return p.exitValue() + " " + out.strip();
    }

    @Test
    void theArchiveUnpacksAndRunsOnItsOwn(@TempDir Path dir) throws Exception {
        Path archive = Path.of(System.getProperty("loomcrawl.release"));
        String version = System.getProperty("loomcrawl.version");
        assertThat(archive).exists();
        Process tar = new ProcessBuilder("tar", "xzf", archive.toString(), "-C", dir.toString()).inheritIO().start();
        assertThat(tar.waitFor()).isZero();
        Path home = dir.resolve("loomcrawl-" + version);
        assertThat(home.resolve("README.md")).exists();
        assertThat(home.resolve("LICENSE")).exists();
        assertThat(Files.isExecutable(home.resolve("bin/loomcrawl"))).isTrue();

        assertThat(run(home, "--version")).startsWith("0 loomcrawl " + version + " on Java ");
        assertThat(run(home, "crawl", "ftp://x")).isEqualTo("2 loomcrawl: URL must be http or https: 'ftp://x'");
        assertThat(run(home, "jobs", "--db=jdbc:h2:" + dir.resolve("db"))).startsWith("0 ");
    }
}
