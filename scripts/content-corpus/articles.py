"""The main content of the corpus pages: what a careful reader marks as the article, block by block.

Inline HTML (<a>, <em>, <strong>, <code>) is allowed in text; the gold text is the text without tags.
"""

ARTICLES = {}

ARTICLES["harbour-bridge"] = dict(
    title="City council approves repairs to the old harbour bridge after years of delay",
    author="Maria Lindqvist", published="2026-10-14T08:30:00+02:00", lang="en",
    description="The council voted 31 to 9 to fund a two-year repair of the 1912 swing bridge.",
    blocks=[
        ("p", "The city council voted 31 to 9 on Tuesday evening to fund a two-year repair of the harbour swing bridge, ending a dispute that has kept the 1912 structure closed to cars since the spring of 2023."),
        ("p", "Engineers found last year that two of the four bearing plates under the turning span had cracked, and that the gear ring, which still runs on its original teeth, was worn past the tolerance the manufacturer's drawings allow. The repair will replace both, along with the timber deck, at a cost the council now puts at 48 million."),
        ("p", "\u201cWe have argued about this bridge for longer than it took to build it,\u201d said councillor Anders Ek, who chairs the transport committee. \u201cTonight we stopped arguing.\u201d"),
        ("h2", "Why the cost rose"),
        ("p", "The first estimate, presented in 2022, was 29 million. Since then, the price of structural steel has risen by a third, and the heritage board asked that the new deck be laid in oak, as the original was, rather than in the composite panels the engineers had proposed."),
        ("ul", ["new bearing plates and a rebuilt gear ring: 21 million", "an oak deck and new railings: 14 million", "temporary ferry service during the works: 6 million", "contingency: 7 million"]),
        ("p", "Opponents said the money would be better spent on the bus network. \u201cA bridge that opens for sailing boats twelve times a day is a museum piece,\u201d said Helena Sjö of the Green group, who voted against. Supporters answered that the bridge carries eleven thousand cyclists on a summer weekday, more than any other crossing in the city."),
        ("h2", "What happens next"),
        ("p", "Tenders will be invited in January, and work is expected to begin in the autumn. The bridge will stay open to pedestrians and cyclists for most of the works, except for two closures of about six weeks each while the span is lifted out and put back."),
        ("p", "The ferry between the fish market and the north quay, which has run since the closure, will keep running until the bridge reopens, the council said."),
    ])

ARTICLES["sourdough"] = dict(
    title="What I learned from a year of baking sourdough every week",
    author="Tom Becker", published="2026-03-02", lang="en",
    description="Fifty-two loaves, three starters and one flood: notes from a year at the oven.",
    blocks=[
        ("p", "Last January I promised myself I would bake one loaf of sourdough every week for a year. I kept the promise, more or less: fifty-two loaves, of which perhaps thirty were good, eleven were edible, and the rest went to the ducks at the pond behind our building."),
        ("p", "This is not a recipe. There are thousands of those, and most of them are fine. It is a list of the things I wish someone had told me in the first month, when every loaf came out of the oven flat, pale and <em>sour enough to strip paint</em>."),
        ("h2", "The starter matters less than you think"),
        ("p", "I kept three starters during the year. One I made from rye flour and water, one I was given by a neighbour, and one I bought dried from a bakery in Lyon. After the first two months I could not tell their bread apart. What mattered was how <strong>active</strong> the starter was when I used it, not where it came from."),
        ("p", "The test I ended up using is simple: feed the starter, and use it when it has doubled and its top has just begun to dome. Before that, the bread is dense; after it has collapsed, the bread is sour and slack."),
        ("h2", "Temperature is the recipe"),
        ("p", "Every recipe gives times. None of them is right for your kitchen. My kitchen is 17 degrees in February and 26 in July, and the same dough that needs nine hours to rise in winter is over-proofed in four in summer. I bought a cheap thermometer and started writing down the dough temperature instead of the time, and my bread got better within a month."),
        ("ol", ["Mix the flour and water and leave them for an hour before adding the starter.", "Keep the dough at 24 to 26 degrees if you can: an oven with only its light on works.", "Stop the bulk rise when the dough has grown by half, not when the recipe says.", "Shape, then proof overnight in the fridge."]),
        ("h2", "The flood"),
        ("p", "In September a pipe burst in the flat above ours and the kitchen was out of use for three weeks. I baked in a friend's oven, which ran forty degrees hotter than its dial said. The loaves from those weeks were the best of the year. I have since turned my own oven up, and I recommend you try the same: most home ovens are cooler than they claim."),
        ("p", "I am still baking, though no longer every week. The ducks, I am told, miss me."),
    ])

