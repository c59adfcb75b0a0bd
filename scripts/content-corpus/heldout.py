"""Pages written after the extractor's rules were fixed (commit 6da55a4), to score it on shapes it was not
tuned on: Ghost, a Substack-like newsletter, a Confluence-like knowledge base, Discourse, a news site built
of text blocks, and a project README on a code host. Run by make.py."""
import html, json, re

from parts import blocks_html, head, links

ARTICLES = {}

ARTICLES["ghost"] = dict(
    title="Notes from a week without a smartphone", author="Ines Duarte", published="2026-09-12", lang="en",
    description="Seven days with a flip phone, a paper map and a wristwatch.",
    blocks=[
        ("p", "For one week in August I put my smartphone in a drawer and carried a twenty-euro flip phone instead. It could make calls and send text messages, slowly, and it had a torch. I expected to feel lost. Mostly I felt early: without a screen to fill the minutes, I arrived everywhere with time to spare."),
        ("p", "The hardest part was not the maps or the music but the small lookups that fill a day: the opening hours of a shop, the spelling of a name, the time of the last train. I wrote them on an index card each morning, and by Wednesday I was planning my days the night before, which I had not done since university."),
        ("h2", "What I missed"),
        ("ul", ["Photographs of my daughter, which I used to take without thinking.", "The weather forecast, on the one day it rained.", "Paying for the bus with a tap, instead of finding coins."]),
        ("h2", "What I did not miss"),
        ("p", "I did not miss the news. I read a paper on Monday and another on Thursday, and I do not think I was less informed than usual, only less anxious. I did not miss the group chats either, and nobody seemed to notice that I was gone."),
        ("p", "The smartphone is back in my pocket now, but the notifications are off, and the index card is still there."),
    ])

ARTICLES["substack"] = dict(
    title="The quiet economics of the corner shop", author="Ravi Menon", published="2026-07-30T07:00:00Z", lang="en",
    description="Why the small shop on your street survives on bread, milk and lottery tickets.",
    blocks=[
        ("p", "Every neighbourhood has one: a shop of forty square metres that sells bread, milk, newspapers, batteries and, behind the counter, cigarettes and lottery tickets. Supermarkets are cheaper on almost everything it sells. So how does it survive?"),
        ("p", "I spent a month asking the owners of six corner shops in my city to show me their books, and four of them did. The answer is less romantic than loyalty and less sinister than tax evasion. It is convenience, priced carefully, and a handful of products on which the margin is very good."),
        ("h3", "Where the money comes from"),
        ("p", "Bread and milk make almost nothing; they are there to bring people in. The margin is in snacks, cold drinks and the things people forget: a birthday card, a light bulb, a tin of tomatoes at nine in the evening. One owner told me that a packet of candles earns him more than a week of newspapers."),
        ("quote", "People do not come here for the price. They come because it is open and it is on their way home."),
        ("p", "The lottery terminal is the other pillar. The commission on each ticket is small, but it brings a steady stream of customers who buy something else on the way out."),
        ("p", "None of the four shops earns its owner more than a modest salary, and all of them depend on long hours worked by the family. That, more than anything, is what the supermarkets cannot copy."),
    ])

ARTICLES["kb"] = dict(
    title="How to rotate the API signing keys", author=None, published=None, lang="en", description=None,
    blocks=[
        ("p", "The API signs every response with a private key that should be rotated at least once a year, and at once if it may have been exposed. Rotation takes about twenty minutes and causes no downtime if the steps below are followed in order."),
        ("h2", "Before you start"),
        ("ul", ["You need the operator role in the key management console.", "Tell the support team: clients that pin the old key will fail after the last step.", "Check that no deployment is in progress."]),
        ("h2", "Steps"),
        ("ol", ["Create a new key pair in the console and give it a name with today's date.", "Publish the new public key alongside the old one, so that clients accept both.", "Wait one hour for caches to expire.", "Switch the signing key to the new one and watch the error rate for fifteen minutes.", "Remove the old public key."]),
        ("pre", "keys create --name signing-2026-11 --algorithm ed25519\nkeys publish signing-2026-11\nkeys activate signing-2026-11"),
        ("h2", "If something goes wrong"),
        ("p", "If the error rate rises after the switch, activate the old key again. Both public keys are still published at that point, so switching back is safe."),
    ])

