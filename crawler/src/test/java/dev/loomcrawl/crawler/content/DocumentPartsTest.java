package dev.loomcrawl.crawler.content;

import static org.assertj.core.api.Assertions.assertThat;

import org.jsoup.Jsoup;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.Test;

/**
 * Which document an elected block is a part of, asked of {@link DocumentParts} for a block Readability's scores elect
 * on real pages but a page small enough to read here does not: its scores tip the other way by a point.
 */
class DocumentPartsTest {
    /**
     * Doxygen's page of a module (libssh's callbacks): a table declaring its members, which Readability scores cell by
     * cell, then each member's documentation, a heading and a block each.
     */
    @Test
    void aTableOfDeclarationsIsPartOfTheMembersDocumentation() {
        StringBuilder declarations = new StringBuilder();
        StringBuilder members = new StringBuilder();
        for (int i = 1; i <= 4; i++) {
            declarations.append("<tr><td>#define</td><td><a href='#m%d'>SHELF_FLAG_%d</a>(shelf, flag)</td></tr>"
                    .formatted(i, i));
            members.append("""
                    <h2 class="memtitle">SHELF_FLAG_%d</h2><div class="memitem"><div class="memproto">#define \
                    SHELF_FLAG_%d(shelf, flag)</div><div class="memdoc"><p>Member %d sets a flag on the shelf, which \
                    its callbacks read before they put anything on it.</p></div></div>
                    """.formatted(i, i, i));
        }
        Element body = Jsoup.parse("""
                <body><div id="titlearea">libshelf 0.10.4</div><div class="contents">
                <table class="memberdecls"><tbody>%s</tbody></table>
                <h2 class="groupheader">Detailed Description</h2><p>Callbacks for the shelf.</p>%s</div></body>
                """.formatted(declarations, members)).body();

        Element declared = body.selectFirst("table.memberdecls > tbody");
        Element contents = body.selectFirst("div.contents");
        assertThat(parts(body).whole(declared, body)).isSameAs(contents);
    }

    /**
     * Sections of sections (Sphinx's changelog of a version, each release a section of "Bugs fixed", "Features
     * added" ...): the document is every release, not the one holding the elected block.
     */
    @Test
    void sectionsOfSectionsAreOneDocument() {
        StringBuilder releases = new StringBuilder();
        for (int release = 3; release >= 0; release--) {
            releases.append("<section id='release-6-1-%d'><h2>Release 6.1.%d</h2>".formatted(release, release));
            for (String part : new String[] {"Bugs fixed", "Features added", "Deprecated"}) {
                releases.append("""
                        <section><h3>%s</h3><ul><li><p>The builder for release %d reads its sources again when                         their configuration changed, and says which file it read.</p></li></ul></section>
                        """.formatted(part, release));
            }
            releases.append("</section>");
        }
        Element body = Jsoup.parse("<body><div class='document'><section id='sphinx-6-1'><h1>Sphinx 6.1</h1>"
                + releases + "</section></div></body>").body();

        Element fix = body.selectFirst("#release-6-1-0 li");
        assertThat(parts(body).whole(fix, body)).isSameAs(body.selectFirst("#sphinx-6-1"));
    }

    /**
     * MkDocs' Read the Docs theme: a page's title, its introduction and a table that holds most of its text, all in
     * one {@code div.section} inside the {@code <div role=main>}.
     */
    @Test
    void aTablesIntroductionInsideItsWrapperComesFirst() {
        StringBuilder rows = new StringBuilder();
        for (int i = 1; i <= 12; i++) {
            rows.append("<tr><td>ShelfTest%d</td><td>Puts %d books on a shelf of a real library and counts them back,"
                    .formatted(i, i)).append(" one by one, against the catalogue.</td></tr>");
        }
        Element body = Jsoup.parse("""
                <body><div role="main" class="document"><div class="section"><h1>Tests</h1>
                <p>Every test runs real things: a real library, real shelves, real books, and counts them back.</p>
                <h2>What each test shows</h2><table><tbody>%s</tbody></table></div></div></body>
                """.formatted(rows)).body();

        Element table = body.selectFirst("table");
        assertThat(parts(body).introduction(table, body)).containsExactly(body.selectFirst("p"));
    }

    /** A block of prose is no table: the same page's first member stays what it is. */
    @Test
    void aBlockOfProseIsNoSummary() {
        Element body = Jsoup.parse("""
                <body><div class="contents"><h2>One</h2><div class="memitem"><p>Member one sets a flag on the shelf,
                which its callbacks read.</p></div><h2>Two</h2><div class="memitem"><p>Member two sets a flag on the
                shelf, which its callbacks read.</p></div><h2>Three</h2><div class="memitem"><p>Member three sets a
                flag on the shelf, which its callbacks read.</p></div></div></body>
                """).body();

        Element first = body.selectFirst("div.memitem > p");
        assertThat(parts(body).whole(first, body)).isSameAs(first);
    }

    private static DocumentParts parts(Element body) {
        BlockCounts counts = new BlockCounts(body);
        return new DocumentParts(new Boilerplate(body, counts, Boilerplate.ByWords.NO), counts);
    }
}
