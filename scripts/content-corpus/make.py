#!/usr/bin/env python3
"""Writes loomcrawl's main-content test corpus: pages in the shapes real sites give them (WordPress, news CMSs,
Medium-like, MkDocs, Sphinx, a forum, a Q&A site, a wiki, a government site, Hugo, a changelog), each with the
main text a careful reader would mark, in crawler/src/test/resources/content-corpus/NAME.html and NAME.txt.

The article text is in articles.py; the boilerplate around it is each template's: navigation, cookie notices,
share bars, related lists, comments, side bars and footers. Run: python3 scripts/content-corpus/make.py
"""
import html, json, os, re, sys

sys.path.insert(0, os.path.dirname(__file__))
from articles import ARTICLES
from parts import blocks_html, head, links

OUT = os.path.join(os.path.dirname(__file__), "..", "..", "crawler", "src", "test", "resources", "content-corpus")


def strip(s):
    return html.unescape(re.sub(r"<[^>]+>", "", s))


def gold_blocks(a):
    out = [a["title"]]
    if "posts" in a:
        out += [body for _, body in a["posts"]]
        return out
    if "question" in a:
        return out + [a["question"]] + a["answers"]
    for kind, v in a["blocks"]:
        if kind in ("ul", "ol"):
            out += [strip(i) for i in v]
        elif kind == "table":
            out += [" ".join(strip(c) for c in row) for row in v]
        elif kind == "dl":
            for term, d in v:
                out += [strip(term), strip(d)]
        elif kind == "pre":
            out.append(v)
        else:
            out.append(strip(v))
    return out


COOKIE = """<div id="cookie-consent" class="cookie-banner" role="dialog"><p>We use cookies to improve your experience, to show you personalised
advertising and to analyse our traffic. By clicking Accept you agree to our use of cookies as described in our cookie policy.</p>
<button>Accept all</button><button>Manage preferences</button></div>"""

NEWSLETTER = """<div class="newsletter-signup"><h3>Get the morning briefing</h3><p>The day's most important stories, in your inbox
before breakfast. Sign up for our free newsletter, and you can unsubscribe at any time.</p><form><input type="email"
placeholder="Your email"><button>Sign up</button></form></div>"""


def wordpress(a):
    sections = ["News", "Politics", "Business", "Culture", "Sport", "Opinion", "Food", "Travel"]
    return head(a, "The Harbour Gazette") + f"""
<body class="post-template-default single single-post">
<a class="skip-link screen-reader-text" href="#content">Skip to content</a>
<header id="masthead" class="site-header"><div class="site-branding"><p class="site-title"><a href="/">The Harbour Gazette</a></p>
<p class="site-description">Local news since 1887</p></div>
<nav id="site-navigation" class="main-navigation"><ul id="primary-menu" class="menu">{links(sections)}</ul></nav></header>
<div id="content" class="site-content"><div id="primary" class="content-area"><main id="main" class="site-main">
<article id="post-4121" class="post-4121 post type-post status-publish format-standard hentry category-news">
<header class="entry-header"><h1 class="entry-title">{a['title']}</h1>
<div class="entry-meta"><span class="posted-on">Posted on <time class="entry-date published" datetime="{a['published']}">14 October 2026</time></span>
<span class="byline"> by <span class="author vcard"><a class="url fn n" href="/author/ml">{a['author'] or 'Staff'}</a></span></span></div></header>
<div class="entry-content">
{blocks_html(a['blocks'], between=lambda i: '<div class="ad-container"><p class="ad-label">Advertisement</p><div id="div-gpt-ad-1"></div></div>' if i == 2 else None)}
<div class="sharedaddy sd-sharing-enabled"><div class="robots-nocontent sd-block sd-social"><h3 class="sd-title">Share this:</h3>
<ul><li><a href="/share?fb">Facebook</a></li><li><a href="/share?x">X</a></li><li><a href="/share?mail">Email</a></li></ul></div></div>
<div id="jp-relatedposts" class="jp-relatedposts"><h3 class="jp-relatedposts-headline"><em>Related</em></h3>
<div class="jp-relatedposts-items"><p><a href="/2026/09/ferry">Ferry timetable changes for the winter</a></p>
<p><a href="/2026/08/quay">North quay to get new lighting</a></p><p><a href="/2026/07/budget">What the city budget means for you</a></p></div></div>
</div>
<footer class="entry-footer"><span class="cat-links">Posted in <a href="/news">News</a></span> <span class="tags-links">Tagged <a href="/tag/bridge">bridge</a>, <a href="/tag/council">council</a></span></footer>
</article>
<nav class="navigation post-navigation"><div class="nav-links"><div class="nav-previous"><a href="/prev">Previous: School meals to go organic</a></div>
<div class="nav-next"><a href="/next">Next: Storm warning for the weekend</a></div></div></nav>
<div id="comments" class="comments-area"><h2 class="comments-title">3 thoughts on \u201c{a['title']}\u201d</h2>
<ol class="comment-list"><li class="comment"><article class="comment-body"><footer class="comment-meta"><b class="fn">Erik</b> says:</footer>
<div class="comment-content"><p>About time. I have been taking the ferry to work for two years and it is always late in the winter, when the ice is bad, and nobody seems to care.</p></div></article></li>
<li class="comment"><article class="comment-body"><footer class="comment-meta"><b class="fn">Karin</b> says:</footer>
<div class="comment-content"><p>48 million for a bridge that opens for yachts. Meanwhile the school roof leaks. Priorities, as usual, are upside down in this city.</p></div></article></li></ol>
<div id="respond" class="comment-respond"><h3>Leave a Reply</h3><form><textarea></textarea><button>Post Comment</button></form></div></div>
</main></div>
<aside id="secondary" class="widget-area"><section class="widget widget_search"><form><input type="search"></form></section>
<section class="widget widget_recent_entries"><h2 class="widget-title">Recent Posts</h2><ul>{links(["Storm warning for the weekend", "School meals to go organic", "Harbour festival dates announced", "New parking rules in the old town"])}</ul></section>
<section class="widget widget_text"><h2 class="widget-title">About us</h2><div class="textwidget"><p>The Harbour Gazette is an independent local newspaper, owned by its readers since 1994, and published every weekday.</p></div></section></aside></div>
<footer id="colophon" class="site-footer"><div class="site-info"><a href="/about">About</a> | <a href="/privacy">Privacy policy</a> | <a href="/contact">Contact</a> \u00a9 2026 The Harbour Gazette</div></footer>
<script src="/wp-includes/js/wp-embed.min.js"></script>
</body></html>"""


