/** The HTTP API, the dashboard and the metrics of a crawler: a Javalin service over the engine's API. */
module dev.loomcrawl.server {
    requires transitive dev.loomcrawl.crawler;
    requires transitive io.javalin;

    requires com.fasterxml.jackson.datatype.jsr310;
    requires java.management;
    requires micrometer.core;
    requires micrometer.java21;
    requires micrometer.registry.prometheus;
    requires org.eclipse.jetty.http;
    requires org.eclipse.jetty.server;
    requires org.eclipse.jetty.util;
    requires org.slf4j;

    exports dev.loomcrawl.server;

    opens dev.loomcrawl.server to com.fasterxml.jackson.databind; // its response records, written by Jackson
}
