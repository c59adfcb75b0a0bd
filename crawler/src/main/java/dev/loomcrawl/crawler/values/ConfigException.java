package dev.loomcrawl.crawler.values;

import org.jspecify.annotations.Nullable;

/**
 * A configuration value that cannot be used, with the field it belongs to: callers speak of the field in
 * their own terms (a command-line flag, a JSON name) without parsing the message.
 */
public final class ConfigException extends IllegalArgumentException {
    private final String field;
    private final transient @Nullable Object value;
    private final String problem;

    /**
     * @param field the {@link CrawlConfig} component, e.g. {@code perHostConcurrency} or {@code seeds[2]}
     * @param problem what is wrong, without the field name: {@code must be between 1 and 10000, was 0}
     */
    public ConfigException(String field, @Nullable Object value, String problem) {
        super(field + " " + problem);
        this.field = field;
        this.value = value;
        this.problem = problem;
    }

    public String field() {
        return field;
    }

    @Override
    public String getMessage() {
        return String.valueOf(super.getMessage()); // always given: the field and the problem
    }

    public @Nullable Object value() {
        return value;
    }

    /** The message without its field name, to put after another name for the same field. */
    public String problem() {
        return problem;
    }
}
