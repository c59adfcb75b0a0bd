package dev.loomcrawl.server;

import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/** Who may call the server: the {@code Host} a request names, and its bearer token (read-only or full). */
final class AccessGuard {
    private static final Set<HandlerType> READS = Set.of(HandlerType.GET, HandlerType.HEAD);

    private final ApiServer.Settings settings;
    /** The names a request's Host may carry; empty when bound to every address. */
    private final Set<String> hostNames;

    AccessGuard(ApiServer.Settings settings) {
        this.settings = settings;
        this.hostNames = hostNames(settings);
    }

    /**
     * Every request: its {@code Host} must name this server (a page a browser loaded from elsewhere cannot
     * reach a loopback server through DNS rebinding), and with a token, every route but {@code /health}
     * needs it ({@code Authorization: Bearer}, the scheme in any case).
     */
    void check(Context ctx) {
        String host = hostOf(ctx.header("Host"));
        if (!hostNames.isEmpty() && !hostNames.contains(host)) {
            throw new ApiError(421, "misdirected_request", "this server does not answer for Host '" + host
                    + "'; start it with --allowed-host-name=" + host + " if that name is meant to reach it", null);
        }
        if (settings.token() == null || ctx.path().equals("/health") || Dashboard.isPublic(ctx.path())) {
            return;
        }
        String given = bearer(ctx.header("Authorization"));
        if (matches(given, settings.token())
                || settings.readToken() != null && matches(given, settings.readToken()) && READS.contains(ctx.method())) {
            return;
        }
        ctx.header("WWW-Authenticate", "Bearer realm=\"loomcrawl\"");
        throw new ApiError(401, "unauthorized", given == null ? "this request needs 'Authorization: Bearer <token>'"
                : "the token is wrong" + (settings.readToken() != null && !READS.contains(ctx.method())
                        ? " (a read-only token may only GET)" : ""), null);
    }

    private static @Nullable String bearer(@Nullable String header) {
        if (header == null) {
            return null;
        }
        String h = header.strip();
        return h.regionMatches(true, 0, "Bearer ", 0, 7) ? h.substring(7).strip() : null;
    }

    private static boolean matches(@Nullable String given, String expected) {
        return given != null && MessageDigest.isEqual(given.getBytes(StandardCharsets.UTF_8),
                expected.getBytes(StandardCharsets.UTF_8)); // constant time
    }

    /** The names a request's Host may carry; empty when bound to every address (no name can be told wrong). */
    private static Set<String> hostNames(ApiServer.Settings settings) {
        Set<String> names = new TreeSet<>();
        String bound = settings.host().toLowerCase(Locale.ROOT);
        try {
            InetAddress address = InetAddress.getByName(bound);
            if (address.isAnyLocalAddress()) {
                return Set.of();
            }
            if (address.isLoopbackAddress()) {
                names.addAll(List.of("localhost", "127.0.0.1", "[::1]"));
            }
            names.add(address.getHostAddress().contains(":") ? "[" + address.getHostAddress() + "]"
                    : address.getHostAddress());
        } catch (UnknownHostException e) {
            // the bind itself fails and says so
        }
        names.add(bound.contains(":") && !bound.startsWith("[") ? "[" + bound + "]" : bound);
        settings.allowedHostNames().forEach(n -> names.add(n.strip().toLowerCase(Locale.ROOT)));
        return Set.copyOf(names);
    }

    /** The host of a Host header, without its port, lower case. */
    static String hostOf(String header) {
        if (header == null) {
            return "";
        }
        String h = header.strip().toLowerCase(Locale.ROOT);
        if (h.startsWith("[")) {
            int end = h.indexOf(']');
            return end < 0 ? h : h.substring(0, end + 1);
        }
        int colon = h.lastIndexOf(':');
        return colon < 0 ? h : h.substring(0, colon);
    }
}
