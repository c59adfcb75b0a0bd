package dev.loomcrawl.crawler.content;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loomcrawl.crawler.values.ContentFormat;
import dev.loomcrawl.crawler.values.ContentRequest;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.jsoup.Jsoup;
import org.junit.jupiter.api.Test;

/**
 * API references as TypeDoc and Doxygen set them, cut down from real pages (zod's, jsoncpp's), and headings whose
 * anchors spell a word of boilerplate: what the class and id words must not take for a side bar, a forum signature
 * or a comment box.
 */
class ApiReferencePagesTest {
    /** TypeDoc's side bar: its settings (a form), then its navigation, loaded by a script. */
    private static final String TYPEDOC_SIDEBAR = """
            <div class="col-sidebar"><div class="page-menu"><div class="tsd-navigation settings">
            <details class="tsd-accordion"><summary class="tsd-accordion-summary"><h3>Settings</h3></summary>
            <div class="tsd-accordion-details"><div class="tsd-filter-visibility"><span class="settings-label">Member
            Visibility</span><ul id="tsd-filter-options"><li class="tsd-filter-item"><label class="tsd-filter-input">
            <input type="checkbox" id="tsd-filter-protected" name="protected"/><span>Protected</span></label></li>
            <li class="tsd-filter-item"><label class="tsd-filter-input"><input type="checkbox" name="inherited"
            checked/><span>Inherited</span></label></li></ul></div>
            <div class="tsd-theme-toggle"><label class="settings-label" for="tsd-theme">Theme</label><select
            id="tsd-theme"><option value="os">OS</option><option value="light">Light</option></select></div></div>
            </details></div></div><div class="site-menu"><nav class="tsd-navigation"><a href="../modules.html">zod</a>
            <ul class="tsd-small-nested-navigation" id="tsd-nav-container"><li>Loading...</li></ul></nav></div></div>
            """;

    /**
     * A type alias's page is its title and its declaration, which is all links to the types it joins: no box of
     * links, and the side bar's settings beside it, which only the readings that ignore class words keep, are no
     * more of the page for being longer than it.
     */
    @Test
    void aTypeAliasPageIsItsDeclarationNotTheSideBarsSettings() {
        String page = """
                <body><header class="tsd-page-toolbar"><a href="../index.html" class="title">zod</a></header>
                <div class="container container-main"><div class="col-content"><div class="tsd-page-title">
                <ul class="tsd-breadcrumb"><li><a href="" aria-current="page">AnyZodTuple</a></li></ul>
                <h1>Type Alias AnyZodTuple</h1></div>
                <div class="tsd-signature"><span class="tsd-kind-type-alias">AnyZodTuple</span><span
                class="tsd-signature-symbol">:</span> <a href="../classes/ZodTuple.html" class="tsd-signature-type
                tsd-kind-class">ZodTuple</a><span class="tsd-signature-symbol">&lt;[</span><a href="ZodTypeAny.html"
                class="tsd-signature-type tsd-kind-type-alias">ZodTypeAny</a><span class="tsd-signature-symbol">,
                ...</span><a href="ZodTypeAny.html" class="tsd-signature-type tsd-kind-type-alias">ZodTypeAny</a><span
                class="tsd-signature-symbol">[]] | [], </span><a href="ZodTypeAny.html" class="tsd-signature-type
                tsd-kind-type-alias">ZodTypeAny</a> <span class="tsd-signature-symbol">|</span> <span
                class="tsd-signature-type">null</span><span class="tsd-signature-symbol">&gt;</span></div>
                <aside class="tsd-sources"><ul><li>Defined in zod/src/v3/types.ts:3391</li></ul></aside></div>
                %s</div><footer><p class="tsd-generator">Generated using TypeDoc</p></footer></body>
                """.formatted(TYPEDOC_SIDEBAR);

        String content = markdown(page, "https://zod.example/types/AnyZodTuple.html");

        assertThat(content).startsWith("# Type Alias AnyZodTuple")
                .contains("AnyZodTuple: [ZodTuple](https://zod.example/classes/ZodTuple.html)")
                .contains("[ZodTypeAny](https://zod.example/types/ZodTypeAny.html) | null>")
                .doesNotContain("Settings").doesNotContain("Visibility").doesNotContain("Theme");
    }

