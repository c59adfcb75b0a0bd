package dev.loomcrawl.crawler.content;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loomcrawl.crawler.values.ContentFormat;
import dev.loomcrawl.crawler.values.ContentRequest;
import java.util.Collections;
import java.util.List;
import org.jsoup.Jsoup;
import org.junit.jupiter.api.Test;

/**
 * Shapes of real pages where the article's own markup and a class name disagree (found on Readability's and
 * trafilatura's test pages: see docs/content.md, "Real pages"). Each page holds the article and a decoy; the article
 * must win.
 */
class MainContentTest {
    private static final String ARTICLE = """
            <h1>The lighthouse keepers</h1>
            <p>For a century, the keepers of the northern light lived on a rock a mile from the shore, with a stove,
            a logbook and a lamp that had to be trimmed every four hours, whatever the weather did outside.</p>
            <p>Their logbooks, kept in the county archive, record storms, supply boats, illnesses and the long
            silences of winter, when no boat could land and the keepers spoke to nobody but each other.</p>
            <p>The last keeper left in 1987, when the light was automated, and took the logbook with him, which is
            how it came to be found, decades later, in a box of papers sold at a village auction.</p>
            """;
    private static final String DECOY = """
            <p>Subscribers read every story first, get the weekly digest in their inbox, can save articles for later,
            follow their favourite writers, comment on any story, join live events, and support the newsroom's
            independent reporting, all for less than the price of a coffee a week, cancel any time.</p>
            """;

    @Test
    void aDrawerNamedNavThatHoldsThePagesMainIsNotLeftOut() {
        String html = "<body><div class='i-nav_drawer_slide'><div class='panel'><main><article>" + ARTICLE
                + "</article></main></div></div><div class='after-story'>" + DECOY + "</div></body>";
        assertThat(content(html)).contains("logbooks, kept in the county archive").doesNotContain("Subscribers read");
    }

    /**
     * Harper's open letter: the letter's paragraphs, then its signatories in a table of three cells, each a name and a
     * place a line, a comma each, and an empty row. The cells score as paragraphs of many commas, and their row won
     * alone.
     */
    @Test
    void anOpenLettersParagraphsStayBesideTheTableOfItsSignatories() {
        String names = "<td><strong>Jane Doe</strong>, Yale University<br><strong>John Roe</strong>, writer<br>"
                .repeat(8) + "</td>";
        String html = "<body><div class='letter'>" + ARTICLE + "<table><tbody><tr>" + names.repeat(3)
                + "</tr><tr><td></td></tr></tbody></table></div><div class='after-story'>" + DECOY + "</div></body>";
        assertThat(content(html)).contains("logbooks, kept in the county archive", "Jane Doe, Yale University")
                .doesNotContain("Subscribers read");
    }

    @Test
    void anArticleInAWrapperWhoseIdSaysShareIsNotLeftOut() {
        String html = "<body><article><div class='text-wrapper' id='gigya-share-btns-2_gig_containerParent'>" + ARTICLE
                + "</div></article><div class='after-story'>" + DECOY + "</div></body>";
        assertThat(content(html)).contains("logbooks, kept in the county archive").doesNotContain("Subscribers read");
    }

    @Test
    void aPartOfTheArticleInTheTopBlocksClassIsKeptThoughItsParagraphsLieDeeperThanTheScoresReach() {
        String deep = "<div><div><div><div><div><p>" + "The keepers were paid by the lighthouse board, in coin, four"
                + " times a year, and bought their own food.</p><p>Each spring a boat brought paint, oil and wicks for"
                + " the lamp, and took the winter's letters ashore.</p></div></div></div></div></div>";
        String html = "<body><div id='story'><div class='story-part'>" + deep + "</div><figure>A photo</figure>"
                + "<div class='story-part'>" + ARTICLE + "</div></div><div class='other'>x</div></body>";
        assertThat(content(html)).contains("paid by the lighthouse board").contains("county archive");
    }

    @Test
    void aStoryInSectionsOfOneClassEachInAWrapperOfItsOwnIsReadWhole() {
        // Drupal's paragraphs: each section of the story in its own wrapper beside its picture, not siblings
        String part = "<div class='field-item'><figure><img src='/p.jpg'></figure><div class='text-formatted'>%s"
                + "</div></div>";
        String html = "<body><div class='story'>" + part.formatted(ARTICLE) + "<div class='slot'>Advertisement</div>"
                + part.formatted("<p>The keepers' children rowed to school on the mainland each morning, weather"
                + " permitting.</p><p>When it did not, they stayed with an aunt in the harbour town.</p>")
                + "</div><div class='more'>" + DECOY
                + "</div></body>";
        assertThat(content(html)).contains("county archive").contains("rowed to school").doesNotContain("Advertisement")
                .doesNotContain("Subscribers read");
    }

