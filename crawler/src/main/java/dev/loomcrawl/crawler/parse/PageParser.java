package dev.loomcrawl.crawler.parse;

import dev.loomcrawl.crawler.content.Fingerprints;
import dev.loomcrawl.crawler.content.MainContent;
import dev.loomcrawl.crawler.concurrent.Handoff;
import dev.loomcrawl.crawler.encoding.PageEncoding;
import dev.loomcrawl.crawler.url.WebUrl;
import dev.loomcrawl.crawler.values.ContentRequest;
import dev.loomcrawl.crawler.values.CrawlUrl;
import java.net.http.HttpHeaders;
import java.nio.charset.Charset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jsoup.nodes.Node;
import org.jsoup.nodes.TextNode;
import org.jsoup.select.Evaluator;
import org.jsoup.select.NodeTraversor;
import org.jsoup.select.NodeVisitor;
import org.jsoup.select.QueryParser;
import org.jspecify.annotations.Nullable;

/**
 * One Jsoup parse of a fetched HTML page into what the crawl keeps: title, links (resolved, in page
 * order, with whether each may be followed), canonical URL, the page's robots directives ({@link
 * RobotsDirectives}) and, when asked for, its main content: none of a page that says {@code noindex}, unless
 * the job ignores it.
 *
 * <p>The bytes become text as a browser decodes them ({@link PageEncoding}): a byte-order mark, the
 * {@code Content-Type} header's charset, the page's {@code <meta charset>}, each read by the Encoding
 * Standard's labels, and where the page declares none, a guess.
 *
 * <p>Which thread parses is {@code CrawlThreads.parsers}'s to say: the same in both modes.
 */
public final class PageParser {
    private static final Evaluator LINKS = QueryParser.parse("a[href], area[href]");
    private static final Evaluator CANONICAL = QueryParser.parse("link[rel~=(?i)^canonical$][href]");
    private static final Evaluator BASE = QueryParser.parse("base[href]");
    private static final Evaluator REFRESH = QueryParser.parse("meta[http-equiv~=(?i)^\\s*refresh\\s*$][content]");

    /**
     * @param url the link as a browser resolves it against the page ({@link CrawlUrl#check(String, WebUrl)})
     * @param follow false for {@code rel=nofollow} (and every link of a {@code nofollow} page)
     */
    public record Link(CrawlUrl url, boolean follow) {}

    /**
     * What the response's headers say to the parse.
     *
     * @param robotsTags the {@code X-Robots-Tag} headers, each as it came ({@link RobotsDirectives#ofHeaders})
     * @param refresh the {@code Refresh} header, which a browser follows as it follows a {@code <meta>} refresh
     */
    public record Headers(List<String> robotsTags, @Nullable String refresh) {
        public static final Headers NONE = new Headers(List.of(), null);

        public Headers {
            robotsTags = List.copyOf(robotsTags);
        }

        public static Headers of(HttpHeaders headers) {
            return new Headers(headers.allValues("X-Robots-Tag"), headers.firstValue("Refresh").orElse(null));
        }
    }

    /**
     * @param robots what the page's robots {@code <meta>} and {@code X-Robots-Tag} headers ask of this crawler
     * @param simhash the SimHash of the page's visible text ({@link Fingerprints})
     * @param content the page's main content when it was asked for, else null; empty, with the reason, for a page
     *     that says {@code noindex} when the request does not ignore it
     */
    public record Parsed(Document document, String title, List<Link> links, @Nullable String canonical,
            RobotsDirectives robots, long simhash, MainContent.@Nullable Extracted content) {}

    /** Why a {@code noindex} page's content is not kept, for the row's {@code detail}. */
    private static final String NOINDEX = "content not kept: the page asks not to be indexed (noindex)";

    private PageParser() {}

    /**
     * Parses on one of {@code parsers}' threads ({@code CrawlThreads.parsers}) and waits for it; an
     * interrupt is kept for the caller, not acted on.
     *
     * @param agentToken the robots product token of the crawler's user agent: a {@code <meta>} or
     *     {@code X-Robots-Tag} that names it speaks to this crawler
     */
    public static Parsed parse(ExecutorService parsers, byte[] body, @Nullable String charset, String url,
            String agentToken, Headers headers, ContentRequest content) {
        // a parse takes a millisecond: an interrupt waits for it, and the caller sees the flag when it returns
        return Handoff.await(parsers.submit(() -> parseHere(body, charset, url, agentToken, headers, content)));
    }