    /**
     * A class's members: each signature names the member ({@code tsd-kind-get-signature}) under an id that joins two
     * names ({@code enumenum}: "menu"); a member named {@code extract} ("extra") has its heading's anchor so named, and
     * its type parameter's ({@code extracttoextract}); and the doc comment ({@code tsd-comment}) is the member's
     * documentation, no readers' comments.
     */
    @Test
    void aClassPagesMembersAreNoMenuExtrasOrComments() {
        String page = """
                <body><div class="container container-main"><div class="col-content"><div class="tsd-page-title">
                <h1>Class ZodEnum&lt;T&gt;</h1></div>
                <section class="tsd-panel tsd-comment"><div class="tsd-comment tsd-typography"><p>An enumeration of
                string values, checked at run time as the type checker checks them at compile time, with every
                value known in advance.</p></div></section>
                <details class="tsd-panel-group tsd-member-group tsd-accordion" open><summary><h2>Accessors</h2>
                </summary><section class="tsd-panel tsd-member">
                <h3 class="tsd-anchor-link" id="enum"><span>enum</span></h3><ul class="tsd-signatures"><li>
                <div class="tsd-signature" id="enumenum"><span class="tsd-signature-keyword">get</span> <span
                class="tsd-kind-get-signature">enum</span><span class="tsd-signature-symbol">(): </span><a
                href="../types/Values.html" class="tsd-signature-type tsd-kind-type-alias">Values</a><span
                class="tsd-signature-symbol">&lt;</span><a class="tsd-signature-type tsd-kind-type-parameter"
                href="#t">T</a><span class="tsd-signature-symbol">&gt;</span></div>
                <div class="tsd-description"><div class="tsd-comment tsd-typography"><p>The values by name, for
                code that reads them as an object.</p></div></div></li></ul></section></details>
                <details class="tsd-panel-group tsd-member-group tsd-accordion" open><summary><h2>Methods</h2>
                </summary><section class="tsd-panel tsd-member">
                <h3 class="tsd-anchor-link" id="extract"><span>extract</span></h3><ul class="tsd-signatures"><li>
                <div class="tsd-signature" id="extractextract"><span class="tsd-kind-call-signature">extract</span><span
                class="tsd-signature-symbol">&lt;</span><a class="tsd-signature-type tsd-kind-type-parameter"
                href="#extracttoextract">ToExtract</a><span class="tsd-signature-symbol">&gt;(values: </span><a
                class="tsd-signature-type tsd-kind-type-parameter" href="#extracttoextract">ToExtract</a><span
                class="tsd-signature-symbol">): </span><a href="ZodEnum.html" class="tsd-signature-type
                tsd-kind-class">ZodEnum</a></div>
                <div class="tsd-description"><div class="tsd-comment tsd-typography"><p>Alias of safeParseAsync</p>
                </div><section class="tsd-panel"><h4>Type Parameters</h4><ul class="tsd-type-parameter-list"><li><span
                id="extracttoextract"><span class="tsd-kind-type-parameter">ToExtract</span> extends readonly
                string[]</span></li></ul></section></div></li></ul></section></details></div>
                %s</div></body>
                """.formatted(TYPEDOC_SIDEBAR);

        String content = markdown(page, "https://zod.example/classes/ZodEnum.html");

        assertThat(content).contains("An enumeration of string values")
                .contains("get enum(): [Values](https://zod.example/types/Values.html)")
                .contains("The values by name")
                .contains("### extract")
                .contains("extract\\<[ToExtract](https://zod.example/classes/ZodEnum.html#extracttoextract)>")
                .contains("Alias of safeParseAsync")
                .contains("ToExtract extends readonly string\\[\\]")
                .doesNotContain("Visibility");
    }