ARTICLES["retry-budgets"] = dict(
    title="Retry budgets: how to stop your clients from taking down your servers",
    author="Priya Raman", published="2026-06-18T10:00:00Z", lang="en",
    description="Why per-request retries amplify outages, and how a retry budget bounds them.",
    blocks=[
        ("p", "Retries are the cheapest form of resilience. A request fails, you send it again, and most of the time the second attempt succeeds. The trouble starts when every client does this at once, because the server is failing for everyone."),
        ("p", "Consider a service with three layers, each of which retries a failed call three times. A single failure at the bottom turns into 3 \u00d7 3 \u00d7 3 = 27 requests at the bottom layer, all arriving while it is already overloaded. This is how a brief slowdown becomes an outage that lasts until someone turns the clients off."),
        ("h2", "A budget instead of a count"),
        ("p", "A <em>retry budget</em> limits retries to a fraction of the requests a client sends. If the budget is 10%, a client that has sent a thousand requests in the last minute may retry at most a hundred of them. When the server is healthy, nothing changes: there are few failures and the budget is never spent. When the server is failing, the extra load is capped at 10%, no matter how deep the call stack."),
        ("pre", "class RetryBudget {\n    private final double ratio;\n    private final LongAdder requests = new LongAdder();\n    private final LongAdder retries = new LongAdder();\n\n    boolean mayRetry() {\n        return retries.sum() < ratio * requests.sum();\n    }\n}"),
        ("p", "The sketch above leaves out the window: real implementations count over the last ten seconds or so, using a ring of buckets, so that a busy hour does not earn a large budget to be spent all at once."),
        ("h2", "Choosing the numbers"),
        ("table", [["Setting", "Typical value", "Why"], ["Budget ratio", "10%", "bounds extra load during an outage"], ["Minimum retries per second", "10", "lets quiet clients retry at all"], ["Window", "10 s", "long enough to smooth bursts"]]),
        ("p", "The minimum matters more than it looks. A client that sends one request a minute would otherwise never earn a retry, and its users would see every transient error."),
        ("quote", "Retries should be a way of riding out bad luck, not a way of multiplying bad news."),
        ("p", "Finally, retry only what is safe to retry. A <code>GET</code> can be sent twice; a payment usually cannot, unless the server accepts an idempotency key that lets it recognise the second attempt."),
    ])

ARTICLES["install-guide"] = dict(
    title="Installing the command-line tools",
    author=None, published=None, lang="en", description="How to install the toolkit on Linux, macOS and Windows.",
    blocks=[
        ("p", "The toolkit ships as a single binary for each platform. It has no dependencies besides a C library, and it does not need administrator rights unless you install it for all users."),
        ("h2", "Requirements"),
        ("ul", ["Linux with glibc 2.31 or newer, on x86-64 or arm64", "macOS 13 or newer", "Windows 10 version 1809 or newer", "About 60 MB of disk space"]),
        ("h2", "Linux and macOS"),
        ("p", "Download the archive for your platform, unpack it, and put the binary somewhere on your <code>PATH</code>:"),
        ("pre", "curl -LO https://downloads.example.org/tools/latest/tools-linux-x86_64.tar.gz\ntar xzf tools-linux-x86_64.tar.gz\nsudo install tools /usr/local/bin/"),
        ("p", "To check that it works, ask it for its version. The output should name the release and the commit it was built from."),
        ("pre", "$ tools --version\ntools 4.2.1 (commit 9c1e7a2)"),
        ("h2", "Windows"),
        ("p", "Run the installer and follow its steps. It adds the tools to your <code>PATH</code> for the current user; open a new terminal afterwards so that the change takes effect."),
        ("h2", "Configuration"),
        ("p", "On first run the tools create a configuration file. Its location depends on the platform:"),
        ("table", [["Platform", "Configuration file"], ["Linux", "~/.config/tools/config.toml"], ["macOS", "~/Library/Application Support/tools/config.toml"], ["Windows", "%APPDATA%\\tools\\config.toml"]]),
        ("p", "Every setting in the file can also be given as an environment variable, which takes precedence. The names are the settings' names in upper case, prefixed with <code>TOOLS_</code>."),
    ])