    @Test
    void aReferencePageInHeadedSectionsIsReadWholeThoughOneSectionHoldsMostParagraphs() {
        // PostgreSQL's DocBook pages: a name, a synopsis and sections of one class; the parameters' list alone holds
        // more paragraphs than all the rest, and Readability.js keeps it alone (CREATE TABLE from "TEMPORARY or TEMP")
        StringBuilder parameters = new StringBuilder("<div class='refsect1'><h2>Parameters</h2>"
                + "<div class='variablelist'><dl>");
        for (String name : List.of("TEMPORARY", "UNLOGGED", "IF NOT EXISTS", "table_name", "column_name", "data_type",
                "COLLATE", "INHERITS", "PARTITION BY", "LIKE", "CHECK", "DEFAULT", "UNIQUE", "PRIMARY KEY")) {
            parameters.append("<dt><code>").append(name).append("</code></dt><dd><p>If specified, the table is"
                    + " created with this, which changes how it is stored, logged, replicated and dropped, and which"
                    + " names it may share, as the notes below explain.</p></dd>");
        }
        parameters.append("</dl></div></div>");
        String html = "<body><div class='navheader'><table><tr><td><a href='/prev'>Prev</a></td><td><a href='/up'>Up"
                + "</a></td></tr></table></div><div class='refentry'><div class='refnamediv'><h2>CREATE TABLE</h2>"
                + "<p>CREATE TABLE — define a new table</p></div><div class='refsynopsisdiv'><h2>Synopsis</h2><pre>"
                + "CREATE [ TEMPORARY ] TABLE [ IF NOT EXISTS ] table_name ( column_name data_type [, ... ] )</pre>"
                + "</div><div class='refsect1'><h2>Description</h2><p>CREATE TABLE will create a new, initially empty"
                + " table in the current database, owned by the user issuing the command.</p></div>" + parameters
                + "<div class='refsect1'><h2>Notes</h2><p>PostgreSQL automatically creates an index for each unique"
                + " constraint and primary key constraint to enforce uniqueness.</p></div></div>"
                + "<div class='navfooter'><a href='/next'>Next</a></div></body>";
        assertThat(content(html)).startsWith("CREATE TABLE\n\nCREATE TABLE — define a new table\n\nSynopsis")
                .contains("initially empty table").contains("UNLOGGED").contains("automatically creates an index")
                .doesNotContain("Prev").doesNotContain("Next");
    }

    @Test
    void aSectionOfOneParagraphInTheStorysSectionClassIsReadWithTheRest() {
        // org-mode's export: each section a heading and its text in a div of one class; the first holds one paragraph,
        // which the scores credit past its div, as Readability replaces a div around a lone paragraph by it
        String section = "<div class='outline-2'><h2>%s</h2><div class='outline-text-2'>%s</div></div>";
        String html = "<body><div class='post-body'>" + section.formatted("Why", "<p>Decorators in Python let you wrap"
                + " a function in another, and advice in Emacs did the same long before, which is how it began.</p>")
                + section.formatted("How", ARTICLE.replace("<h1>The lighthouse keepers</h1>", "")) + "</div><div"
                + " class='after-story'>" + DECOY + "</div></body>";
        assertThat(content(html)).contains("Decorators in Python").contains("county archive")
                .doesNotContain("Subscribers read");
    }

    @Test
    void anAuthorsBoxAfterThePostIsLeftOut() {
        String bio = "<p>Hanna writes about the coast, its lights and its people, and teaches history at the harbour"
                + " school when she is not out on the rocks with a notebook.</p>";
        for (String box : new String[] {"author-box", "author-card", "author-info", "entry-author-info"}) {
            String html = "<body><article class='post'>" + ARTICLE + "<div class='" + box + "'>" + bio
                    + "</div></article></body>";
            assertThat(content(html)).as(box).contains("county archive").doesNotContain("teaches history");
        }
    }

