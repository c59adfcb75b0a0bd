package dev.loomcrawl.crawler.content;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jsoup.nodes.DataNode;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;

/**
 * What a page says of itself, where it says it: the language from {@code <html lang>} (else
 * {@code Content-Language}, else Open Graph's locale); description, author and publication date from
 * schema.org JSON-LD (an {@code Article}, {@code BlogPosting}, ... or a page's {@code @graph}) first, as the
 * most deliberate statement, then {@code <meta>} tags (HTML's, Open Graph's, Dublin Core's), then the
 * page's markup ({@code rel=author}, {@code <time datetime>}).
 */
record PageFacts(String lang, String description, String author, String published) {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> DESCRIPTION = List.of("description", "og:description", "twitter:description",
            "dc.description");
    private static final List<String> AUTHOR = List.of("author", "article:author", "dc.creator", "dcterms.creator",
            "parsely-author", "sailthru.author", "byl");
    private static final List<String> PUBLISHED = List.of("article:published_time", "og:article:published_time",
            "datepublished", "dc.date.issued", "dcterms.issued", "dcterms.created", "dc.date", "pubdate",
            "publishdate", "publish-date", "date", "sailthru.date", "parsely-pub-date");

    static PageFacts of(Document doc) {
        Map<String, String> meta = new HashMap<>();
        for (Element m : doc.getElementsByTag("meta")) {
            String key = m.hasAttr("property") ? m.attr("property") : m.hasAttr("name") ? m.attr("name")
                    : m.hasAttr("itemprop") ? m.attr("itemprop") : m.attr("http-equiv");
            String content = m.attr("content").strip();
            if (!key.isEmpty() && !content.isEmpty()) {
                meta.putIfAbsent(key.strip().toLowerCase(Locale.ROOT), content);
            }
        }
        JsonLd ld = JsonLd.of(doc);
        String author = first(ld.author, meta, AUTHOR);
        if (author != null && author.startsWith("http")) {
            author = null; // article:author is often a profile URL, not a name
        }
        if (author == null) {
            Element rel = doc.selectFirst("a[rel~=(?i)^author$], [itemprop=author]");
            author = rel == null ? null : blankToNull(rel.text());
        }
        String published = first(ld.published, meta, PUBLISHED);
        if (published == null) {
            Element time = doc.selectFirst("time[pubdate][datetime], [itemprop=datePublished][datetime], "
                    + "article time[datetime]");
            published = time == null ? null : blankToNull(time.attr("datetime"));
        }
        return new PageFacts(cut(lang(doc, meta), 64), cut(first(ld.description, meta, DESCRIPTION), 2048),
                cut(author, 512), cut(published, 64));
    }

    private static String lang(Document doc, Map<String, String> meta) {
        Element html = doc.selectFirst("html");
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

    private static String first(String preferred, Map<String, String> meta, List<String> keys) {
        if (preferred != null) {
            return preferred;
        }
        for (String key : keys) {
            String value = meta.get(key);
            if (value != null) {
                return value;
            }
        }
        return null;
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.strip();
    }

    private static String cut(String s, int max) {
        return s == null || s.length() <= max ? s : s.substring(0, max);
    }

    /** The first schema.org creative work a page's JSON-LD describes, as far as the facts above go. */
    private record JsonLd(String author, String published, String description) {
        static JsonLd of(Document doc) {
            for (Element script : doc.select("script[type~=(?i)application/ld\\+json]")) {
                StringBuilder data = new StringBuilder();
                script.dataNodes().forEach((DataNode d) -> data.append(d.getWholeData()));
                try {
                    JsonLd found = work(JSON.readTree(data.toString()));
                    if (found != null) {
                        return found;
                    }
                } catch (java.io.IOException | RuntimeException e) {
                    // a page's broken JSON-LD says nothing; the meta tags may
                }
            }
            return new JsonLd(null, null, null);
        }

        private static JsonLd work(JsonNode node) {
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

        private static String names(JsonNode author) {
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

        private static String text(JsonNode n) {
            return n == null || !n.isValueNode() || n.asText().isBlank() ? null : n.asText().strip();
        }
    }
}
