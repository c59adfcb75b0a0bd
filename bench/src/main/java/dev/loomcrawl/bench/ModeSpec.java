package dev.loomcrawl.bench;

import dev.loomcrawl.crawler.values.ExecutionMode;

/** {@code virtual}, {@code pool} (200 threads) or {@code pool:N}, as the bench's {@code --modes} lists them. */
record ModeSpec(ExecutionMode mode, int poolSize) {

    static ModeSpec parse(String text) {
        String t = text.strip();
        int colon = t.indexOf(':');
        ExecutionMode mode = ExecutionMode.parse(colon < 0 ? t : t.substring(0, colon));
        if (colon < 0) {
            return new ModeSpec(mode, 200);
        }
        if (mode == ExecutionMode.VIRTUAL) {
            throw new IllegalArgumentException("--modes: virtual takes no size, was '" + text + "'");
        }
        try {
            int size = Integer.parseInt(t.substring(colon + 1).strip());
            if (size < 1 || size > 100_000) {
                throw new NumberFormatException();
            }
            return new ModeSpec(mode, size);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--modes: pool size must be 1 to 100000, was '" + text + "'");
        }
    }

    String label() {
        return mode == ExecutionMode.VIRTUAL ? "virtual" : "pool:" + poolSize;
    }
}
