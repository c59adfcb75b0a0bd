package dev.loomcrawl.crawler.content;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loomcrawl.crawler.values.ContentFormat;
import dev.loomcrawl.crawler.values.ContentRequest;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Objects;
import org.jsoup.Jsoup;
import org.junit.jupiter.api.Test;

/**
 * Pages that are mostly a table of contents: a manual's chapter that lists its sections, a documentation's index. Their
 * links are what they say; the footer, the one paragraph of prose left on them, is not.
 */
class ContentsPagesTest {
    private static final String SPHINX_FOOTER = """
            <div class="footer">&copy; <a href="../copyright.html">Copyright</a> 2001-2026, Python Software
            Foundation. This page is licensed under the Python Software Foundation License Version 2. Examples,
            recipes, and other code in the documentation are additionally licensed under the Zero Clause BSD License.
            Last updated on October 07, 2026. Created using <a href="https://www.sphinx-doc.org/">Sphinx</a>.</div>
            """;

    /** Sphinx's page of a part of a manual: its introduction and, in the same section, the tree of its chapters. */
    private static final String SPHINX_INDEX = """
            <body><div class="related" role="navigation"><h3>Navigation</h3><ul><li><a href="../index.html">3.11
            Documentation</a></li></ul></div>
            <div class="document"><div class="body" role="main">
            <section id="the-python-language-reference"><h1>The Python Language Reference</h1>
            <p>This reference manual describes the syntax and core semantics of the language. It is terse, but
            attempts to be exact and complete. The semantics of non-essential built-in object types and of the built-in
            functions and modules are described in the library reference. For an informal introduction to the
            language, see <a href="../tutorial/index.html">The Python Tutorial</a>.</p>
            <div class="toctree-wrapper compound"><ul>
            %s
            </ul></div></section></div></div>
            %s</body>
            """.formatted(chapters(), SPHINX_FOOTER);

    /** Sphinx's page of contents alone. */
    private static final String SPHINX_CONTENTS = """
            <body><div class="document"><div class="body" role="main">
            <section id="contents"><h1>Python Documentation contents</h1>
            <div class="toctree-wrapper compound"><ul>
            <li class="toctree-l1"><a href="whatsnew/index.html">What's New in Python</a><ul>
            <li class="toctree-l2"><a href="whatsnew/3.11.html">What's New In Python 3.11</a></li></ul></li>
            <li class="toctree-l1"><a href="tutorial/index.html">The Python Tutorial</a></li>
            </ul></div></section></div></div>
            %s</body>
            """.formatted(SPHINX_FOOTER);

    /** Texinfo's chapter page: its menu of sections, between the links to the chapters beside it. */
    private static final String TEXINFO_CHAPTER = """
            <body lang="en"><div class="chapter" id="Plotting"><div class="header"><p>Next: <a
            href="Matrix-Manipulation.html" rel="next">Matrix Manipulation</a>, Previous: <a
            href="Input-and-Output.html" rel="prev">Input and Output</a> &nbsp; [<a href="index.html#SEC_Contents"
            rel="contents">Contents</a>][<a href="Concept-Index.html" rel="index">Index</a>]</p></div><hr>
            <span id="Plotting-1"></span><h2 class="chapter">15 Plotting</h2>
            <ul class="section-toc">
            <li><a href="Introduction-to-Plotting.html" accesskey="1">Introduction to Plotting</a></li>
            <li><a href="High_002dLevel-Plotting.html" accesskey="2">High-Level Plotting</a></li>
            </ul></div></body>
            """;

    @Test
    void aSectionOfProseAndAListOfLinksIsNoBoxOfLinks() {
        assertThat(markdown(SPHINX_INDEX)).isEqualTo("""
                # The Python Language Reference

                This reference manual describes the syntax and core semantics of the language. It is terse, but \
                attempts to be exact and complete. The semantics of non-essential built-in object types and of the \
                built-in functions and modules are described in the library reference. For an informal introduction \
                to the language, see [The Python Tutorial](https://docs.example.org/tutorial/index.html).""");
    }