ARTICLES["api-reference"] = dict(
    title="The queue module",
    author=None, published=None, lang="en", description=None,
    blocks=[
        ("p", "The queue module implements multi-producer, multi-consumer queues. It is especially useful in threaded programming when information must be exchanged safely between multiple threads. The Queue class in this module implements all the required locking semantics."),
        ("p", "The module implements three types of queue, which differ only in the order in which the entries are retrieved. In a FIFO queue, the first tasks added are the first retrieved. In a LIFO queue, the most recently added entry is the first retrieved, operating like a stack. With a priority queue, the entries are kept sorted and the lowest valued entry is retrieved first."),
        ("h2", "Queue objects"),
        ("p", "Queue objects provide the public methods described below."),
        ("dl", [("qsize()", "Return the approximate size of the queue. Note that a size greater than zero does not guarantee that a subsequent get will not block, nor will a size less than the maximum guarantee that put will not block."),
                ("put(item, block=True, timeout=None)", "Put item into the queue. If the optional argument block is true and timeout is None, block if necessary until a free slot is available. If timeout is a positive number, it blocks at most timeout seconds and raises the Full exception if no free slot was available within that time."),
                ("get(block=True, timeout=None)", "Remove and return an item from the queue. If the optional argument block is true and timeout is None, block if necessary until an item is available."),
                ("task_done()", "Indicate that a formerly enqueued task is complete. Used by queue consumer threads. For each get used to fetch a task, a subsequent call to task_done tells the queue that the processing on the task is complete.")]),
        ("h2", "Example"),
        ("p", "An example of how to wait for enqueued tasks to be completed:"),
        ("pre", "import threading\nimport queue\n\nq = queue.Queue()\n\ndef worker():\n    while True:\n        item = q.get()\n        print(f'Working on {item}')\n        q.task_done()\n\nthreading.Thread(target=worker, daemon=True).start()\nfor item in range(30):\n    q.put(item)\nq.join()\nprint('All work completed')"),
        ("p", "The join method blocks until all items in the queue have been gotten and processed. The count of unfinished tasks goes up whenever an item is added to the queue and goes down whenever a consumer thread calls task_done to indicate that the item was retrieved and all work on it is complete."),
    ])

ARTICLES["forum-thread"] = dict(
    title="Boiler pressure drops overnight, no visible leak",
    author=None, published="2026-01-09T21:14:00Z", lang="en", description=None,
    posts=[
        ("heatingnewbie", "Our combi boiler loses pressure every night. I top it up to 1.5 bar in the evening and by the morning it is down to 0.6. I have checked every radiator valve and the pipes under the floor that I can reach and there is no water anywhere. The boiler is about eight years old. Is this something I can fix myself or do I need to call someone out?"),
        ("Gas_Safe_Dave", "If there is no leak you can see, the usual suspects are the expansion vessel and the pressure relief valve. Check the small copper pipe that comes out of the outside wall near the boiler. If it drips, or there is a stain under it, the relief valve is letting water out, often because the expansion vessel has lost its air charge and the pressure spikes when the heating comes on."),
        ("heatingnewbie", "There is a white crusty mark on the wall under that pipe. I never noticed it before. So the relief valve is the problem?"),
        ("Gas_Safe_Dave", "Probably a symptom rather than the cause. Recharge the expansion vessel first: it needs a bicycle pump and the system drained down to zero. If the vessel holds its charge and the valve still weeps, replace the valve. Both are jobs for a registered engineer in most places, because the boiler has to be opened."),
        ("radiatorwhisperer", "Had exactly the same thing last winter. Vessel recharge cost me a call-out fee and twenty minutes, and the pressure has been steady since. Don't keep topping it up for months like I did, the fresh water brings in oxygen and your radiators will sludge up."),
    ])