def news_divsoup(a, split=False):
    """An older news CMS: divs and ids, ads and 'read more' boxes between paragraphs, a most-read list."""
    def between(i):
        if i == 1:
            return '<div class="ad-slot ad-slot--inline"><span>Advertisement</span><iframe src="/ads/1"></iframe></div>'
        if i == 3:
            return '<div class="related-inline"><strong>Read more:</strong><ul><li><a href="/a1">Water restrictions extended to the whole region</a></li><li><a href="/a2">Why the rivers are running dry</a></li></ul></div>'
        if i == 4:
            return NEWSLETTER
        return None
    if split:
        # The story in several sibling blocks, as CMSs that insert ads server-side write it.
        chunks = [a["blocks"][0:2], a["blocks"][2:4], a["blocks"][4:]]
        body = "\n".join(f'<div class="story-body__inner">{blocks_html(c)}</div>' + ('<div class="ad-slot"><span>Advertisement</span></div>' if n < 2 else "") for n, c in enumerate(chunks))
    else:
        body = f'<div id="storytext" class="story-body">{blocks_html(a["blocks"], between=between)}</div>'
    return head(a, "Daily Courier", f'<meta property="og:title" content="{html.escape(a["title"])}"><script type="application/ld+json">{json.dumps({"@context": "https://schema.org", "@type": "NewsArticle", "headline": a["title"], "datePublished": a["published"], "author": [{"@type": "Person", "name": a["author"]}]})}</script>') + f"""
<body>
{COOKIE}
<div id="wrapper"><div id="top-bar"><div class="top-links"><a href="/subscribe">Subscribe</a> <a href="/login">Log in</a> <a href="/epaper">E-paper</a></div></div>
<div id="header"><div class="logo"><a href="/"><img src="/logo.png" alt="Daily Courier"></a></div>
<div id="nav"><ul>{links(["Home", "World", "Country", "Farming", "Business", "Weather", "Sport", "Obituaries", "Classifieds"])}</ul></div></div>
<div id="breadcrumbs"><a href="/">Home</a> &gt; <a href="/farming">Farming</a></div>
<div id="main-column">
<div class="article-headline"><h1>{a['title']}</h1></div>
<div class="article-byline">By <a href="/staff/cm">{a['author']}</a> | <span class="date">22 August 2026</span> | <a href="#comments">12 comments</a></div>
<div class="share-tools"><a href="#">Share</a> <a href="#">Tweet</a> <a href="#">Email</a> <a href="#">Print</a></div>
<div class="lead-image"><img src="/img/lead.jpg" alt=""><span class="photo-credit">Photo: Courier archive</span></div>
{body}
<div class="paywall-prompt"><p>You have read 3 of your 5 free articles this month. Subscribe for unlimited access to the Courier's journalism, from 1 a month.</p><a href="/subscribe">Subscribe now</a></div>
<div class="article-tags">Tags: <a href="/t/drought">drought</a> <a href="/t/farming">farming</a></div>
</div>
<div id="right-column"><div class="most-read"><h3>Most read</h3><ol>{links(["Motorway closed after lorry fire", "Council tax to rise by 4 percent", "Local team wins cup final", "Heatwave: what you need to know", "New supermarket opens on ring road"])}</ol></div>
<div class="ad-mpu"><img src="/ads/mpu.gif" alt="Advertisement"></div></div>
<div id="footer"><ul>{links(["About the Courier", "Contact us", "Advertise", "Terms", "Privacy", "Cookie settings", "Jobs"])}</ul><p>\u00a9 Courier Media Group 2026. All rights reserved.</p></div></div>
</body></html>"""


