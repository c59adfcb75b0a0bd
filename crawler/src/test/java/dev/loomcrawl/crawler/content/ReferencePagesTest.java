package dev.loomcrawl.crawler.content;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loomcrawl.crawler.values.ContentFormat;
import dev.loomcrawl.crawler.values.ContentRequest;
import java.util.List;
import java.util.Locale;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.junit.jupiter.api.Test;

/**
 * Reference documentation as its generators set it (the JDK's Javadoc, mdBook's Rust book: docs/content.md, "Reference
 * pages, as their generators set them"): a page of parts, none of which is the article alone.
 */
class ReferencePagesTest {
    private static final String DESCRIPTION = "Resizable-array implementation of the List interface. Implements all"
            + " optional list operations, and permits all elements, including null.";

    /**
     * The standard doclet's class page, cut down: a description and its notes (a version, a link: values that are no
     * menu), summaries in grids of divs, then each member.
     */
    private static final String JAVADOC = """
            <body><header role="banner"><nav role="navigation"><ul class="nav-list"><li><a href="../index.html">
            Overview</a></li><li><a href="package-summary.html">Package</a></li><li class="nav-bar-cell1-rev">Class
            </li><li><a href="../help-doc.html">Help</a></li></ul></nav></header>
            <div class="flex-box"><div class="flex-content"><main role="main">
            <div class="header"><div class="sub-title">Package java.util</div>
            <h1 title="Class Shelf" class="title">Class Shelf&lt;E&gt;</h1></div>
            <section class="class-description" id="class-description">
            <div class="type-signature"><span class="modifiers">public class </span><span class="element-name">Shelf
            </span></div>
            <div class="block">%s
            <p>The size, isEmpty, get and set operations run in constant time, and the add operation runs in
            amortized constant time, that is, adding n elements requires O(n) time.</p></div>
            <dl class="notes"><dt>Since:</dt><dd>1.2</dd><dt>See Also:</dt><dd><ul class="see-list"><li><a
            href="Collection.html"><code>Collection</code></a></li></ul></dd></dl>
            </section>
            <section class="summary"><ul class="summary-list"><li><section class="method-summary" id="method-summary">
            <h2>Method Summary</h2><div id="method-summary-table"><div class="table-tabs" role="tablist">
            <button role="tab" aria-selected="true" class="active-table-tab">All Methods</button></div>
            <div id="method-summary-table.tabpanel" role="tabpanel"><div class="summary-table three-column-summary">
            <div class="table-header col-first">Modifier and Type</div><div class="table-header col-second">Method</div>
            <div class="table-header col-last">Description</div>
            <div class="col-first even-row-color"><code>boolean</code></div>
            <div class="col-second even-row-color"><code><a href="#add(E)" class="member-name-link">add</a>(<a
            href="Shelf.html">E</a>&nbsp;e)</code></div>
            <div class="col-last even-row-color"><div class="block">Appends the element to the end of this list.</div>
            </div>
            <div class="col-first odd-row-color"><code>void</code></div>
            <div class="col-second odd-row-color"><code><a href="#clear()" class="member-name-link">clear</a>()</code>
            </div><div class="col-last odd-row-color"><div class="block">Removes all of the elements.</div></div>
            </div></div></div></section></li></ul></section>
            <section class="details"><ul class="details-list"><li><section class="method-details" id="method-detail">
            <h2>Method Details</h2><ul class="member-list">
            <li><section class="detail" id="add(E)"><h3>add</h3><div class="member-signature"><span
            class="modifiers">public</span>&nbsp;<span class="return-type">boolean</span>&nbsp;<span
            class="element-name">add</span>(E&nbsp;e)</div><div class="block">Appends the specified element to the end
            of this list, growing the array that holds the elements by half when it is full.</div></section></li>
            <li><section class="detail" id="clear()"><h3>clear</h3><div class="member-signature"><span
            class="modifiers">public</span>&nbsp;<span class="return-type">void</span>&nbsp;<span
            class="element-name">clear</span>()</div><div class="block">Removes all of the elements from this list.
            The list will be empty after this call returns, and its capacity is kept.</div></section></li>
            </ul></section></li></ul></section>
            </main><footer role="contentinfo"><p class="legal-copy"><small>Copyright 1993, 2021, Oracle.</small></p>
            </footer></div></div></body>
            """.formatted(DESCRIPTION);