    static Parsed parseHere(byte[] body, @Nullable String charset, String url, String agentToken, Headers headers,
            ContentRequest content) {
        Document doc = document(body, charset, url).doc();
        Finds finds = new Finds(doc, Refresh.target(headers.refresh()), agentToken);
        NodeTraversor.traverse(finds, doc);
        RobotsDirectives robots = finds.robots.and(RobotsDirectives.ofHeaders(headers.robotsTags(), agentToken));
        WebUrl base = baseUrl(url, finds.base);
        if (finds.base != null) { // the Markdown's links and @abs: fields resolve as the page's links do
            doc.setBaseUri(base == null ? "" : base.href());
        }
        List<Link> links = links(finds.links, base, url, robots.nofollow());
        String title = finds.title == null ? "" : oneLine(finds.title.text());
        String canonical = finds.canonical != null
                && CrawlUrl.check(finds.canonical.attr("href"), base) instanceof CrawlUrl.Check.Ok ok ? ok.url().url() : null;
        MainContent.Extracted extracted = !content.wanted() ? null
                : robots.noindex() && !content.ignoreNoindex() ? MainContent.withheld(NOINDEX)
                : MainContent.of(doc, content);
        return new Parsed(doc, title, links, canonical, robots, finds.text.value(), extracted);
    }

    /** A page's document and the encoding its bytes were read in. */
    record Decoded(Document doc, PageEncoding.Sniffed encoding) {}

    /**
     * A page's document, its bytes decoded as a browser decodes them ({@link PageEncoding}): where nothing
     * declared the encoding before the parse, the first {@code <meta>} that declares one decides, wherever it
     * is, and the page is parsed again in it, as a browser reloads a page whose parser met one.
     */
    static Decoded document(byte[] body, @Nullable String charset, String url) {
        PageEncoding.Sniffed encoding = PageEncoding.sniff(body, charset, true);
        Document doc = Jsoup.parse(encoding.decode(body), url);
        if (!encoding.tentative()) {
            return new Decoded(doc, encoding);
        }
        for (Element meta : doc.getElementsByTag("meta")) {
            Charset declared = PageEncoding.declaredByMeta(meta.attr("charset"), meta.attr("http-equiv"),
                    meta.attr("content"));
            if (declared == null) {
                continue;
            }
            if (declared.equals(encoding.charset())) {
                break;
            }
            PageEncoding.Sniffed late = new PageEncoding.Sniffed(declared, 0, PageEncoding.From.LATE_META);
            return new Decoded(Jsoup.parse(late.decode(body), url), late);
        }
        return new Decoded(doc, encoding);
    }

    /**
     * A link as the page gives it: an anchor's or area's {@code href}, a frame's {@code src}, a refresh's URL.
     *
     * @param nofollow its own {@code rel} says {@code nofollow}
     */
    record Ref(String href, boolean nofollow) {}

    /**
     * What one walk over a parsed page finds: the elements that four selector queries and {@link
     * Document#title()} found before, each with a walk of its own (a fifth of the parser threads' time on the
     * {@code deep} farm's pages). Each element is matched by the same {@link Evaluator} as before, once its
     * tag says it could match; the title is the first {@code <title>} inside {@code <head>}, as Jsoup's. The
     * same walk hashes the visible text: text nodes outside {@code <head>}, {@code <script>}, {@code <style>},
     * {@code <noscript>} and {@code <template>}.
     *
     * <p>A page's links are what a reader can open from it: anchors and image-map areas, frames and iframes
     * (a frameset page has no other), and where a refresh sends the browser (the first refresh, header or
     * {@code <meta>}, as a browser acts on the first).
     */
    private static final class Finds implements NodeVisitor {
        private final Document root;
        private final Element docHead;
        private final List<Ref> links = new ArrayList<>();
        private boolean refreshed;
        private @Nullable Element base;
        private @Nullable Element canonical;
        private @Nullable Element title;
        private final String agentToken;
        private RobotsDirectives robots = RobotsDirectives.NONE;
        private final Fingerprints.SimHash text = new Fingerprints.SimHash();
        /** Elements entered whose text is not shown (head, script, style, ...): text inside them is left out. */
        private int hidden;

        Finds(Document root, @Nullable String refreshHeader, String agentToken) {
            this.root = root;
            this.agentToken = agentToken;
            this.docHead = root.head();
            if (refreshHeader != null) {
                links.add(new Ref(refreshHeader, false));
                refreshed = true;
            }
        }