def medium(a):
    return head(a, "Medium-ish") + f"""
<body><div id="root"><div class="a b c">
<nav class="metabar"><a href="/">Home</a><a href="/search">Search</a><a href="/write">Write</a><a href="/signin">Sign in</a></nav>
<main><article><div class="pw-post-body">
<section><div class="n p"><div class="ab ac ae af ag">
<h1 class="pw-post-title" data-testid="storyTitle">{a['title']}</h1>
<div class="pw-author"><a href="/@writer"><img src="/avatar.png" alt="{a['author']}"></a><div><a href="/@writer">{a['author']}</a> <button>Follow</button></div>
<div><span>7 min read</span> \u00b7 <span>Mar 2, 2026</span></div></div>
<div class="speechify-ignore"><button aria-label="clap">1.2K</button><button aria-label="responses">34</button><button>Listen</button><button>Share</button></div>
{blocks_html(a['blocks'], p_class="pw-post-body-paragraph")}
</div></div></section></div></article>
<div class="post-footer"><div><button aria-label="clap">1.2K</button> <button>34 responses</button></div>
<div class="author-card"><h2>Written by {a['author']}</h2><p>2.1K followers \u00b7 Writes about food, cities and small experiments.</p><button>Follow</button></div>
<div class="more-from"><h2>More from {a['author']}</h2><ul>{links(["Why I stopped buying bread", "The best cheap knife", "A month without coffee", "Notes on patience"])}</ul></div>
<div class="recommended"><h2>Recommended from Medium</h2><ul>{links(["The 5 AM club is a lie", "How I read 100 books a year", "Stop planning, start doing"])}</ul></div></div></main>
<footer><a href="/help">Help</a> <a href="/status">Status</a> <a href="/about">About</a> <a href="/careers">Careers</a> <a href="/blog">Blog</a> <a href="/privacy">Privacy</a> <a href="/terms">Terms</a></footer>
</div></div></body></html>"""


def mkdocs(a):
    nav = links(["Home", "Getting started", "Installing the command-line tools", "Configuration", "Commands", "Plugins", "Troubleshooting", "FAQ", "Changelog", "Contributing"], "/docs/")
    toc = links([v for k, v in a["blocks"] if k == "h2"], "#")
    return head(a, "Tools documentation") + f"""
<body dir="ltr" data-md-color-scheme="default">
<input class="md-toggle" data-md-toggle="drawer" type="checkbox" id="__drawer">
<a href="#installing" class="md-skip">Skip to content</a>
<header class="md-header" data-md-component="header"><nav class="md-header__inner md-grid" aria-label="Header"><a href="/" class="md-header__button md-logo">Tools</a>
<div class="md-header__title"><span class="md-ellipsis">Tools documentation</span></div><div class="md-search" role="dialog"><input type="text" placeholder="Search"></div>
<div class="md-header__source"><a href="https://git.example.org/tools">tools/tools \u00b7 4.2.1 \u00b7 2.3k stars</a></div></nav></header>
<div class="md-container" data-md-component="container"><main class="md-main"><div class="md-main__inner md-grid">
<div class="md-sidebar md-sidebar--primary" data-md-component="sidebar" data-md-type="navigation"><div class="md-sidebar__scrollwrap"><div class="md-sidebar__inner">
<nav class="md-nav md-nav--primary" aria-label="Navigation"><ul class="md-nav__list">{nav}</ul></nav></div></div></div>
<div class="md-sidebar md-sidebar--secondary" data-md-type="toc"><nav class="md-nav md-nav--secondary" aria-label="Table of contents"><label class="md-nav__title">Table of contents</label><ul class="md-nav__list">{toc}</ul></nav></div>
<div class="md-content" data-md-component="content"><article class="md-content__inner md-typeset">
<a href="https://git.example.org/tools/edit/main/docs/install.md" title="Edit this page" class="md-content__button md-icon">Edit</a>
<h1 id="installing">{a['title']}</h1>
{blocks_html(a['blocks'], heading_anchor=True, code_class="language-bash")}
<div class="admonition tip"><p class="admonition-title">Tip</p><p>Run the doctor command after installing to check your setup.</p></div>
<aside class="md-source-file"><span class="md-source-file__fact">Last update: 2 November 2026</span></aside>
</article></div></div></main>
<footer class="md-footer"><nav class="md-footer__inner md-grid" aria-label="Footer"><a href="/docs/" class="md-footer__link md-footer__link--prev"><span>Previous</span> Getting started</a>
<a href="/docs/configuration/" class="md-footer__link md-footer__link--next"><span>Next</span> Configuration</a></nav>
<div class="md-footer-meta"><div class="md-copyright">Copyright \u00a9 2026 The Tools authors. Made with Material for MkDocs.</div></div></footer></div>
</body></html>"""


def sphinx(a):
    return head(a, "Python documentation") + f"""
<body>
<div class="related" role="navigation" aria-label="Related"><h3>Navigation</h3><ul><li class="right"><a href="/genindex" title="General Index">index</a></li>
<li class="right"><a href="/py-modindex">modules</a> |</li><li class="right"><a href="/threading" title="threading">next</a> |</li><li><a href="/">Docs</a> &#187;</li><li><a href="/library">The Standard Library</a> &#187;</li></ul></div>
<div class="document"><div class="documentwrapper"><div class="bodywrapper"><div class="body" role="main">
<section id="module-queue"><h1>{a['title']}<a class="headerlink" href="#module-queue" title="Link to this heading">\u00b6</a></h1>
<p><strong>Source code:</strong> <a class="reference external" href="/src/queue.py">Lib/queue.py</a></p><hr class="docutils">
{blocks_html(a['blocks'], heading_anchor=True)}
<div class="admonition seealso"><p class="admonition-title">See also</p><dl><dt>Class <a href="/multiprocessing#Queue">multiprocessing.Queue</a></dt><dd><p>A queue class for use in a multi-processing context.</p></dd></dl></div>
</section></div></div></div>
<div class="sphinxsidebar" role="navigation" aria-label="Main"><div class="sphinxsidebarwrapper"><div><h3><a href="/">Table of Contents</a></h3><ul>{links(["The queue module", "Queue objects", "Example", "SimpleQueue objects"], "#")}</ul></div>
<div><h4>Previous topic</h4><p class="topless"><a href="/sched">sched</a></p></div><div role="note"><h3>This page</h3><ul class="this-page-menu"><li><a href="/bugs">Report a bug</a></li><li><a href="/_sources/queue.rst.txt">Show source</a></li></ul></div>
<div id="searchbox" role="search"><h3>Quick search</h3><form><input type="text" name="q"><input type="submit" value="Go"></form></div></div></div></div>
<div class="footer">\u00a9 Copyright 2001-2026, Python Software Foundation. Last updated on Nov 20, 2026. <a href="/bugs">Found a bug</a>?</div>
</body></html>"""


