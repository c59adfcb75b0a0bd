package dev.loomcrawl.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/** The bench's output for people: a table on the terminal, and an HTML report that works offline. */
final class BenchReport {
    private static final String CHART_JS = "/META-INF/resources/webjars/chart.js/4.5.1/dist/chart.umd.min.js";

    private BenchReport() {}

    static void printTable(ModeBench.Result r, PrintWriter out) {
        out.printf("%nscenario %s: %s; per-host %d; %d cores; Java %s%n", r.scenario(), r.farm(), r.perHost(), r.cores(),
                r.jdk());
        out.printf("%-10s %7s %20s %7s %22s %8s %8s %14s %28s %8s%n", "mode", "wall s", "pages/s (min-max)",
                "vs virt", "page ms p50/p95/p99", "threads", "heap MB", "CPU s (ms/pg)", "binding limit (ceiling/s)",
                "achieved");
        for (ModeBench.ModeResult m : r.modes()) {
            out.printf("%-10s %7.2f %20s %7s %22s %8.0f %8.0f %14s %28s %7.0f%%%n", m.mode(), m.seconds(),
                    String.format("%,.0f (%,.0f-%,.0f)", m.pagesPerSecond(), m.minPagesPerSecond(), m.maxPagesPerSecond()),
                    Double.isNaN(m.ratioToVirtual()) ? "-" : String.format("%.2fx", m.ratioToVirtual()),
                    String.format("%.0f/%.0f/%.0f", m.p50Ms(), m.p95Ms(), m.p99Ms()), m.peakPlatformThreads(),
                    m.peakHeapMb(), String.format("%.1f (%.2f)", m.cpuSeconds(), m.cpuMsPerPage()),
                    String.format("%s (%,.0f)", m.bindingLimit(), m.predictedPagesPerSecond()),
                    m.achievedOfPredicted() * 100);
        }
        if (r.modes().stream().anyMatch(m -> m.seedPublished() != null)) {
            out.println("seed benchmark, published: " + r.modes().stream().filter(m -> m.seedPublished() != null)
                    .map(m -> m.mode() + " " + m.seedPublished()).collect(Collectors.joining("; ")));
        }
        out.printf("medians of %d run(s) per mode, modes interleaved; the farm ran in its own process%n",
                r.modes().isEmpty() ? 0 : r.modes().getFirst().runs());
        out.println(r.violations().isEmpty() ? "farm-side checks: per-host limit held, no URL fetched twice, robots.txt obeyed"
                : "FARM-SIDE VIOLATIONS: " + r.violations());
        out.flush();
    }

    static String headline(ModeBench.Result r) {
        StringBuilder b = new StringBuilder();
        for (ModeBench.ModeResult m : r.modes()) {
            if (!b.isEmpty()) {
                b.append(" · ");
            }
            b.append(String.format("%s %,.0f pages/s", m.mode(), m.pagesPerSecond()));
            if (!Double.isNaN(m.ratioToVirtual()) && !m.mode().equals("virtual")) {
                b.append(String.format(" (%.2fx virtual)", m.ratioToVirtual()));
            }
        }
        return b.toString();
    }

    static Path writeHtml(ModeBench.Result r, Path file) throws IOException {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("modes", r.modes());
        Map<String, List<Sampler.Sample>> series = new LinkedHashMap<>();
        for (ModeBench.Run run : r.runs()) {
            if (!run.warmup()) {
                series.put(run.mode(), run.samples()); // the last measured run of each mode
            }
        }
        data.put("series", series);
        String json = new ObjectMapper().writeValueAsString(data).replace("</", "<\\/");
        StringBuilder rows = new StringBuilder();
        for (ModeBench.ModeResult m : r.modes()) {
            rows.append(String.format("<tr><td>%s</td><td>%.2f</td><td>%,.0f <small>(%,.0f–%,.0f)</small></td><td>%s</td>"
                            + "<td>%.0f / %.0f / %.0f</td><td>%.0f</td><td>%.0f</td><td>%.1f <small>(%.2f ms/page)</small></td>"
                            + "<td>%s: %,.0f/s</td><td>%.0f%%</td>%s</tr>%n",
                    m.mode(), m.seconds(), m.pagesPerSecond(), m.minPagesPerSecond(), m.maxPagesPerSecond(),
                    Double.isNaN(m.ratioToVirtual()) ? "–" : String.format("%.2f×", m.ratioToVirtual()),
                    m.p50Ms(), m.p95Ms(), m.p99Ms(), m.peakPlatformThreads(), m.peakHeapMb(), m.cpuSeconds(),
                    m.cpuMsPerPage(), m.bindingLimit(), m.predictedPagesPerSecond(), m.achievedOfPredicted() * 100,
                    m.seedPublished() == null ? "" : "<td>" + m.seedPublished() + "</td>"));
        }
        boolean seed = r.modes().stream().anyMatch(m -> m.seedPublished() != null);
        String html = TEMPLATE.replace("{{style}}", STYLE)
                .replace("{{headline}}", escape(headline(r)))
                .replace("{{scenario}}", escape(r.scenario() + ": " + r.farm()))
                .replace("{{machine}}", escape(r.cores() + " cores · Java " + r.jdk() + " · " + r.os() + " · per-host "
                        + r.perHost() + " · farm latency " + Math.round(r.latencyMs()) + " ms"))
                .replace("{{checks}}", r.violations().isEmpty()
                        ? "<p class=ok>Farm-side checks passed in every run: per-host limit held, no URL fetched twice, robots.txt obeyed.</p>"
                        : "<p class=bad>Farm-side violations: " + escape(String.join("; ", r.violations())) + "</p>")
                .replace("{{seedHead}}", seed ? "<th>seed benchmark (published)</th>" : "")
                .replace("{{rows}}", rows)
                .replace("{{data}}", json)
                .replace("{{chartjs}}", chartJs());
        Files.writeString(file, html);
        return file;
    }

