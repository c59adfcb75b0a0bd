package dev.loomcrawl.mocksites;

import java.util.Locale;
import java.util.random.RandomGenerator;

/**
 * How long the farm waits before answering: {@code fixed}, {@code uniform} or {@code lognormal}.
 *
 * <p>Written as text on the command line: {@code 300} (fixed ms), {@code uniform:100-500},
 * {@code lognormal:300,0.5} (median ms, sigma).
 */
public record LatencyModel(Kind kind, double a, double b) {

    public enum Kind { FIXED, UNIFORM, LOGNORMAL }

    public LatencyModel {
        if (a < 0 || b < 0 || (kind == Kind.UNIFORM && b < a)) {
            throw new IllegalArgumentException("latency must be non-negative (and max >= min), was " + kind + " " + a + ", " + b);
        }
    }

    public static LatencyModel fixed(int millis) {
        return new LatencyModel(Kind.FIXED, millis, 0);
    }

    public static LatencyModel uniform(int minMillis, int maxMillis) {
        return new LatencyModel(Kind.UNIFORM, minMillis, maxMillis);
    }

    public static LatencyModel logNormal(double medianMillis, double sigma) {
        return new LatencyModel(Kind.LOGNORMAL, medianMillis, sigma);
    }

    /**
     * Parses {@code 300}, {@code fixed:300}, {@code uniform:100-500} or {@code lognormal:300,0.5}.
     *
     * @throws IllegalArgumentException naming the text when it is none of these
     */
    public static LatencyModel parse(String text) {
        try {
            String t = text.strip().toLowerCase(Locale.ROOT).replace("ms", "");
            if (t.startsWith("uniform:")) {
                String[] p = t.substring(8).split("-");
                return uniform(Integer.parseInt(p[0].strip()), Integer.parseInt(p[1].strip()));
            }
            if (t.startsWith("lognormal:")) {
                String[] p = t.substring(10).split(",");
                return logNormal(Double.parseDouble(p[0].strip()), Double.parseDouble(p[1].strip()));
            }
            return fixed(Integer.parseInt(t.startsWith("fixed:") ? t.substring(6).strip() : t));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("latency must look like 300, uniform:100-500 or lognormal:300,0.5; was '"
                    + text + "'");
        }
    }

    /** One delay in milliseconds. */
    public int sample(RandomGenerator random) {
        double ms = switch (kind) {
            case FIXED -> a;
            case UNIFORM -> a + random.nextDouble() * (b - a);
            case LOGNORMAL -> a * Math.exp(b * random.nextGaussian());
        };
        return (int) Math.min(Math.round(ms), 600_000);
    }

    /** The mean delay, for Little's-law predictions. */
    public double meanMillis() {
        return switch (kind) {
            case FIXED -> a;
            case UNIFORM -> (a + b) / 2;
            case LOGNORMAL -> a * Math.exp(b * b / 2);
        };
    }

    @Override
    public String toString() {
        return switch (kind) {
            case FIXED -> (int) a + "ms";
            case UNIFORM -> "uniform:" + (int) a + "-" + (int) b + "ms";
            case LOGNORMAL -> "lognormal:" + a + "," + b;
        };
    }
}
