package dev.loomcrawl.crawler.content;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import org.jsoup.nodes.DataNode;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jsoup.parser.Parser;
import org.jspecify.annotations.Nullable;

/**
 * What a page says of itself, where it says it: the language from {@code <html lang>} (else
 * {@code Content-Language}, else Open Graph's locale); description, author and publication date from
 * schema.org JSON-LD (an {@code Article}, {@code BlogPosting}, ... or a page's {@code @graph}) first, as the
 * most deliberate statement, then {@code <meta>} tags (HTML's, Open Graph's, Dublin Core's), then the
 * page's markup ({@code rel=author}, {@code <time datetime>}).
 */
record PageFacts(@Nullable String lang, @Nullable String description, @Nullable String author, @Nullable String published) {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> DESCRIPTION = List.of("description", "og:description", "twitter:description",
            "dc.description");
    private static final List<String> AUTHOR = List.of("author", "article:author", "dc.creator", "dcterms.creator",
            "parsely-author", "sailthru.author", "byl");
    private static final List<String> PUBLISHED = List.of("article:published_time", "og:article:published_time",
            "datepublished", "dc.date.issued", "dcterms.issued", "dcterms.created", "dc.date", "pubdate",
            "publishdate", "publish-date", "date", "sailthru.date", "parsely-pub-date");

    static PageFacts of(Document doc) {
        Found found = new Found();
        for (Element e = doc; e != null; e = next(e, doc)) { // one walk for every fact: a walk costs more than the checks
            found.see(e);
        }
        JsonLd ld = JsonLd.of(found.jsonLd);
        String author = first(ld.author, found.meta, AUTHOR);
        if (author != null && author.startsWith("http")) {
            author = null; // article:author is often a profile URL, not a name
        }
        if (author == null && found.author != null) {
            author = blankToNull(found.author.text());
        }
        String published = first(ld.published, found.meta, PUBLISHED);
        Element time = found.pubdate != null ? found.pubdate : found.timeInArticle;
        if (published == null && time != null) {
            published = blankToNull(time.attr("datetime"));
        }
        return new PageFacts(cut(lang(doc, found.meta), 64), cut(first(ld.description, found.meta, DESCRIPTION), 2048),
                cut(author, 512), cut(published, 64));
    }

    /** The element after {@code e} in page order under {@code root}, or null: a walk without a list of them all. */
    static @Nullable Element next(Element e, Element root) {
        Element child = e.firstElementChild();
        return child != null ? child : after(e, root);
    }

    /** The element after {@code e} and all it holds, in page order under {@code root}, or null. */
    static @Nullable Element after(Element e, Element root) {
        for (Element up = e; up != root && up != null; up = up.parent()) {
            Element sibling = up.nextElementSibling();
            if (sibling != null) {
                return sibling;
            }
        }
        return null;
    }

    /** What one walk over the page finds: its meta tags by name, JSON-LD scripts, an author link, a publication time. */
    private static final class Found {
        final Map<String, String> meta = new HashMap<>();
        final List<Element> jsonLd = new ArrayList<>(2);
        @Nullable Element author;
        /** The first element that says it is the publication time ({@code pubdate}, {@code itemprop=datePublished}). */
        @Nullable Element pubdate;
        /** Else the first {@code <time datetime>} of an article. */
        @Nullable Element timeInArticle;

        void see(Element e) {
            switch (e.normalName()) {
                case "meta" -> {
                    String content = e.attr("content").strip();
                    if (content.isEmpty()) {
                        break;
                    }
                    if (e.hasAttr("property")) { // RDFa: several names at once, "dc:description og:description"
                        for (String key : e.attr("property").strip().split("\\s+")) {
                            see(key, content);
                        }
                    } else {
                        see(e.hasAttr("name") ? e.attr("name") : e.hasAttr("itemprop") ? e.attr("itemprop")
                                : e.attr("http-equiv"), content);
                    }
                }
                case "script" -> {
                    if (e.attr("type").strip().equalsIgnoreCase("application/ld+json")) {
                        jsonLd.add(e);
                    }
                }
                case "a" -> {
                    if (author == null && e.hasAttr("rel") && hasWord(e.attr("rel"), "author")) {
                        author = e;
                    }
                }
                case "time" -> {
                    if (timeInArticle == null && e.hasAttr("datetime") && e.closest("article") != null) {
                        timeInArticle = e;
                    }
                }
                default -> { }
            }
            if (pubdate == null && e.hasAttr("datetime")
                    && (e.hasAttr("pubdate") || e.attr("itemprop").equals("datePublished"))) {
                pubdate = e;
            }
            if (author == null && e.attr("itemprop").equals("author")) {
                author = e;
            }
        }