    /** {@code bench --cold}: the table, and wall time and CPU per option set against the ideal, offline. */
    static Path writeColdHtml(ColdBench.Result r, Path file) throws IOException {
        String json = new ObjectMapper().writeValueAsString(r.rows()).replace("</", "<\\/");
        StringBuilder rows = new StringBuilder();
        for (ColdBench.Row row : r.rows()) {
            rows.append(String.format("<tr><td>%s</td><td>%d</td><td>%.2f <small>(%.2f–%.2f)</small></td><td>%.2f×</td>"
                            + "<td>%.2f</td><td>%.3f</td><td>%.0f</td><td>%,.0f</td><td>%,.0f</td><td>%,d</td><td>%,d</td>"
                            + "<td>%,d</td><td>%,d</td><td>%s</td></tr>%n",
                    escape(row.variant()), row.runs(), row.wallSeconds(), row.minWall(), row.maxWall(), row.ofIdeal(),
                    row.cpuSeconds(), row.cpuMsPerPage(), row.peakRssMb(), row.pages(), row.pagesServed(), row.lostPages(),
                    row.earlyRetries(), row.retryAfterViolations(), row.duplicateFetches(),
                    row.pagesPerSecondByTenth().isEmpty() ? "–"
                            : String.format("%.2f", row.lateOverEarly())));
        }
        String html = COLD_TEMPLATE.replace("{{style}}", STYLE)
                .replace("{{headline}}", escape("Cold crawls of " + r.scenario() + ": ideal " + String.format("%.2f", r.idealSeconds()) + " s"))
                .replace("{{scenario}}", escape(r.farm() + " · --max-depth=" + r.maxDepth() + " · per-host " + r.perHost()))
                .replace("{{rule}}", escape(r.idealRule()))
                .replace("{{rows}}", rows)
                .replace("{{ideal}}", Double.toString(r.idealSeconds()))
                .replace("{{floor}}", ColdBench.FLOOR)
                .replace("{{floorNote}}", r.rows().stream().anyMatch(row -> row.variant().equals(ColdBench.FLOOR))
                        ? " In grey, " + ColdBench.FLOOR + ": the farm's requests and nothing else (robots.txt, the seed,"
                        + " then every page at most per-host at a time; no parsing, no storing), a process of its own"
                        + " under the first option set: the same requests made the plainest way; the gap to it is"
                        + " the crawler's own cost." : "")
                .replace("{{rivalNote}}", r.rows().stream().anyMatch(ColdBench.Row::rival)
                        ? " In orange, rivals: other crawlers run as commands against the same farm in the same rounds;"
                        + " their pages are the farm's pages served to them, their duplicates and violations the farm's"
                        + " count." : "")
                .replace("{{data}}", json)
                .replace("{{chartjs}}", chartJs());
        Files.writeString(file, html);
        return file;
    }

    /** The styles both reports share. */
    private static final String STYLE = """
            body{font:15px/1.45 system-ui,sans-serif;margin:24px auto;max-width:1180px;color:#222}
            h1{font-size:22px;margin:0 0 4px} .sub{color:#666;margin:0 0 16px}
            .grid{display:grid;grid-template-columns:1fr 1fr;gap:18px} .card{border:1px solid #ddd;border-radius:8px;padding:12px}
            .card h2{font-size:15px;margin:0 0 8px} table{border-collapse:collapse;width:100%;font-size:13px;margin-top:18px}
            th,td{border-bottom:1px solid #eee;padding:5px 6px;text-align:right} th:first-child,td:first-child{text-align:left}
            """;