    @Test
    void aPageOfContentsIsItsHeadingAndItsLinks() {
        assertThat(markdown(SPHINX_CONTENTS)).isEqualTo("""
                # Python Documentation contents

                - [What's New in Python](https://docs.example.org/whatsnew/index.html)
                  - [What's New In Python 3.11](https://docs.example.org/whatsnew/3.11.html)
                - [The Python Tutorial](https://docs.example.org/tutorial/index.html)""");
        assertThat(markdown(TEXINFO_CHAPTER)).isEqualTo("""
                # 15 Plotting

                - [Introduction to Plotting](https://docs.example.org/Introduction-to-Plotting.html)
                - [High-Level Plotting](https://docs.example.org/High_002dLevel-Plotting.html)""");
    }

    /**
     * TypeDoc's page of a class with no doc comments: a list of its type parameters, then its members, each a
     * signature the class words leave out ({@code tsd-signature}); the reading that keeps them finds the page.
     */
    @Test
    void aPageWhoseWordsLeftOutItsMembersIsNoPageOfContents() {
        StringBuilder members = new StringBuilder();
        for (String member : new String[] {"parse", "safeParse", "refine", "transform", "optional", "nullable"}) {
            members.append("""
                    <section class="tsd-panel tsd-member"><h3>%s</h3><ul class="tsd-signatures"><li><div
                    class="tsd-signature">%s(data: unknown, params?: Partial&lt;ParseParams&gt;): ParseReturnType
                    &lt;Output&gt;</div></li></ul></section>
                    """.formatted(member, member));
        }
        String html = """
                <body><div class="col-content"><div class="tsd-page-title"><h1>Class ZodLazy&lt;T&gt;</h1></div>
                <section class="tsd-panel"><h4>Type Parameters</h4><ul class="tsd-type-parameter-list"><li><span>T</span>
                <span class="tsd-signature-keyword">extends</span> <a href="../types/ZodTypeAny.html">ZodTypeAny</a></li>
                </ul></section>
                <details class="tsd-panel-group" open><summary><h2>Methods</h2></summary><section>%s</section>
                </details></div></body>
                """.formatted(members);
        assertThat(markdown(html)).contains("safeParse(data: unknown").contains("nullable(data: unknown");
    }

    /**
     * Sphinx's chapter page: an introduction that ends "The full list of modules in this chapter is:", the tree of
     * the modules and their sections, a "See also". The modules are what the paragraph announces; their sections are
     * a contents' detail. (The same tree after a paragraph that announces nothing is left out: above.)
     */
    @Test
    void aListThatAParagraphAnnouncesIsContent() {
        String html = """
                <body><div class="document"><div class="body" role="main">
                <section id="file-and-directory-access"><h1>File and Directory Access</h1>
                <p>The modules described in this chapter deal with disk files and directories. For example, there are
                modules for reading the properties of files. The full list of modules in this chapter is:</p>
                <div class="toctree-wrapper compound"><ul>
                %s
                </ul></div>
                <div class="admonition seealso"><p class="admonition-title">See also</p><dl><dt>Module <a
                href="os.html">os</a></dt><dd><p>Operating system interfaces, including functions to work with files
                at a lower level than Python file objects.</p></dd></dl></div>
                </section></div></div>
                %s</body>
                """.formatted(chapters(), SPHINX_FOOTER);
        assertThat(markdown(html)).contains("""
                The full list of modules in this chapter is:

                - [Introduction](https://docs.example.org/introduction.html)
                - [Lexical analysis](https://docs.example.org/lexical_analysis.html)""")
                .contains("- [Compound statements](https://docs.example.org/compound_statements.html)\n\nSee also")
                .contains("Operating system interfaces").doesNotContain("The rules in detail")
                .doesNotContain("Zero Clause");
    }

    /**
     * DocBook's part of a manual, PostgreSQL's as it ships: a title, an introduction in a box of far more links than
     * prose ({@code div.part}), its table of contents as a definition list, between bars of "Prev" and "Next". It
     * gave the bars, as tables, and the introduction; it gives the introduction and the contents.
     */
    @Test
    void docBooksPartIsItsIntroductionAndItsContents() throws IOException {
        String html = resource("postgresql-part.html");
        String base = "https://docs.example.org/";
        assertThat(markdown(html)).startsWith("""
                # Part II. The SQL Language

                This part describes the use of the SQL language in PostgreSQL. We start with""")
                .contains("""
                        **Table of Contents**

                        - [4. SQL Syntax](%ssql-syntax.html)
                          - [4.1. Lexical Structure](%ssql-syntax-lexical.html)
                          - [4.2. Value Expressions](%ssql-expressions.html)""".formatted(base, base, base))
                .endsWith("  - [15.4. Parallel Safety](%sparallel-safety.html)".formatted(base))
                .doesNotContain("Prev").doesNotContain("Home");
    }