    @Test
    void aPostWrittenAsOneParagraphWithBlankLinesScoresAsItsParagraphs() {
        // Readability's replaceBrs: each run between two <br> is a paragraph of its own, so five of them outweigh
        // a box of two paragraphs that, as one paragraph, they would not
        String run = "The keepers wrote in the logbook every four hours about the weather and the lamp and the boats"
                + " that passed the rock on their way north to the harbour and back again in the evening";
        String post = "<div class='entry'><p>" + String.join("<br>\n<br>\n", Collections.nCopies(5, run)) + "</p></div>";
        String other = "<p>Another story from the coast tells of the ferry that sank in the storm of the winter before"
                + " the war and of the village that waited three days on the quay for news that never came</p>";
        String html = "<body><h1>The logbook</h1>" + post + "<div class='more'>" + other + other.replace("Another", "A")
                + "</div></body>";
        assertThat(content(html)).contains("passed the rock").doesNotContain("ferry");
    }

    @Test
    void drupalsChaosToolsBlockIsNoToolbar() {
        // Drupal's CTools module names the block around a node's fields block-ctools; an article's tools stay out
        String tools = "<div class='entry-tools'>Print this story, save it for later or send it to a friend</div>";
        String html = "<body><div class='block block-ctools block-entity-viewnode'><div class='field'>" + ARTICLE
                + tools + "</div></div>" + TEASERS + "</body>";
        assertThat(content(html)).contains("county archive").doesNotContain("Print this story");
    }

    @Test
    void aSectionThatHasAdsIsNoAd() {
        // skateboardmsm's story sits in a section named for the ads placed in it (BEM's modifier, a has- flag)
        String ad = "<div class='ads'>Advertisement: the best boards of the season, at half price this week only</div>";
        for (String section : new String[] {"o-section o-section--has-ads", "report__section report__section--ads"}) {
            String html = "<body><section class='" + section + "'>" + ARTICLE + ad + "</section>" + TEASERS + "</body>";
            assertThat(content(html)).as(section).contains("county archive").doesNotContain("half price");
        }
    }

    @Test
    void bloggersBlogWidgetIsThePosts() {
        // Blogger puts every post in a widget named Blog, beside lists of links that may hold more text than one post
        String links = "<div class='archive'>" + "<p><a href='/older'>Another story from the coast, one of many we have"
                + " told, about a ferry that sank in a storm before the war</a></p>".repeat(6) + "</div>";
        String html = "<body><div class='widget Blog' id='Blog1'><div class='post hentry'><div class='post-body"
                + " entry-content'>" + ARTICLE + "</div></div></div>" + links + "</body>";
        assertThat(content(html)).contains("county archive").doesNotContain("ferry");
    }

    @Test
    void aDialogNamedSoIsLeftOutAndADialogueIsNot() {
        // MSN's "make this your home page" steps, a dialog by its id alone; a play's dialogue is the text
        String steps = "<div id='makehomepagedialog'><ul><li>On the toolbar, click Firefox, then click Preferences and"
                + " choose the page you want to see first</li></ul></div>";
        String play = "<div class='dialogue'><p>KEEPER: The lamp wants trimming again, and the wind is up.</p></div>";
        String html = "<body><article>" + ARTICLE + play + steps + "</article></body>";
        assertThat(content(html)).contains("county archive").contains("lamp wants trimming").doesNotContain("toolbar");
    }

    @Test
    void numberedPartsOfOneClassAreOneStory() {
        // The New York Times: story-body story-body-1, then story-body story-body-2 in another wrapper
        String first = "<div class='story-body story-body-1'><p>The sale is being done in two steps, and the first"
                + " moves every asset of the business to a new company, which is then sold for cash.</p></div>";
        String second = "<div class='story-body story-body-2'>" + ARTICLE + "</div>";
        String side = "<div class='col-md-4'><p>Other stories from the markets desk, and the week's letters from our"
                + " readers about the harbour.</p></div>";
        String html = "<body><div class='page'><div class='top'><div class='wrap'>" + first + "</div></div>"
                + "<div class='x'><div class='y'><div class='col-md-8'><p class='by'>By A. Writer</p>" + second
                + "</div>" + side + "</div></div></div></body>";
        assertThat(content(html)).contains("two steps").contains("county archive").doesNotContain("letters");
    }

