package dev.loomcrawl.crawler;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;

/** Jsoup parsing of a fetched HTML page into what the crawl keeps: title, links, text length. */
final class PageParser {

    record Parsed(String title, List<String> links, int textLength) {}

    private PageParser() {}

    static Parsed parse(byte[] body, String baseUrl) {
        Document doc;
        try {
            // charset null: Jsoup takes it from a BOM or <meta charset>, else UTF-8.
            doc = Jsoup.parse(new ByteArrayInputStream(body), null, baseUrl);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // cannot happen reading a byte array
        }
        Set<String> unique = new LinkedHashSet<>();
        for (Element a : doc.select("a[href]")) {
            String href = a.absUrl("href");
            if (!href.isEmpty()) {
                unique.add(href);
            }
        }
        List<String> links = new ArrayList<>(unique);
        return new Parsed(doc.title(), links, doc.body() == null ? 0 : doc.body().text().length());
    }
}
