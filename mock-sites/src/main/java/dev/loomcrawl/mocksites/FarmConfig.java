package dev.loomcrawl.mocksites;

/**
 * One farm: how many hosts, what their pages look like, how slow and how faulty they are.
 *
 * @param hosts distinct host names {@code h0.loomcrawl.test} ... (1 to 100,000)
 * @param pagesPerHost pages on each host, {@code /} being page 0
 * @param linksPerPage links on each page: tree links first (so every page is reachable from its host's
 *     root within {@link SiteGraph#depthOf}), then links to random pages, some on other hosts
 * @param crossHostLinks fraction of the random links that point to another host
 * @param pageBytes filler text per page, in bytes
 * @param seed fixes the link graph: same seed, same graph
 * @param latency delay before each response
 * @param faults fault knobs
 * @param robotsLinks whether each page links to a path its robots.txt disallows
 * @param port TCP port on 127.0.0.1; 0 picks a free one
 * @param changes pages that change while the farm runs ({@link PageChanges}); {@link PageChanges.Spec#NONE} for none
 */
public record FarmConfig(
        int hosts,
        int pagesPerHost,
        int linksPerPage,
        double crossHostLinks,
        int pageBytes,
        long seed,
        LatencyModel latency,
        Faults faults,
        boolean robotsLinks,
        int port,
        PageChanges.Spec changes) {

    /** A farm whose pages never change. */
    public FarmConfig(int hosts, int pagesPerHost, int linksPerPage, double crossHostLinks, int pageBytes, long seed,
            LatencyModel latency, Faults faults, boolean robotsLinks, int port) {
        this(hosts, pagesPerHost, linksPerPage, crossHostLinks, pageBytes, seed, latency, faults, robotsLinks, port,
                PageChanges.Spec.NONE);
    }

    public FarmConfig {
        check("hosts", hosts, 1, 100_000);
        check("pagesPerHost", pagesPerHost, 1, 10_000_000);
        check("linksPerPage", linksPerPage, 1, 1_000);
        check("pageBytes", pageBytes, 0, 10 << 20);
        check("port", port, 0, 65_535);
        if (crossHostLinks < 0 || crossHostLinks > 1) {
            throw new IllegalArgumentException("crossHostLinks must be between 0 and 1, was " + crossHostLinks);
        }
        if (latency == null || faults == null || changes == null) {
            throw new IllegalArgumentException("latency, faults and changes must be set");
        }
    }

    private static void check(String field, long value, long min, long max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(field + " must be between " + min + " and " + max + ", was " + value);
        }
    }

    public long totalPages() {
        return (long) hosts * pagesPerHost;
    }

    public FarmConfig withPort(int value) {
        return new FarmConfig(hosts, pagesPerHost, linksPerPage, crossHostLinks, pageBytes, seed, latency, faults,
                robotsLinks, value, changes);
    }

    public FarmConfig withLatency(LatencyModel value) {
        return new FarmConfig(hosts, pagesPerHost, linksPerPage, crossHostLinks, pageBytes, seed, value, faults,
                robotsLinks, port, changes);
    }

    public FarmConfig withSize(int hostCount, int pages) {
        return new FarmConfig(hostCount, pages, linksPerPage, crossHostLinks, pageBytes, seed, latency, faults,
                robotsLinks, port, changes);
    }

    public FarmConfig withChanges(PageChanges.Spec value) {
        return new FarmConfig(hosts, pagesPerHost, linksPerPage, crossHostLinks, pageBytes, seed, latency, faults,
                robotsLinks, port, value);
    }

    public FarmConfig withFaults(Faults value) {
        return new FarmConfig(hosts, pagesPerHost, linksPerPage, crossHostLinks, pageBytes, seed, latency, value,
                robotsLinks, port, changes);
    }
}