    @Test
    void aPlaceholderForBlockedContentIsLeftOut() {
        // Amnesty's video, blocked until the reader agrees: "we respect your privacy ..." in its place
        String held = "<div class='third-party-services--placeholder'><div class='message'>We respect your privacy and"
                + " connect to no third party without your consent, so this video loads once you agree.</div></div>";
        String html = "<body><div id='ctl00_PlaceHolder1'><article>" + ARTICLE + held + "</article></div>" + TEASERS
                + "</body>";
        assertThat(content(html)).contains("county archive").doesNotContain("respect your privacy");
    }

    @Test
    void readersCommentsInGermanAreLeftOut() {
        String comment = "<div class='kommentar-text'><p>Schön, dass man daran arbeitet, aber ein kleiner Park ist noch"
                + " kein Quantensprung, und das sagen hier viele Leser.</p></div>";
        String html = "<body><article class='post'>" + ARTICLE + "<div id='kommentare'>" + comment
                + "</div></article></body>";
        assertThat(content(html)).contains("county archive").doesNotContain("Quantensprung");
    }

    /**
     * Sphinx names each section after its heading: "Comments &amp; proposals" is a section of a manual, and
     * "Integrating ... web-app" holds "rating"; a block named {@code comments} under "Comments" is the readers'.
     */
    @Test
    void aSectionNamedAfterItsHeadingIsNoBoilerplateByThatName() {
        String html = "<body><article>" + ARTICLE
                + "<section id='comments-proposals'><span id='label'></span><h2>Comments &amp; proposals</h2><p>Each"
                + " keeper wrote a proposal for the logbook, and the archive keeps their comments beside it.</p>"
                + "</section><section id='integrating-the-logbook-into-your-web-app'><h2>Integrating the logbook into"
                + " your web-app</h2><p>The archive serves every page of the logbook as an image and as text.</p>"
                + "</section><div id='comments'><h2>Comments</h2><p>What a lovely story, and so well told, thank"
                + " you for writing it down for all of us.</p></div></article></body>";
        assertThat(content(html)).contains("county archive").contains("Each keeper wrote")
                .contains("serves every page").doesNotContain("lovely story");
    }

    @Test
    void navInsideAWordIsNoMenu() {
        // a style's hash that begins with Nav (videos-1), a heading's anchor (heise's nav_nur_die_folie)
        String html = "<body><article>" + ARTICLE.replace("<p>Their", "<p class='NavzzU'>Their")
                + "<h3 id='nav_the_last'>The last keeper</h3><p>He kept the logbook for forty years, and his son keeps"
                + " it now.</p><nav class='main-nav'><ul><li><a href='/'>Home</a></li></ul></nav>"
                + "<div class='navbar'>Stories by the coast and its lights, every week, from our newsroom</div>"
                + "</article></body>";
        assertThat(content(html)).contains("county archive").contains("The last keeper").doesNotContain("every week");
    }

    @Test
    void aFieldWhoseLabelIsHiddenIsNotWeighedAsHidden() {
        // Drupal: every text field says field--label-hidden (its label is hidden, not its text); Bootstrap's
        // hidden-xs hides a block on phones only
        String teaser = "<div class='more'><div class='teaser-text'><p>Subscribers read every story first and get the"
                + " weekly digest.</p><p>Support the newsroom's independent reporting for a coffee a week.</p>"
                + "</div></div>";
        String drupal = "<body><div class='layout'><div class='field field--name-body field--label-hidden'>" + ARTICLE
                + "</div></div>" + teaser + "</body>";
        String bootstrap = "<body><div class='layout'><div class='story-text hidden-xs'>" + ARTICLE + "</div></div>"
                + teaser + "</body>";
        assertThat(content(drupal)).contains("county archive").doesNotContain("Subscribers read");
        assertThat(content(bootstrap)).contains("county archive").doesNotContain("Subscribers read");
    }

    @Test
    void theLeadInTheArticlesHeaderFollowsTheTitleAndTheLeadPicturesCaptionDoesNot() {
        String html = "<body><header class='article-header'><h1>The lighthouse keepers</h1><figure class='lead-asset'>"
                + "<img src='/l.jpg'><figcaption>The rock from the air, in a photo from the county's collection"
                + "</figcaption></figure><p class='article-standfirst'>A century of logbooks tells how the keepers of"
                + " the northern light lived, and why the last one left.</p></header><div class='article-body'>"
                + ARTICLE.replace("<h1>The lighthouse keepers</h1>", "") + "</div></body>";
        assertThat(content(html)).startsWith("The lighthouse keepers\n\nA century of logbooks tells how")
                .contains("county archive").doesNotContain("from the air");
    }

