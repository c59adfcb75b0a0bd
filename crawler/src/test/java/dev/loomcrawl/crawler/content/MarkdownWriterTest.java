package dev.loomcrawl.crawler.content;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A text node as HTML shows it, whichever path writes it: text that needs nothing is copied as it is, the rest
 * rewritten (white space runs to one space, Markdown's marks escaped); both must give what a reader sees.
 */
class MarkdownWriterTest {

    @ParameterizedTest(name = "[{0}]")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
            plain words and more words.           | plain words and more words.            | plain words and more words.
            "two  spaces"                          | two spaces                             | two spaces
            "tab\there"                            | tab here                               | tab here
            "line\nbreak"                          | line break                             | line break
            "no\u00A0break"                        | no break                               | no break
            a *star* and _under_ and `tick`        | a \\*star\\* and \\_under\\_ and \\`tick\\` | a *star* and _under_ and `tick`
            "[brackets] <angle"                    | \\[brackets\\] \\<angle                | [brackets] <angle
            café, naïve, 東京, ünïcödé               | café, naïve, 東京, ünïcödé                | café, naïve, 東京, ünïcödé
            "café  東京*"                           | café 東京\\*                            | café 東京*
            "400&percnt; &#160; &#xA0; &nbsp;"      | 400\\&percnt; \\&#160; \\&#xA0; \\&nbsp; | 400&percnt; &#160; &#xA0; &nbsp;
            "Fish & Chips &c. R&D; &;"              | Fish & Chips &c. R\\&D; &;             | Fish & Chips &c. R&D; &;
            "bell\u0007 and\u0085 del\u007F end\u0000" | bell and del end                      | bell and del end
            "Mit\u00ADtel\u00ADal\u00ADter, Süd\u00ADti\u00ADrol" | Mittelalter, Südtirol | Mittelalter, Südtirol
            """)
    void writesTextAsAReaderSeesIt(String text, String markdown, String plain) {
        Document doc = Jsoup.parse("<p></p>");
        doc.selectFirst("p").appendText(text);
        assertThat(write(doc, true)).isEqualTo(markdown);
        assertThat(CommonMarkReading.of(markdown).text().strip()).isEqualTo(plain);
        assertThat(write(doc, false)).isEqualTo(plain);
    }

    @ParameterizedTest(name = "[{0}]")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
            "started the<a href='/f'> Go Fund Me </a>page"   | started the [Go Fund Me](https://example.org/f) page | started the Go Fund Me page
            "a holistic<strong> view of Haiti</strong> that" | a holistic **view of Haiti** that                     | a holistic view of Haiti that
            "see<em><a href='/n'> the notes</a></em>."       | see *[the notes](https://example.org/n)*.             | see the notes.
            "one<b>word</b> and <i>another</i>"              | one**word** and *another*                            | oneword and another
            "la <b>r</b><b>eactivación comercial</b>."       | la **reactivación comercial**.                       | la reactivación comercial.
            "<i>I</i><i>ch bin</i> <i>da</i>"                | *Ich bin* *da*                                       | Ich bin da
            "<b><i>x</i></b><b>y</b>"                        | ***x*y**                                             | xy
            "<b>x</b><i></i><i>y</i>"                        | **x***y*                                             | xy
            """)
    void aSpaceAtTheEdgeOfALinkOrMarkIsASpaceBetweenWords(String html, String markdown, String plain) {
        Document doc = Jsoup.parse("<p>" + html + "</p>", "https://example.org/page");
        assertThat(write(doc, true))
                .isEqualTo(markdown);
        assertThat(ContentCorpusTest.Tokens.of(CommonMarkReading.of(markdown).text()))
                .isEqualTo(ContentCorpusTest.Tokens.of(plain));
        assertThat(write(doc, false))
                .isEqualTo(plain);
    }

    /**
     * A mark inside one of its kind is shown once, as a browser shows bold in bold: written twice,
     * {@code <em><i>x</i></em>} read as strong. A code span's backticks outnumber any run inside it.
     */
    @ParameterizedTest(name = "[{0}]")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
            "<em><i>double italic</i></em>"        | *double italic*                    | <em>double italic</em>
            "<b><strong>double bold</strong></b>"  | **double bold**                    | <strong>double bold</strong>
            "<b>outer <b>inner</b> outer</b>"      | **outer inner outer**              | <strong>outer inner outer</strong>
            "<s>a <del>b</del></s>"                | ~~a b~~                            | <del>a b</del>
            "<b>bold <i>both</i></b>"              | **bold *both***                    | <strong>bold <em>both</em></strong>
            "<i>one <b>two <i>three</i></b></i>"   | *one **two three***                | <em>one <strong>two three</strong></em>
            "<code>a``b</code>"                    | ```a``b```                         | <code>a``b</code>
            "<code>`x</code>"                      | `` `x ``                           | <code>`x</code>
            """)
    void aMarkInsideItsKindIsShownOnce(String html, String markdown, String read) {
        Document doc = Jsoup.parse("<p>" + html + "</p>", "https://example.org/page");
        assertThat(write(doc, true)).isEqualTo(markdown);
        assertThat(CommonMarkReading.html(markdown)).isEqualTo("<p>" + read + "</p>");
    }

    /**
     * An emphasis mark between a letter and punctuation neither opens nor closes in CommonMark: the punctuation at
     * the edges of emphasis is written outside its marks, and emphasis of punctuation alone without them (blog.teufel.de,
     * bbc.com, laprensagrafica.com, correctiv.org showed their asterisks).
     */
    @ParameterizedTest(name = "[{0}]")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
            "helps<b>, to overcome it</b> now"     | helps, **to overcome it** now      | helps, <strong>to overcome it</strong> now
            "<b>33%</b>of the votes"                | **33**%of the votes                | <strong>33</strong>%of the votes
            "Delgado<em>,</em> said"                | Delgado, said                      | Delgado, said
            "„Extrablatt<em>“</em>."                | „Extrablatt“.                      | „Extrablatt“.
            "<b>How, then ?</b>"                    | **How, then** ?                    | <strong>How, then</strong> ?
            "x<i>, y</i>z"                          | x, *y*z                            | x, <em>y</em>z
            "<b>r</b><b>eady.</b>Go"                | **ready**.Go                       | <strong>ready</strong>.Go
            "a ~5 km~ walk"                         | a \\~5 km\\~ walk                  | a ~5 km~ walk
            "see <b>(page 4)</b>, then"             | see (**page 4**), then             | see (<strong>page 4</strong>), then
            """)
    void emphasisOpensAndClosesWhereCommonMarkReadsIt(String html, String markdown, String read) {
        Document doc = Jsoup.parse("<p>" + html + "</p>", "https://example.org/page");
        assertThat(write(doc, true)).isEqualTo(markdown);
        assertThat(CommonMarkReading.html(markdown)).isEqualTo("<p>" + read + "</p>");
    }

    @Test
    void aLineBreakAtTheEndOfEmphasisAndAnExclamationBeforeALinkAreWhatTheyAre() {
        Document doc = Jsoup.parse("<p><strong>READ ALSO<br></strong>&gt;&gt; <a href='/a'>the affair</a></p>"
                + "<p><b>Now digital!</b><a href='/r'>Register</a></p>", "https://example.org/page");
        String markdown = write(doc, true);
        assertThat(markdown).isEqualTo("**READ ALSO**\\\n\\>> [the affair](https://example.org/a)\n\n"
                + "**Now digital**\\![Register](https://example.org/r)");
        assertThat(CommonMarkReading.html(markdown)).contains("<strong>READ ALSO</strong><br />")
                .contains("!<a href=\"https://example.org/r\">Register</a>").doesNotContain("<img");
    }

    /**
     * Phrasing elements stay inside their paragraph; a ruby's annotations (its base text's reading, and the
     * parentheses shown where ruby is not) are not its words: NHK's easy news wrote every annotated word as a
     * paragraph of its own, its reading another.
     */
    @ParameterizedTest(name = "[{0}]")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
            "<ruby>子<rt>こ</rt></ruby>どもへの<ruby>虐待<rp>(</rp><rt>ぎゃくたい</rt><rp>)</rp></ruby>を" | 子どもへの虐待を
            "<ruby><rb>漢</rb><rtc><rt>かん</rt></rtc></ruby>字"                                    | 漢字
            "issues not related to <acronym title='x'>FOSS</acronym>. Leaders"                      | issues not related to FOSS. Leaders
            "the bottom of the <nobr>screen --</nobr> under"                                        | the bottom of the screen -- under
            """)
    void phrasingElementsStayInTheirParagraph(String html, String text) {
        Document doc = Jsoup.parse("<p>" + html + "</p>", "https://example.org/page");
        assertThat(write(doc, false)).isEqualTo(text);
        assertThat(CommonMarkReading.of(write(doc, true)).text().strip()).isEqualTo(text);
    }

    @ParameterizedTest(name = "[{0}]")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
            "<pre class='language-python'><code>print(1)</code></pre>"     | python | print(1)
            "<pre><code class='language-c'>int x;</code></pre>"            | c      | int x;
            "<pre class='highlight'><code class='lang-JS'>f()</code></pre>" | js     | f()
            "<pre><code>plain()</code></pre>"                              | ""     | plain()
            "<div class='highlight-python3 notranslate'><div class='highlight'><pre>f()</pre></div></div>" | python3 | f()
            "<div class='highlight-default notranslate'><div class='highlight'><pre>f()</pre></div></div>" | ""      | f()
            "<div class='highlight highlight-source-rust'><pre>fn f()</pre></div>"                        | rust    | fn f()
            "<div class='language-ruby highlighter-rouge'><div class='highlight'><pre class='highlight'><code>f</code></pre></div></div>" | ruby | f
            "<pre><code class='hljs' data-lang='Go'>f()</code></pre>"                                      | go      | f()
            "<pre><code data-lang='a b' class='language-sql'>f()</code></pre>"                             | sql     | f()
            """)
    void aCodeBlockSaysTheLanguageItsHighlighterNames(String html, String language, String code) {
        Document doc = Jsoup.parse(html);
        assertThat(write(doc, true))
                .isEqualTo("```" + language + "\n" + code + "\n```");
        assertThat(write(doc, false))
                .isEqualTo(code);
    }

    /** Line numbers are no part of the code: a reader copies it without them; in a table they fold it to one line. */
    @ParameterizedTest(name = "[{0}]")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
            pygments table | ""     | "<div class='highlight'><table class='highlighttable'><tr><td class='linenos'><div class='linenodiv'><pre><span class='normal'><a href='#l1'>1</a></span>\n<span class='normal'><a href='#l2'>2</a></span></pre></div></td><td class='code'><div><pre><span></span><code><a id='l1'></a>a = 1\n<a id='l2'></a>b = 2\n</code></pre></div></td></tr></table></div>"
            sphinx table   | python3 | "<div class='highlight-python3 notranslate'><div class='highlight'><table class='highlighttable'><tr><td class='linenos'><div class='linenodiv'><pre>1\n2</pre></div></td><td class='code'><div><pre>a = 1\nb = 2</pre></div></td></tr></table></div></div>"
            hugo table     | go     | "<div class='highlight'><div class='chroma'><table class='lntable'><tr><td class='lntd'><pre class='chroma'><code><span class='lnt'>1\n</span><span class='lnt'>2\n</span></code></pre></td><td class='lntd'><pre class='chroma'><code class='language-go' data-lang='go'><span class='line'><span class='cl'>a = 1\n</span></span><span class='line'><span class='cl'>b = 2\n</span></span></code></pre></td></tr></table></div></div>"
            rouge table    | ruby   | "<figure class='highlight'><pre><code class='language-ruby' data-lang='ruby'><table class='rouge-table'><tbody><tr><td class='gutter gl'><pre class='lineno'>1\n2\n</pre></td><td class='code'><pre>a = 1\nb = 2\n</pre></td></tr></tbody></table></code></pre></figure>"
            hugo inline    | go     | "<div class='highlight'><pre class='chroma'><code class='language-go' data-lang='go'><span class='line'><span class='ln'>1</span><span class='cl'>a = 1\n</span></span><span class='line'><span class='ln'>2</span><span class='cl'>b = 2\n</span></span></code></pre></div>"
            pygments inline | ""    | "<pre><span class='linenos'>1</span>a = 1\n<span class='linenos'>2</span>b = 2</pre>"
            """)
    void aCodeBlockIsItsCodeWithoutTheLineNumbersBesideIt(String shape, String language, String html) {
        Document doc = Jsoup.parse(html);
        assertThat(write(doc, true)).isEqualTo("```" + language + "\na = 1\nb = 2\n```");
        assertThat(write(doc, false)).isEqualTo("a = 1\nb = 2");
    }

    /**
     * A formula is its TeX, as Markdown's readers and language models read mathematics: read as text, MathML runs
     * together (a2+b2) or breaks its paragraph, and Wikipedia's, hidden beside an image of it, was lost.
     */
    @ParameterizedTest(name = "[{0}]")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
            wikipedia  | $a^{2}+b^{2}$ | "<span class='mwe-math-element'><span class='mwe-math-mathml-inline mwe-math-mathml-a11y' style='display: none;'><math alttext='{\\displaystyle a^{2}+b^{2}}'><semantics><mrow><msup><mi>a</mi><mn>2</mn></msup><mo>+</mo><msup><mi>b</mi><mn>2</mn></msup></mrow><annotation encoding='application/x-tex'>{\\displaystyle a^{2}+b^{2}}</annotation></semantics></math></span><img class='mwe-math-fallback-image-inline' aria-hidden='true' alt='{\\displaystyle a^{2}+b^{2}}' src='/x.svg'></span>"
            image only | $a^{2}+b^{2}$ | "<span class='mwe-math-element'><img class='mwe-math-fallback-image-inline' aria-hidden='true' alt='{\\displaystyle a^{2}+b^{2}}' src='/x.svg'></span>"
            katex      | $E=mc^2$      | "<span class='katex'><span class='katex-mathml'><math><semantics><mrow><mi>E</mi><mo>=</mo><mi>m</mi><msup><mi>c</mi><mn>2</mn></msup></mrow><annotation encoding='application/x-tex'>E=mc^2</annotation></semantics></math></span><span class='katex-html' aria-hidden='true'><span class='mord'>E</span><span class='mrel'>=</span><span class='mord'>m</span><span class='mord'>c<span class='msupsub'>2</span></span></span></span>"
            latexml    | $\\int_{0}^{1}x\\,dx$ | "<math alttext='\\int_{0}^{1}x\\,dx' class='ltx_Math' display='inline'><semantics><mrow><msubsup><mo>∫</mo><mn>0</mn><mn>1</mn></msubsup><mi>x</mi><mi>d</mi><mi>x</mi></mrow></semantics></math>"
            mathml     | $\\frac{1}{\\sqrt{x}}+y_{i}^{2}$ | "<math><mfrac><mn>1</mn><msqrt><mi>x</mi></msqrt></mfrac><mo>+</mo><msubsup><mi>y</mi><mi>i</mi><mn>2</mn></msubsup></math>"
            mathjax 2  | $x^2$         | "<script type='math/tex'>x^2</script>"
            display    | $$x=\\frac{-b}{2a}$$ | "<math display='block'><semantics><mi>x</mi><annotation encoding='application/x-tex'>x=\\frac{-b}{2a}</annotation></semantics></math>"
            """)
    void aFormulaIsItsTeX(String shape, String markdown, String html) {
        Document doc = Jsoup.parse("<p>Let " + html + " hold.</p>");
        assertThat(write(doc, true)).isEqualTo("Let " + markdown + " hold.");
        assertThat(write(doc, false)).isEqualTo("Let " + markdown.replace("$", "") + " hold.");
    }

    @Test
    void formulasSideBySideStayApart() {
        Document doc = Jsoup.parse("<p>Both <math alttext='a'></math><math alttext='b'></math> hold.</p>");
        assertThat(write(doc, true)).isEqualTo("Both $a$ $b$ hold.");
    }

    /** Each tab's name before what it shows, every tab written: a reader opens them all, a search engine reads them. */
    @ParameterizedTest(name = "[{0}]")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
            material      | "<div class='tabbed-set tabbed-alternate'><input checked id='t1' name='t' type='radio'><input id='t2' name='t' type='radio'><div class='tabbed-labels'><label for='t1'>Maven</label><label for='t2'>Gradle</label></div><div class='tabbed-content'><div class='tabbed-block'><pre>mvn</pre></div><div class='tabbed-block'><pre>gradle</pre></div></div></div>"
            interleaved   | "<div class='sd-tab-set'><input checked id='t1' name='t' type='radio'><label class='sd-tab-label' for='t1'>Maven</label><div class='sd-tab-content'><pre>mvn</pre></div><input id='t2' name='t' type='radio'><label class='sd-tab-label' for='t2'>Gradle</label><div class='sd-tab-content'><pre>gradle</pre></div></div>"
            docusaurus    | "<div class='tabs-container'><ul role='tablist' class='tabs'><li role='tab' class='tabs__item'>Maven</li><li role='tab' class='tabs__item'>Gradle</li></ul><div class='margin-top--md'><div role='tabpanel'><pre>mvn</pre></div><div role='tabpanel' hidden><pre>gradle</pre></div></div></div>"
            sphinx-tabs   | "<div class='sphinx-tabs'><div role='tablist'><button role='tab' aria-controls='p0'>Maven</button><button role='tab' aria-controls='p1'>Gradle</button></div><div role='tabpanel' id='p0'><pre>mvn</pre></div><div role='tabpanel' id='p1' hidden='true'><pre>gradle</pre></div></div>"
            vitepress     | "<div class='vp-code-group'><div class='tabs'><input type='radio' name='g' id='g1' checked><label for='g1'>Maven</label><input type='radio' name='g' id='g2'><label for='g2'>Gradle</label></div><div class='blocks'><div class='active'><pre>mvn</pre></div><div><pre>gradle</pre></div></div></div>"
            bootstrap     | "<ul class='nav nav-tabs' role='tablist'><li class='nav-item' role='presentation'><button class='nav-link' role='tab'>Maven</button></li><li class='nav-item' role='presentation'><a class='nav-link' role='tab' href='#g'>Gradle</a></li></ul><div class='tab-content'><div class='tab-pane active' role='tabpanel'><pre>mvn</pre></div><div class='tab-pane' role='tabpanel'><pre>gradle</pre></div></div>"
            """)
    void tabbedContentNamesEachTabBeforeItsPanel(String shape, String html) {
        Document doc = Jsoup.parse("<p>Add the dependency:</p>" + html + "<p>Then build.</p>");
        assertThat(write(doc, true)).isEqualTo(
                "Add the dependency:\n\nMaven\n\n```\nmvn\n```\n\nGradle\n\n```\ngradle\n```\n\nThen build.");
        assertThat(write(doc, false))
                .isEqualTo("Add the dependency:\n\nMaven\n\nmvn\n\nGradle\n\ngradle\n\nThen build.");
    }

    @Test
    void aLabelOfAFormFieldOrATabListWithoutItsPanelsIsNoText() {
        Document doc = Jsoup.parse("<p>Text.</p><div><label for='q'>Search</label><input id='q' type='text'></div>"
                + "<div><input type='radio' id='a' name='r'><label for='a'>Yes</label>"
                + "<input type='radio' id='b' name='r'><label for='b'>No</label></div><p>More.</p>");
        assertThat(write(doc, true)).isEqualTo("Text.\n\nMore.");
    }

    @Test
    void aFileNameOverNumberedCodeStaysAndANumberInCodeIsCode() {
        Document doc = Jsoup.parse("<table class='highlighttable'><tr><th colspan='2' class='filename'>"
                + "<span class='filename'>run.py</span></th></tr><tr><td class='linenos'><pre>1</pre></td>"
                + "<td class='code'><pre>exit(<span class='mi'>2</span>)</pre></td></tr></table>"
                + "<pre><span class='mi'>42</span></pre>");
        assertThat(write(doc, true)).isEqualTo("run.py\n\n```\nexit(2)\n```\n\n```\n42\n```");
    }

    /** Only numbers beside code are line numbers: a year in a table of results an old page set in a pre is text. */
    @Test
    void aNumberInATableOfFiguresIsNoLineNumber() {
        Document doc = Jsoup.parse("<pre><table><tr><td>Effert</td><td>1993</td><td>13,04</td></tr></table></pre>");
        // the cells as the pre holds them, with no white space between
        assertThat(write(doc, false)).isEqualTo("Effert199313,04");
    }

    @Test
    void aTabWhosePanelShowsNothingIsNoText() {
        Document doc = Jsoup.parse("<div><ul role='tablist'><li role='tab'>About the author</li>"
                + "<li role='tab'>Posts</li></ul><div><div role='tabpanel'><p>She writes about crawlers.</p></div>"
                + "<div role='tabpanel'><ul class='related'><li><a href='/a'>A</a></li><li><a href='/b'>B</a></li></ul></div></div></div>"
                + "<p>The end.</p>");
        assertThat(write(doc, true)).isEqualTo("About the author\n\nShe writes about crawlers.\n\nThe end.");
        doc.selectFirst("ul").tagName("nav"); // navigation, as HTML names it: no tabs
        assertThat(write(doc, true)).isEqualTo("She writes about crawlers.\n\nThe end.");
    }

    @ParameterizedTest(name = "[{0}]")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
            "<h2>Install<a class='headerlink' href='#install' title='Permalink to this heading'>¶</a></h2>"
            "<h2 id='install'>Install<a href='#install' class='hash-link' aria-label='Direct link'>&#8203;</a></h2>"
            "<h2 id='install'><a class='header-anchor' href='#install'>#</a> Install</h2>"
            "<h2 id='install'>Install <a href='#install'>§</a></h2>"
            "<h2 id='install'>Install <a href='#install'> 🔗️ </a></h2>"
            "<h2><a class='anchor' href='#install'><svg><path d='M0'></path></svg></a>Install</h2>"
            "<h2>Install<a class='headerlink' href='#install' title='Link to this heading'>&#xf0c1;</a></h2>"
            """)
    void aHeadingsPermalinkIsNoWordOfIt(String html) {
        // a heading with nothing under it is left out: the paragraph keeps it
        Document doc = Jsoup.parse(html + "<p>Run the installer.</p>", "https://example.org/page");
        assertThat(write(doc, true)).isEqualTo("## Install\n\nRun the installer.");
        assertThat(write(doc, false)).isEqualTo("Install\n\nRun the installer.");
    }

    @ParameterizedTest(name = "[{0}]")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
            "<h2 id='install'><a href='#install'>Install</a></h2>"
            "<section id='module-install'><span id='label'></span><h2><a href='#module-install'>Install</a></h2>"
            """)
    void aHeadingLinkedToItselfOrItsSectionIsItsWords(String html) {
        Document doc = Jsoup.parse(html + "<p>Run the installer.</p>", "https://example.org/page");
        assertThat(write(doc, true)).isEqualTo("## Install\n\nRun the installer.");
    }

    @Test
    void aLinkIntoThePageByAWordOrAFootnoteMarkStays() {
        Document doc = Jsoup.parse("<p>A claim<a href='#fn1'>1</a> and another<a href='#fn2'>*</a>, see"
                + " <a href='#top'>the top</a>.</p>", "https://example.org/page");
        assertThat(write(doc, true)).isEqualTo("A claim[1](https://example.org/page#fn1) and"
                + " another[\\*](https://example.org/page#fn2), see [the top](https://example.org/page#top).");
    }

    /** A code block's fence is longer than any fence its code shows (a page about Markdown shows both kinds). */
    @Test
    void aCodeBlockShowingFencesIsOneBlock() {
        String code = "```\nbackticks\n```\n~~~~\ntildes\n~~~~\n  ````indented";
        String markdown = write(Jsoup.parse("<pre>" + code.replace("<", "&lt;") + "</pre>"), true);
        assertThat(markdown).isEqualTo("`````\n" + code + "\n`````");
        assertThat(CommonMarkReading.html(markdown)).isEqualTo("<pre><code>" + code + "\n</code></pre>");
    }

    @Test
    void aDataTableInALayoutTableIsATableItsRowsInOrderAndTheLayoutItsBlocks() {
        Document doc = Jsoup.parse("<table><tr><td><p>Beside the figures.</p><table>"
                + "<tfoot><tr><td>total</td><td>3</td></tr></tfoot><thead><tr><th>fruit</th><th>count</th></tr></thead>"
                + "<tbody><tr><td>apple</td><td>1</td></tr><tr><td>pear | quince</td><td>2</td></tr></tbody>"
                + "</table></td></tr></table>");
        assertThat(write(doc, true)).isEqualTo("""
                Beside the figures.

                | fruit | count |
                | --- | --- |
                | apple | 1 |
                | pear \\| quince | 2 |
                | total | 3 |""");
        assertThat(write(doc, false)).isEqualTo("Beside the figures.\n\nfruit\tcount\napple\t1\npear | quince\t2\ntotal\t3");
    }

    @Test
    void aDataTableOfLinksIsATableAndALayoutTableOfLinksIsLeftOut() {
        // Docker's install page: a table of platforms, each a link; the same links in a table without headings lay
        // out a menu
        String row = "<tr><td><a href='/%s'>Docker Desktop for %s</a></td><td><a href='/%1$s/x86'>x86_64</a></td></tr>";
        String rows = row.formatted("mac", "Mac") + row.formatted("win", "Windows");
        assertThat(write(Jsoup.parse("<table><thead><tr><th>Platform</th><th>Architecture</th></tr></thead>" + rows
                + "</table>"), false)).isEqualTo("Platform\tArchitecture\nDocker Desktop for Mac\tx86_64\n"
                + "Docker Desktop for Windows\tx86_64");
        assertThat(write(Jsoup.parse("<table>" + rows + "</table>"), false)).isEmpty();
    }

    @ParameterizedTest(name = "[{0}]")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
            /wiki/Kiwi_(people)      | https://example.org/wiki/Kiwi_(people)      | https://example.org/wiki/Kiwi_(people)
            /a)b(c                   | https://example.org/a\\)b\\(c              | https://example.org/a)b(c
            "/s?q=(open"             | "https://example.org/s?q=\\(open"          | "https://example.org/s?q=(open"
            "/s?q=a\\(b)"            | "https://example.org/s?q=a\\\\(b)"          | "https://example.org/s?q=a\\(b)"
            "/two words"             | https://example.org/two%20words             | https://example.org/two%20words
            "/q?a=1&amp;amp;b=2"     | "https://example.org/q?a=1\\&amp;b=2"        | "https://example.org/q?a=1&amp;b=2"
            """)
    void aLinkGoesWhereTheBrowserGoesInEveryCommonMarkReader(String href, String destination, String read) {
        Document doc = Jsoup.parse("<p>see <a href='" + href + "'>it</a> now</p>", "https://example.org/page");
        String markdown = write(doc, true);
        assertThat(markdown).isEqualTo("see [it](" + destination + ") now");
        CommonMarkReading reading = CommonMarkReading.of(markdown);
        assertThat(reading.links()).containsExactly(read);
        assertThat(reading.text()).doesNotContain("example.org");
    }

    @Test
    void aShortItemOfLinksIsAnItemInAListOfProseAndNavigationInAListOfLinks() {
        // Firefox Nightly's newsletter: "bigiri has <a>a patch to move SharedDataMap.jsm off of OSFile</a>"
        Document doc = Jsoup.parse("<ul><li>emalysz continues to make progress leading the charge migrating us from"
                + " OS.File to IOUtils, with help from barret</li><li>bigiri has <a href='/b/1'>a patch to move"
                + " SharedDataMap.jsm off of OSFile</a></li><li>Gijs made the toolbar initialise later in startup, which"
                + " saves a few milliseconds</li></ul><ul><li><a href='/'>Home</a></li><li><a href='/blog'>Blog</a> posts"
                + "</li></ul>", "https://example.org/page");
        assertThat(write(doc, false)).contains("bigiri has a patch").doesNotContain("Home").contains("Blog posts");
    }

    @Test
    void aTablesRowsAndColumnsOfEmptyCellsAreNotWritten() {
        // a column of avatars, a spacer row, a table of hotel banners: nothing a reader of text sees
        Document doc = Jsoup.parse("<table><tr><td><img src='a.png'></td><td>maha</td><td>host</td></tr><tr><td></td>"
                + "<td> </td><td></td></tr><tr><td><img src='b.png'></td><td>Alex</td><td>guest</td></tr></table>"
                + "<table><tr><td><img src='h1.png'></td><td><img src='h2.png'></td></tr><tr><td><img src='h3.png'>"
                + "</td><td></td></tr></table>");
        assertThat(write(doc, true)).isEqualTo("| | |\n| --- | --- |\n| maha | host |\n| Alex | guest |");
        assertThat(write(doc, false)).isEqualTo("maha\thost\nAlex\tguest");
    }

    @Test
    void aTableWhoseFirstRowHeadsNothingGetsAnEmptyHeaderRow() {
        // GitHub's tables need a header row; a price or a member's name made one would head the column under it
        Document plain = Jsoup.parse("<table><tr><td>Kalorien</td><td>434 kcal</td></tr>"
                + "<tr><td>Eiweiß</td><td>12 g</td></tr></table>");
        assertThat(write(plain, true)).isEqualTo("| | |\n| --- | --- |\n| Kalorien | 434 kcal |\n| Eiweiß | 12 g |");
        assertThat(write(plain, false)).isEqualTo("Kalorien\t434 kcal\nEiweiß\t12 g");
        for (String head : List.of("<tr><th>Name</th><th>Role</th></tr>",
                "<thead><tr><td>Name</td><td>Role</td></tr></thead>",
                "<tr><td><p><strong>Name</strong></p></td><td><b>Role</b></td></tr>",
                "<tr><td colspan=2><h2>Name</h2></td><td></td></tr>")) {
            Document doc = Jsoup.parse("<table>" + head + "<tr><td>maha</td><td>host</td></tr></table>");
            String markdown = write(doc, true);
            assertThat(markdown.lines().findFirst().orElseThrow()).as(head).matches("\\| (\\*\\*)?Name.*");
            assertThat(markdown).as(head).endsWith("| --- | --- |\n| maha | host |");
        }
        Document rowHeads = Jsoup.parse("<table><tr><th>Kalorien</th><td>434 kcal</td></tr>"
                + "<tr><th>Eiweiß</th><td>12 g</td></tr></table>");
        assertThat(write(rowHeads, true)).startsWith("| | |\n| --- | --- |\n| Kalorien |");
    }

    @Test
    void aRuleIsNoTextInMarkdownEither() {
        Document doc = Jsoup.parse("<hr><h2>Competition</h2><hr><h2>Main content</h2><p>The institute builds.</p><hr>"
                + "<hr><p>A second part.</p><hr>");
        assertThat(write(doc, true)).isEqualTo("## Main content\n\nThe institute builds.\n\n---\n\nA second part.");
        assertThat(write(doc, false)).isEqualTo("Main content\n\nThe institute builds.\n\nA second part.");
    }

    @Test
    void aRuleUnderAHeadingPartsNothing() {
        Document doc = Jsoup.parse("<h1>Package org.shelves</h1><hr><p>Containers for things.</p><hr><p>More.</p>");
        assertThat(write(doc, true)).isEqualTo("# Package org.shelves\n\nContainers for things.\n\n---\n\nMore.");
    }

    @Test
    void linesOfAParagraphAreHardBreaksAndEachStaysText() {
        Document doc = Jsoup.parse("<p>12,5 km mass start<br>1. Dorothea Wierer (ITA)<br>2. Dzinara Alimbekava<br>…<br>"
                + "30. Lisa Vittozzi<br>- a dash<br># a hash</p><h2>Results<br>of the day</h2><p>x y</p>"
                + "<table><tr><td>one<br>two</td><td>1. three</td></tr></table>");
        String markdown = write(doc, true);
        assertThat(markdown).isEqualTo("""
                12,5 km mass start\\
                1\\. Dorothea Wierer (ITA)\\
                2\\. Dzinara Alimbekava\\
                …\\
                30\\. Lisa Vittozzi\\
                \\- a dash\\
                \\# a hash

                ## Results of the day

                x y

                | | |
                | --- | --- |
                | one two | 1. three |""");
        assertReadsAsText(markdown, doc);
    }

    @Test
    void listsSideBySideStayApartAndKeepTheirNumbers() {
        Document doc = Jsoup.parse("<ol><li>Photo one</li><li>Photo two</li></ol><ol><li>Opinion</li></ol>"
                + "<ul><li>dog</li></ul><ul><li>cat</li></ul><ol start='3'><li>third</li></ol>");
        String markdown = write(doc, true);
        assertThat(markdown).isEqualTo("1. Photo one\n2. Photo two\n\n1) Opinion\n\n- dog\n\n* cat\n\n3. third");
        assertReadsAsText(markdown, doc);
    }

    @Test
    void aBlockInAListItemEndsWhereItsElementEnds() {
        Document doc = Jsoup.parse("<ul><li><table><tr><td>a</td><td>b</td></tr><tr><td>c</td><td>d</td></tr></table>"
                + "<p>after the table</p></li><li>before<ul><li>inner</li></ul>after the list</li>"
                + "<li><blockquote>quoted</blockquote>after the quote</li><li><hr>above<hr>below<hr></li></ul>");
        String markdown = write(doc, true);
        String html = CommonMarkReading.html(markdown);
        assertThat(html).doesNotContain("<td>after the table").doesNotContain("inner\nafter the list")
                .doesNotContain("quoted\nafter the quote").doesNotContain("<h2>").contains("<p>after the table</p>")
                .contains("<p>after the list</p>").contains("<p>after the quote</p>").contains("<p>above</p>\n<hr />");
        assertReadsAsText(markdown, doc);
    }

    @Test
    void aCustomElementWithoutBlocksStaysInItsLineAsABrowserShowsIt() {
        // healthline.com: a reference wrapped in <hl-trusted-source> had become a paragraph of its own
        Document doc = Jsoup.parse("<p>An error rate of 3.8–5% (<a href='/3'>3</a>, <hl-trusted-source><a href='/13'>13"
                + "</a></hl-trusted-source>).</p><story-body><p>One.</p><p>Two.</p></story-body>",
                "https://example.org/page");
        assertThat(write(doc, true)).isEqualTo("An error rate of 3.8–5% ([3](https://example.org/3),"
                + " [13](https://example.org/13)).\n\nOne.\n\nTwo.");
        assertThat(write(doc, false)).isEqualTo("An error rate of 3.8–5% (3, 13).\n\nOne.\n\nTwo.");
    }

    @Test
    void aNumberAloneIsLeftOutInMarkdownAsInTextThoughItsLinkTargetHasLetters() {
        Document doc = Jsoup.parse("<p>Votes</p><p>42 <a href='/votes/up'>▲</a></p><p>7</p><p>Forty-two voted.</p>",
                "https://example.org/page");
        assertThat(write(doc, true)).isEqualTo("Votes\n\nForty-two voted.");
        assertThat(write(doc, false)).isEqualTo("Votes\n\nForty-two voted.");
    }

    /** The Markdown, as CommonMark's reference parser reads it, holds the words of the page's text form. */
    private static void assertReadsAsText(String markdown, Document doc) {
        assertThat(ContentCorpusTest.Tokens.of(CommonMarkReading.of(markdown).text()))
                .isEqualTo(ContentCorpusTest.Tokens.of(write(doc, false)));
    }

    /** The whole body written as Markdown or as text, read strictly. */
    private static String write(Document doc, boolean markdown) {
        BlockCounts counts = new BlockCounts(doc.body());
        Boilerplate boilerplate = new Boilerplate(doc.body(), counts, Boilerplate.ByWords.YES);
        return new MarkdownWriter(markdown, boilerplate, counts).write(List.of(doc.body()));
    }
}
