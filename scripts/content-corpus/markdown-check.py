#!/usr/bin/env python3
"""Holds loomcrawl's Markdown to its text on real pages: each of trafilatura's 990 pages and Readability's 130
written both ways, the Markdown rendered by markdown-it-py (CommonMark with GitHub's tables and strike-through) and
the words it shows compared with the text form's, white space, the numbers of ordered items and the bars that part
a table's cells aside. A mark shown
as an asterisk, an escape left showing, a table that swallows a line or a word lost shows as a difference. Prints
each page that differs and where, then the count.

Needs: checkouts of https://github.com/adbar/trafilatura and https://github.com/mozilla/readability,
pip install markdown-it-py, and a build (./mvnw -pl crawler -am install -DskipTests). Run from the repository's root:
    python3 scripts/content-corpus/markdown-check.py TRAFILATURA_CHECKOUT READABILITY_CHECKOUT
"""
import difflib, os, re, sys, tempfile
from html.parser import HTMLParser

from markdown_it import MarkdownIt

import pages
from extract import extract

READER = MarkdownIt("commonmark").enable("table").enable("strikethrough")
BLOCKS = {"p", "li", "h1", "h2", "h3", "h4", "h5", "h6", "td", "th", "tr", "br", "pre", "blockquote", "hr", "table",
          "ul", "ol", "thead", "tbody"}


class Shown(HTMLParser):
    """The text an HTML rendering shows, blocks apart, inline elements not."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts = []

    def handle_data(self, data):
        self.parts.append(data)

    def handle_starttag(self, tag, attrs):
        self.parts.append(" " if tag in BLOCKS else "")

    def handle_endtag(self, tag):
        self.parts.append(" " if tag in BLOCKS else "")


def shown(markdown):
    parser = Shown()
    parser.feed(READER.render(markdown))
    return "".join(parser.parts).replace("|", " ").split()


def main():
    out = tempfile.mkdtemp()
    sets = [([(path, url) for url, _, path in pages.trafilatura(sys.argv[1])], None),
            ([(source, pages.READABILITY_URL) for _, source in pages.readability(sys.argv[2])],
             pages.READABILITY_CHARSET)]
    differ = total = 0
    for s, (saved, charset) in enumerate(sets):
        outputs = [os.path.join(out, f"{s}-{i}") for i in range(len(saved))]
        extract([(path, url, o + ext) for (path, url), o in zip(saved, outputs) for ext in (".md", ".txt")],
                charset=charset)
        for (path, _), o in zip(saved, outputs):
            total += 1
            markdown = shown(open(o + ".md", encoding="utf-8").read())
            text = open(o + ".txt", encoding="utf-8").read().replace("|", " ").split()
            text = [t for t in text if not re.fullmatch(r"\d+\.", t)]  # an ordered item's number, text only
            markdown = [t for t in markdown if not re.fullmatch(r"\d+\.", t)]
            if markdown != text:
                differ += 1
                ops = difflib.SequenceMatcher(None, markdown, text, autojunk=False).get_opcodes()
                differences = [(" ".join(markdown[a:b])[:60], " ".join(text[c:d])[:60]) for op, a, b, c, d in ops
                           if op != "equal"]
                print(f"{path}: {len(differences)} differences, Markdown shows / text has: {differences[:3]}")
    print(f"{differ} of {total} pages differ")


if __name__ == "__main__":
    main()