ARTICLES["discourse"] = dict(
    title="Best way to store sourdough starter while on holiday?", author=None, published="2026-06-01T18:22:00Z", lang="en", description=None,
    posts=[
        ("breadhead", "I am going away for three weeks and nobody can feed my starter. Should I put it in the fridge, freeze it or dry it? It is a rye starter, about two years old, and I would hate to lose it."),
        ("millerjane", "Three weeks in the fridge is fine for most starters. Feed it, let it get going for an hour, then put it in the fridge in a jar with a loose lid. When you get back it will look grey and have a layer of liquid on top; pour that off and feed it twice before baking."),
        ("crumbshot", "If you want a backup, smear a spoonful thinly on baking paper and let it dry for a day or two, then crumble it into a jar. Dried starter keeps for months and comes back in a few days of feeding."),
    ])

ARTICLES["textblocks"] = dict(
    title="Night trains return to the northern line after twelve years", author="Olu Adeyemi", published="2026-10-01T05:30:00Z", lang="en",
    description="Sleeper services between the capital and the north resume in December.",
    blocks=[
        ("p", "Sleeper trains will run between the capital and the northern coast again from December, twelve years after the last service was withdrawn, the national rail operator has announced."),
        ("p", "The trains will leave the capital at 22:40 five nights a week and arrive at the coast at 07:15, calling at four towns on the way. Tickets go on sale next month, with a bed in a shared compartment starting at 59."),
        ("p", "The operator said demand for night trains had grown strongly since other countries brought back sleeper services, and that the carriages, bought second-hand and refurbished, would offer private compartments with their own washbasins."),
        ("h2", "Why the service stopped"),
        ("p", "The old service was withdrawn in 2014 after years of falling passenger numbers and rising maintenance costs for its ageing carriages. Budget airlines were then offering the same journey in an hour for less than the price of a berth."),
        ("p", "Campaigners who fought for the service's return welcomed the news but said five nights a week was not enough. \u201cPeople travel on Sunday nights too,\u201d said one. \u201cWe will keep asking.\u201d"),
    ])

ARTICLES["readme"] = dict(
    title="tinyqueue", author=None, published=None, lang="en", description="A small, fast priority queue.",
    facts={"author": "x"},  # the owner's link is rel=author, itemprop=author
    blocks=[
        ("p", "A small, fast priority queue for Java, backed by a binary heap in a plain array. It has no dependencies and fits in one file you can copy into your project."),
        ("h2", "Usage"),
        ("pre", "TinyQueue<Task> queue = new TinyQueue<>(Comparator.comparing(Task::deadline));\nqueue.push(task);\nTask next = queue.pop();"),
        ("p", "The queue is not thread-safe. Wrap it in a lock, or give each thread a queue of its own."),
        ("h2", "Performance"),
        ("table", [["Operation", "Time"], ["push", "O(log n)"], ["pop", "O(log n)"], ["peek", "O(1)"]]),
        ("h2", "License"),
        ("p", "MIT. See the LICENSE file for the full text."),
    ])


def ghost(a):
    return head(a, "Slow Notes") + f"""
<body class="post-template">
<div class="gh-viewport"><header id="gh-head" class="gh-head outer"><div class="gh-head-inner inner"><div class="gh-head-brand"><a class="gh-head-logo" href="/">Slow Notes</a></div>
<nav class="gh-head-menu"><ul class="nav">{links(["Home", "Essays", "Archive", "About"])}</ul></nav><div class="gh-head-actions"><a class="gh-head-button" href="#/portal/signup">Subscribe</a></div></div></header>
<main id="site-main" class="site-main"><article class="article post">
<header class="article-header gh-canvas"><div class="article-tag post-card-tags"><span class="post-card-primary-tag"><a href="/tag/life/">Life</a></span></div>
<h1 class="article-title">{a['title']}</h1><p class="article-excerpt">{a['description']}</p>
<div class="article-byline"><div class="article-byline-content"><ul class="author-list"><li class="author-list-item"><a href="/author/ines/" class="author-avatar"><img class="author-profile-image" src="/ines.jpg" alt="Ines"></a></li></ul>
<div class="article-byline-meta"><h4 class="author-name"><a href="/author/ines/">{a['author']}</a></h4><div class="byline-meta-content"><time class="byline-meta-date" datetime="{a['published']}">Sep 12, 2026</time><span class="byline-reading-time"><span class="bull">\u2022</span> 3 min read</span></div></div></div></div></header>
<section class="gh-content gh-canvas">{blocks_html(a['blocks'])}</section>
</article>
<section class="footer-cta outer"><div class="inner"><h2 class="footer-cta-title">Sign up for more like this.</h2><a class="footer-cta-button" href="#/portal"><div class="footer-cta-input">Enter your email</div><span>Subscribe</span></a></div></section>
<aside class="read-more-wrap outer"><div class="read-more inner"><article class="post-card"><a class="post-card-image-link" href="/a/"><img src="/a.jpg" alt=""></a><div class="post-card-content"><a class="post-card-content-link" href="/a/"><header class="post-card-header"><h2 class="post-card-title">A year of cold showers</h2></header><div class="post-card-excerpt">What happened when I turned the dial to blue every morning for a year.</div></a></div></article>
<article class="post-card"><div class="post-card-content"><a class="post-card-content-link" href="/b/"><header class="post-card-header"><h2 class="post-card-title">Why I still write letters</h2></header><div class="post-card-excerpt">On paper, ink and the pleasure of waiting for a reply.</div></a></div></article></div></aside></main>
<footer class="site-footer outer"><div class="inner"><section class="copyright"><a href="/">Slow Notes</a> \u00a9 2026</section><nav class="site-footer-nav"><ul>{links(["Sign up", "Privacy"])}</ul></nav><div class="gh-powered-by"><a href="https://ghost.org/" target="_blank">Powered by Ghost</a></div></div></footer></div>
</body></html>"""