def forum(a):
    posts = []
    for n, (user, body) in enumerate(a["posts"]):
        sig = '<div class="signature">Gas Safe registered engineer, 22 years. Not a substitute for a site visit.</div>' if user.startswith("Gas") else ""
        posts.append(f"""<div id="p{n}" class="post bg{n % 2 + 1}"><div class="inner">
<dl class="postprofile" id="profile{n}"><dt><a href="/u/{user}" class="username">{user}</a></dt><dd class="profile-rank">{"Expert" if "Dave" in user else "Member"}</dd><dd><strong>Posts:</strong> {37 * (n + 3)}</dd><dd><strong>Joined:</strong> 2019</dd></dl>
<div class="postbody"><h3 class="first"><a href="#p{n}">Re: {a['title']}</a></h3>
<p class="author"><a href="#p{n}">Post</a> by <strong><a href="/u/{user}">{user}</a></strong> \u00bb Fri Jan 09, 2026 9:{14 + n * 7:02d} pm</p>
<ul class="post-buttons"><li><a href="/quote/{n}" title="Reply with quote">Quote</a></li><li><a href="/report/{n}">Report</a></li></ul>
<div class="content">{body}</div>{sig}</div></div></div><hr class="divider">""")
    return head(a, "DIY Heating Forum") + f"""
<body id="phpbb" class="section-viewtopic ltr">
<div id="wrap" class="wrap"><div id="page-header"><div class="headerbar" role="banner"><a href="/" id="logo">DIY Heating Forum</a><p class="skiplink"><a href="#start_here">Skip to content</a></p>
<div id="search-box" class="search-box" role="search"><form><input name="keywords" type="search"><button>Search</button></form></div></div>
<div class="navbar" role="navigation"><ul id="nav-main" class="nav-main linklist" role="menubar"><li><a href="/faq">FAQ</a></li><li><a href="/register">Register</a></li><li><a href="/login">Login</a></li></ul>
<ul id="nav-breadcrumbs" class="nav-breadcrumbs linklist navlinks" role="menubar"><li class="breadcrumbs"><a href="/">Board index</a> \u2039 <a href="/f/boilers">Boilers and central heating</a></li></ul></div></div>
<div id="page-body" class="page-body" role="main"><h2 class="topic-title"><a href="/t/1842">{a['title']}</a></h2>
<div class="action-bar bar-top"><a href="/post/reply" class="button">Post Reply</a><div class="pagination">5 posts \u2022 Page <strong>1</strong> of <strong>1</strong></div></div>
{"".join(posts)}
<div class="action-bar bar-bottom"><a href="/post/reply" class="button">Post Reply</a><div class="pagination">5 posts \u2022 Page 1 of 1</div></div>
<div class="stat-block online-list"><h3>Who is online</h3><p>Users browsing this forum: No registered users and 14 guests</p></div>
<div class="similar-topics"><h3>Similar topics</h3><ul>{links(["Combi boiler losing pressure after service", "Expansion vessel recharge how to", "PRV dripping outside"])}</ul></div></div>
<div id="page-footer" class="page-footer" role="contentinfo"><div class="navbar"><a href="/">Board index</a> <a href="/team">The team</a> <a href="/delete-cookies">Delete cookies</a> All times are UTC</div>
<div class="copyright">Powered by phpBB\u00ae Forum Software \u00a9 phpBB Limited</div></div></div>
</body></html>"""