    @Test
    void aJavadocClassPageIsItsDescriptionSummaryAndDetails() {
        assertThat(markdown(JAVADOC)).isEqualTo("""
                # Class Shelf\\<E>

                public class Shelf

                %s

                The size, isEmpty, get and set operations run in constant time, and the add operation runs in \
                amortized constant time, that is, adding n elements requires O(n) time.

                Since:

                1\\.2

                See Also:

                - [`Collection`](https://example.org/api/Collection.html)

                ## Method Summary

                | Modifier and Type | Method | Description |
                | --- | --- | --- |
                | `boolean` | `add(E e)` | Appends the element to the end of this list. |
                | `void` | `clear()` | Removes all of the elements. |

                ## Method Details

                ### add

                public boolean add(E e)

                Appends the specified element to the end of this list, growing the array that holds the elements by \
                half when it is full.

                ### clear

                public void clear()

                Removes all of the elements from this list. The list will be empty after this call returns, and its \
                capacity is kept.""".formatted(DESCRIPTION));
    }

    /** mdBook: the book's name in the menu bar, each heading a link to itself, a page of a paragraph and links. */
    @Test
    void anMdBookPageKeepsItsHeadingAndItsLinks() {
        StringBuilder chapters = new StringBuilder();
        for (int i = 1; i <= 40; i++) {
            chapters.append("<li class='chapter-item'><a href='ch").append(i).append(".html'><strong>").append(i)
                    .append(".</strong> Chapter ").append(i).append("</a></li>");
        }
        String html = "<body><nav id='sidebar' class='sidebar'><div class='sidebar-scrollbox'><ol class='chapter'>"
                + chapters + "</ol></div></nav><div id='page-wrapper' class='page-wrapper'><div class='page'>"
                + "<div id='menu-bar' class='menu-bar'><h1 class='menu-title'>The Rust Programming Language</h1></div>"
                + "<div id='content' class='content'><main><h2 id='translations'><a class='header' href='#translations'>"
                + "Appendix F: Translations of the Book</a></h2><p>For resources in languages other than English. Most"
                + " are still in progress; see <a href='https://example.org/labels'>the label</a> to help.</p><ul>"
                + "<li><a href='https://example.org/pt-br'>Português</a> (BR)</li>"
                + "<li><a href='https://example.org/pt-pt'>Português</a> (PT)</li></ul></main></div></div></div></body>";
        Document doc = Jsoup.parse(html, "https://example.org/book/appendix-06-translation.html");
        doc.title("Appendix F: Translations of the Book - The Rust Programming Language");
        // the book's name stays before the page's heading: its h1, in a menu bar left out, is the only h1
        assertThat(MainContent.of(doc, new ContentRequest(ContentFormat.MARKDOWN, 100_000)).content().text())
                .endsWith("""
                        ## Appendix F: Translations of the Book

                        For resources in languages other than English. Most are still in progress; see \
                        [the label](https://example.org/labels) to help.

                        - [Português](https://example.org/pt-br) (BR)
                        - [Português](https://example.org/pt-pt) (PT)""");
    }