def substack(a):
    return head(a, "The Small Economy") + f"""
<body><div id="entry"><div id="main" class="main typography use-theme-bg">
<div class="main-menu-content"><div class="topbar-content"><a href="/" class="navbar-title-link">The Small Economy</a><div class="navbar-buttons"><button class="button primary">Subscribe</button><button class="button">Sign in</button></div></div></div>
<div class="container"><div class="single-post-container"><div class="single-post"><article class="typography newsletter-post post">
<div class="post-header"><h1 dir="auto" class="post-title published">{a['title']}</h1><h3 dir="auto" class="subtitle">{a['description']}</h3>
<div class="post-meta"><div class="profile-hover-card-target"><a href="/@ravi">{a['author']}</a></div><div class="pencraft">Jul 30, 2026</div><div class="like-button-container"><button>\u2665 212</button></div><div class="post-ufi-comment-button"><button>31</button></div><button class="post-ufi-button share-button">Share</button></div></div>
<div class="available-content"><div dir="auto" class="body markup">{blocks_html(a['blocks'])}
<div class="subscription-widget-wrap-editor"><div class="subscription-widget"><div class="preamble"><p class="cta-caption">The Small Economy is a reader-supported publication. To receive new posts and support my work, consider becoming a free or paid subscriber.</p></div><form class="subscription-widget-subscribe"><input type="email" placeholder="Type your email..."><input type="submit" value="Subscribe"></form></div></div>
</div></div>
<div class="post-footer"><div class="post-ufi"><button>\u2665 212 Likes</button> <button>31 Comments</button> <button>Share</button></div></div>
</article><div id="discussion" class="comments-page"><h4>Discussion about this post</h4><div class="comment"><div class="comment-body"><p>My local shop owner says the same about the lottery terminal. Fascinating piece.</p></div></div></div></div></div></div>
<div class="footer-wrap"><div class="footer"><div class="footer-terms"><span>\u00a9 2026 Ravi Menon</span> <a href="/privacy">Privacy</a> \u2219 <a href="/tos">Terms</a> \u2219 <a href="/notice">Collection notice</a></div><div class="footer-badge-container"><a href="https://substack.example/signup">Start writing</a> <a href="https://substack.example/app">Get the app</a></div></div></div></div></div>
</body></html>"""