def qa(a):
    def post(body, votes, comments):
        cs = "".join(f'<li class="comment"><div class="comment-body"><span class="comment-copy">{c}</span> \u2013 <a class="comment-user" href="/u/1">user{len(c)}</a> <span class="comment-date">Nov 30, 2025</span></div></li>' for c in comments)
        return f"""<div class="post-layout"><div class="votecell post-layout--left"><div class="js-voting-container"><button aria-label="Up vote">\u25b2</button><div class="js-vote-count">{votes}</div><button aria-label="Down vote">\u25bc</button></div></div>
<div class="postcell post-layout--right"><div class="s-prose js-post-body" itemprop="text"><p>{body}</p></div>
<div class="post-taglist"><ul class="js-post-tag-list-wrapper"><li><a href="/tags/java" class="post-tag">java</a></li><li><a href="/tags/hashmap" class="post-tag">hashmap</a></li></ul></div>
<div class="post-signature"><div class="user-info"><div class="user-action-time">asked Nov 30, 2025 at 9:12</div><div class="user-details"><a href="/users/42">coder42</a><span class="reputation-score">1,204</span></div></div></div></div>
<div class="post-layout--right js-post-comments-component"><div class="comments"><ul class="comments-list">{cs}</ul></div><a class="js-add-link comments-link" href="#">Add a comment</a></div></div>"""
    answers = "".join(f'<div id="answer-{n}" class="answer js-answer" itemprop="suggestedAnswer">{post(ans, 40 - n * 17, ["This should be the accepted answer."] if n == 0 else [])}</div>' for n, ans in enumerate(a["answers"]))
    return head(a, "Stack Exchange-ish") + f"""
<body class="question-page">
<header class="s-topbar"><div class="s-topbar--container"><a href="/" class="s-topbar--logo">Q&amp;A</a><ol class="s-navigation"><li><a href="/about">About</a></li><li><a href="/products">Products</a></li><li><a href="/teams">For Teams</a></li></ol>
<form id="search" role="search" class="s-topbar--searchbar"><input name="q" type="text" placeholder="Search\u2026"></form><ol class="s-topbar--content"><li><a href="/login">Log in</a></li><li><a href="/signup">Sign up</a></li></ol></div></header>
<div class="container"><div id="left-sidebar" class="left-sidebar js-pinned-left-sidebar"><nav role="navigation"><ol class="nav-links"><li><a href="/">Home</a></li><li><a href="/questions">Questions</a></li><li><a href="/tags">Tags</a></li><li><a href="/users">Users</a></li><li><a href="/unanswered">Unanswered</a></li></ol></nav></div>
<div id="content"><div itemprop="mainEntity" itemscope itemtype="https://schema.org/Question">
<div id="question-header"><h1 itemprop="name" class="fs-headline1"><a href="/q/101" class="question-hyperlink">{a['title']}</a></h1><div class="ml12 aside-cta"><a href="/ask" class="s-btn">Ask Question</a></div></div>
<div class="d-flex fw-wrap"><div title="2025-11-30">Asked <time itemprop="dateCreated" datetime="2025-11-30T09:12:00">1 year ago</time></div><div>Viewed 5,812 times</div></div>
<div id="mainbar" role="main"><div class="question js-question" id="question">{post(a['question'], 31, ["Which Java version is on the build server?", "Never rely on HashMap order in tests."])}</div>
<div id="answers"><div id="answers-header"><h2 class="mb0">2 Answers</h2><div class="js-sort-answers"><label>Sorted by:</label><select><option>Highest score (default)</option></select></div></div>{answers}</div>
<h2 class="bottom-notice">Not the answer you're looking for? Browse other questions tagged <a href="/tags/java" class="post-tag">java</a> or <a href="/questions/ask">ask your own question</a>.</h2></div>
<div id="sidebar" class="show-votes" role="complementary"><div class="s-sidebarwidget"><ul><li><a href="/blog/1">The Overflow Blog: How we scaled search</a></li><li><a href="/blog/2">Featured on Meta: New moderation tools</a></li></ul></div>
<div class="module sidebar-linked"><h4>Linked</h4><ul>{links(["Is the order of a HashSet stable?", "Iterate through a HashMap", "TreeMap or HashMap?"])}</ul></div>
<div id="hot-network-questions" class="module tex2jax_ignore"><h4>Hot Network Questions</h4><ul>{links(["Why is the sky blue on Mars at sunset?", "Can a contract be signed in pencil?", "How do I stop my cat from waking me at 4 am?", "What is the oldest known recipe?"])}</ul></div></div></div></div></div>
<footer id="footer" class="site-footer" role="contentinfo"><div class="site-footer--container"><nav class="site-footer--nav"><ul>{links(["Questions", "Help", "Chat", "Company", "About", "Press", "Work Here", "Legal", "Privacy Policy", "Terms of Service", "Contact Us", "Cookie Settings"])}</ul></nav><p class="site-footer--copyright">Site design / logo \u00a9 2026; user contributions licensed under CC BY-SA.</p></div></footer>
</body></html>"""