    /**
     * A namespace's page is its index of members: each group's heading (inside the {@code summary} that folds it) and
     * each member's name, a link in a {@code dt} to the member's page, with its summary, if any, in the {@code dd};
     * a group without summaries is a list of names.
     * The whole index was a box of links and left out, the page a title and a sentence; with summaries, the
     * summaries stayed without the names they describe. The side bar's settings stay out.
     */
    @Test
    void aNamespacePageIsItsIndexOfMembersByGroup() {
        String page = """
                <body><div class="container container-main"><div class="col-content"><div class="tsd-page-title">
                <h1>Namespace Geometry</h1></div><section class="tsd-panel tsd-comment"><div class="tsd-comment
                tsd-typography"><p>Geometry helpers.</p></div></section>
                <details class="tsd-panel-group tsd-member-group tsd-accordion" open><summary
                class="tsd-accordion-summary"><h2 class="tsd-anchor-link" id="classes">Classes</h2></summary>
                <dl class="tsd-member-summaries"><dt class="tsd-member-summary" id="circle"><span
                class="tsd-member-summary-name"><a href="../classes/Geometry.Circle.html">Circle</a></span></dt>
                <dd class="tsd-member-summary"></dd><dt class="tsd-member-summary" id="square"><span
                class="tsd-member-summary-name"><a href="../classes/Geometry.Square.html">Square</a></span></dt>
                <dd class="tsd-member-summary"><p>A square, by corner and side.</p></dd></dl></details>
                <details class="tsd-panel-group tsd-member-group tsd-accordion" open><summary
                class="tsd-accordion-summary"><h2 class="tsd-anchor-link" id="functions">Functions</h2></summary>
                <dl class="tsd-member-summaries"><dt class="tsd-member-summary" id="distance"><span
                class="tsd-member-summary-name"><a href="../functions/Geometry.distance.html">distance</a></span></dt>
                <dd class="tsd-member-summary"></dd></dl></details></div>
                %s</div></body>
                """.formatted(TYPEDOC_SIDEBAR);

        String content = markdown(page, "https://td.example/modules/Geometry.html");

        assertThat(content).startsWith("# Namespace Geometry\n\nGeometry helpers.\n\n## Classes\n\n"
                        + "[Circle](https://td.example/classes/Geometry.Circle.html)\n\n"
                        + "[Square](https://td.example/classes/Geometry.Square.html)\n\nA square, by corner and side."
                        + "\n\n## Functions\n\n- [distance](https://td.example/functions/Geometry.distance.html)")
                .doesNotContain("Settings").doesNotContain("Visibility");
    }

    /**
     * A definition list's terms are what their values define, however short or linked: Doxygen's "See also" and its
     * linked functions, a format's characters ({@code |}, {@code $}) before what each means.
     */
    @Test
    void aDefinitionsTermsStayWhateverTheyAre() {
        String page = """
                <body><main><h1>Parsing arguments</h1>
                <p>Format units are described below; a few characters in a format string are not format units, and
                each of these changes how the units after it are read by the parser.</p>
                <dl><dt><code>|</code></dt><dd><p>The remaining arguments are optional.</p></dd>
                <dt><code>$</code></dt><dd><p>The remaining arguments are keyword-only.</p></dd></dl>
                <p>Closing a channel frees it; reading from a channel that was closed fails with an error that
                tells which end closed it first, and when.</p>
                <dl class="section see"><dt>See also</dt><dd><a class="el" href="group__channel.html#ga1">
                ssh_channel_close()</a></dd></dl></main></body>
                """;

        String content = markdown(page, "https://docs.example/arg.html");

        assertThat(content).contains("`|`\n\nThe remaining arguments are optional.\n\n`$`\n\nThe remaining")
                .contains("See also\n\n[ssh\\_channel\\_close()](https://docs.example/group__channel.html#ga1)");
    }