def kb(a):
    return head(a, "Engineering wiki") + f"""
<body id="com-atlassian-confluence" class="theme-default aui-layout aui-theme-default">
<div id="page"><div id="full-height-container"><header id="header" role="banner"><nav class="aui-header aui-dropdown2-trigger-group" role="navigation"><div class="aui-header-inner"><div class="aui-header-primary"><h1 id="logo" class="aui-header-logo"><a href="/"><span class="aui-header-logo-device">Engineering wiki</span></a></h1>
<ul class="aui-nav">{links(["Spaces", "People", "Create", "Templates"])}</ul></div></div></nav></header>
<div id="main" class="aui-page-panel"><div id="sidebar-container"><div class="acs-side-bar ia-scrollable-section"><div class="ia-secondary-container"><div class="ia-secondary-header"><h2>Platform team</h2></div><ul class="children">{links(["Runbooks", "How to rotate the API signing keys", "How to restore a database", "On-call handbook", "Incident reviews"])}</ul></div></div></div>
<div id="main-header"><div id="navigation" class="content-navigation view"><ul class="ajs-menu-bar"><li><a href="#" class="aui-button">Edit</a></li><li><a href="#" class="aui-button">Watch</a></li><li><a href="#" class="aui-button">Share</a></li></ul></div>
<ol id="breadcrumbs">{links(["Platform team", "Runbooks"])}</ol><h1 id="title-heading" class="pagetitle with-breadcrumbs"><span id="title-text"><a href="/pages/42">{a['title']}</a></span></h1></div>
<div id="content" class="page view"><div class="page-metadata"><ul><li class="page-metadata-modification-info">Created by <span class="author"><a href="/u/1">Sam Lee</a></span>, last modified on Nov 02, 2026</li></ul></div>
<div id="main-content" class="wiki-content">{blocks_html(a['blocks'])}</div>
<div id="likes-and-labels-container"><div id="labels-section" class="pageSection group"><div class="labels-section-content content-column"><ul class="label-list">{links(["security", "keys", "runbook"], "/label/")}</ul></div></div></div>
<div class="helpful-widget"><p>Was this page helpful?</p><button>Yes</button><button>No</button></div>
<div id="comments-section" class="pageSection group"><h2 class="section-header">Comments</h2><p>No comments yet.</p></div></div></div>
<div id="footer" role="contentinfo"><section class="footer-body"><ul id="poweredby"><li class="noprint">Powered by a wiki engine</li><li class="print-only">Printed by a wiki engine</li></ul><ul>{links(["Report a bug", "News"])}</ul></section></div></div></div>
</body></html>"""


def discourse(a):
    posts = "".join(f"""<div class="topic-post clearfix regular" data-post-number="{n + 1}"><article class="boxed onscreen-post" id="post_{n + 1}" role="region">
<div class="row"><div class="topic-avatar"><a class="trigger-user-card main-avatar" href="/u/{u}"><img alt="" width="48" height="48" src="/avatar/{u}.png" class="avatar"></a></div>
<div class="topic-body clearfix"><div role="heading" aria-level="2" class="topic-meta-data"><div class="names trigger-user-card"><span class="first username"><a href="/u/{u}">{u}</a></span></div><div class="post-infos"><div class="post-info post-date"><a class="post-date" href="/t/77/{n + 1}"><span title="Jun 1, 2026 6:22 pm" class="relative-date">Jun 1</span></a></div></div></div>
<div class="regular contents"><div class="cooked"><p>{b}</p></div>
<section class="post-menu-area clearfix"><nav class="post-controls"><div class="actions"><button class="widget-button btn-flat toggle-like like">\u2665 {7 - n}</button><button class="widget-button btn-flat share">Share</button><button class="widget-button btn-flat reply">Reply</button></div></nav></section></div></div></div></article></div>""" for n, (u, b) in enumerate(a["posts"]))
    return head(a, "The Bread Forum") + f"""
<body class="crawler docs"><header class="d-header"><div class="wrap"><div class="contents"><div class="title"><a href="/"><img src="/logo.png" alt="The Bread Forum" id="site-logo"></a></div><div class="panel clearfix"><span class="header-buttons"><button class="btn btn-primary sign-up-button">Sign Up</button><button class="btn login-button">Log In</button></span></div></div></div></header>
<div id="main-outlet" class="wrap" role="main"><div id="topic-title"><div class="title-wrapper"><h1 data-topic-id="77"><a class="fancy-title" href="/t/77">{a['title']}</a></h1>
<div class="topic-category"><span class="badge-category"><a href="/c/starters">Starters</a></span><div class="list-tags"><a href="/tag/storage" class="discourse-tag">storage</a></div></div></div></div>
<div class="container posts"><div class="row"><section class="topic-area" id="topic">{posts}</section>
<div class="topic-map"><section class="map"><ul class="clearfix"><li><h4>created</h4><span class="relative-date">Jun 1</span></li><li><h4>last reply</h4><span class="relative-date">Jun 2</span></li><li><span class="number">3</span><h4>replies</h4></li><li><span class="number">248</span><h4>views</h4></li></ul></section></div></div></div>
<div id="suggested-topics" class="suggested-topics"><h3 class="suggested-topics-title">Suggested Topics</h3><table class="topic-list"><thead><tr><th>Topic</th><th>Replies</th><th>Views</th></tr></thead><tbody>
<tr><td><a href="/t/1">Rye starter smells like nail polish</a></td><td>12</td><td>1.2k</td></tr><tr><td><a href="/t/2">Why is my crumb so tight?</a></td><td>8</td><td>904</td></tr><tr><td><a href="/t/3">Dutch oven or baking stone?</a></td><td>31</td><td>3.4k</td></tr></tbody></table></div></div>
<footer class="noscript-footer-nav"><nav itemscope itemtype="http://schema.org/SiteNavigationElement"><a href="/">Home</a> <a href="/categories">Categories</a> <a href="/guidelines">Guidelines</a> <a href="/tos">Terms of Service</a> <a href="/privacy">Privacy Policy</a></nav></footer>
<div id="noscript-footer"><p>Powered by <a href="https://www.discourse.org">Discourse</a>, best viewed with JavaScript enabled</p></div>
</body></html>"""