def wiki(a):
    def between(i):
        return None
    sections = []
    body = blocks_html(a["blocks"])
    body = re.sub(r'(<h2 id="[^"]+">)([^<]+)(</h2>)', r'\1<span class="mw-headline">\2</span><span class="mw-editsection"><span class="mw-editsection-bracket">[</span><a href="/edit">edit</a><span class="mw-editsection-bracket">]</span></span>\3', body)
    first_p_end = body.index("</p>") + 4
    infobox = """<table class="infobox" style="width:22em"><caption>Skerry Point Lighthouse</caption><tbody><tr><th>Location</th><td>Skerry Point, the Sound</td></tr><tr><th>Coordinates</th><td>56\u00b012\u2032N 5\u00b034\u2032W</td></tr><tr><th>Constructed</th><td>1868\u20131871</td></tr><tr><th>Height</th><td>31 m</td></tr><tr><th>Range</th><td>18 nmi</td></tr></tbody></table>"""
    toc = f'<div id="toc" class="toc" role="navigation" aria-labelledby="mw-toc-heading"><div class="toctitle"><h2 id="mw-toc-heading">Contents</h2></div><ul>{links(["History", "Keepers", "The light today", "See also", "References", "External links"], "#")}</ul></div>'
    body = infobox + body[:first_p_end] + toc + body[first_p_end:]
    return head(a, "Wikipedia-ish") + f"""
<body class="mediawiki ltr sitedir-ltr mw-hide-empty-elt ns-0 page-Skerry_Point_Lighthouse skin-vector">
<div class="mw-page-container"><a class="mw-jump-link" href="#bodyContent">Jump to content</a>
<header class="vector-header mw-header"><div class="vector-header-start"><nav class="vector-main-menu-landmark" aria-label="Site"><div id="vector-main-menu" class="vector-menu"><ul>{links(["Main page", "Contents", "Current events", "Random article", "About", "Contact us", "Donate"])}</ul></div></nav><a href="/" class="mw-logo">The Free Encyclopedia</a></div>
<div class="vector-header-end"><div id="p-search" role="search" class="vector-search-box"><form><input type="search" name="search" placeholder="Search"></form></div></div></header>
<div class="mw-page-container-inner"><div class="vector-main-menu-container"></div>
<main id="content" class="mw-body" role="main"><header class="mw-body-header vector-page-titlebar"><h1 id="firstHeading" class="firstHeading mw-first-heading"><span class="mw-page-title-main">{a['title']}</span></h1></header>
<div class="vector-page-toolbar"><nav aria-label="Namespaces"><ul><li><a href="/wiki/x">Article</a></li><li><a href="/wiki/Talk:x">Talk</a></li></ul></nav><nav aria-label="Views"><ul><li><a href="/read">Read</a></li><li><a href="/edit">Edit</a></li><li><a href="/history">View history</a></li></ul></nav></div>
<div id="bodyContent" class="vector-body"><div id="siteSub" class="noprint">From Wikipedia-ish, the free encyclopedia</div>
<div id="mw-content-text" class="mw-body-content"><div class="mw-content-ltr mw-parser-output" lang="en" dir="ltr">
<div class="hatnote navigation-not-searchable" role="note">For the headland, see <a href="/wiki/Skerry_Point">Skerry Point</a>.</div>
{body}
<h2><span class="mw-headline" id="See_also">See also</span></h2><ul><li><a href="/wiki/List_of_lighthouses">List of lighthouses in the Sound</a></li></ul>
<h2><span class="mw-headline" id="References">References</span></h2><div class="reflist"><ol class="references"><li id="cite_note-1"><span class="reference-text">Reid, A. (1872). <i>Account of the Skerry Point Light</i>. Edinburgh: Black. pp. 14\u201329.</span></li><li id="cite_note-2"><span class="reference-text"><a rel="nofollow" class="external text" href="https://lights.example.org/skerry">"Skerry Point"</a>. Northern Lights Board. Retrieved 3 March 2025.</span></li></ol></div>
<div role="navigation" class="navbox" aria-labelledby="Lighthouses"><table class="nowraplinks navbox-inner"><tbody><tr><th class="navbox-title" colspan="2">Lighthouses of the Sound</th></tr><tr><td class="navbox-list"><ul>{links(["North Head", "Skerry Point", "Black Rock", "Gull Island", "Old Pier Light"])}</ul></td></tr></tbody></table></div>
</div></div>
<div id="catlinks" class="catlinks" data-mw="interface"><div id="mw-normal-catlinks" class="mw-normal-catlinks"><a href="/wiki/Categories">Categories</a>: <ul><li><a href="/c/1">Lighthouses completed in 1871</a></li><li><a href="/c/2">Category B listed buildings</a></li></ul></div></div></div></main></div>
<footer id="footer" class="mw-footer" role="contentinfo"><ul id="footer-info"><li id="footer-info-lastmod"> This page was last edited on 12 September 2026, at 10:41 (UTC).</li><li id="footer-info-copyright">Text is available under the Creative Commons Attribution-ShareAlike License; additional terms may apply.</li></ul><ul id="footer-places">{links(["Privacy policy", "About", "Disclaimers", "Contact", "Code of Conduct", "Developers", "Statistics", "Cookie statement"])}</ul></footer></div>
</body></html>"""


def gov(a):
    return head(a, "City of Riverton") + f"""
<body class="govuk-template__body">
<a href="#main-content" class="govuk-skip-link">Skip to main content</a>
<div id="global-cookie-message" class="gem-c-cookie-banner govuk-clearfix" role="region" aria-label="Cookies on riverton.example"><div class="govuk-cookie-banner__message"><h2 class="govuk-cookie-banner__heading">Cookies on riverton.example</h2><p>We use some essential cookies to make this website work. We'd like to set additional cookies to understand how you use the site and improve our services.</p><button>Accept additional cookies</button> <button>Reject additional cookies</button> <a href="/cookies">View cookies</a></div></div>
<header class="govuk-header" role="banner"><div class="govuk-header__container govuk-width-container"><a href="/" class="govuk-header__link govuk-header__link--homepage">City of Riverton</a>
<nav aria-label="Menu" class="govuk-header__navigation"><ul class="govuk-header__navigation-list">{links(["Housing", "Parking", "Bins and recycling", "Council tax", "Planning", "Jobs"])}</ul></nav></div></header>
<div class="govuk-width-container"><div class="govuk-breadcrumbs"><ol class="govuk-breadcrumbs__list"><li class="govuk-breadcrumbs__list-item"><a href="/">Home</a></li><li class="govuk-breadcrumbs__list-item"><a href="/housing">Housing</a></li><li class="govuk-breadcrumbs__list-item"><a href="/news">News</a></li></ol></div>
<main class="govuk-main-wrapper" id="main-content" role="main"><div class="govuk-grid-row"><div class="govuk-grid-column-two-thirds">
<span class="govuk-caption-l">Press release</span><h1 class="govuk-heading-xl">{a['title']}</h1>
<p class="govuk-body-s gem-c-metadata">From: <a href="/housing-dept">Housing department</a><br>Published 20 March 2026</p>
<div class="govuk-govspeak">{blocks_html(a['blocks'])}
<h2>Contact</h2><p>Press office: press@riverton.example, 0100 555 0199</p></div>
<div class="gem-c-share-links"><h2 class="gem-c-share-links__title">Share this page</h2><ul><li><a href="#">Facebook</a></li><li><a href="#">Twitter</a></li></ul></div>
<div class="gem-c-print-link"><button>Print this page</button></div></div>
<div class="govuk-grid-column-one-third"><aside class="gem-c-related-navigation" role="complementary"><h2>Related content</h2><ul>{links(["Register a short-term rental", "Short-term rental rules explained", "Report an unregistered rental"])}</ul></aside></div></div>
<div class="gem-c-feedback"><form><h2>Is this page useful?</h2><button>Yes</button><button>No</button><a href="/problem">Report a problem with this page</a></form></div></main></div>
<footer class="govuk-footer" role="contentinfo"><div class="govuk-footer__meta"><ul>{links(["Help", "Privacy", "Cookies", "Accessibility statement", "Contact", "Terms and conditions"])}</ul><span class="govuk-footer__licence-description">All content is available under the Open Licence, except where otherwise stated</span></div></footer>
</body></html>"""


