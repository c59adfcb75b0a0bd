package dev.loomcrawl.crawler.content;

import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.jsoup.nodes.Element;
import org.jspecify.annotations.Nullable;

/**
 * What is not main content in one reading of a page, told from an element: its tag, its ARIA role, whether it
 * is shown, and the words of its {@code class} and {@code id}. The word lists are Readability's (Mozilla), with
 * the names today's sites give cookie notices, share bars and newsletters.
 */
final class Boilerplate {
    /**
     * Never text a reader sees, or never the article: scripts, forms, navigation, side bars, footers, and the AMP
     * components its runtime shows only when the reader opens them or as a bar over the page (a photo viewer, a
     * menu drawer, a consent or notice bar): Chefkoch's photo viewer, whose class says content, outscored the recipe.
     */
    private static final Set<String> TAGS = Set.of("script", "style", "template",
            "iframe", "svg", "canvas", "object", "embed", "form", "button", "input", "select", "textarea", "nav",
            "aside", "footer", "header", "dialog", "menu", "label",
            "amp-lightbox", "amp-sidebar", "amp-user-notification", "amp-consent");
    /**
     * Tags that old or broken markup makes wrappers of the whole page: ASP.NET puts every page in one
     * {@code <form>}, a {@code <header>} left unclosed takes in everything after it, and some CMSs put the article
     * in an {@code <aside>} inside {@code <main>}. Holding over half of the page's text, or of the text of the
     * {@code <main>} it is in (the tag: some sites give every teaser of a list {@code role=main}), such an element is
     * a wrapper and not left out (trafilatura keeps such forms the same way).
     */
    private static final Set<String> WRAPPERS = Set.of("aside", "form", "header");
    /**
     * A {@code <noscript>} is what a reader without scripts sees instead: a tracking pixel, a line asking for
     * JavaScript, a fallback menu (its form and select left out as such), and on Google's Blogger blogs the whole
     * article, whose scripted copy is a template. This many characters of text are more than any such line; a
     * shorter one is left out as the tags above are.
     */
    private static final int NOSCRIPT_ARTICLE = 500;
    /** Not "tablist": Bootstrap's accordion is a tablist around its panels, and a real one's tabs are links. */
    private static final Set<String> ROLES = Set.of("navigation", "banner", "contentinfo",
            "complementary", "dialog", "alertdialog", "alert", "search", "menu", "menubar", "toolbar");
    /** HTML's own mark of a page's main content, as a CSS selector: {@code <main>} or ARIA's role. */
    static final String MAIN = "main, [role=main]";
    /**
     * Class and id words of blocks that are not the article: Readability's "unlikely candidates", and words from
     * trafilatura's discard list (buttons, ratings, user profiles, paywalls, print-only and edit links), an author's
     * box after the post ({@code author-box}, {@code author-card}, {@code author-info}), readers' comments named
     * in German or Scandinavian ({@code kommentar}), and a picture's credit
     * ({@code Foto: ...}, {@code Getty Images}) beside its caption, which is kept. Not "share": a share bar is links
     * and buttons, left out as such, and a wrapper around a whole article may have an id that says share (a short
     * block so named is left out: {@link #SHORT_ASIDE}). "nav" as a word, not inside one: a style's hash
     * ({@code NavzzU}) is no menu, nor is a heading's anchor ({@code nav_the_film}); "navbar" at a word's start
     * only: Docusaurus gives every heading {@code anchorTargetStickyNavbar_Vzrq}. "tools" but not Drupal's
     * {@code block-ctools} (its Chaos Tools module), which wraps a node's fields. "ads", but not a block that says
     * it has them ({@code o-section--has-ads}, a BEM modifier {@code --ads}): the story the ads are placed in.
     * "dialog" (a page's dialog by its id or class, as its role says one), not "dialogue" (a play's lines); a
     * "placeholder" for a video or post the reader has not let load ("we respect your privacy ..."), but not
     * ASP.NET's numbered {@code ContentPlaceHolder1}, which holds the page. A "signature" under a forum post (an
     * API's declarations are saved by {@link #MAYBE}). A "header", but not rustdoc's {@code code-header} and
     * {@code small-section-header} nor Doxygen's {@code groupheader}: every item's signature and every section's
     * heading. A "remark" (a comment system), but not Doxygen's {@code section remark}, a function's remarks.
     * "extra", but not "extract" (Python's "Extracting Parameters", PostgreSQL's {@code EXTRACT}). A tooltip's
     * text ({@code tooltiptext}, shown on hover: rustdoc's "Notable traits").
     * Each lookbehind follows the word it guards: put first, it is tried at every character of every class string
     * (the cache of judged strings does not hold a crawl of many sites), which cost extraction 5%.
     */
    private static final Pattern UNLIKELY = Pattern.compile("-ad-|\\bads?\\b(?<!has-ads?|--ads?)|advert|ai2html|"
            + "banner|breadcrumb|button|byline|combx|comment|kommentar|community|consent|cookie|copyright|cover-wrap|"
            + "\\bcredits?\\b|disqus|dateline|editsection|extra(?!ct)|footer|gdpr|"
            + "header(?<!code-header|small-section-header|groupheader)|legends|masthead|menu|meta|modal|"
            + "dialog(?!ue)|most-popular|newsletter|nav(?![a-z_])(?<![a-z]nav)|navbar(?<![a-z]navbar)|navbox|"
            + "navigation|noprint|"
            + "outbrain|overlay|pager|pagination|paywall|placeholder(?!\\d)|popup|premium|profile|promo|rating|"
            + "related|remark(?<!section remark)|replies|rss|shoutbox|sidebar|signature|signup|skip|"
            + "skyscraper|social|sponsor|subcaption|subscribe|supplemental|tags|taboola|timestamp|toc-|toolbar|"
            + "tools(?<!ctools)|tooltip-?text|user-info|vote|"
            + "widget|yom-remote|author-bio|author-?(?:box|card|info|description)|postinfo|post-info");
    /**
     * Words that save a block the list above would drop: "article-header" holds no article, "main-nav" does;
     * Blogger's {@code widget Blog} holds the posts, beside side bars that may hold more text than they do; and an
     * API's {@link Declarations} and TypeDoc's documentation of them ({@code tsd-comment}), whatever else their
     * words say (TypeDoc's ids join two names: {@code enumenum}).
     */
    private static final Pattern MAYBE = Pattern.compile("and|article|body|column|content|main|mathjax|shadow|"
            + "widget blog\\b|\\btsd-comment|" + Declarations.WORDS);
    /**
     * Words that weigh for (+25) and against (-25) a block being the article (Readability's class weight). Not
     * "hidden" where a Drupal field says its label is ({@code field--label-hidden}, on every text field) or Bootstrap
     * hides a block on some screens only ({@code hidden-xs}): shown on a desktop, as a crawler reads it.
     */
    private static final Pattern POSITIVE = Pattern.compile("article|body|content|entry|hentry|h-entry|main|page|"
            + "post|text|blog|story|prose|markdown");
    private static final Pattern NEGATIVE = Pattern.compile("-ad-|hidden(?<!label-hidden)(?!-(?:xs|sm|md|lg|xl))|"
            + "\\bhid\\b|banner|combx|comment|kommentar|com-|contact|footer|gdpr|masthead|media|meta|outbrain|promo|"
            + "related|scroll|share|shoutbox|sidebar|skyscraper|sponsor|shopping|tags|widget|cookie|consent|"
            + "newsletter|byline|author");