def textblocks(a):
    blocks = []
    for kind, v in a["blocks"]:
        if kind == "p":
            blocks.append(f'<div data-component="text-block" class="ssrcss-11r1m41-RichTextComponentWrapper"><div class="ssrcss-7uxr49-RichTextContainer"><p class="ssrcss-1q0x1qg-Paragraph">{v}</p></div></div>')
        else:
            blocks.append(f'<div data-component="subheadline-block" class="ssrcss-1ccf0ud-StyledHeading"><h2 class="ssrcss-xx-Heading">{v}</h2></div>')
    blocks.insert(3, '<div data-component="links-block" class="ssrcss-links"><div class="ssrcss-LinksBlock"><h2>Related</h2><ul><li><a href="/n1">Rail fares to rise by 3 percent</a></li><li><a href="/n2">The return of the sleeper train</a></li></ul></div></div>')
    return head(a, "National News") + f"""
<body><div id="__next"><div class="ssrcss-global"><header data-testid="header-content" class="ssrcss-header"><div class="ssrcss-brand"><a href="/">National News</a></div>
<nav class="ssrcss-nav" aria-label="National News"><ul role="list">{links(["Home", "UK", "World", "Business", "Politics", "Tech", "Science", "Health", "Travel"])}</ul></nav></header>
<div class="ssrcss-wrap"><main id="main-content" data-testid="main-content" class="ssrcss-main"><article class="ssrcss-pv1rh6-ArticleWrapper">
<header class="ssrcss-1eqcsb1-HeadingWrapper"><h1 id="main-heading" class="ssrcss-15xko80-StyledHeading">{a['title']}</h1></header>
<div data-component="byline-block" class="ssrcss-byline"><div class="ssrcss-contributor">By {a['author']}</div><div class="ssrcss-role">Transport correspondent</div></div>
<div data-component="image-block" class="ssrcss-image"><figure><img src="/train.jpg" alt="A sleeper train at a platform"><figcaption class="ssrcss-caption">The last sleeper left in 2014</figcaption></figure></div>
{"".join(blocks)}
<div data-component="tag-list" class="ssrcss-tags"><ul>{links(["Rail travel", "Transport"])}</ul></div></article>
<section data-component="top-stories" class="ssrcss-top-stories"><h2>Top stories</h2><ul>{links(["Election called for spring", "Storm brings floods to the west", "Interest rates held at 4 percent"])}</ul></section>
<section data-component="features" class="ssrcss-features"><h2>Features</h2><div><a href="/f1"><p>The towns where the trains stopped coming</p></a><a href="/f2"><p>Is flying ever cheaper than the train?</p></a></div></section></main></div>
<footer class="ssrcss-footer"><nav><ul>{links(["Terms of Use", "About", "Privacy Policy", "Cookies", "Accessibility Help", "Contact"])}</ul></nav><p>Copyright 2026 National News. We are not responsible for the content of external sites.</p></footer></div></div>
</body></html>"""


