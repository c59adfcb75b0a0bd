package dev.loomcrawl.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code conf/jvm.options}: the JVM options each command runs with, as the launchers read them (lines
 * {@code all:}, {@code COMMAND:}, and {@code COMMAND@N:} on JDK N or later; {@code #} comments). One file, read by
 * the launchers' bash and here, so that {@code bench --cold} times a crawl as a user's launcher runs it.
 */
record JvmOptions(List<String> lines) {
    private static final Pattern LINE = Pattern.compile("^([a-z-]+)(?:@([0-9]+))?:\\s*(.*)$");

    /** The file the launcher named ({@code -Dloomcrawl.jvmOptions}), else the copy built into this jar. */
    static JvmOptions read() {
        try {
            String named = System.getProperty("loomcrawl.jvmOptions");
            if (named != null) {
                return new JvmOptions(Files.readAllLines(Path.of(named), StandardCharsets.UTF_8));
            }
            try (InputStream in = JvmOptions.class.getResourceAsStream("jvm.options")) {
                if (in == null) {
                    throw new IllegalStateException("jvm.options is missing from the bench's jar");
                }
                return new JvmOptions(new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the launchers' JVM options: " + e.getMessage(), e);
        }
    }

    /** The options of {@code command} on a JDK of {@code feature} (its major version), in the file's order. */
    List<String> forCommand(String command, int feature) {
        List<String> options = new ArrayList<>();
        for (String line : lines) {
            Matcher m = LINE.matcher(line.strip());
            if (!m.matches()) {
                continue;
            }
            boolean forIt = m.group(1).equals("all") || m.group(1).equals(command);
            int since = m.group(2) == null ? 0 : Integer.parseInt(m.group(2));
            if (forIt && feature >= since && !m.group(3).isBlank()) {
                options.addAll(Arrays.asList(m.group(3).strip().split("\\s+")));
            }
        }
        return options;
    }
}
