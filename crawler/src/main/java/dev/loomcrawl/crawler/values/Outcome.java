package dev.loomcrawl.crawler.values;

import java.util.Locale;

/** What became of a URL: a page, a failure, or a skip on purpose (robots.txt, a type the job does not keep). */
public enum Outcome {
    OK, FAILED, SKIPPED;

    /** {@code ok}, {@code failed}, {@code skipped}: as exported. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