    /**
     * Headings whose anchors are their own words, whatever those say: mdBook's "Comments", Sphinx's section on
     * extracting parameters (an id of "extra"), no comment box nor extras.
     */
    @Test
    void aHeadingNamedForItsWordsIsNoBoilerplateByThem() {
        String paragraph = "<p>Rust programmers leave notes in their source code that the compiler ignores, for"
                + " whoever reads the code next, and every line of such a note starts with two slashes.</p>";
        String page = """
                <body><main><h1 id="the-book">Common Concepts</h1>%1$s
                <h2 id="comments"><a class="header" href="#comments">Comments</a></h2>%1$s
                <section id="extracting-parameters-in-extension-functions"><h2>1.7. Extracting Parameters</h2>
                <p>The PyArg_ParseTuple() function is declared as follows, and converts the arguments a function was
                called with from Python objects to C values, as its format string says.</p></section></main></body>
                """.formatted(paragraph);

        String content = markdown(page, "https://docs.example/book/ch03.html");

        assertThat(content).contains("## Comments").contains("## 1.7. Extracting Parameters")
                .contains("The PyArg\\_ParseTuple() function is declared");
    }

    /**
     * Doxygen's groups of members are a table, each group under a heading row ({@code groupheader}: no page header),
     * and a function's remarks ({@code section remark}) are its documentation, no readers' remarks.
     */
    @Test
    void doxygensGroupHeadingsAndRemarksAreContent() {
        String members = IntStream.range(0, 8).mapToObj(i -> """
                <tr class="memitem"><td class="memItemLeft" align="right">bool&#160;</td><td class="memItemRight"><a
                class="el" href="#a%1$d">isMember%1$d</a> (const char *key) const</td></tr>
                <tr class="memdesc"><td class="mdescLeft">&#160;</td><td class="mdescRight">Whether the object has
                the key, for an object value; false for null, and an exception for any other type.</td></tr>
                """.formatted(i)).collect(Collectors.joining());
        String page = """
                <body><div id="top"><div id="titlearea"><table><tr><td><div id="projectname">JsonCpp</div></td></tr>
                </table></div></div>
                <div class="header"><div class="headertitle"><div class="title">Json::Value Class Reference
                </div></div></div>
                <div class="contents"><table class="memberdecls">
                <tr class="heading"><td colspan="2"><h2 class="groupheader"><a id="pub-methods"></a>Public Member
                Functions</h2></td></tr>
                %s
                </table>
                <h2 class="groupheader">Detailed Description</h2>
                <div class="textblock"><p>Represents a JSON value.</p>
                <dl class="section remark"><dt>Remarks</dt><dd>derived from <a class="el"
                href="class_json_1_1_exception.html">Json::Exception</a></dd></dl></div></div>
                <hr class="footer"/><address class="footer"><small>Generated by Doxygen 1.9.1</small></address></body>
                """.formatted(members);

        String content = markdown(page, "https://jsoncpp.example/class_json_1_1_value.html");

        assertThat(content).contains("| Public Member Functions |")
                .contains("## Detailed Description")
                .contains("Remarks").contains("derived from [Json::Exception]")
                .doesNotContain("Generated by");
    }

    /**
     * Doxygen's code, a {@code div.fragment} of {@code div.line}s (its examples, and its pages of source with a
     * number before each line), is a code block: its indents, braces and comments kept, its links' tooltips
     * ({@code div.ttc}) out.
     */
    @Test
    void doxygensCodeIsACodeBlock() {
        String page = """
                <body><div class="contents"><div class="textblock"><p>In order to allocate a new SSH session, you use
                ssh_new(). Do not forget to always verify that the allocation succeeded, and to free the session.</p>
                <div class="fragment">
                <div class="line"><span class="preprocessor">#include &lt;libssh/libssh.h&gt;</span></div>
                <div class="line"><a name="l00002"></a><span class="lineno">    2</span>&#160;</div>
                <div class="line"><span class="keywordtype">int</span> main()</div>
                <div class="line">{</div>
                <div class="line">  <a class="code" href="structssh.html">ssh_session</a> s = <a class="code"
                href="#ga1">ssh_new</a>();</div>
                <div class="line">  <span class="comment">// the session's options, then connect</span></div>
                <div class="line">  <span class="keywordflow">if</span> (s == NULL)</div>
                <div class="line">    exit(-1);</div>
                <div class="line">}</div>
                <div class="ttc" id="ga1"><div class="ttname"><a href="#ga1">ssh_new</a></div><div
                class="ttdeci">LIBSSH_API ssh_session ssh_new(void)</div><div class="ttdoc">Create a new ssh
                session.</div></div></div>
                <p>libssh follows the allocate-it-deallocate-it pattern: each object that you allocate using
                xxxxx_new() must be deallocated using xxxxx_free().</p></div></div></body>
                """;

        String content = markdown(page, "https://libssh.example/libssh_tutor_guided_tour.html");

        assertThat(content).contains("""
                ```
                #include <libssh/libssh.h>

                int main()
                {
                  ssh_session s = ssh_new();
                  // the session's options, then connect
                  if (s == NULL)
                    exit(-1);
                }
                ```""").doesNotContain("Create a new ssh session").doesNotContain("LIBSSH_API");
    }