    @Test
    void anArticleInABlockNamedToolsIsReadAgainWithTheClassWeightsBeforeByTagsAlone() {
        String legal = ("<p>Terms of use: by reading this site you agree to the terms, the privacy notice, the cookie"
                + " policy, the community rules, the corrections policy and any other notice we publish from time to"
                + " time.</p>").repeat(5);
        String html = "<body><div class='col'><div class='article-body'><div class='post-tools-wrapper'>" + ARTICLE
                + "</div></div><p>x</p></div><div class='col'><div class='footer-legal'>" + legal
                + "</div><p>y</p></div></body>";
        // Read by tags alone, the legal text outscores the article; weighed by class, the article wins.
        assertThat(content(html)).contains("county archive").doesNotContain("Terms of use");
    }

    @Test
    void anArticleInAWrapperNamedForItsSidebarWinsOverAShortBlockLeftBesideIt() {
        String html = "<body><div class='sidebar-wrapper'><div class='entry-content'>" + ARTICLE + ARTICLE
                .replace("<h1>The lighthouse keepers</h1>", "") + "</div><div class='widget'>Archives</div></div>"
                + "<div class='after-story'>" + DECOY + "</div></body>";
        // Read strictly, the wrapper goes for its words and the block beside it passes for the content.
        assertThat(content(html)).contains("county archive").doesNotContain("Subscribers read");
    }

    @Test
    void aWrapperNamedForWidgetsIsKeptAndThePostsFooterInsideItIsStillLeftOut() {
        // Blogger: every post inside a div.widget.Blog, its footer a block of its own
        String html = "<body><div class='widget Blog' id='Blog1'><div class='post hentry'>" + ARTICLE
                + "<div class='post-footer'>Posted by the keeper at 21:11, filed under lights</div></div></div>"
                + "<div class='sidebar-profile'><p>About me: I write about the coast.</p></div></body>";
        assertThat(content(html)).contains("county archive").doesNotContain("Posted by").doesNotContain("About me");
    }

    @Test
    void aPicturesCreditIsLeftOutAndItsCaptionKept() {
        String html = "<body><article>" + ARTICLE + "<figure><img src='/keeper.jpg'><figcaption>The last keeper, in"
                + " his last winter <span class='credit'>Photo: County Archive</span></figcaption></figure>"
                + "<div class='wp-caption'><p class='wp-caption-text'>The rock at low tide</p><p class='copyright'>"
                + "Bild: Jahr Media</p></div></article></body>";
        assertThat(content(html)).contains("in his last winter").contains("The rock at low tide")
                .doesNotContain("County Archive").doesNotContain("Jahr Media");
    }

    @Test
    void aShareBarsTitleIsLeftOutAndAWrapperWhoseIdSaysShareIsNot() {
        String html = "<body><div id='post-share-wrapper'><article>" + ARTICLE
                + "<div class='heateor_sss_sharing_container'><div class='heateor_sss_sharing_title'>Share this article"
                + "</div><a href='/s?fb'></a></div></article></div></body>";
        assertThat(content(html)).contains("county archive").doesNotContain("Share this article");
    }

    @Test
    void aFormAroundTheWholePageIsAWrapperAndASearchFormIsNot() {
        String html = "<body><form id='aspnetForm' action='/page.aspx'><div class='layout'><form role='none'>"
                + "<p>Search the whole site, every story</p><input name='q'></form><div class='story'>" + ARTICLE
                + "</div></div></form></body>";
        assertThat(content(html)).contains("county archive").doesNotContain("Search the whole site");
    }

    @Test
    void aHeaderLeftUnclosedThatTakesInTheArticleIsNotLeftOut() {
        String html = "<body><header><div class='logo'>The Coast Gazette</div><div class='story'>" + ARTICLE
                + "</body>";
        assertThat(content(html)).contains("county archive");
    }

    @Test
    void anArticleInAnAsideThatIsMostOfMainIsNotLeftOut() {
        // rnz.de: the story is an <aside> that is the whole of <main>, on a page whose menus hold most of its text
        String menus = "<nav><ul>" + "<li><a href='/r'>Region, Politik, Sport, Kultur und alle Ressorts</a></li>"
                .repeat(20) + "</ul></nav>";
        String html = "<body>" + menus + "<main><aside class='pa-direct-content'><section>" + ARTICLE
                + "</section></aside></main><aside class='sidebar'>" + DECOY + "</aside></body>";
        assertThat(content(html)).contains("county archive").doesNotContain("Subscribers read");
    }