        /**
         * A meta tag's name, lower case; Dublin Core's RDFa spelling ({@code dc:creator}, {@code dcterms:issued}) as
         * its HTML one ({@code DC.creator}).
         */
        private void see(String key, String content) {
            String k = key.strip().toLowerCase(Locale.ROOT);
            if (k.startsWith("dc:") || k.startsWith("dcterms:")) {
                k = k.replaceFirst(":", ".");
            }
            if (!k.isEmpty()) {
                meta.putIfAbsent(k, content);
            }
        }
    }

    /** Whether a space-separated attribute value holds {@code word}, in any case. */
    private static boolean hasWord(String value, String word) {
        for (String w : value.strip().split("\\s+")) {
            if (w.equalsIgnoreCase(word)) {
                return true;
            }
        }
        return false;
    }

    private static @Nullable String lang(Document doc, Map<String, String> meta) {
        Element html = doc.firstElementChild();
        String lang = html == null ? "" : html.hasAttr("lang") ? html.attr("lang") : html.attr("xml:lang");
        if (!lang.isBlank()) {
            return lang.strip();
        }
        String declared = meta.get("content-language");
        if (declared != null) {
            return declared.split(",")[0].strip();
        }
        String locale = meta.get("og:locale");
        return locale == null ? null : locale.replace('_', '-');
    }

    /**
     * {@code preferred} (JSON-LD's) or the first of {@code keys} that a meta tag gives, its entities read: many sites
     * escape these values twice ({@code content="That&amp;#039;s"}), and a reader wants "That's", as Readability
     * gives it.
     */
    private static @Nullable String first(@Nullable String preferred, Map<String, String> meta, List<String> keys) {
        String value = preferred;
        for (int i = 0; value == null && i < keys.size(); i++) {
            value = meta.get(keys.get(i));
        }
        return value == null || value.indexOf('&') < 0 ? value : Parser.unescapeEntities(value, true);
    }

    private static @Nullable String blankToNull(@Nullable String s) {
        return s == null || s.isBlank() ? null : s.strip();
    }

    private static @Nullable String cut(@Nullable String s, int max) {
        return s == null || s.length() <= max ? s : s.substring(0, max);
    }

    /** The first schema.org creative work a page's JSON-LD describes, as far as the facts above go. */
    private record JsonLd(@Nullable String author, @Nullable String published, @Nullable String description) {
        /** The wrapper some sites put around a script's JSON-LD, as XHTML asked of scripts. */
        private static final Pattern CDATA = Pattern.compile("^\\s*<!\\[CDATA\\[|\\]\\]>\\s*$");

        static JsonLd of(List<Element> scripts) {
            for (Element script : scripts) {
                StringBuilder data = new StringBuilder();
                script.dataNodes().forEach((DataNode d) -> data.append(d.getWholeData()));
                try {
                    JsonLd found = work(JSON.readTree(CDATA.matcher(data).replaceAll("")));
                    if (found != null) {
                        return found;
                    }
                } catch (java.io.IOException | RuntimeException e) {
                    // a page's broken JSON-LD says nothing; the meta tags may
                }
            }
            return new JsonLd(null, null, null);
        }

        private static @Nullable JsonLd work(JsonNode node) {
            if (node == null) {
                return null;
            }
            if (node.isArray()) {
                for (JsonNode n : node) {
                    JsonLd found = work(n);
                    if (found != null) {
                        return found;
                    }
                }
                return null;
            }
            if (node.has("@graph")) {
                return work(node.get("@graph"));
            }
            if (!isWork(node.get("@type"))) {
                return null;
            }
            return new JsonLd(names(node.get("author")), text(node.get("datePublished")), text(node.get("description")));
        }

        private static boolean isWork(JsonNode type) {
            if (type == null) {
                return false;
            }
            if (type.isArray()) {
                for (JsonNode t : type) {
                    if (isWork(t)) {
                        return true;
                    }
                }
                return false;
            }
            String t = type.asText();
            return t.endsWith("Article") || t.equals("BlogPosting") || t.equals("Report") || t.equals("Review")
                    || t.equals("DiscussionForumPosting") || t.equals("SocialMediaPosting") || t.equals("Recipe");
        }

        private static @Nullable String names(JsonNode author) {
            if (author == null) {
                return null;
            }
            List<String> names = new ArrayList<>();
            for (JsonNode a : author.isArray() ? author : List.of(author)) {
                String name = a.isTextual() ? a.asText() : text(a.get("name"));
                if (name != null && !name.isBlank()) {
                    names.add(name.strip());
                }
            }
            return names.isEmpty() ? null : String.join(", ", names);
        }

        private static @Nullable String text(JsonNode n) {
            return n == null || !n.isValueNode() || n.asText().isBlank() ? null : n.asText().strip();
        }
    }
}