    /**
     * rustdoc: sections that are each an {@code h2} and the block after it, side by side; the methods borrowed from
     * slices the longest; each method's signature an {@code h4} of class {@code code-header}, with a tooltip inside.
     */
    @Test
    void aRustdocPageIsEveryPartWithItsSignatures() {
        String method = "<details class='rustdoc-toggle method-toggle' open><summary><section class='method'"
                + " id='method.%1$s'><a class='anchor' href='#method.%1$s'></a><h4 class='code-header'>pub fn <a"
                + " class='fnname' href='#method.%1$s'>%1$s</a>(&amp;self) -&gt; usize<span class='notable-traits'>"
                + "<span class='notable-traits-tooltiptext'>Notable traits for Vec</span></span></h4></section>"
                + "</summary><div class='docblock'><p>%2$s</p></div></details>";
        String borrowed = ("Returns the number of elements in the slice, counted as the slice was made, one by one,"
                + " and this sentence is long, as the slices' documentation is long. ").repeat(3);
        StringBuilder deref = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            deref.append(method.formatted("len" + i, borrowed));
        }
        String html = "<body><nav class='sidebar'><a href='index.html'>std</a></nav><main><div class='width-limiter'>"
                + "<section id='main-content' class='content'><div class='main-heading'><h1 class='fqn'>Struct"
                + " std::vec::Vec</h1></div><details class='rustdoc-toggle top-doc' open><summary class='hideme'>"
                + "<span>Expand description</span></summary><div class='docblock'><p>A contiguous growable array"
                + " type, written as Vec, short for vector.</p></div></details>"
                + "<h2 id='implementations' class='small-section-header'>Implementations</h2>"
                + "<div id='implementations-list'>" + method.formatted("capacity", "Returns the total number of"
                + " elements the vector can hold without reallocating.") + "</div>"
                + "<h2 id='deref-methods' class='small-section-header'>Methods from Deref</h2>"
                + "<div id='deref-methods-1'>" + deref + "</div>"
                + "<h2 id='trait-implementations' class='small-section-header'>Trait Implementations</h2>"
                + "<div id='trait-implementations-list'>" + method.formatted("clone", "Returns a copy of the value,"
                + " element by element, in a new allocation.") + "</div></section></div></main></body>";
        assertThat(markdown(html)).startsWith("# Struct std::vec::Vec")
                .contains("A contiguous growable array type", "## Implementations",
                        "#### pub fn capacity(&self) -> usize\n\n" // its name links to its own section
                                + "Returns the total number", "## Methods from Deref", "## Trait Implementations",
                        "Returns a copy of the value")
                .doesNotContain("Notable traits");
    }

    /** AsciiDoc's manual page: its NAME line in the page's header, beside the title. */
    @Test
    void anAsciiDocManualPageKeepsItsNameLine() {
        String description = "Create a new commit containing the current contents of the index and the given log"
                + " message describing the changes, as a direct child of HEAD. ";
        String html = "<body><div id='header'><h1>git-commit(1) Manual Page</h1><h2>NAME</h2><div class='sectionbody'>"
                + "<p>git-commit - Record changes to the repository</p></div></div><div id='content'><div class='sect1'>"
                + "<h2 id='_synopsis'>SYNOPSIS</h2><div class='sectionbody'><div class='verseblock'><pre class='content'>"
                + "git commit [-a | --interactive | --patch]</pre></div></div></div><div class='sect1'><h2"
                + " id='_description'>DESCRIPTION</h2><div class='sectionbody'><div class='paragraph'><p>"
                + description.repeat(3) + "</p></div></div></div><div class='sect1'><h2 id='_options'>OPTIONS</h2>"
                + "<div class='sectionbody'><div class='paragraph'><p>" + description.repeat(2) + "</p></div></div></div>"
                + "</div><div id='footer'>Last updated 2024</div></body>";
        assertThat(markdown(html)).startsWith("""
                # git-commit(1) Manual Page

                git-commit - Record changes to the repository

                ## SYNOPSIS""");
    }

    /** A table set in ARIA's roles, not in table elements. */
    @Test
    void aTableOfAriaRolesIsATable() {
        String html = "<body><h1>Release dates of the crawler's versions</h1><p>Each version of the crawler was"
                + " released on the date below, after a month of testing against the farm of slow hosts.</p>"
                + "<div role='table'><div role='rowgroup'><div role='row'><span role='columnheader'>Version</span>"
                + "<span role='columnheader'>Released</span></div></div><div role='rowgroup'><div role='row'><span"
                + " role='cell'>0.1.0</span><span role='cell'>2026-09-01</span></div><div role='row'><span"
                + " role='cell'>0.2.0</span><span role='cell'>2026-11-20</span></div></div></div></body>";
        assertThat(markdown(html)).endsWith("""
                | Version | Released |
                | --- | --- |
                | 0.1.0 | 2026-09-01 |
                | 0.2.0 | 2026-11-20 |""");
    }

    /**
     * A listing and its introduction: the package's description before the table of its classes, which holds most of
     * the page's text and is elected; the rule under the title is no text.
     */
    @Test
    void aJavadocPackagePageIsItsDescriptionAndItsClasses() {
        StringBuilder rows = new StringBuilder();
        StringBuilder table = new StringBuilder();
        for (String name : List.of("Shelf", "Crate", "Drawer", "Cabinet", "Locker", "Trunk", "Basket", "Bin", "Chest",
                "Bucket")) {
            rows.append("""
                    <div class="col-first even-row-color"><a href="%s.html">%s</a></div>
                    <div class="col-last even-row-color"><div class="block">A %s holds elements of one kind in the \
                    order they were put in, and gives them back in that order or by their place in it.</div></div>
                    """.formatted(name, name, name.toLowerCase(Locale.ROOT)));
            table.append(("| [%s](https://example.org/api/%s.html) | A %s holds elements of one kind in the order"
                    + " they were put in, and gives them back in that order or by their place in it. |\n")
                    .formatted(name, name, name.toLowerCase(Locale.ROOT)));
        }
        String page = """
                <body><div class="flex-box"><div class="flex-content"><main role="main">
                <div class="header"><h1 title="Package org.shelves" class="title">Package org.shelves</h1></div><hr>
                <div class="package-signature">package <span class="element-name">org.shelves</span></div>
                <section class="package-description" id="package-description"><div class="block">Containers for \
                things, each keeping its elements in the order they were put in.
                <p>For an overview of which container to choose, see the guide.</p></div></section>
                <section class="summary"><ul class="summary-list"><li><div id="class-summary">
                <div class="table-tabs" role="tablist"><button role="tab" aria-selected="true" \
                class="active-table-tab">All Classes and Interfaces</button><button role="tab" aria-selected="false" \
                class="table-tab">Classes</button></div>
                <div id="class-summary.tabpanel" role="tabpanel"><div class="summary-table two-column-summary">
                <div class="table-header col-first">Class</div><div class="table-header col-last">Description</div>
                %s</div></div></div></li></ul></section></main></div></div></body>
                """.formatted(rows);

        assertThat(markdown(page)).isEqualTo("""
                # Package org.shelves

                Containers for things, each keeping its elements in the order they were put in.

                For an overview of which container to choose, see the guide.

                | Class | Description |
                | --- | --- |
                %s""".formatted(table).strip());
    }

    /**
     * GNU Texinfo's page of a function (Octave's manual): its numbered heading named by the page's title, its
     * signatures in a definition's terms, and a description whose examples, each line its own {@code pre}, outscored
     * its prose by their commas.
     */
    @Test
    void aTexinfoPageIsItsTitleSignaturesAndDescription() {
        StringBuilder examples = new StringBuilder();
        for (int i = 1; i <= 6; i++) {
            examples.append("<pre class=\"example\">shelve ([%d, NaN; 3, 4], \"Order\", \"last\", \"Keep\", true)\n"
                    .formatted(i) + "&rArr; [[1,null],[3,4]], [[5,6],[7,8]]\n</pre>");
        }
        String page = """
                <html><head><title>Shelving data for later (GNU Shelf (version 7.3.0))</title></head>
                <body><div class="subsection" id="Shelving-data"><div class="header"><p>Previous: <a \
                href="Cases.html">Cases</a>, Up: <a href="Storage.html">Storage</a></p></div><hr>
                <h4 class="subsection">5.4.3 Shelving data for later</h4>
                <p>A shelf keeps data in the order it was put in, and gives it back in that order.</p>
                <dl class="def"><dt><span class="category">: </span><span><em>S =</em> <strong>shelve</strong> \
                <em>(object)</em></span></dt>
                <dd><p>Put an object on the shelf, after the last one put there.</p>
                <p>Notes:</p><ul><li>Complex numbers are not supported.</li><li>Objects are copied.</li></ul>
                <table><thead><tr><th>Octave type</th><th>Shelf type</th></tr></thead>
                <tr><td>logical scalar</td><td>Boolean</td></tr></table>
                <div class="example">%s</div></dd></dl></div></body></html>
                """.formatted(examples);

        String markdown = markdown(page);

        assertThat(markdown).startsWith("""
                # 5.4.3 Shelving data for later

                A shelf keeps data in the order it was put in, and gives it back in that order.

                : *S* = **shelve** (*object*)

                Put an object on the shelf, after the last one put there.

                Notes:

                - Complex numbers are not supported.
                - Objects are copied.

                | Octave type | Shelf type |
                | --- | --- |
                | logical scalar | Boolean |
                """).contains("shelve ([6, NaN; 3, 4]");
    }

    /**
     * DocBook's sections (PostgreSQL's and libstdc++'s manuals) wrap each heading in a title page of three
     * {@code div}s; a section's table, its cells scored one by one, outscored the prose of all of them.
     */
    @Test
    void aDocBookPageIsEverySectionNotItsLargestTable() {
        StringBuilder sections = new StringBuilder();
        for (String name : List.of("Shelves", "Crates", "Drawers")) {
            StringBuilder rows = new StringBuilder();
            for (int i = 1; i <= 12; i++) {
                rows.append("<tr><td>%s_function_number_%d()</td><td>returns_the_%s_in_order_%d</td></tr>"
                        .formatted(name.toLowerCase(Locale.ROOT), i, name.toLowerCase(Locale.ROOT), i));
            }
            sections.append("""
                    <div class="sect2"><div class="titlepage"><div><div><h3 class="title">%s</h3></div></div></div>
                    <p>%s keep what is put in them in the order it was put in, and give it back in that order, one \
                    at a time or all at once, whichever the caller asks for.</p>
                    <div class="table"><p class="title"><strong>Table: %s Functions</strong></p>
                    <div class="table-contents"><table class="table" border="1"><thead><tr><th>Function</th>
                    <th>Returns</th></tr></thead><tbody>%s</tbody></table></div></div></div>
                    """.formatted(name, name, name, rows));
        }
        String page = """
                <html><head><title>F.16. storage</title></head><body><div class="navheader">
                <a href="index.html">Home</a></div><div class="sect1"><div class="titlepage"><div><div>
                <h2 class="title">F.16. storage</h2></div></div></div>
                <p>This module keeps things in containers of three kinds, each described below.</p>%s</div></body></html>
                """.formatted(sections);

        assertThat(markdown(page)).contains("Shelves keep what is put in them", "Crates keep what is put in them",
                "Drawers keep what is put in them", "Drawers Functions", "returns\\_the\\_drawers\\_in\\_order\\_12");
    }

    /**
     * A bibliography's entry names its work's authors in a short block whose class says author, as a post's byline
     * does: they are the reference's, and a byline beside the entries is still left out.
     */
    @Test
    void aBibliographysAuthorsAreTheirEntries() {
        String page = """
                <html><head><title>Bibliography</title></head><body><div class="bibliography"><h1>Bibliography</h1>
                <p class="byline"><span class="author">Compiled by the documentation team</span></p>
                <p>Selected references and readings for the storage of things, the books the module's design follows
                and the papers its benchmarks repeat.</p>
                <div class="biblioentry"><p>[bowman01] <span class="title"><em>The Practical Shelf Handbook</em>. \
                </span><span class="edition">Fourth Edition. </span><span class="authorgroup"><span \
                class="firstname">Judith</span> <span class="surname">Bowman</span>, and <span \
                class="firstname">Marcy</span> <span class="surname">Darnovsky</span>. </span><span \
                class="publisher">Addison-Wesley Professional. </span><span class="pubdate">2001.</span></p></div>
                <div class="biblioentry"><p>[date97] <span class="title"><em>A Guide to the Shelf Standard</em>. \
                </span><span class="author"><span class="firstname">C. J.</span> <span class="surname">Date</span>. \
                </span><span class="pubdate">1997.</span></p></div></div></body></html>
                """;

        assertThat(markdown(page)).contains("Fourth Edition. Judith Bowman, and Marcy Darnovsky. Addison-Wesley",
                "*A Guide to the Shelf Standard*. C. J. Date. 1997.").doesNotContain("Compiled by");
    }

    private static String markdown(String html) {
        return MainContent.of(Jsoup.parse(html, "https://example.org/api/Shelf.html"),
                new ContentRequest(ContentFormat.MARKDOWN, 100_000)).content().text();
    }
}
