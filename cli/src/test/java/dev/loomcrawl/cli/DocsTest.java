package dev.loomcrawl.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.MatchResult;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The docs stay honest: every flag the README and docs/ give a command is one that command's {@code --help}
 * knows, and every route they name (as {@code METHOD /path} or in a {@code curl} line) is in the OpenAPI
 * document with that method.
 */
class DocsTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    /** {@code loomcrawl COMMAND ...} in a command line or inline code: the command and the rest of its line. */
    private static final Pattern COMMAND_LINE = Pattern.compile("loomcrawl ([a-z-]+)([^`\\n]*)");
    /** A flag of the command: not one that is the value of another ({@code --crawl-options=--content=markdown}). */
    private static final Pattern FLAG = Pattern.compile("(?<![\\w=-])(--[a-z][a-z0-9-]*)");
    /** A reference-table row of docs/cli.md: {@code | `--flag` | ...}. */
    private static final Pattern TABLE_FLAG = Pattern.compile("^\\| `(--[a-z][a-z0-9-]*)`");
    private static final Pattern ROUTE = Pattern.compile("\\b(GET|POST|PUT|DELETE) (/[A-Za-z0-9_{}/.-]*)");
    private static final Pattern CURL = Pattern.compile("curl[^\\n]*?(?:localhost|127\\.0\\.0\\.1):\\d+(/[A-Za-z0-9_{}/.-]*)");
    private static final Pattern CURL_METHOD = Pattern.compile("-X ?(GET|POST|PUT|DELETE)");
    /**
     * A script run by its path: first on a line of a code block, first in inline code, or after a shell's {@code ;},
     * {@code &&} or {@code (}; not after {@code python3}, which needs no execute bit.
     */
    private static final Pattern RUN_BY_PATH = Pattern.compile("(?m)(?:^|[;&(`]\\s*)\\s*((?:scripts|docs|rivals)/[\\w./-]+\\.(?:py|sh))\\b");

    @Test
    void everyFlagTheDocsNameIsInItsCommandsHelp() throws IOException {
        Map<String, Set<String>> unknown = new TreeMap<>();
        int checked = 0;
        for (Path doc : docs()) {
            String section = null;
            for (String line : Files.readAllLines(doc)) {
                if (line.startsWith("## ")) {
                    String heading = line.substring(3).strip();
                    section = Main.COMMANDS.containsKey(heading) ? heading : null;
                }
                Matcher m = COMMAND_LINE.matcher(line);
                while (m.find()) {
                    String command = m.group(1);
                    if (!Main.COMMANDS.containsKey(command)) {
                        continue; // prose ("loomcrawl is ...")
                    }
                    Matcher f = FLAG.matcher(m.group(2));
                    while (f.find()) {
                        checked++;
                        check(command, f.group(1), doc, unknown);
                    }
                }
                Matcher row = TABLE_FLAG.matcher(line);
                if (section != null && doc.endsWith("cli.md") && row.find()) {
                    checked++;
                    check(section, row.group(1), doc, unknown);
                }
            }
        }
        assertThat(unknown).as("flags the docs name that the command does not know").isEmpty();
        assertThat(checked).as("flags checked").isGreaterThan(60);
    }

    @Test
    void everyRouteTheDocsNameIsInTheOpenApiDocument() throws IOException {
        JsonNode paths;
        try (InputStream in = DocsTest.class.getResourceAsStream("/openapi.json")) {
            paths = new ObjectMapper().readTree(in).get("paths");
        }
        Set<String> missing = new LinkedHashSet<>();
        int checked = 0;
        for (Path doc : docs()) {
            String text = Files.readString(doc);
            List<String[]> routes = new ArrayList<>();
            ROUTE.matcher(text).results().forEach(r -> routes.add(new String[] {r.group(1), r.group(2)}));
            CURL.matcher(text).results().forEach(r -> {
                Matcher method = CURL_METHOD.matcher(r.group());
                routes.add(new String[] {method.find() ? method.group(1) : r.group().contains(" -d") ? "POST" : "GET",
                        r.group(1)});
            });
            for (String[] route : routes) {
                String path = route[1].replaceAll("/$", "").isEmpty() ? "/" : route[1].replaceAll("/$", "");
                if (path.startsWith("/__admin") || path.equals("/metrics/") || path.contains(".")) {
                    continue; // the mock farm's admin routes; files
                }
                checked++;
                if (!documented(paths, route[0].toLowerCase(Locale.ROOT), path)) {
                    missing.add(route[0] + " " + path + " (" + ROOT.relativize(doc) + ")");
                }
            }
        }
        assertThat(missing).as("routes the docs name that /openapi.json does not have").isEmpty();
        assertThat(checked).as("routes checked").isGreaterThan(20);
    }

    @Test
    void everyScriptTheDocsRunByItsPathIsExecutable() throws IOException {
        Set<String> refused = new TreeSet<>();
        int checked = 0;
        for (Path doc : docs()) {
            for (MatchResult run : RUN_BY_PATH.matcher(Files.readString(doc)).results().toList()) {
                Path script = ROOT.resolve(run.group(1));
                if (Files.isRegularFile(script)) {
                    checked++;
                    if (!Files.getPosixFilePermissions(script).contains(PosixFilePermission.OWNER_EXECUTE)) {
                        refused.add(run.group(1) + " (" + ROOT.relativize(doc) + ")");
                    }
                }
            }
        }
        assertThat(refused).as("scripts the docs run by their path that a shell would refuse: not executable").isEmpty();
        assertThat(checked).as("scripts checked").isGreaterThan(3);
    }

    /** Whether {@code method path} matches a documented path, a template segment ({@code {id}}) matching any. */
    private static boolean documented(JsonNode paths, String method, String path) {
        String[] want = path.split("/");
        for (var it = paths.fields(); it.hasNext(); ) {
            var entry = it.next();
            String[] have = entry.getKey().split("/");
            if (have.length != want.length || !entry.getValue().has(method)) {
                continue;
            }
            boolean same = true;
            for (int i = 0; i < have.length && same; i++) {
                same = have[i].startsWith("{") || want[i].startsWith("{") || have[i].equals(want[i])
                        || want[i].matches("\\d+") && have[i].startsWith("{");
            }
            if (same) {
                return true;
            }
        }
        return false;
    }

    private static void check(String command, String flag, Path doc, Map<String, Set<String>> unknown) {
        CommandLine cli = new CommandLine(Main.COMMANDS.get(command).get());
        if (!cli.getCommandSpec().optionsMap().containsKey(flag)) {
            unknown.computeIfAbsent(command + " (" + ROOT.relativize(doc) + ")", k -> new LinkedHashSet<>()).add(flag);
        }
    }

    private static List<Path> docs() throws IOException {
        List<Path> docs = new ArrayList<>(List.of(ROOT.resolve("README.md")));
        try (Stream<Path> files = Files.list(ROOT.resolve("docs"))) {
            files.filter(p -> p.toString().endsWith(".md")).sorted().forEach(docs::add);
        }
        return docs;
    }
}