    @Test
    void anArticleInANoscriptIsReadAndANoscriptsLineAskingForJavaScriptIsNot() {
        // Google's Blogger blogs: the article as a script's template, and again in <noscript> for readers without
        // scripts, its only copy outside a script
        String html = "<body><div class='post'><div class='post-body' itemprop='articleBody'>"
                + "<script type='text/template'>" + ARTICLE + "</script><noscript>" + ARTICLE + "</noscript>"
                + "<noscript><p>Please enable JavaScript to see the comments.</p></noscript>"
                + "<noscript><img src='https://example.org/pixel.gif'></noscript></div></div>"
                + "<div class='sidebar-promo'>" + DECOY + "</div></body>";
        assertThat(content(html)).contains("logbooks, kept in the county archive").doesNotContain("enable JavaScript")
                .doesNotContain("Subscribers read");
    }

    @Test
    void anAmpPhotoViewerWhoseClassSaysContentDoesNotOutscoreTheArticle() {
        // Chefkoch: a lightbox of the recipe's photos, shown only when the reader opens one, each with its lines
        String photo = "<div><div>1/199 A reader's photo of the cake</div><div>Log in to rate this photo, then"
                + " tell us what you think of it.</div><div>You have already rated this photo, thank you.</div></div>";
        String html = "<body><main><div class='recipe-image'><amp-lightbox id='viewer'>"
                + "<div class='lightbox-content lightbox-content--with-ads'><amp-carousel>" + photo.repeat(7)
                + "</amp-carousel></div></amp-lightbox></div><article class='ds-box'><div>" + ARTICLE.replace("<p>", "")
                .replace("</p>", "<br>") + "</div></article></main><amp-sidebar id='menu'>" + DECOY + "</amp-sidebar></body>";
        assertThat(content(html)).contains("logbooks, kept in the county archive").doesNotContain("rate this photo")
                .doesNotContain("Subscribers read");
    }

    @Test
    void aCarouselOfLinksIndentedAsTemplatesIndentDoesNotOutscoreTheArticle() {
        // Dr. Oetker: other recipes, each a slide with one link, written with a template's deep indent; white
        // space between tags is no text, or each slide passes for a paragraph with little link text
        String indent = "\n" + " ".repeat(120);
        String slide = "<div class='slide'>" + indent + "<a href='/r/%d'>Another recipe %d</a>" + indent + "</div>";
        StringBuilder carousel = new StringBuilder("<div class='gallery-slides'>");
        for (int i = 0; i < 25; i++) {
            carousel.append(indent).append(slide.formatted(i, i));
        }
        String html = "<body><div class='stage'>" + carousel + "</div><div class='dots'>1 2 3</div></div>"
                + "<div class='column'><div class='contentbox'>" + ARTICLE + "</div><div class='rating'>5 stars</div>"
                + "</div></body>";
        assertThat(content(html)).contains("logbooks, kept in the county archive").doesNotContain("Another recipe");
    }

    @Test
    void aPostThatIsAListOfLinksIsKeptAndAListOfLinksNamedForSharingIsNot() {
        // a link roll (Diigo's): each item a link and a line on it, mostly link text, as a list of other pages is
        String item = "<li><a href='/read/%d'>The keepers of the northern light, part %d of a history</a> (via"
                + " the Gazette)</li>";
        StringBuilder roll = new StringBuilder("<ul class='linkroll'>");
        for (int i = 1; i <= 4; i++) {
            roll.append(item.formatted(i, i));
        }
        String share = "<ul class='share-links'><li><a href='/s/1'>Share this post on the keepers of the northern"
                + " light on the social network of your choice, with a line of your own to your friends, your family"
                + " and everyone who follows you</a></li></ul>";
        String html = "<body><article class='post'><h1>Links of the week</h1>" + ARTICLE.replace("<h1>The lighthouse"
                + " keepers</h1>", "") + roll + "</ul>" + share + "</article><div class='after-story'>" + DECOY
                + "</div></body>";
        assertThat(content(html)).contains("part 1 of a history (via the Gazette)")
                .contains("part 4 of a history").doesNotContain("Share this post").doesNotContain("Subscribers read");
    }