    private static final String COLD_TEMPLATE = """
            <!doctype html><html lang="en"><head><meta charset="utf-8"><title>loomcrawl bench --cold</title>
            <style>
             {{style}}
             small{color:#777}
            </style></head><body>
            <h1>{{headline}}</h1>
            <p class="sub">{{scenario}}<br>ideal = {{rule}}</p>
            <div class="grid">
             <div class="card"><h2>Wall time (s, median) against the ideal</h2><canvas id="wall"></canvas></div>
             <div class="card"><h2>CPU per page (ms, crawler process, JVM start included)</h2><canvas id="cpu"></canvas></div>
             <div class="card" style="grid-column:1/3"><h2>Pages per second through the crawl (by tenth of its time, first
             fetch to last; median of the runs)</h2><canvas id="through" height="70"></canvas></div>
            </div>
            <table><tr><th>JVM options, or rival</th><th>runs</th><th>wall s (min–max)</th><th>× ideal</th><th>CPU s</th>
            <th>CPU ms/page</th><th>peak RSS MB</th><th>pages</th><th>served by the farm</th><th>lost</th><th>a 429's URL asked again inside its Retry-After</th><th>requests to its host inside it</th><th>duplicates</th>
            <th>pages/s late/early</th></tr>
            {{rows}}</table>
            <p class="sub">Each run is a fresh crawl process under GNU time, option sets interleaved; the farm ran in its own
            process and its CPU is not counted; the farm counted violations and the pages it served (each once; lost: the
            farm's pages a run was never served). Late/early: pages per second in the last four
            tenths of the crawl over the four after the first (under 1: it slowed down as it went).{{floorNote}}{{rivalNote}}</p>
            <script>{{chartjs}}</script>
            <script>
            const R = {{data}}; const ideal = {{ideal}};
            // A long option set as an axis label leaves the bars no room: short labels, the whole set in the table.
            const short = v => v.length > 40 ? v.slice(0, 39) + '…' : v;
            const labels = R.map(r => short(r.variant));
            // The floor (--floor), the farm's requests alone, in grey beside the crawls it is the floor of.
            // Rivals (--rival), other crawlers on the same farm, in orange.
            const colour = (r, c) => r.variant === '{{floor}}' ? '#94a3b8' : r.rival ? '#ea580c' : c;
            new Chart(document.getElementById('wall'), {type:'bar', data:{labels, datasets:[
              {label:'wall s', data:R.map(r=>r.wallSeconds), backgroundColor:R.map(r => colour(r, '#2563eb'))},
              {label:'ideal', data:R.map(()=>ideal), backgroundColor:'rgba(0,0,0,0.15)'}]}});
            new Chart(document.getElementById('cpu'), {type:'bar', data:{labels, datasets:[
              {label:'CPU ms per page', data:R.map(r=>r.cpuMsPerPage), backgroundColor:R.map(r => colour(r, '#dc2626'))}]}});
            const colours = ['#2563eb', '#dc2626', '#16a34a', '#9333ea', '#ea580c'];
            new Chart(document.getElementById('through'), {type:'line', data:{labels:[1,2,3,4,5,6,7,8,9,10].map(t => t + '/10'),
              datasets:R.filter(r => r.pagesPerSecondByTenth.length).map((r, i) => ({label:short(r.variant) + ' (pages/s)', data:r.pagesPerSecondByTenth,
                borderColor:colours[i % colours.length], fill:false}))},
              options:{scales:{y:{beginAtZero:true}}}});
            </script></body></html>
            """;