    /**
     * Doxygen's page title is a {@code div.title}, no heading: it is the page's {@code h1}, without the breadcrumb
     * of its groups inside it. Its masthead (the project's name, number and brief) is no content: a struct whose
     * page is only its fields (libssh's) is its title and its fields, not "The SSH library".
     */
    @Test
    void doxygensTitleIsTheTitleAndItsMastheadNoContent() {
        String page = """
                <html><head><title>libssh: ssh_string_struct Struct Reference</title></head><body>
                <div id="top"><div id="titlearea"><table cellspacing="0" cellpadding="0"><tbody><tr>
                <td id="projectlogo"><img alt="Logo" src="libssh_logo.png"/></td><td id="projectalign">
                <div id="projectname">libssh<span id="projectnumber">&#160;0.10.6</span></div>
                <div id="projectbrief">The SSH library</div></td></tr></tbody></table></div>
                <div id="nav-path" class="navpath"><ul><li class="navelem"><a class="el" href="index.html">libssh</a>
                </li></ul></div></div>
                <div class="header"><div class="summary"><a href="#pub-attribs">Data Fields</a></div>
                <div class="headertitle"><div class="title">ssh_string_struct Struct Reference<div class="ingroups"><a
                class="el" href="group__libssh.html">The libssh API</a> &raquo; <a class="el"
                href="group__libssh__string.html">The SSH string functions</a></div></div></div></div>
                <div class="contents"><table class="memberdecls"><tr class="heading"><td colspan="2"><h2
                class="groupheader"><a id="pub-attribs" name="pub-attribs"></a>Data Fields</h2></td></tr>
                <tr class="memitem:a1"><td class="memItemLeft" align="right" valign="top">uint32_t&#160;</td>
                <td class="memItemRight" valign="bottom"><b>size</b></td></tr>
                <tr class="memitem:a2"><td class="memItemLeft" align="right" valign="top">unsigned char&#160;</td>
                <td class="memItemRight" valign="bottom"><b>data</b> [1]</td></tr></table></div>
                <hr class="footer"/><address class="footer"><small>Generated by&#160;<a href="https://www.doxygen.org/
                index.html"><img class="footer" src="doxygen.svg" alt="doxygen"/></a> 1.9.4</small></address>
                </body></html>
                """;

        String content = markdown(page, "https://libssh.example/structssh__string__struct.html");

        assertThat(content).startsWith("# ssh\\_string\\_struct Struct Reference\n")
                .contains("| uint32\\_t | **size** |").contains("**data** \\[1\\]")
                .doesNotContain("The SSH library").doesNotContain("The libssh API");
    }