        @Override
        public void head(Node node, int depth) {
            if (node instanceof TextNode t) {
                if (hidden == 0) {
                    text.add(t.getWholeText());
                }
                return;
            }
            if (!(node instanceof Element e)) {
                return;
            }
            if (isHidden(e)) {
                hidden++;
            }
            switch (e.normalName()) {
                case "a", "area" -> {
                    if (LINKS.matches(root, e)) {
                        links.add(new Ref(e.attr("href"), RobotsDirectives.of(e.attr("rel")).nofollow()));
                    }
                }
                case "frame", "iframe" -> {
                    if (e.hasAttr("src")) {
                        links.add(new Ref(e.attr("src"), false));
                    }
                }
                case "meta" -> {
                    if (e.hasAttr("content") && RobotsDirectives.addresses(e.attr("name"), agentToken)) {
                        robots = robots.and(RobotsDirectives.of(e.attr("content")));
                    }
                    String target = !refreshed && REFRESH.matches(root, e) ? Refresh.target(e.attr("content")) : null;
                    if (target != null) {
                        links.add(new Ref(target, false));
                        refreshed = true;
                    }
                }
                case "base" -> base = base == null && BASE.matches(root, e) ? e : base;
                case "link" -> canonical = canonical == null && CANONICAL.matches(root, e) ? e : canonical;
                case "title" -> title = title == null && inHead(e) ? e : title;
                default -> { }
            }
        }

        @Override
        public void tail(Node node, int depth) {
            if (node instanceof Element e && isHidden(e)) {
                hidden--;
            }
        }

        private static boolean isHidden(Element e) {
            return switch (e.normalName()) {
                case "head", "script", "style", "noscript", "template" -> true;
                default -> false;
            };
        }

        private boolean inHead(Element e) {
            for (Element up = e.parent(); up != null; up = up.parent()) {
                if (up == docHead) {
                    return true;
                }
            }
            return false;
        }
    }

    /**
     * The links of {@code refs} in page order, each once, as a browser resolves them against {@code base}; a
     * jump within the page ({@code #top}) is no link, nor is what {@link CrawlUrl#check} refuses.
     */
    static List<Link> links(List<Ref> refs, @Nullable WebUrl base, String url, boolean nofollow) {
        Set<String> seen = new HashSet<>();
        List<Link> links = new ArrayList<>(refs.size());
        for (Ref ref : refs) {
            if (CrawlUrl.check(ref.href(), base) instanceof CrawlUrl.Check.Ok ok) {
                boolean jump = ref.href().strip().startsWith("#") && ok.url().url().equals(url);
                if (!jump && seen.add(ok.url().url())) {
                    links.add(new Link(ok.url(), !nofollow && !ref.nofollow()));
                }
            }
        }
        return links;
    }

    /**
     * The page's base URL, as the HTML standard's "document base URL": its {@code <base href>} resolved against its
     * own URL; the page's URL when there is none or it is no URL at all. Null when it is a URL of another scheme
     * ({@code javascript:}, {@code about:blank}): then a relative link resolves to that scheme or to nothing, and
     * only links with a scheme of their own reach an http(s) URL, which they do as without any base.
     */
    static @Nullable WebUrl baseUrl(String url, @Nullable Element base) {
        WebUrl page = ((WebUrl.Parse.Ok) WebUrl.parse(url)).url();
        if (base == null) {
            return page;
        }
        return switch (WebUrl.parse(base.attr("href"), page)) {
            case WebUrl.Parse.Ok ok -> ok.url();
            case WebUrl.Parse.OtherScheme other -> null;
            case WebUrl.Parse.Failure failure -> page;
        };
    }

    /**
     * The title as {@link Document#title()} gives it, from the element the walk found: white space runs (as jsoup
     * counts it, no-break space included) as one space, trimmed, and the invisible zero-width space and soft
     * hyphen left out, and control characters too, which jsoup keeps. jsoup's own normaliser for it is in a
     * package its module does not export.
     */
    private static String oneLine(String text) {
        StringBuilder line = new StringBuilder(text.length());
        boolean space = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' || c == 160) {
                space = true;
            } else if (c != 8203 && c != 173 && !Character.isISOControl(c)) {
                if (space && !line.isEmpty()) {
                    line.append(' ');
                }
                space = false;
                line.append(c);
            }
        }
        return line.toString();
    }
}