ARTICLES["qa-page"] = dict(
    title="Why does my HashMap iteration order change between runs?",
    author=None, published="2025-11-30", lang="en", description=None,
    question="I store some strings as keys in a HashMap and print them in a loop. On my machine the order is always the same, but on the build server the order is different, and one of our tests depends on it. Is HashMap iteration order random? How can I get a stable order?",
    answers=[
        "HashMap makes no promise about iteration order. The order depends on the hash codes of the keys and on the capacity of the table, and the capacity depends on how many entries were added and in what order the table grew. String hash codes are stable across runs, so on one JVM version you usually see the same order, but a different JVM, a different initial capacity, or a different number of entries can change it. If your test depends on the order, the test is wrong, not the map.",
        "If you need insertion order, use a LinkedHashMap, which keeps a linked list through its entries at the cost of a little memory. If you need sorted order, use a TreeMap, or sort the keys before you print them. For tests, compare maps with equals, which ignores order, rather than comparing their printed forms.",
    ])

ARTICLES["lentil-soup"] = dict(
    title="Red lentil soup with lemon and cumin",
    author="Noor Haddad", published="2026-02-11", lang="en",
    description="A forty-minute soup from the store cupboard, bright with lemon.",
    blocks=[
        ("p", "My grandmother made this soup on Fridays, when there was nothing left in the house but lentils, an onion and a lemon. It takes forty minutes, most of them unattended, and it tastes like far more work than it is. The lemon goes in at the very end, so that it stays bright."),
        ("p", "Red lentils fall apart as they cook, so there is no need for a blender unless you want the soup perfectly smooth. I like it a little rough, with a spoonful of the fried onion and chilli oil on top."),
        ("h2", "Ingredients"),
        ("ul", ["250 g red lentils, rinsed", "1 large onion, finely chopped", "2 cloves garlic, crushed", "1 carrot, grated", "1 tablespoon ground cumin", "1.2 litres vegetable stock", "juice of 1 lemon", "olive oil, salt and chilli flakes"]),
        ("h2", "Method"),
        ("ol", ["Warm three tablespoons of olive oil in a heavy pan and fry the onion gently for ten minutes, until soft and golden.", "Take out a spoonful of the onion for the topping. Add the garlic, carrot and cumin to the pan and stir for a minute.", "Add the lentils and stock, bring to the boil, then simmer for 25 minutes, stirring now and then, until the lentils have collapsed.", "Season with salt, stir in the lemon juice, and serve with the reserved onion warmed in a little oil with chilli flakes."]),
        ("p", "The soup keeps for three days in the fridge and thickens as it stands; loosen it with a little water when you warm it up."),
        ("table", [["Nutrition per serving", "Amount"], ["Energy", "310 kcal"], ["Protein", "17 g"], ["Fibre", "8 g"]]),
    ])