def hugo(a):
    return head(a, "Jon's notes") + f"""
<body>
<header><nav><a href="/" class="site-name">Jon's notes</a> <a href="/posts/">Posts</a> <a href="/tags/">Tags</a> <a href="/about/">About</a> <a href="/index.xml">RSS</a></nav></header>
<main>
<article class="post">
<header><h1 class="post-title">{a['title']}</h1><p class="post-meta"><time datetime="{a['published']}">May 5, 2026</time> \u00b7 4 min read \u00b7 Jon Ekstr\u00f6m</p></header>
{blocks_html(a['blocks'])}
<footer class="post-footer"><ul class="post-tags"><li><a href="/tags/blogging/">blogging</a></li><li><a href="/tags/wordpress/">wordpress</a></li></ul>
<nav class="paginav"><a class="prev" href="/posts/keyboards/">\u00ab Prev: My third mechanical keyboard</a> <a class="next" href="/posts/rss/">Next: In praise of RSS \u00bb</a></nav></footer>
</article>
</main>
<footer class="footer"><span>\u00a9 2026 Jon Ekstr\u00f6m</span> \u00b7 <span>Powered by <a href="https://gohugo.io/">Hugo</a></span></footer>
</body></html>"""


def megamenu(a):
    cols = "".join(f'<div class="mega-col"><h4>{t}</h4><ul>{links([f"{t} {n}" for n in ["news", "guides", "events", "archive", "people", "maps"]])}</ul></div>' for t in ["Study", "Research", "Library", "Campus", "Alumni", "About"])
    foot = "".join(f'<div class="footer-col"><h4>{t}</h4><ul>{links([f"{t} link {n}" for n in range(1, 9)])}</ul></div>' for t in ["Services", "Departments", "Students", "Staff"])
    return head(a, "University Library") + f"""
<body class="page-news-item">
<div class="alert-banner" role="alert"><p>Planned maintenance: the catalogue will be unavailable on Sunday from 6 to 9 a.m.</p></div>
<header class="site-header"><div class="utility-bar"><a href="/login">Staff login</a> <a href="/students">Student portal</a> <a href="/give">Give</a></div>
<nav class="mega-menu" aria-label="Main">{cols}</nav></header>
<div class="page-wrap"><div class="breadcrumb"><a href="/">Home</a> / <a href="/library">Library</a> / <a href="/library/news">News</a></div>
<div class="layout-two-col"><div class="col-main"><div class="news-item">
<h1 class="page-title">{a['title']}</h1><div class="news-date">28 April 2026</div>
<div class="field--name-body">{blocks_html(a['blocks'])}</div>
</div></div>
<div class="col-side"><div class="block block-quicklinks"><h2>Quick links</h2><ul>{links(["Opening hours", "Book a study room", "Renew loans", "Ask a librarian", "Printing and copying", "Accessibility"])}</ul></div>
<div class="block block-events"><h2>Upcoming events</h2><ul>{links(["Research data workshop, 6 May", "Referencing drop-in, 8 May", "Special collections tour, 14 May"])}</ul></div></div></div></div>
<footer class="site-footer">{foot}<p class="copyright">\u00a9 2026 The University. Registered charity no. 1234567.</p></footer>
</body></html>"""


def changelog(a):
    return head(a, "Tools release notes") + f"""
<body>
<div class="wrapper"><header class="page-header"><a href="/" class="brand">tools</a><nav><a href="/docs">Docs</a><a href="/download">Download</a><a href="/releases" aria-current="page">Releases</a><a href="https://git.example.org/tools">Source</a></nav></header>
<div class="release-layout"><nav class="release-index" aria-label="Releases"><h2>Releases</h2><ul>{links(["Version 7", "Version 6.4", "Version 6.3", "Version 6.2", "Version 6.1", "Version 6.0", "Version 5"], "/releases/")}</ul></nav>
<section class="release-notes markdown-body" id="content">
<h1>{a['title']}</h1>
{blocks_html(a['blocks'], heading_anchor=True)}
</section></div>
<footer class="page-footer"><p>tools is free software under the Apache License 2.0. <a href="/security">Security</a> \u00b7 <a href="/conduct">Code of conduct</a></p></footer></div>
</body></html>"""