    /**
     * A title put before a reading's blocks is no content that reading found: libstdc++'s {@code std::hash} page,
     * whose description alone is short, is its members and its description, not the description alone that its
     * title's length passed for enough.
     */
    @Test
    void aTitleIsNoContentTheReadingFound() {
        String page = """
                <html><head><title>libstdc++: std::hash&lt; _Tp &gt; Struct Template Reference</title></head><body>
                <div class="header"><div class="summary"><a href="a03527.html">List of all members</a></div>
                <div class="headertitle"><div class="title">std::hash&lt; _Tp &gt; Struct Template Reference<div
                class="ingroups"><a class="el" href="a01588.html">Utilities</a> &raquo; <a class="el"
                href="a01607.html">Function Objects</a></div></div></div></div>
                <div class="contents"><p><code>#include &lt;<a class="el" href="a00680_source.html">functional_hash.h</a>
                &gt;</code></p><p>Inherits std::__hash_enum&lt; _Tp, bool &gt;.</p>
                <a name="details" id="details"></a><h2 class="groupheader">Detailed Description</h2>
                <div class="textblock"><div class="compoundTemplParams">template&lt;typename _Tp&gt;<br />
                struct std::hash&lt; _Tp &gt;</div><p>Primary class template hash. </p>
                <p>Primary class template hash, usable for enum types only. </p>
                <p class="definition">Definition at line <a class="el" href="a00680_source.html#l00102">102</a> of file
                <a class="el" href="a00680_source.html">functional_hash.h</a>.</p></div></div></body></html>
                """;

        String content = markdown(page, "https://gcc.example/libstdc++/a03530.html");

        assertThat(content).startsWith("# std::hash\\< \\_Tp > Struct Template Reference\n")
                .contains("Inherits std::").contains("## Detailed Description").contains("usable for enum types only");
    }

    /**
     * Doxygen's lists of a project's parts are tables of rows that name their place in a tree: the page's content,
     * all links as they are, written as the nested list they show, each entry and its brief; the control of how deep
     * the tree is shown, the arrows and the icons of each kind are no words of it.
     */
    @Test
    void doxygensTreeOfModulesIsANestedList() {
        String page = """
                <html><head><title>libssh: Modules</title></head><body>
                <div class="header"><div class="headertitle"><div class="title">Modules</div></div></div>
                <div class="contents"><div class="textblock">Here is a list of all modules:</div>
                <div class="directory"><div class="levels">[detail level <span>1</span><span>2</span>]</div>
                <table class="directory">
                <tr id="row_0_" class="even"><td class="entry"><span style="width:16px;display:inline-block;">&#160;\
                </span><a class="el" href="group__ed25519.html">ed25519 API</a></td>
                <td class="desc">API for DJB's ed25519 </td></tr>
                <tr id="row_1_"><td class="entry"><span style="width:0px;display:inline-block;">&#160;</span><span \
                id="arr_1_" class="arrow" onclick="toggleFolder('1_')">&#9660;</span><span class="icona"><span \
                class="icon">N</span></span><a class="el" href="group__libssh.html">The libssh API</a></td>
                <td class="desc"></td></tr>
                <tr id="row_1_0_" class="even"><td class="entry"><span style="width:32px;display:inline-block;">\
                &#160;</span><a class="el" href="group__libssh__auth.html">The SSH authentication functions</a></td>
                <td class="desc"></td></tr>
                </table></div></div>
                <hr class="footer"/><address class="footer"><small>Generated by doxygen 1.9.4</small></address>
                </body></html>
                """;

        String content = markdown(page, "https://libssh.example/modules.html");

        assertThat(content).isEqualTo("""
                # Modules

                Here is a list of all modules:

                - [ed25519 API](https://libssh.example/group__ed25519.html): API for DJB's ed25519
                - [The libssh API](https://libssh.example/group__libssh.html)
                  - [The SSH authentication functions](https://libssh.example/group__libssh__auth.html)""");
    }

    /** A class's list of all its members, a directory table too, all links, is the page's content: as a table. */
    @Test
    void doxygensListOfMembersIsContent() {
        String page = """
                <html><head><title>JsonCpp: Member List</title></head><body>
                <div class="header"><div class="headertitle"><div class="title">Json::Features Member List</div></div>
                </div><div class="contents"><p>This is the complete list of members for <a class="el"
                href="class_json_1_1_features.html">Json::Features</a>, including all inherited members.</p>
                <table class="directory">
                <tr class="even"><td class="entry"><a class="el" href="f.html#a6">all</a>()</td><td class="entry"><a
                class="el" href="f.html">Json::Features</a></td><td class="entry"><span class="mlabel">static</span>
                </td></tr>
                <tr><td class="entry"><a class="el" href="f.html#a3">allowComments_</a></td><td class="entry"><a
                class="el" href="f.html">Json::Features</a></td><td class="entry"></td></tr>
                </table></div></body></html>
                """;

        String content = markdown(page, "https://jsoncpp.example/features-members.html");

        assertThat(content).contains("| [all](https://jsoncpp.example/f.html#a6)() | "
                + "[Json::Features](https://jsoncpp.example/f.html) | static |")
                .contains("| [allowComments\\_](https://jsoncpp.example/f.html#a3) |");
    }

