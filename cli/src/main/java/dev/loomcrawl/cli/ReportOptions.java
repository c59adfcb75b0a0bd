package dev.loomcrawl.cli;

import picocli.CommandLine.Option;

/** How a foreground crawl ({@code crawl}, {@code resume}) reports: a summary table or JSON, progress or none. */
final class ReportOptions {
    @Option(names = "--json", description = "Print exactly one JSON object on stdout at the end.")
    boolean json;

    @Option(names = "--quiet", description = "No progress on stderr.")
    boolean quiet;
}