    private static String chartJs() {
        try (InputStream in = BenchReport.class.getResourceAsStream(CHART_JS)) {
            if (in == null) {
                throw new IllegalStateException("Chart.js is missing from the class path: " + CHART_JS);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    private static final String TEMPLATE = """
            <!doctype html><html lang="en"><head><meta charset="utf-8"><title>loomcrawl bench</title>
            <style>
             {{style}}
             .ok{color:#17692f} .bad{color:#b00020;font-weight:bold} small{color:#777}
            </style></head><body>
            <h1>{{headline}}</h1>
            <p class="sub">{{scenario}}<br>{{machine}}</p>
            {{checks}}
            <div class="grid">
             <div class="card"><h2>Throughput: pages/s (median) against the binding ceiling</h2><canvas id="rate"></canvas></div>
             <div class="card"><h2>Live platform threads during the crawl</h2><canvas id="threads"></canvas></div>
             <div class="card"><h2>Pages done over time</h2><canvas id="progress"></canvas></div>
             <div class="card"><h2>Page latency from dispatch (ms): p50 / p95 / p99</h2><canvas id="latency"></canvas></div>
             <div class="card"><h2>Heap used (MB)</h2><canvas id="heap"></canvas></div>
             <div class="card"><h2>Fetches in flight</h2><canvas id="inflight"></canvas></div>
            </div>
            <table><tr><th>mode</th><th>wall s</th><th>pages/s (min–max)</th><th>vs virtual</th><th>page ms p50/p95/p99</th>
            <th>peak platform threads</th><th>peak heap MB</th><th>CPU s</th><th>binding ceiling</th><th>achieved</th>{{seedHead}}</tr>
            {{rows}}</table>
            <p class="sub">Medians over the measured runs; modes interleaved run by run after a warm-up; the mock-site farm ran in
            its own process. Ceilings: Little's law (concurrency ÷ latency), CPU (cores ÷ CPU s per page, crawler and farm
            together), crawl depth (pages ÷ (levels × latency)).</p>
            <script>{{chartjs}}</script>
            <script>
            const D = {{data}};
            const colors = ['#2563eb','#dc2626','#16a34a','#d97706','#7c3aed','#0891b2'];
            const modes = D.modes.map(m => m.mode);
            new Chart(document.getElementById('rate'), {type:'bar', data:{labels:modes, datasets:[
              {label:'achieved pages/s', data:D.modes.map(m=>m.pagesPerSecond), backgroundColor:modes.map((_,i)=>colors[i%6])},
              {label:'binding ceiling', data:D.modes.map(m=>m.predictedPagesPerSecond), backgroundColor:'rgba(0,0,0,0.12)'}]},
              options:{plugins:{tooltip:{callbacks:{afterLabel:c=>c.datasetIndex?D.modes[c.dataIndex].bindingLimit:''}}}}});
            new Chart(document.getElementById('latency'), {type:'bar', data:{labels:['p50','p95','p99'],
              datasets:D.modes.map((m,i)=>({label:m.mode, data:[m.p50Ms,m.p95Ms,m.p99Ms], backgroundColor:colors[i%6]}))}});
            function line(id, f) {
              new Chart(document.getElementById(id), {type:'line', data:{datasets:Object.entries(D.series).map(([mode,s],i)=>({
                label:mode, data:s.map(p=>({x:p.seconds, y:f(p)})), borderColor:colors[modes.indexOf(mode)%6], pointRadius:0, borderWidth:2}))},
                options:{parsing:false, scales:{x:{type:'linear', title:{display:true, text:'seconds'}}}}});
            }
            line('threads', p=>p.platformThreads); line('progress', p=>p.stored);
            line('heap', p=>p.heapBytes/1e6); line('inflight', p=>p.fetching);
            </script></body></html>
            """;

    /** A cold bench's table, as the terminal shows it. */
    static void printCold(ColdBench.Result r, PrintWriter out) {
        out.printf(Locale.ROOT, "cold crawls of %s (%s), --max-depth=%d, per-host %d; ideal %.2f s (%s)%n", r.scenario(),
                r.farm(), r.maxDepth(), r.perHost(), r.idealSeconds(), r.idealRule());
        out.printf(Locale.ROOT, "%-34s %5s %16s %8s %8s %8s %9s %8s %8s %6s %6s %7s %5s %10s%n", "JVM options / rival",
                "runs", "wall s (min-max)", "x ideal", "CPU s", "CPU ms/pg", "RSS MB", "pages", "served", "lost",
                "RA URL", "RA host", "dups", "late/early");
        for (ColdBench.Row row : r.rows()) {
            out.printf(Locale.ROOT, "%-34s %5d %6.2f (%.2f-%.2f) %7.2fx %8.2f %9.3f %8.0f %8.0f %8.0f %6d %6d %7d %5d %10s%n",
                    label(row), row.runs(), row.wallSeconds(), row.minWall(), row.maxWall(), row.ofIdeal(),
                    row.cpuSeconds(), row.cpuMsPerPage(), row.peakRssMb(), row.pages(), row.pagesServed(), row.lostPages(),
                    row.earlyRetries(), row.retryAfterViolations(), row.duplicateFetches(),
                    row.pagesPerSecondByTenth().isEmpty() ? "-"
                            : String.format(Locale.ROOT, "%.2f", row.lateOverEarly()));
        }
        out.println("RA URL: a 429's URL asked again inside its Retry-After; RA host: requests to that host inside it,"
                + " counted from when the farm sent the 429 (so with requests already on their way); summed over runs");
        out.println("pages/s by tenth of the crawl (first fetch to last; median of the runs; late/early = tenths 7-10"
                + " over 2-5):");
        for (ColdBench.Row row : r.rows()) {
            if (row.pagesPerSecondByTenth().isEmpty()) {
                continue; // the floor stores nothing to count from
            }
            out.printf(Locale.ROOT, "%-34s %s%n", label(row), row.pagesPerSecondByTenth().stream()
                    .map(v -> String.format(Locale.ROOT, "%,.0f", v)).collect(Collectors.joining("  ")));
        }
        out.flush();
    }

    private static String label(ColdBench.Row row) {
        return row.variant().length() > 34 ? row.variant().substring(0, 31) + "..." : row.variant();
    }
}