    /**
     * The content's first line is the article's title: La Stampa's {@code h1} is its section ("Cronaca"), the title an
     * {@code h2} in the article's header, which the page's {@code <title>} holds; scinexx's {@code h1} is the title
     * and the {@code h2} after it, which the title holds too, its subtitle; a short heading the title holds ("News")
     * is a section's name; rnz.de's title is in the header of the {@code <aside>} that is its story.
     */
    @Test
    void theTitleLineIsTheHeadingThePagesTitleNames() {
        String story = ARTICLE.replace("<h1>The lighthouse keepers</h1>", "");
        String section = "<title>The keepers of the northern light - The Coast Gazette</title><body><header><h1>Cronaca"
                + "</h1></header><article><header><h2>The keepers of the northern light</h2></header><div>" + story
                + "</div></article></body>";
        assertThat(content(section)).startsWith("The keepers of the northern light\n\nFor a century");
        assertThat(MainContent.of(Jsoup.parse(section, "https://example.org/story"),
                new ContentRequest(ContentFormat.MARKDOWN, 100_000)).content().text())
                .startsWith("# The keepers of the northern light\n\nFor a century"); // the title heads it, an h2 or not
        String subtitle = "<title>The lighthouse keepers - Life on the rock, a century long - Gazette</title><body><header>"
                + "<h1>The lighthouse keepers</h1><h2>Life on the rock, a century long</h2></header><div>" + story
                + "</div></body>";
        assertThat(content(subtitle)).startsWith("The lighthouse keepers\n\nFor a century");
        String news = "<title>News - The Coast Gazette</title><body><header><h1>The lighthouse keepers</h1></header>"
                + "<div><h2>News</h2></div><div>" + story + "</div></body>";
        assertThat(content(news)).startsWith("The lighthouse keepers\n\nFor a century");
        // rnz.de: the title in the story's own header, in the <aside> that is the story
        String inAside = "<title>The keepers of the northern light - Gazette</title><body><main><aside><section><header>"
                + "<h1>The keepers of the northern light</h1><a href='/share'>Share</a></header><div class='teaser'>"
                + story + "</div></section></aside></main></body>";
        assertThat(content(inAside)).startsWith("The keepers of the northern light\n\nFor a century");
        // shingon-reiki.de: the page's h1 is the title, and the post's own h2 says it again
        String twice = "<body><header><h1>The lighthouse keepers</h1></header><div class='entry'><h2>The lighthouse"
                + " keepers</h2>" + story + "</div></body>";
        assertThat(content(twice)).startsWith("The lighthouse keepers\n\nFor a century");
        assertThat(MainContent.of(Jsoup.parse(twice, "https://example.org/story"),
                new ContentRequest(ContentFormat.MARKDOWN, 100_000)).content().text())
                .startsWith("# The lighthouse keepers\n\nFor a century");
        String asParagraph = twice.replace("<h2>The lighthouse keepers</h2>", "<p>The lighthouse keepers</p>");
        assertThat(MainContent.of(Jsoup.parse(asParagraph, "https://example.org/story"),
                new ContentRequest(ContentFormat.MARKDOWN, 100_000)).content().text())
                .startsWith("# The lighthouse keepers\n\nFor a century");
        // ethify.org: the title again as the bold first line of a paragraph, over a subtitle
        String bold = twice.replace("<h2>The lighthouse keepers</h2>", "<p><strong>The lighthouse keepers</strong><br>"
                + "<em>A century on the rock</em></p>");
        assertThat(content(bold)).startsWith("The lighthouse keepers\nA century on the rock\n\nFor a century");
        assertThat(MainContent.of(Jsoup.parse(bold, "https://example.org/story"),
                new ContentRequest(ContentFormat.MARKDOWN, 100_000)).content().text())
                .startsWith("# The lighthouse keepers\n\n*A century on the rock*\n\nFor a century");
    }

    @Test
    void anAccordionsPanelsAreContentThoughBootstrapCallsItATablist() {
        String html = "<body><div class='panel-group' role='tablist'><div class='panel'><div role='tab'><h4>"
                + "<a href='#one'>The keepers</a></h4></div><div role='tabpanel' id='one'><div class='panel-body'>"
                + ARTICLE + "</div></div></div></div><div class='after-story'>" + DECOY + "</div></body>";
        assertThat(content(html)).contains("county archive").doesNotContain("Subscribers read");
    }