    /**
     * A DocBook chapter whose prose is a sentence (PostgreSQL's as it ships): the reading that does not weigh class
     * words wins, and its bars of links, tables whose summary says "Navigation header", are left out all the same.
     */
    @Test
    void docBooksBarsOfLinksAreNoContent() throws IOException {
        assertThat(markdown(resource("postgresql-chapter.html"))).isEqualTo("""
                # Chapter 32. Just-in-Time Compilation (JIT)

                This chapter explains what just-in-time compilation is, and how it can be configured in PostgreSQL.""");
    }

    /**
     * TypeDoc's namespace: its members, a definition list of links in each group under the group's heading, and its
     * side bar's settings.
     */
    @Test
    void typeDocsNamespaceIsItsMembers() {
        String page = """
                <body><div class="container container-main"><div class="col-content"><div class="tsd-page-title">
                <h1>Namespace util</h1></div>
                <details class="tsd-panel-group tsd-member-group tsd-accordion" open><summary><h2 id="type-aliases">Type
                Aliases</h2></summary><dl class="tsd-member-summaries">
                <dt class="tsd-member-summary" id="exactly"><span class="tsd-member-summary-name"><a
                href="../types/util.Exactly.html">Exactly</a><a href="#exactly" aria-label="Permalink"></a></span></dt>
                <dd class="tsd-member-summary"></dd>
                <dt class="tsd-member-summary" id="flatten"><span class="tsd-member-summary-name"><a
                href="../types/util.flatten.html">flatten</a><a href="#flatten" aria-label="Permalink"></a></span></dt>
                <dd class="tsd-member-summary"></dd></dl></details></div>
                <div class="col-sidebar"><div class="page-menu"><div class="tsd-navigation settings"><details><summary>
                <h3>Settings</h3></summary><span class="settings-label">Member Visibility</span></details></div></div>
                </div></div></body>
                """;

        assertThat(markdown(page)).isEqualTo("""
                # Namespace util

                ## Type Aliases

                - [Exactly](https://docs.example.org/types/util.Exactly.html)
                - [flatten](https://docs.example.org/types/util.flatten.html)""");
    }

    @Test
    void aPageOfLinksUnderNoHeadingIsStillNoContent() {
        String links = "<body><div><ul><li><a href='/a'>Alpha</a></li><li><a href='/b'>Beta</a></li></ul></div></body>";
        assertThat(markdown(links)).isEmpty();
    }

    /** Eight chapters of three sections each: far more link text than the introduction's prose. */
    private static String chapters() {
        StringBuilder items = new StringBuilder();
        for (String chapter : new String[] {"Introduction", "Lexical analysis", "Data model", "Execution model",
                "The import system", "Expressions", "Simple statements", "Compound statements"}) {
            String file = chapter.toLowerCase(Locale.ROOT).replace(' ', '_') + ".html";
            items.append("<li class=\"toctree-l1\"><a href=\"").append(file).append("\">").append(chapter)
                    .append("</a><ul>");
            for (String section : new String[] {"Overview and notation", "The rules in detail", "Further reading"}) {
                items.append("<li class=\"toctree-l2\"><a href=\"").append(file).append("#s\">").append(chapter)
                        .append(": ").append(section).append("</a></li>");
            }
            items.append("</ul></li>\n");
        }
        return items.toString();
    }

    private static String resource(String name) throws IOException {
        try (InputStream in = ContentsPagesTest.class.getResourceAsStream("/reference-pages/" + name)) {
            return new String(Objects.requireNonNull(in, name).readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static String markdown(String html) {
        return MainContent.of(Jsoup.parse(html, "https://docs.example.org/index.html"),
                new ContentRequest(ContentFormat.MARKDOWN, 100_000)).content().text();
    }
}