def regional_de(a):
    return head(a, "Nordstadt Zeitung") + f"""
<body>
<div class="cmp-container" id="consent"><div class="cmp-box"><h2>Wir respektieren Ihre Privatsphäre</h2><p>Wir und unsere Partner verwenden Cookies und ähnliche Technologien, um Inhalte und Anzeigen zu personalisieren, Funktionen für soziale Medien anzubieten und die Zugriffe auf unsere Website zu analysieren.</p><button>Alle akzeptieren</button><button>Einstellungen</button></div></div>
<header class="site-header"><a class="logo" href="/">Nordstadt Zeitung</a><nav class="main-nav"><ul>{links(["Lokales", "Politik", "Wirtschaft", "Sport", "Kultur", "Service", "Abo"])}</ul></nav></header>
<main class="main"><div class="breadcrumb"><a href="/">Startseite</a> \u203a <a href="/lokales">Lokales</a></div>
<article class="article"><div class="article__header"><span class="article__kicker">Verkehr</span><h1 class="article__headline">{a['title']}</h1><p class="article__meta">Von <span class="author">{a['author']}</span> \u00b7 03.07.2026, 17:45 Uhr</p></div>
<div class="article__body">{blocks_html(a['blocks'], between=lambda i: '<div class="teaser-box teaser--inline"><span>Lesen Sie auch:</span> <a href="/x">Neue Ampeln am Hafen sollen Staus verringern</a></div>' if i == 1 else None)}</div>
<div class="article__share"><span>Artikel teilen:</span> <a href="#">Facebook</a> <a href="#">WhatsApp</a> <a href="#">E-Mail</a></div></article>
<section class="more-articles"><h2>Mehr aus Lokales</h2><ul>{links(["Sommerfest im Stadtpark", "Neue Buslinie ab August", "Schwimmbad öffnet wieder"])}</ul></section></main>
<footer class="site-footer"><ul>{links(["Impressum", "Datenschutz", "AGB", "Kontakt", "Mediadaten", "Karriere"])}</ul></footer>
</body></html>"""


def devto(a):
    return head(a, "DEV-ish") + f"""
<body data-user-status="logged-out">
<header class="crayons-header"><a href="/" class="site-logo">DEV</a><form class="crayons-header--search" role="search"><input placeholder="Search..."></form><div class="crayons-header__actions"><a href="/enter">Log in</a> <a href="/enter?state=new-user">Create account</a></div></header>
<div class="crayons-layout crayons-layout--3-cols"><aside class="crayons-layout__sidebar-left" aria-label="Article actions"><div class="crayons-article-actions"><button>\u2764 214</button><button>\U0001F984 12</button><button>\U0001F516 Save</button></div></aside>
<main id="main-content" class="crayons-layout__content"><article class="crayons-card" id="article-show-container" data-article-id="1234">
<header class="crayons-article__header"><div class="crayons-article__subheader"><a href="/sam">{a['author']}</a> Posted on <time datetime="{a['published']}T10:00:00Z">Apr 9</time></div>
<h1 class="fs-3xl">{a['title']}</h1><div class="spec__tags"><a class="crayons-tag" href="/t/java">#java</a> <a class="crayons-tag" href="/t/cli">#cli</a> <a class="crayons-tag" href="/t/tutorial">#tutorial</a></div></header>
<div class="crayons-article__main"><div class="crayons-article__body text-styles spec__body" id="article-body">{blocks_html(a['blocks'], code_class="language-java")}</div></div>
<section id="comments" class="text-padding"><header><h2>Top comments (3)</h2></header><div class="comments"><div class="comment"><div class="comment__body"><p>Nice and simple. I would add support for <code>-h</code> as an alias for help, most people type that first.</p></div></div></div></section>
</article>
<div class="crayons-card crayons-card--secondary"><h2>Read next</h2><ul>{links(["Ten bash tricks I use daily", "Understanding Java records", "Writing good error messages"])}</ul></div></main>
<aside class="crayons-layout__sidebar-right" aria-label="Right sidebar navigation"><div class="crayons-card"><h3>More from {a['author']}</h3><ul>{links(["Testing without mocks", "A tiny HTTP server in Java", "Reading files line by line"])}</ul></div></aside></div>
<footer class="crayons-footer"><p>DEV Community \u2014 A constructive and inclusive social network for software developers.</p><ul>{links(["Home", "Podcasts", "Videos", "Tags", "FAQ", "Code of Conduct", "Privacy Policy", "Terms of use"])}</ul></footer>
</body></html>"""


PAGES = [
    ("wordpress-news", wordpress, "harbour-bridge"),
    ("wordpress-recipe", wordpress, "lentil-soup"),
    ("news-divsoup", news_divsoup, "paywall-news"),
    ("news-split", lambda a: news_divsoup(a, split=True), "split-story"),
    ("medium-essay", medium, "sourdough"),
    ("medium-tech", medium, "retry-budgets"),
    ("mkdocs-guide", mkdocs, "install-guide"),
    ("sphinx-reference", sphinx, "api-reference"),
    ("phpbb-forum", forum, "forum-thread"),
    ("qa-site", qa, "qa-page"),
    ("wiki-article", wiki, "wiki-lighthouse"),
    ("gov-press", gov, "press-release"),
    ("hugo-blog", hugo, "hugo-post"),
    ("megamenu-short", megamenu, "thin-article"),
    ("changelog", changelog, "release-notes"),
    ("regional-de", regional_de, "german-news"),
    ("devto-tutorial", devto, "tutorial"),
]

if __name__ == "__main__":
    import heldout
    os.makedirs(OUT, exist_ok=True)
    every = [(n, t, ARTICLES[k]) for n, t, k in PAGES] + [(n, t, heldout.ARTICLES[k]) for n, t, k in heldout.PAGES]
    for name, template, a in every:
        with open(os.path.join(OUT, name + ".html"), "w", encoding="utf-8") as f:
            f.write(template(a))
        with open(os.path.join(OUT, name + ".txt"), "w", encoding="utf-8") as f:
            f.write("\n\n".join(gold_blocks(a)) + "\n")
        meta = {k: a.get(k) for k in ("lang", "description", "author", "published")}
        meta.update(a.get("facts", {}))  # what the template's markup says besides the meta tags
        with open(os.path.join(OUT, name + ".json"), "w", encoding="utf-8") as f:
            json.dump(meta, f, ensure_ascii=False, indent=1)
    print(f"{len(every)} pages in {os.path.normpath(OUT)}")
