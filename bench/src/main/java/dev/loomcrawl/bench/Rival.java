package dev.loomcrawl.bench;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * Another crawler, run as a command against the same farm in each round, timed as a crawl is: what loomcrawl is
 * measured against. Its pages are the farm's count of its pages served (the crawler's own output is not read).
 *
 * @param command the command line, split at spaces (no shell); {@code {seeds}} (a file of the farm's seed URLs,
 *     one a line), {@code {max-depth}}, {@code {per-host}} and {@code {port}} are replaced in each word
 */
record Rival(String command) {

    /**
     * The rival of a {@code --rival} flag.
     *
     * @throws IllegalArgumentException if the command is empty, or its program is not an executable file (by its
     *     path, or on the {@code PATH})
     */
    static Rival parse(String command) {
        if (command.isBlank()) {
            throw new IllegalArgumentException("--rival needs a command, e.g. --rival=\"rivals/colly/colly-farm"
                    + " -seeds {seeds} -depth {max-depth} -per-host {per-host}\"");
        }
        Rival rival = new Rival(command.strip());
        String program = rival.program();
        boolean found = program.contains("/") ? runnable(Path.of(program))
                : Arrays.stream(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
                        .filter(dir -> !dir.isEmpty()).anyMatch(dir -> runnable(Path.of(dir, program)));
        if (!found) {
            throw new IllegalArgumentException("--rival: cannot run '" + program + "': no such executable file"
                    + (program.contains("/") ? "" : " on the PATH"));
        }
        return rival;
    }

    /** The command's first word: the program it runs. */
    private String program() {
        return command.split("\\s+", 2)[0];
    }

    private static boolean runnable(Path file) {
        return Files.isRegularFile(file) && Files.isExecutable(file);
    }

    /** The command line for one run. */
    List<String> argv(Path seeds, int maxDepth, int perHost, int port) {
        return Arrays.stream(command.split("\\s+")).map(word -> word.replace("{seeds}", seeds.toString())
                .replace("{max-depth}", String.valueOf(maxDepth)).replace("{per-host}", String.valueOf(perHost))
                .replace("{port}", String.valueOf(port))).toList();
    }

    /**
     * Its row's label: the command as given, placeholders and all, its program by file name alone (the table
     * shows 34 characters of a label: {@code rivals/spider/target/release/spider-farm} alone would fill them).
     */
    String label() {
        String program = program();
        return "rival: " + Path.of(program).getFileName() + command.substring(program.length());
    }
}