    /**
     * Readability's byline test, and the same for a share bar's title: a short block so named is who wrote it and
     * when, or "Share this article", not what they wrote. Short only: a wrapper around a whole article may have an
     * id that says share.
     */
    private static final Pattern SHORT_ASIDE = Pattern.compile(
            "byline|author|dateline|writtenby|p-author|share|sharing");
    private static final int SHORT_ASIDE_MAX = 100;
    private static final String REFERENCE = "cite, .biblioentry, .bibliomixed, .csl-entry";

    /** What the class and id words say, judged once per spelling: pages of a site repeat them, and the lists are long. */
    private enum Words { CONTENT, BOILERPLATE, SHORT_ASIDE }

    /**
     * Spellings remembered at most, by each of the maps below (about 9 MB each): a crawl of a thousand sites at once
     * meets each site's again only after every other site's, and trafilatura's 990 pages (a site each) hold 33,000;
     * 20,000 held too few, and their judgements took a quarter of what main content costs such a crawl.
     */
    private static final int REMEMBERED = 100_000;
    private static final ConcurrentHashMap<String, Words> JUDGED = new ConcurrentHashMap<>();
    /** Each class's and id's {@link #weight}, remembered as the judgements are. */
    private static final ConcurrentHashMap<String, Integer> WEIGHTS = new ConcurrentHashMap<>();