ARTICLES["wiki-lighthouse"] = dict(
    title="Skerry Point Lighthouse",
    author=None, published=None, lang="en", description=None,
    blocks=[
        ("p", "Skerry Point Lighthouse is an active lighthouse on a low rock at the southern entrance to the Sound. It was built between 1868 and 1871 to a design by the engineer Alexander Reid and was automated in 1989. The tower is 31 metres tall and is painted white with a single red band."),
        ("h2", "History"),
        ("p", "Before the lighthouse was built, the rock was marked by an unlit iron beacon, and at least fourteen ships were wrecked on it between 1820 and 1865. After the loss of the emigrant ship Margaret Ann in 1864, with 62 lives, the harbour commissioners petitioned for a light."),
        ("p", "Construction was difficult because the rock is covered at high water during spring tides. Granite blocks were cut and dressed on the mainland, numbered, and landed in calm weather; in the first season the masons could work on only 41 days."),
        ("h2", "Keepers"),
        ("p", "The station had three keepers, who lived in cottages on the mainland and worked on the rock in rotation, four weeks on and two weeks off. The last keepers left in 1989, when the light was converted to automatic operation and monitored from the mainland."),
        ("h2", "The light today"),
        ("p", "The original first-order Fresnel lens was removed in 1989 and is displayed in the maritime museum in the town. The present light is an array of light-emitting diodes with a range of 18 nautical miles, flashing white twice every 15 seconds."),
    ])

ARTICLES["press-release"] = dict(
    title="New rules for short-term rentals take effect on 1 April",
    author=None, published="2026-03-20", lang="en",
    description="Hosts must register their properties and display the registration number in every listing.",
    blocks=[
        ("p", "From 1 April, anyone who rents out a home or a room for stays of fewer than 30 nights must register the property with the municipality and show the registration number in every advertisement."),
        ("p", "Registration is free and can be done online. It takes about ten minutes and asks for the address of the property, the name of the owner and, where the host is not the owner, written permission from the owner."),
        ("h2", "What changes for hosts"),
        ("ul", ["A home may be rented out for at most 60 nights a year in total.", "Hosts must report each stay within a week, through the same online service.", "Listings without a valid registration number will be removed by the platforms."]),
        ("p", "Hosts who rent out a home without registering can be fined up to 20,500, and the same applies to hosts who exceed the limit of 60 nights."),
        ("h2", "Why the rules were introduced"),
        ("p", "The number of homes offered for short stays in the city centre has tripled in five years. The council wants to keep homes available for people who live and work in the city, while still allowing residents to rent out their homes when they are away."),
    ])

ARTICLES["hugo-post"] = dict(
    title="Moving my blog from WordPress to a static site",
    author="Jon Ekström", published="2026-05-05", lang="en", description="Why I left WordPress after ten years, and what I miss.",
    blocks=[
        ("p", "After ten years on WordPress, this blog is now a folder of Markdown files that a static site generator turns into HTML. The move took a weekend and a half, and I should have done it years ago."),
        ("p", "The reasons were ordinary. I was paying for hosting that mostly served the same forty pages, I spent more time updating plugins than writing, and twice in one year a plugin update broke the comment form without telling me."),
        ("h2", "What the move involved"),
        ("p", "Exporting the posts was the easy part: an export plugin wrote each post as a Markdown file with its title, date and tags at the top. The hard part was the images, which WordPress had stored in eleven different sizes each, and the old URLs, which I wanted to keep working."),
        ("p", "For the URLs I wrote a short script that reads the old permalinks from the export and writes a redirect for each one. The site now has 412 redirects, and the logs show that about a third of them are still used every month."),
        ("h2", "What I miss"),
        ("p", "Comments. I turned them off rather than use a third-party service, and I miss the occasional good one. Readers can still write to me by email, and a few do."),
    ])