    /**
     * An index whose letters are its headings, each over a list of links and nothing else on the page (Doxygen's
     * list of all fields, "- a -", "- c -"): every letter, not the footer the readings elected.
     */
    @Test
    void anIndexOfLettersIsEveryLetter() {
        String page = """
                <html><head><title>libssh: Data Fields - Variables</title></head><body>
                <div class="contents">&#160;
                <h3><a id="index_a" name="index_a"></a>- a -</h3><ul>
                <li>auth_function&#160;:&#160;<a class="el" href="s.html#a5">ssh_callbacks_struct</a></li>
                <li>auth_none_function&#160;:&#160;<a class="el" href="t.html#a7">ssh_server_callbacks_struct</a></li>
                </ul>
                <h3><a id="index_c" name="index_c"></a>- c -</h3><ul>
                <li>callbacks&#160;:&#160;<a class="el" href="p.html#a7">ssh_packet_callbacks_struct</a></li>
                </ul></div>
                <hr class="footer"/><address class="footer"><small>Generated by doxygen 1.9.4</small></address>
                </body></html>
                """;

        String content = markdown(page, "https://libssh.example/functions_vars.html");

        assertThat(content).startsWith("### - a -\n").contains("auth\\_none\\_function : [ssh")
                .contains("### - c -\n\n- callbacks : [ssh\\_packet\\_callbacks\\_struct]")
                .doesNotContain("Generated by");
    }

    /**
     * A file's page, its members summed up in tables of their declarations and documented elsewhere, is those tables
     * (its classes too, all links as they are) and its description, not the description alone that Readability's
     * scores elect; a member's heading is its name, without the "◆" that links to it, under its group's heading.
     */
    @Test
    void doxygensFilePageIsItsDeclarationsAndItsDescription() {
        String page = """
                <html><head><title>libstdc++: vector.tcc File Reference</title></head><body>
                <div class="header"><div class="headertitle"><div class="title">vector.tcc File Reference</div></div>
                </div><div class="contents"><p><a href="a00350_source.html">Go to the source code of this file.</a></p>
                <table class="memberdecls"><tr class="heading"><td colspan="2"><h2 class="groupheader">Classes</h2>
                </td></tr><tr class="memitem:"><td class="memItemLeft" align="right" valign="top">struct &#160;</td>
                <td class="memItemRight" valign="bottom"><a class="el" href="a12974.html">associative_tag</a></td></tr>
                <tr class="memitem:"><td class="memItemLeft" align="right" valign="top">class &#160;</td>
                <td class="memItemRight" valign="bottom"><a class="el" href="a12866.html">basic_branch</a></td></tr>
                </table>
                <table class="memberdecls"><tr class="heading"><td colspan="2"><h2 class="groupheader"><a
                id="define-members" name="define-members"></a>Macros</h2></td></tr>
                <tr class="memitem:a3"><td class="memItemLeft" align="right" valign="top">#define&#160;</td><td
                class="memItemRight" valign="bottom"><a class="el" href="a00350.html#a3">_VECTOR_TCC</a></td></tr>
                </table>
                <a name="details" id="details"></a><h2 class="groupheader">Detailed Description</h2>
                <div class="textblock"><p>This is an internal header file, included by other library headers. Do not
                attempt to use it directly. Instead, include &lt;vector&gt;.</p>
                <p class="definition">Definition in file <a class="el" href="a00350_source.html">vector.tcc</a>.</p>
                </div><h2 class="groupheader">Macro Definition Documentation</h2>
                <a id="a3" name="a3"></a><h2 class="memtitle"><span class="permalink"><a href="#a3">&#9670;&nbsp;</a>\
                </span>_VECTOR_TCC</h2>
                <div class="memitem"><div class="memproto"><table class="memname"><tr><td class="memname">#define \
                _VECTOR_TCC</td></tr></table></div><div class="memdoc"><p class="definition">Definition at line <a
                class="el" href="a00350_source.html#l00057">57</a> of file <a class="el" \
                href="a00350_source.html">vector.tcc</a>.</p></div></div></div></body></html>
                """;

        String content = markdown(page, "https://gcc.example/libstdc++/a00350.html");

        assertThat(content).startsWith("# vector.tcc File Reference\n")
                .contains("| #define | [\\_VECTOR\\_TCC](https://gcc.example/libstdc++/a00350.html#a3) |")
                .contains("| class | [basic\\_branch](https://gcc.example/libstdc++/a12866.html) |")
                .contains("Do not attempt to use it directly").contains("\n## Macro Definition Documentation\n\n### \\_VECTOR\\_TCC\n")
                .doesNotContain("◆");
    }