    private final Element body;
    private final BlockCounts counts;
    private final ByWords byWords;

    /** Whether, beside tag, role and visibility, the words of a block's class and id leave it out. */
    enum ByWords {
        /** Never. */
        NO,
        /** Those that name it boilerplate, unless it holds {@code <main>}. */
        YES,
        /**
         * As {@link #YES}, except a block that holds over half of the page's text: a wrapper whatever its name, as
         * Blogger's {@code widget Blog} around every post, a {@code sidebar-wrapper} around the article or a layout's
         * {@code above-footer} are. The blocks inside it are still judged by their own words.
         */
        BUT_WRAPPERS
    }

    Boilerplate(Element body, BlockCounts counts, ByWords byWords) {
        this.body = body;
        this.counts = counts;
        this.byWords = byWords;
    }

    /** Left out with everything under it, wherever it is. */
    boolean leftOut(Element e) {
        return leftOutByTag(e) || byWords != ByWords.NO && leftOutByWords(e);
    }

    /**
     * Left out by its tag, its role or its being hidden, whatever its class and id say; or a table whose summary
     * calls it navigation, as DocBook's pages say of their bars of "Prev", "Up" and "Next" (PostgreSQL's manual,
     * libstdc++'s), which the readings that do not weigh class words ({@code navheader}) otherwise wrote out; or
     * Doxygen's masthead ({@code #titlearea}: the project's logo, name, number and brief, atop every page), which
     * every reading elected on a page whose content has no paragraph (a struct's fields alone).
     */
    boolean leftOutByTag(Element e) {
        if (hidden(e)) {
            return true;
        }
        if (e.normalName().equals("noscript")) {
            return counts.chars(e) < NOSCRIPT_ARTICLE;
        }
        if (TAGS.contains(e.normalName()) && !MarkdownMath.is(e)) { // a script of TeX is a formula (MathJax 2)
            return !WRAPPERS.contains(e.normalName()) || !holdsMostOf(body, e) && !holdsMostOf(e.closest("main"), e);
        }
        String role = e.attr("role");
        return !role.isEmpty() && ROLES.contains(role.toLowerCase(Locale.ROOT))
                || e.nameIs("table") && e.attr("summary").regionMatches(true, 0, "navigation", 0, 10)
                || e.id().equals("titlearea");
    }

    private boolean leftOutByWords(Element e) {
        String words = words(e);
        if (words.isEmpty() || e.normalName().equals("body") || e.normalName().equals("a")
                || e.normalName().equals("article") || e.normalName().equals("main")) {
            return false;
        }
        Words judged = remembered(JUDGED, words, w -> UNLIKELY.matcher(w).find() && !MAYBE.matcher(w).find()
                ? Words.BOILERPLATE : SHORT_ASIDE.matcher(w).find() ? Words.SHORT_ASIDE : Words.CONTENT);
        return switch (judged) {
            case BOILERPLATE -> !holdsMain(e) && !(byWords == ByWords.BUT_WRAPPERS && holdsMostOf(body, e));
            case SHORT_ASIDE -> e.text().length() < SHORT_ASIDE_MAX && !inReference(e);
            case CONTENT -> false;
        };
    }

