#!/usr/bin/env python3
"""Scores loomcrawl and trafilatura on Readability's own test pages (real sites' pages saved as UTF-8, each with
the article Readability.js extracts), by the same token F1 as ContentCorpusTest. The pages are Readability's
expectations, so Readability.js itself scores about 1.0 here; the figure to read is loomcrawl beside trafilatura.

Needs: a checkout of https://github.com/mozilla/readability, pip install trafilatura lxml, and a build
(./mvnw -pl crawler -am install -DskipTests). Run from the repository's root:
    python3 scripts/content-corpus/readability-pages.py READABILITY_CHECKOUT
"""
import os, sys

import lxml.html
import trafilatura

import pages
from extract import extract
from tokenf1 import score, tokens


def main():
    saved = pages.readability(sys.argv[1])
    extract([(source, pages.READABILITY_URL, os.path.join(d, "loomcrawl.txt")) for d, source in saved],
            charset=pages.READABILITY_CHARSET)
    rows = []
    for d, _ in saved:
        page = os.path.basename(d)
        expected = open(os.path.join(d, "expected.html"), encoding="utf-8").read()
        marked = tokens(lxml.html.fromstring(expected).text_content()) if expected.strip() else []
        ours = open(os.path.join(d, "loomcrawl.txt"), encoding="utf-8").read()
        source = open(os.path.join(d, "source.html"), encoding="utf-8").read()
        theirs = trafilatura.extract(source, include_comments=False, include_tables=True) or ""
        rows.append((page, score(tokens(ours), marked), score(tokens(theirs), marked)))
        print(f"{page:42} loomcrawl F1 {rows[-1][1][2]:.3f}   trafilatura F1 {rows[-1][2][2]:.3f}")
    for name, i in (("loomcrawl", 1), ("trafilatura", 2)):
        n = len(rows)
        print(f"{name:12} {n} pages: mean P {sum(r[i][0] for r in rows) / n:.3f}  R {sum(r[i][1] for r in rows) / n:.3f}"
              f"  F1 {sum(r[i][2] for r in rows) / n:.3f}")


if __name__ == "__main__":
    main()