def readme(a):
    files = "".join(f'<div role="row" class="Box-row"><div role="rowheader"><a href="/x/tinyqueue/blob/main/{f}">{f}</a></div><div role="gridcell"><a href="/commit/1">{m}</a></div><div role="gridcell"><relative-time>3 weeks ago</relative-time></div></div>' for f, m in [("src", "Faster pop"), ("LICENSE", "Initial commit"), ("README.md", "Document thread safety"), ("pom.xml", "Release 1.4")])
    return head(a, "x/tinyqueue") + f"""
<body class="logged-out env-production page-responsive">
<div class="position-relative js-header-wrapper"><a href="#start-of-content" class="p-3 color-bg-accent-emphasis color-fg-on-emphasis show-on-focus js-skip-to-content">Skip to content</a>
<header class="HeaderMktg header-logged-out" role="banner"><div class="d-flex"><a class="mr-lg-3" href="/" aria-label="Homepage">Code host</a><nav aria-label="Global"><ul>{links(["Product", "Solutions", "Open Source", "Pricing"])}</ul></nav><a href="/login" class="HeaderMenu-link">Sign in</a> <a href="/signup" class="HeaderMenu-link">Sign up</a></div></header></div>
<div id="start-of-content" class="show-on-focus"></div><div class="application-main" data-commit-hovercards-enabled>
<main id="js-repo-pjax-container"><div id="repository-container-header" class="pt-3 hide-full-screen"><div class="d-flex flex-wrap flex-justify-end mb-3 px-3 px-lg-5"><div class="flex-auto min-width-0 width-fit"><div class="d-flex flex-wrap flex-items-center wb-break-word f3 text-normal"><span class="author flex-self-stretch" itemprop="author"><a class="url fn" rel="author" href="/x">x</a></span><span class="mx-1 flex-self-stretch color-fg-muted">/</span><strong itemprop="name" class="mr-2 flex-self-stretch"><a href="/x/tinyqueue">tinyqueue</a></strong><span class="Label Label--secondary v-align-middle mr-1">Public</span></div></div>
<ul class="pagehead-actions flex-shrink-0 d-none d-md-inline"><li><a href="/login" class="btn-sm btn">Notifications</a></li><li><a href="/login" class="btn-sm btn">Fork 23</a></li><li><a href="/login" class="btn-sm btn">Star 412</a></li></ul></div>
<nav class="js-repo-nav UnderlineNav px-3" aria-label="Repository"><ul class="UnderlineNav-body list-style-none">{links(["Code", "Issues 4", "Pull requests 1", "Actions", "Security", "Insights"])}</ul></nav></div>
<div class="clearfix container-xl px-md-4 px-lg-5 px-3"><div class="Layout Layout--flowRow-until-md Layout--sidebarPosition-end"><div class="Layout-main">
<div class="Box mb-3"><div class="Box-header"><a href="/x/tinyqueue/commits">42 commits</a></div><div role="grid" aria-labelledby="files" class="js-details-container Details">{files}</div></div>
<div id="readme" class="Box MD js-code-block-container js-code-nav-container Box--responsive"><div class="Box-header d-flex"><h2 class="Box-title"><a href="#readme">README.md</a></h2></div>
<div class="Box-body px-5 pb-5" data-target="readme-toc.content"><article class="markdown-body entry-content container-lg" itemprop="text"><div class="markdown-heading"><h1 tabindex="-1" class="heading-element">{a['title']}</h1><a id="user-content-tinyqueue" class="anchor" aria-label="Permalink: tinyqueue" href="#tinyqueue"><svg class="octicon octicon-link"></svg></a></div>
{blocks_html(a['blocks'])}</article></div></div></div>
<div class="Layout-sidebar"><div class="BorderGrid about-margin" data-pjax><div class="BorderGrid-row"><div class="BorderGrid-cell"><h2 class="mb-3 h4">About</h2><p class="f4 my-3">{a['description']}</p><h3 class="sr-only">Resources</h3><div class="mt-2"><a href="#readme-ov-file" class="Link--muted">Readme</a></div><div class="mt-2"><a href="#MIT-1-ov-file" class="Link--muted">MIT license</a></div><div class="mt-2"><a href="/x/tinyqueue/stargazers" class="Link--muted"><strong>412</strong> stars</a></div></div></div>
<div class="BorderGrid-row"><div class="BorderGrid-cell"><h2 class="h4 mb-3">Languages</h2><ul class="list-style-none"><li class="d-inline"><span class="color-fg-default text-bold mr-1">Java</span><span>100.0%</span></li></ul></div></div></div></div></div></div></main></div>
<footer class="footer pt-8 pb-6 f6 color-fg-muted p-responsive" role="contentinfo"><h2 class="sr-only">Footer</h2><ul class="list-style-none d-flex flex-justify-center">{links(["Terms", "Privacy", "Security", "Status", "Docs", "Contact"])}</ul></footer>
</body></html>"""


PAGES = [
    ("heldout-ghost", ghost, "ghost"),
    ("heldout-substack", substack, "substack"),
    ("heldout-kb", kb, "kb"),
    ("heldout-discourse", discourse, "discourse"),
    ("heldout-textblocks", textblocks, "textblocks"),
    ("heldout-readme", readme, "readme"),
]
