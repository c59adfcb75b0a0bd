/**
 * The crawl engine. Its doors are three packages: {@code dev.loomcrawl.crawler} (the engine's API: a
 * {@link dev.loomcrawl.crawler.Crawler} on a {@link dev.loomcrawl.crawler.Database}), the values that API
 * speaks in ({@code dev.loomcrawl.crawler.values}), and a cluster node ({@code dev.loomcrawl.crawler.cluster},
 * whose one public type is {@link dev.loomcrawl.crawler.cluster.ClusterNode}). Everything else is machinery:
 * how the packages below the API point, one way, is in docs/architecture.md and held by {@code PackageOrderTest}.
 */
module dev.loomcrawl.crawler {
    requires transitive com.fasterxml.jackson.databind; // Export.sequence writes rows as Jackson's SequenceWriter
    requires transitive org.jsoup; // a PageHandler is given the parsed page
    requires transitive org.jspecify; // nullness of the API
    requires transitive HdrHistogram; // Latency.of
    requires transitive java.net.http;

    requires com.fasterxml.jackson.dataformat.csv;
    requires com.fasterxml.jackson.datatype.jsr310;
    requires re2j;
    requires com.h2database;
    requires com.ibm.icu;
    requires com.zaxxer.hikari;
    requires crawler.commons;
    requires dec; // org.brotli:dec, Brotli's decoder: a jar without a module name, named after its file
    requires java.management;
    requires java.sql;
    requires jdk.management;
    requires jwarc;
    requires org.postgresql.jdbc;

    exports dev.loomcrawl.crawler;
    exports dev.loomcrawl.crawler.values;
    exports dev.loomcrawl.crawler.cluster;

    opens dev.loomcrawl.crawler.values to com.fasterxml.jackson.databind;

    // fetch.AddressGuard, a JDK resolver provider, is registered in META-INF/services: every launcher runs the
    // engine on the class path, and naming the provider's interface here would need Java 18 class files, which
    // the Java 17 jar tool Maven may run on cannot read (crawler/pom.xml, execution module-descriptor).
}