    /**
     * A member's declaration, which Doxygen lays out as a table of its name, its parentheses and a row a parameter,
     * is the line it reads, its types' links kept, its labels after it as Doxygen's own text output writes them: no
     * table whose first row heads the parameters under it, no paragraph of "pure virtual" under the line.
     */
    @Test
    void doxygensDeclarationOfAMemberIsItsLine() {
        String page = """
                <html><head><title>JsonCpp: Json::CharReader Class Reference</title></head><body><div class="contents">
                <h2 class="groupheader">Member Function Documentation</h2>
                <h2 class="memtitle"><span class="permalink"><a href="#a6">&#9670;&nbsp;</a></span>parse()</h2>
                <div class="memitem"><div class="memproto"><table class="mlabels"><tr><td class="mlabels-left">
                <table class="memname"><tr><td class="memname">virtual bool Json::CharReader::parse </td><td>(</td>
                <td class="paramtype">char const *&#160;</td><td class="paramname"><em>beginDoc</em>, </td></tr>
                <tr><td class="paramkey"></td><td></td><td class="paramtype"><a class="el" \
                href="class_json_1_1_value.html">Value</a> *&#160;</td><td class="paramname"><em>root</em>&#160;</td></tr>
                <tr><td></td><td>)</td><td></td><td></td></tr></table></td><td class="mlabels-right"><span \
                class="mlabels"><span class="mlabel">pure virtual</span></span></td></tr></table></div>
                <div class="memdoc"><p>Read a <a class="el" href="class_json_1_1_value.html">Value</a> from a JSON
                document. The document must be a UTF-8 encoded string containing the document to read.</p></div></div>
                <h2 class="memtitle"><span class="permalink"><a href="#a7">&#9670;&nbsp;</a></span>~CharReader()</h2>
                <div class="memitem"><div class="memproto"><table class="memname"><tr><td class="memname">virtual \
                Json::CharReader::~CharReader </td><td>(</td><td class="paramname"></td><td>)</td><td></td></tr></table>
                </div><div class="memdoc"><p>Frees the reader and whatever it holds of the documents it read, which
                no value it returned refers to.</p></div></div></div></body></html>
                """;

        String content = markdown(page, "https://jsoncpp.example/class_json_1_1_char_reader.html");

        assertThat(content).contains("\n### parse()\n\nvirtual bool Json::CharReader::parse(char const \\* *beginDoc*, "
                        + "[Value](https://jsoncpp.example/class_json_1_1_value.html) \\* *root*) \\[pure virtual\\]\n")
                .contains("\nvirtual Json::CharReader::\\~CharReader()\n").doesNotContain("| (");
    }

    private static String markdown(String html, String url) {
        return MainContent.of(Jsoup.parse(html, url), new ContentRequest(ContentFormat.MARKDOWN, 100_000))
                .content().text();
    }
}