    /**
     * A work's authors in its entry of a bibliography (DocBook's {@code biblioentry} and {@code bibliomixed}, the
     * entries citeproc writes, a {@code cite}) are the reference's, no byline: left out, they left a hole in it.
     */
    private static boolean inReference(Element e) {
        return e.closest(REFERENCE) != null;
    }

    private boolean holdsMostOf(@Nullable Element whole, Element e) {
        return whole != null && counts.chars(e) * 2 > counts.chars(whole);
    }

    /**
     * HTML's own mark of the page's main content outranks a class name: a menu drawer or an app shell named
     * {@code nav} or {@code header} may wrap the whole page, {@code <main>} and all.
     */
    boolean holdsMain(Element e) {
        return counts.holdsMain(e);
    }

    /** Readability's class weight: +25 for each of class and id that sounds like content, -25 for each that does not. */
    static int weight(Element e) {
        return weightOf(e.className()) + weightOf(id(e));
    }

    private static int weightOf(String words) {
        return words.isEmpty() ? 0 : remembered(WEIGHTS, words, w -> {
            String lower = w.toLowerCase(Locale.ROOT);
            return (NEGATIVE.matcher(lower).find() ? -25 : 0) + (POSITIVE.matcher(lower).find() ? 25 : 0);
        });
    }

    /** What {@code judge} says of a spelling, judged once and remembered with up to {@link #REMEMBERED} others. */
    private static <V> V remembered(ConcurrentHashMap<String, V> judged, String words, Function<String, V> judge) {
        V known = judged.get(words);
        if (known == null) {
            known = judge.apply(words);
            if (judged.size() >= REMEMBERED) {
                judged.clear(); // a crawl of many sites: start again rather than hold every spelling
            }
            judged.put(words, known);
        }
        return known;
    }

    /**
     * A block's id as a word of its role; none when it is its own heading's words, joined by hyphens (two or more):
     * Sphinx, Hugo and many generators name each section after its heading, and a manual's "Comments &amp; proposals"
     * ({@code comments-proposals}) or "Integrating Sphinx documents into your web-app" (rating!) is no readers'
     * comment box. An id of one word ({@code comments} under "Comments") still says what the block is; a heading's
     * own id of its words, of one word or more, is its anchor (mdBook's "Comments", TypeDoc's member "extract").
     */
    private static String id(Element e) {
        String id = e.id();
        if (!id.isEmpty() && Headings.is(e) && id.equalsIgnoreCase(slug(e.text()))) {
            return "";
        }
        if (id.indexOf('-') < 0) {
            return id;
        }
        Element heading = e.firstElementChild();
        while (heading != null && !heading.hasText() && heading.childrenSize() == 0) {
            heading = heading.nextElementSibling(); // an anchor before it: Sphinx's <span id="label"></span>
        }
        return heading != null && Headings.is(heading) && id.equalsIgnoreCase(slug(heading.text())) ? "" : id;
    }

    /** A heading's words as generators join them into an id: lower case, anything else between them one hyphen. */
    private static String slug(String text) {
        StringBuilder slug = new StringBuilder(text.length());
        boolean gap = false;
        for (int i = 0; i < text.length(); ) {
            int c = text.codePointAt(i);
            i += Character.charCount(c);
            if (Character.isLetterOrDigit(c)) {
                if (gap && !slug.isEmpty()) {
                    slug.append('-');
                }
                slug.appendCodePoint(Character.toLowerCase(c));
                gap = false;
            } else {
                gap = true;
            }
        }
        return slug.toString();
    }

    private static boolean hidden(Element e) {
        if (e.hasAttr("hidden") || "true".equalsIgnoreCase(e.attr("aria-hidden"))) {
            return true;
        }
        String style = e.attr("style");
        if (style.isEmpty()) {
            return false;
        }
        String s = style.toLowerCase(Locale.ROOT).replace(" ", "");
        return s.contains("display:none") || s.contains("visibility:hidden");
    }

    private static String words(Element e) {
        String cls = e.className();
        String id = id(e);
        if (cls.isEmpty() && id.isEmpty()) {
            return "";
        }
        return (cls + " " + id).toLowerCase(Locale.ROOT);
    }
}
