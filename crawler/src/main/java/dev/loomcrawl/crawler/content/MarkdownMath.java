package dev.loomcrawl.crawler.content;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jsoup.nodes.Element;

/**
 * Mathematics as TeX, as Markdown's readers (pandoc, GitHub, Jupyter, KaTeX and MathJax) and language models read
 * it: {@code $a^{2}+b^{2}$} in a line, {@code $$...$$} for a formula set apart; in plain text the TeX alone. Read
 * as text, MathML's elements run together ({@code a2+b2}) or break the paragraph, and Wikipedia's formulas, a
 * hidden MathML beside an image, would be lost whole.
 *
 * <p>The TeX is the page's own where it gives one: MathML's TeX annotation (Wikipedia, KaTeX, LaTeXML's arXiv
 * papers), its {@code alttext}, the {@code alt} of MediaWiki's fallback image, MathJax 2's
 * {@code <script type="math/tex">}; else MathML's elements are written as TeX. KaTeX's copy for the eye beside its
 * MathML is hidden from screen readers, so left out.
 */
final class MarkdownMath {
    /** MediaWiki's wrapper of a formula: a hidden MathML and an image of it. */
    private static final String MEDIAWIKI = "mwe-math-element";
    /** Wikipedia's TeX says how it is set: {@code {\displaystyle x^{2}}} is {@code x^{2}}. */
    private static final Pattern STYLE = Pattern.compile("\\{\\\\(?:displaystyle|textstyle)\\s*(.*)}", Pattern.DOTALL);
    private static final Pattern WHITE = Pattern.compile("\\s+");
    /** No script on that side. */
    private static final int NONE = -1;

    private MarkdownMath() {}

    /** Whether {@code e} is a formula: {@code <math>}, MediaWiki's wrapper of one, or MathJax 2's TeX script. */
    static boolean is(Element e) {
        return switch (e.normalName()) {
            case "math" -> true;
            case "span" -> e.hasClass(MEDIAWIKI);
            case "script" -> e.attr("type").toLowerCase(Locale.ROOT).startsWith("math/tex");
            default -> false;
        };
    }

    /** The formula {@code e}'s TeX, on one line, without Wikipedia's style; "" when it holds none. */
    static String tex(Element e) {
        String tex = WHITE.matcher(source(e)).replaceAll(" ").strip();
        Matcher styled = STYLE.matcher(tex);
        return styled.matches() ? styled.group(1).strip() : tex;
    }

    /** The formula's TeX between the marks that say whether it is set apart. */
    static String markdown(Element e, String tex) {
        String mark = display(e) ? "$$" : "$";
        return tex.isEmpty() ? "" : mark + tex + mark;
    }

    private static String source(Element e) {
        if (e.nameIs("script")) {
            return e.data();
        }
        if (e.nameIs("span")) { // MediaWiki's
            Element math = e.selectFirst("math");
            String tex = math == null ? "" : source(math);
            Element img = tex.isEmpty() ? e.selectFirst("img[alt]") : null;
            return img == null ? tex : img.attr("alt");
        }
        for (Element annotation : e.getElementsByTag("annotation")) {
            String encoding = annotation.attr("encoding").toLowerCase(Locale.ROOT);
            if (encoding.equals("application/x-tex") || encoding.equals("tex")) {
                return annotation.wholeText();
            }
        }
        if (!e.attr("alttext").isBlank()) {
            return e.attr("alttext");
        }
        StringBuilder tex = new StringBuilder();
        mathMl(e, tex);
        return tex.toString();
    }

    private static boolean display(Element e) {
        return switch (e.normalName()) {
            case "math" -> e.attr("display").equalsIgnoreCase("block");
            case "script" -> e.attr("type").toLowerCase(Locale.ROOT).contains("mode=display");
            default -> e.selectFirst("[class*=mwe-math-fallback-image-display], [class*=mwe-math-mathml-display]")
                    != null;
        };
    }

    /** MathML's presentation elements written as TeX: scripts, fractions, roots, tables; others as their parts. */
    private static void mathMl(Element e, StringBuilder tex) {
        switch (e.normalName()) {
            case "annotation", "annotation-xml", "none", "mprescripts" -> { }
            case "mi", "mn", "mo", "ms" -> tex.append(e.text());
            case "mtext" -> tex.append("\\text{").append(e.text()).append('}');
            case "mspace" -> tex.append(' ');
            case "msup", "mover" -> scripts(e, NONE, 1, tex);
            case "msub", "munder" -> scripts(e, 1, NONE, tex);
            case "msubsup", "munderover" -> scripts(e, 1, 2, tex);
            case "mfrac" -> twoParts(e, "\\frac{", 0, "}{", 1, tex);
            case "msqrt" -> {
                tex.append("\\sqrt{");
                for (Element child : e.children()) {
                    mathMl(child, tex);
                }
                tex.append('}');
            }
            case "mroot" -> twoParts(e, "\\sqrt[", 1, "]{", 0, tex); // the index is MathML's second child
            case "mtable" -> {
                tex.append("\\begin{matrix}");
                for (Element row : e.children()) {
                    tex.append(row == e.firstElementChild() ? " " : " \\\\ ");
                    for (Element cell : row.children()) {
                        tex.append(cell == row.firstElementChild() ? "" : " & ");
                        mathMl(cell, tex);
                    }
                }
                tex.append(" \\end{matrix}");
            }
            default -> {
                for (Element child : e.children()) {
                    mathMl(child, tex);
                }
            }
        }
    }

    /** A base and its scripts: the child at {@code sub} below it, at {@code sup} above it, or {@link #NONE}. */
    private static void scripts(Element e, int sub, int sup, StringBuilder tex) {
        StringBuilder base = new StringBuilder();
        part(e, 0, base);
        tex.append(base.length() > 1 ? "{" + base + "}" : base);
        if (sub != NONE) {
            tex.append("_{");
            part(e, sub, tex);
            tex.append('}');
        }
        if (sup != NONE) {
            tex.append("^{");
            part(e, sup, tex);
            tex.append('}');
        }
    }

    /** A command of two arguments, children of {@code e}: {@code \frac{a}{b}}, {@code \sqrt[n]{x}}. */
    private static void twoParts(Element e, String open, int first, String between, int second, StringBuilder tex) {
        tex.append(open);
        part(e, first, tex);
        tex.append(between);
        part(e, second, tex);
        tex.append('}');
    }

    private static void part(Element e, int index, StringBuilder tex) {
        if (index < e.childrenSize()) {
            mathMl(e.child(index), tex);
        }
    }
}