ARTICLES["paywall-news"] = dict(
    title="Drought forces farmers to sell herds as feed prices climb",
    author="Carlos Mendes", published="2026-08-22T06:00:00Z", lang="en",
    description="A third summer without rain is emptying pastures across the plateau.",
    blocks=[
        ("p", "On the high plateau east of the river, where cattle have grazed for two centuries, the grass this August is the colour of straw. It has not rained properly since April, and for the third summer running the pastures have given out before the herds could be moved to their winter ground."),
        ("p", "\u201cI have sold forty cows since June,\u201d said Beatriz Alves, whose family has farmed the same 300 hectares since 1911. \u201cNot because I want to. Because I cannot feed them.\u201d"),
        ("p", "Hay that cost 90 a tonne two years ago now sells for more than 220, and much of it has to be trucked from the north. Farmers who can afford it are buying; those who cannot are selling animals at markets already full of other people's cattle, where prices have fallen by a quarter since spring."),
        ("h2", "A government scheme, and its limits"),
        ("p", "The agriculture ministry announced emergency payments in July of up to 150 per head for farmers who keep their breeding herds. Farmers' unions welcomed the money but said it arrives too late for many and covers barely half the cost of feeding a cow through the winter."),
        ("p", "Hydrologists say the dry summers are part of a longer trend. Rainfall on the plateau has fallen by about 15 percent since the 1980s, and more of it now comes in short, heavy storms that run off the baked ground instead of soaking in."),
        ("p", "Alves says she will keep her best sixty cows whatever it costs. \u201cIf I sell them, the farm is finished. You cannot buy back a herd that took my father forty years to breed.\u201d"),
    ])

ARTICLES["thin-article"] = dict(
    title="Library extends opening hours during exam season",
    author=None, published="2026-04-28", lang="en", description=None,
    blocks=[
        ("p", "The central library will stay open until midnight on weekdays from 4 May to 12 June, to give students more room to study during the exam period."),
        ("p", "The reading rooms on the second and third floors will be reserved for silent study in the evenings, and the café will stay open until ten. Lending and returns will close at the usual time of eight o'clock."),
        ("p", "The library asks visitors to bring their library card after eight, when the entrance will switch to card access."),
    ])

ARTICLES["release-notes"] = dict(
    title="Release notes for version 7",
    author=None, published="2026-09-01", lang="en", description=None,
    blocks=[
        ("p", "Version 7 is a major release. It drops support for the old configuration format, which has been deprecated since version 5, and changes the default storage engine. Read the upgrade notes before you install it on a production system."),
        ("h2", "7.0.0"),
        ("h3", "Breaking changes"),
        ("ul", ["The legacy INI configuration format is no longer read; convert it with <code>tools config migrate</code> before upgrading.", "The default storage engine is now the log-structured engine; existing databases keep the engine they were created with.", "The <code>--fast</code> flag, which had no effect since version 6.2, has been removed."]),
        ("h3", "New features"),
        ("ul", ["Incremental backups, which copy only the segments changed since the last backup.", "A <code>status</code> command that reports replication lag for every follower.", "Configurable compression levels for each table."]),
        ("h3", "Fixes"),
        ("ul", ["A crash when a query used more than 64 nested parentheses.", "Backups of databases larger than 2 TB reported the wrong size.", "The server no longer logs the password when a connection string is invalid."]),
        ("h2", "Upgrading"),
        ("p", "Stop the server, back up the data directory, install the new version and start the server again. The first start after the upgrade rewrites the database's metadata, which takes a few seconds per thousand tables."),
    ])

ARTICLES["german-news"] = dict(
    title="Stadt plant neue Radwege entlang des Flusses",
    author="Katrin Vogel", published="2026-07-03", lang="de",
    description="Bis 2029 sollen zwölf Kilometer neue Radwege entstehen.",
    blocks=[
        ("p", "Die Stadt will bis 2029 zwölf Kilometer neue Radwege entlang des Flusses bauen. Das hat der Bauausschuss am Mittwoch mit großer Mehrheit beschlossen. Die Kosten werden auf rund 18 Millionen Euro geschätzt, von denen das Land etwa die Hälfte übernehmen soll."),
        ("p", "Der neue Weg soll vom Hafen bis zum Stadtwald führen und an sechs Stellen an bestehende Radwege anschließen. Auf den meisten Abschnitten werden Fußgänger und Radfahrer getrennt, damit es am Ufer nicht mehr so eng wird wie heute an sonnigen Wochenenden."),
        ("h2", "Kritik von Anwohnern"),
        ("p", "Anwohner der Uferstraße befürchten, dass für den Radweg Parkplätze wegfallen. Nach den Plänen der Verwaltung betrifft das etwa 140 Stellplätze, von denen ein Teil in einem neuen Parkhaus am Bahnhof ersetzt werden soll."),
        ("p", "Der Baubeginn ist für das Frühjahr 2027 vorgesehen. Zunächst soll der Abschnitt zwischen Hafen und Altstadt gebaut werden, weil dort die meisten Radfahrer unterwegs sind."),
    ])

