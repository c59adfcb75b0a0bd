package dev.loomcrawl.crawler.values;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Locale;
import java.util.StringJoiner;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.jspecify.annotations.Nullable;

/**
 * How a job keeps its pages fresh: whether it revisits them, whether it follows the links of pages that
 * duplicate one it has, and where it sends the changes it sees. Part of a {@link CrawlConfig}.
 *
 * @param revisit null for a one-pass job; else the job is continuous and revisits each stored page when due
 * @param skipNearDuplicates a page whose SimHash is within 3 bits of a page already stored is stored, but its
 *     links are not followed: a guard against soft traps (print versions, session ids in the URL)
 * @param webhook where each change event is POSTed, or null; only a continuous job has a webhook, since only it
 *     keeps change events
 */
public record Freshness(@Nullable Revisit revisit, boolean skipNearDuplicates, @Nullable Webhook webhook) {
    /** A one-pass job that follows every link and sends nothing. */
    public static final Freshness NONE = new Freshness(null, false, null);

    public Freshness {
        if (webhook != null && revisit == null) {
            throw new ConfigException("webhook", webhook.url(),
                    "sends change events, and only a job that revisits its pages has any: give a revisit interval too");
        }
    }

    /**
     * A continuous job's revisit interval bounds: each page is revisited at least every {@code max} and at most
     * every {@code min}, its interval adapting in between ({@code revisit.RevisitSchedule}).
     */
    public record Revisit(Duration min, Duration max) {
        /**
         * The bounds with either one left out (null): the least is a minute, or the most if that is less; the most
         * a week, or the least if that is more. The one rule for {@code --revisit-min/max} and {@code "revisit"}.
         *
         * @throws ConfigException naming {@code revisit} when both are null
         */
        public static Revisit of(@Nullable Duration min, @Nullable Duration max) {
            if (min == null && max == null) {
                throw new ConfigException("revisit", null, "must give min, max or both");
            }
            Duration least = min != null ? min
                    : max != null && max.compareTo(Duration.ofMinutes(1)) < 0 ? max : Duration.ofMinutes(1);
            Duration most = max != null ? max : least.compareTo(Duration.ofDays(7)) > 0 ? least : Duration.ofDays(7);
            return new Revisit(least, most);
        }

        public Revisit {
            if (min == null || min.compareTo(Duration.ofSeconds(1)) < 0 || min.compareTo(Duration.ofDays(365)) > 0) {
                throw new ConfigException("revisit.min", min, "must be between 1 s and 365 days, was " + words(min));
            }
            if (max == null || max.compareTo(min) < 0 || max.compareTo(Duration.ofDays(365)) > 0) {
                throw new ConfigException("revisit.max", max, "must be at least the minimum, " + words(min)
                        + ", and at most 365 days, was " + words(max));
            }
        }

        /**
         * {@code d} as both sides read it, the CLI's {@code 10m} and the API's {@code PT10M}: {@code 10 min},
         * {@code 1 day 2 h}.
         */
        static String words(@Nullable Duration d) {
            if (d == null || d.isNegative()) {
                return d == null ? "none" : "-" + words(d.negated());
            }
            StringJoiner parts = new StringJoiner(" ");
            parts.setEmptyValue(d.isZero() ? "0 s" : "under 1 ms");
            long days = d.toDays();
            if (days > 0) {
                parts.add(days + (days == 1 ? " day" : " days"));
            }
            add(parts, d.toHoursPart(), " h");
            add(parts, d.toMinutesPart(), " min");
            add(parts, d.toSecondsPart(), " s");
            add(parts, d.toMillisPart(), " ms");
            return parts.toString();
        }

        private static void add(StringJoiner parts, int count, String unit) {
            if (count > 0) {
                parts.add(count + unit);
            }
        }
    }

    /**
     * Where change events go: each is POSTed as JSON to {@code url}, signed with HMAC-SHA256 under
     * {@code secret} in the {@code X-Loomcrawl-Signature} header.
     */
    public record Webhook(String url, String secret) {
        /** The header that carries a delivery's signature ({@link #sign}). */
        public static final String SIGNATURE = "X-Loomcrawl-Signature";
        /** The header that carries the event's id: a receiver that saw it already can drop it. */
        public static final String EVENT_ID = "X-Loomcrawl-Event-Id";

        /** The HMAC-SHA256 of {@code body} under {@code secret}, as {@link #SIGNATURE} carries it. */
        public static String sign(String secret, byte[] body) {
            try {
                Mac mac = Mac.getInstance("HmacSHA256");
                mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
                return "sha256=" + HexFormat.of().formatHex(mac.doFinal(body));
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException("every JDK has HmacSHA256", e); // required of every Java platform
            }
        }

        public Webhook {
            URI uri;
            try {
                uri = url == null ? null : URI.create(url.strip());
            } catch (IllegalArgumentException e) {
                uri = null;
            }
            String scheme = uri == null || uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (uri == null || !(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null) {
                throw new ConfigException("webhook.url", url, "must be an absolute http(s) URL, was '" + url + "'");
            }
            if (secret == null || secret.isEmpty()) {
                throw new ConfigException("webhook.secret", null, "must be given: every delivery is signed with it");
            }
            url = url.strip();
        }

        @Override
        public String toString() {
            return "Webhook[url=" + url + ", secret=(hidden)]";
        }
    }

    /** Whether the job revisits its pages (a continuous job). */
    public boolean continuous() {
        return revisit != null;
    }
}
