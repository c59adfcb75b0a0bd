package dev.loomcrawl.mocksites;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Pages that change while the farm runs, each on a schedule of its own that follows from the seed and the
 * farm's start: some change a timestamp and a counter every period ({@link Kind#MINOR}), some their text
 * ({@link Kind#MAJOR}), some go away once ({@link Kind#GONE}: 410) or move once ({@link Kind#MOVED}: 301 to
 * {@code /moved/N}); the rest never change. Every page answers with an {@code ETag} and a {@code Last-Modified},
 * and a request whose {@code If-None-Match} or {@code If-Modified-Since} says it has the current version gets a
 * 304 without a body. Since the schedule is a function of time, {@link #madeUntil} lists every change made, with
 * its time, to hold what a crawler detected against what happened.
 */
public final class PageChanges {
    /** How a page behaves. */
    public enum Kind { STATIC, MINOR, MAJOR, GONE, MOVED }

    /**
     * What share of pages changes how.
     *
     * @param minor pages that change a timestamp and a counter every {@code period}
     * @param major pages that change their text every {@code period}
     * @param gone pages that go away (410) once, within {@code oneOffWithin} of the start
     * @param moved pages that move (301) once, within {@code oneOffWithin} of the start
     */
    public record Spec(double minor, double major, double gone, double moved, Duration period, Duration oneOffWithin) {
        public static final Spec NONE = new Spec(0, 0, 0, 0, Duration.ofMinutes(1), Duration.ofMinutes(1));

        public Spec {
            if (minor < 0 || major < 0 || gone < 0 || moved < 0 || minor + major + gone + moved > 1) {
                throw new IllegalArgumentException("change shares must be between 0 and 1 and add up to 1 at most");
            }
            if (period.isNegative() || period.isZero() || oneOffWithin.isNegative() || oneOffWithin.isZero()) {
                throw new IllegalArgumentException("period and oneOffWithin must be positive");
            }
        }

        public boolean any() {
            return minor + major + gone + moved > 0;
        }
    }

    /**
     * A page as it is at one moment.
     *
     * @param version 0 until its first change, then one more per change
     * @param since when the current version began (the farm's start for version 0)
     * @param away the page is gone or moved now
     */
    record State(Kind kind, int version, long since, boolean away) {}

    /** A change the farm made: the page, how it changed, and when. */
    public record Made(int host, int page, Kind kind, Instant at) {}

    private static final DateTimeFormatter HTTP_DATE = DateTimeFormatter.RFC_1123_DATE_TIME.withZone(ZoneOffset.UTC);

    private final SiteGraph graph;
    private final Spec spec;
    private final long start;

    PageChanges(SiteGraph graph, Spec spec, long startMillis) {
        this.graph = graph;
        this.spec = spec;
        this.start = startMillis;
    }

    Kind kind(int host, int page) {
        double r = SiteGraph.unit(graph.mix(host, page, 101));
        if ((r -= spec.minor()) < 0) {
            return Kind.MINOR;
        }
        if ((r -= spec.major()) < 0) {
            return Kind.MAJOR;
        }
        if ((r -= spec.gone()) < 0) {
            return Kind.GONE;
        }
        return r - spec.moved() < 0 ? Kind.MOVED : Kind.STATIC;
    }

    /** When the page's first change comes, after the start. */
    private long firstChange(int host, int page, Kind kind) {
        long span = (kind == Kind.GONE || kind == Kind.MOVED ? spec.oneOffWithin() : spec.period()).toMillis();
        return start + 1 + (long) (SiteGraph.unit(graph.mix(host, page, 102)) * span);
    }

    State state(int host, int page, long now) {
        Kind kind = kind(host, page);
        if (kind == Kind.STATIC) {
            return new State(kind, 0, start, false);
        }
        long first = firstChange(host, page, kind);
        if (now < first) {
            return new State(kind, 0, start, false);
        }
        if (kind == Kind.GONE || kind == Kind.MOVED) {
            return new State(kind, 1, first, true);
        }
        long period = spec.period().toMillis();
        int version = 1 + (int) ((now - first) / period);
        return new State(kind, version, first + (version - 1) * period, false);
    }

    /** Every change made from the start until {@code now}, in page order. */
    public List<Made> madeUntil(long now) {
        List<Made> made = new ArrayList<>();
        FarmConfig config = graph.config();
        for (int host = 0; host < config.hosts(); host++) {
            for (int page = 0; page < config.pagesPerHost(); page++) {
                Kind kind = kind(host, page);
                if (kind == Kind.STATIC) {
                    continue;
                }
                long at = firstChange(host, page, kind);
                boolean once = kind == Kind.GONE || kind == Kind.MOVED;
                for (; at <= now; at += spec.period().toMillis()) {
                    made.add(new Made(host, page, kind, Instant.ofEpochMilli(at)));
                    if (once) {
                        break;
                    }
                }
            }
        }
        return made;
    }

    static String etag(int host, int page, State state) {
        return "\"h" + host + "-p" + page + "-v" + state.version() + "\"";
    }

    static String lastModified(State state) {
        return HTTP_DATE.format(Instant.ofEpochMilli(state.since()));
    }

    /** Whether a request with these validators has the page's current version: answered 304. */
    static boolean notModified(String ifNoneMatch, String ifModifiedSince, String etag, State state) {
        if (ifNoneMatch != null) {
            for (String tag : ifNoneMatch.split(",")) {
                if (tag.strip().equals(etag) || tag.strip().equals("*")) {
                    return true;
                }
            }
            return false; // If-None-Match wins over If-Modified-Since (RFC 9110, 13.1.3)
        }
        if (ifModifiedSince != null) {
            try {
                long since = Instant.from(HTTP_DATE.parse(ifModifiedSince.strip())).toEpochMilli();
                return state.since() / 1000 <= since / 1000;
            } catch (RuntimeException e) {
                return false; // an unreadable date is ignored, as RFC 9110 says
            }
        }
        return false;
    }

    /** The page's HTML at {@code state}: a stamp for a minor page, other words for a major one. */
    String html(int host, int page, State state) {
        String title = graph.title(host, page);
        List<String> links = graph.links(host, page);
        return switch (state.kind()) {
            case MINOR -> graph.html(title, links, graph.filler() + "</p><p class=\"stamp\">updated "
                    + String.format(Locale.ROOT, "%tT", state.since()) + ", " + (1_000 + 17 * state.version()) + " readers");
            case MAJOR -> graph.html(title, links, state.version() == 0 ? graph.filler() : graph.words(host, page,
                    state.version(), graph.filler().length()));
            default -> graph.html(title, links, graph.filler());
        };
    }
}