ARTICLES["tutorial"] = dict(
    title="Parsing command-line arguments without a framework",
    author="Sam Okafor", published="2026-04-09", lang="en", description="A small, honest argument parser in forty lines.",
    blocks=[
        ("p", "Most programs need only a handful of options, and a full argument-parsing framework can be more than they need. This tutorial builds a small parser that handles flags, options with values and positional arguments, and reports errors clearly."),
        ("h2", "The shape of the input"),
        ("p", "We accept three kinds of argument: flags such as <code>--verbose</code>, options with a value such as <code>--output=report.txt</code> or <code>--output report.txt</code>, and everything else, which we treat as positional."),
        ("pre", "record Args(Set<String> flags, Map<String, String> options, List<String> positional) {}"),
        ("h2", "The loop"),
        ("p", "The parser walks the arguments once. When it sees an argument that starts with two dashes, it checks whether the name is a known option that takes a value; if so, the value is either after the equals sign or the next argument."),
        ("pre", "for (int i = 0; i < argv.length; i++) {\n    String a = argv[i];\n    if (!a.startsWith(\"--\")) {\n        positional.add(a);\n        continue;\n    }\n    String name = a.substring(2);\n    int eq = name.indexOf('=');\n    if (eq >= 0) {\n        options.put(name.substring(0, eq), name.substring(eq + 1));\n    } else if (takesValue.contains(name)) {\n        if (i + 1 == argv.length) {\n            throw new IllegalArgumentException(\"--\" + name + \" needs a value\");\n        }\n        options.put(name, argv[++i]);\n    } else {\n        flags.add(name);\n    }\n}"),
        ("p", "Note the error: it names the option and says what is missing. Users read error messages more often than documentation, so they deserve the same care."),
        ("h2", "When to stop"),
        ("p", "Once you need subcommands, generated help, or completion scripts, stop and use a library. The forty lines above are for the programs that will never need them."),
    ])

ARTICLES["split-story"] = dict(
    title="Inside the night shift at the city's busiest bakery",
    author="Lena Park", published="2026-11-02T05:00:00Z", lang="en",
    description="From 10 p.m. to 6 a.m., six bakers make eleven thousand rolls.",
    blocks=[
        ("p", "At ten o'clock at night, when most of the street has gone to bed, the lights come on at the back of the bakery on Mill Lane. By six the next morning, six bakers will have made eleven thousand rolls, nine hundred loaves and, on Fridays, four hundred cinnamon buns."),
        ("p", "The head baker, Ahmed Yilmaz, has worked nights for nineteen years. He says he no longer notices the hours. \u201cWhat I notice is the weather,\u201d he said, pressing a thumb into a tray of proofing dough. \u201cWhen it is humid, everything rises faster, and we run.\u201d"),
        ("p", "The bakery supplies fourteen cafés and two hospitals as well as its own shop, and the delivery vans leave in a fixed order from half past four. A tray that misses its van is a café without bread at breakfast, so the last hour is the fastest of the night."),
        ("p", "The work is hard on the body. Most of the bakers have had problems with their wrists or backs, and the bakery now rotates them between the mixers, the ovens and the shaping benches every two hours, which Yilmaz says has halved the number of sick days."),
        ("p", "Few young people want the job, he admits. The apprentices who stay are the ones who come to like the quiet: the hours between two and four, when the dough is proofing, the ovens are heating and nobody needs to speak."),
        ("p", "At six, the day staff arrive and the night shift goes home. Yilmaz takes a roll from the last tray on his way out. \u201cEvery day,\u201d he said. \u201cYou have to check.\u201d"),
    ])