    @Test
    void markdownAndTextChooseTheSameReadingThoughLinksMakeTheMarkdownLonger() {
        String far = "https://archive.example.org/collections/maritime/northern-light/keepers/logbooks/" + "volume/".repeat(12);
        String linked = ARTICLE.replace("county archive", "<a href='" + far + "1'>county archive</a>")
                .replace("supply boats", "<a href='" + far + "2'>supply boats</a>")
                .replace("village auction", "<a href='" + far + "3'>village auction</a>");
        String html = "<body><div class='sidebar-wrapper'><div class='entry-content'>" + linked + "</div></div>"
                + "<div class='after-story'>" + DECOY + "</div></body>";
        // Read strictly, the wrapper goes for its words; the reading that keeps it is under three times as long in
        // words, over it with its link targets: the choice is the words' in both forms.
        String text = content(html);
        String markdown = MainContent.of(Jsoup.parse(html, "https://example.org/story"),
                new ContentRequest(ContentFormat.MARKDOWN, 100_000)).content().text();
        assertThat(ContentCorpusTest.Tokens.of(CommonMarkReading.of(markdown).text()))
                .isEqualTo(ContentCorpusTest.Tokens.of(text));
    }

    /** Docusaurus names every heading {@code anchorTargetStickyNavbar_...}: a heading, not a navigation bar. */
    @Test
    void aDocusaurusHeadingStays() {
        String intro = "This page explains how the crawler treats the servers it visits, and why. ".repeat(3).strip();
        String install = "Add the dependency to your build, whichever tool you use, and run it once. ".repeat(3).strip();
        String html = "<body><nav class='navbar'><a href='/docs'>Docs</a> <a href='/blog'>Blog</a></nav>"
                + "<article><div class='theme-doc-markdown markdown'><header><h1>Probe page</h1></header>"
                + "<p>" + intro + "</p><h2 class='anchor anchorTargetStickyNavbar_Vzrq' id='install'>Install"
                + "<a href='#install' class='hash-link'>&#8203;</a></h2><p>" + install + "</p></div></article></body>";
        assertThat(content(html)).isEqualTo("Probe page\n\n" + intro + "\n\nInstall\n\n" + install);
    }

    /** The article's own header, left out with its byline, keeps its title and its lead. */
    @Test
    void aLeadInTheArticlesOwnHeaderStays() {
        String html = "<body><article><header><h1>The lighthouse keepers</h1><p class='article-lead'>A century of"
                + " logbooks from a rock a mile out, found at a village auction.</p><span class='byline'>By Ann"
                + " Lee</span></header>" + ARTICLE.replace("<h1>The lighthouse keepers</h1>", "") + "</article>"
                + "<div class='after-story'>" + DECOY + "</div></body>";
        assertThat(content(html)).startsWith("The lighthouse keepers\n\nA century of logbooks from a rock a mile"
                + " out, found at a village auction.\n\nFor a century").doesNotContain("By Ann Lee");
    }

    /**
     * A lesser heading that the page's title names is the title (Medium's {@code h3}, a manual's numbered
     * {@code h4}); written where it stands when the content holds it after a photo's caption, not twice.
     */
    @Test
    void aHeadingTheTitleNamesIsTheTitleWhateverItsLevel() {
        String story = ARTICLE.replace("<h1>The lighthouse keepers</h1>", "");
        String head = "<head><title>The lighthouse keepers of the north | Coast Magazine</title></head>";
        assertThat(content("<html>" + head + "<body><div class='menu'><a href='/'>Home</a></div><div class='story'>"
                + "<div class='related'><h3>The lighthouse keepers of the north</h3></div>" + story
                + "</div></body></html>"))
                .startsWith("The lighthouse keepers of the north\n\nFor a century");
        String captioned = "<html>" + head + "<body><article><figure><img src='rock.jpg'><figcaption>The rock, a mile"
                + " out.</figcaption></figure><h3>4.2 The lighthouse keepers of the north</h3>" + story
                + "</article></body></html>";
        assertThat(content(captioned)).startsWith("The rock, a mile out.\n\n4.2 The lighthouse keepers of the north"
                + "\n\nFor a century");
    }

    /** Other stories' teasers, more text than {@link #ARTICLE}: a block around the article is no wrapper of the page. */
    private static final String TEASERS = "<div class='teasers'>" + ("<div class='field'><p>Another story from the"
            + " coast, one of many we have told, about a ferry that sank in a storm before the war.</p></div>").repeat(6)
            + "</div>";

    private static String content(String html) {
        return MainContent.of(Jsoup.parse(html, "https://example.org/story"),
                new ContentRequest(ContentFormat.TEXT, 100_000)).content().text();
    }
}
