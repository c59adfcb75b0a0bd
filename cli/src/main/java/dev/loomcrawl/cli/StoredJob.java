package dev.loomcrawl.cli;

import dev.loomcrawl.crawler.ConfigCodec;
import dev.loomcrawl.crawler.CrawlConfig;
import dev.loomcrawl.crawler.Crawler;
import dev.loomcrawl.crawler.store.JobRow;
import dev.loomcrawl.crawler.store.PageStore;
import picocli.CommandLine.Model.CommandSpec;

/** A stored job run again in the foreground, with the settings it was started with: {@code resume} and {@code recrawl}. */
final class StoredJob {
    private StoredJob() {}

    /**
     * @param recrawl visit every stored URL of an ended job once more ({@link Crawler#recrawl}); else continue an
     *     unfinished one ({@link Crawler#resume})
     */
    static int run(CommandSpec spec, String db, long id, String output, ReportOptions report, boolean recrawl)
            throws Exception {
        CrawlConfig config;
        try (PageStore store = PageStore.open(db)) {
            JobRow row = store.job(id).orElseThrow(() -> new IllegalArgumentException("no job " + id + " in " + db));
            if (!recrawl && !row.unfinished()) {
                throw new IllegalArgumentException("job " + id + " has ended (" + row.status() + "): nothing to resume"
                        + " ('loomcrawl recrawl " + id + "' visits its pages again)");
            }
            if (recrawl && row.unfinished()) {
                throw new IllegalArgumentException("job " + id + " is " + row.status() + ": resume it instead"
                        + " (a continuous job revisits its pages by itself)");
            }
            config = ConfigCodec.fromJson(row.config());
        }
        RowOutput rows = RowOutput.open(output, true, config.output().storeBody(), spec.commandLine().getOut());
        Crawler.Options process = new Crawler.Options(config.politeness().perHostConcurrency(),
                config.execution().maxInFlight(), true);
        return Foreground.run(spec, db, process, (crawler, listener) -> recrawl
                ? crawler.recrawl(id, new Crawler.Hooks(null, listener))
                : crawler.resume(id, new Crawler.Hooks(null, listener)), rows, report.json, report.quiet);
    }
}
