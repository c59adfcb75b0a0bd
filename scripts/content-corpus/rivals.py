#!/usr/bin/env python3
"""Scores trafilatura and Readability.js on the corpus, by the same token F1 as ContentCorpusTest.

Needs: pip install trafilatura; npm install @mozilla/readability jsdom (in READABILITY_DIR).
Run: python3 scripts/content-corpus/rivals.py [READABILITY_DIR]
"""
import os, subprocess, sys

import trafilatura

from tokenf1 import score, tokens

CORPUS = os.path.join(os.path.dirname(__file__), "..", "..", "crawler", "src", "test", "resources", "content-corpus")
NODE_DIR = sys.argv[1] if len(sys.argv) > 1 else "."
READABILITY = """
const {JSDOM} = require('jsdom'); const {Readability} = require('@mozilla/readability');
const fs = require('fs'); const html = fs.readFileSync(process.argv[2], 'utf8');
const doc = new JSDOM(html, {url: 'http://corpus.test/page'}).window.document;
const a = new Readability(doc).parse(); process.stdout.write(a ? (a.title + '\\n\\n' + a.textContent) : '');
"""


def main():
    pages = sorted(f[:-5] for f in os.listdir(CORPUS) if f.endswith(".html"))
    with open(os.path.join(NODE_DIR, "readability-run.js"), "w") as f:
        f.write(READABILITY)
    totals = {"trafilatura": [], "readability": []}
    print(f"{'page':20} {'trafilatura P/R/F1':>22} {'Readability.js P/R/F1':>24}")
    for page in pages:
        html = open(os.path.join(CORPUS, page + ".html"), encoding="utf-8").read()
        marked = tokens(open(os.path.join(CORPUS, page + ".txt"), encoding="utf-8").read())
        t = trafilatura.extract(html, include_comments=False, include_tables=True, favor_precision=False) or ""
        title = (trafilatura.extract_metadata(html).title or "") if trafilatura.extract_metadata(html) else ""
        r = subprocess.run(["node", "readability-run.js", os.path.abspath(os.path.join(CORPUS, page + ".html"))],
                           cwd=NODE_DIR, capture_output=True, text=True).stdout
        st = score(tokens(title + "\n" + t), marked)
        sr = score(tokens(r), marked)
        totals["trafilatura"].append(st)
        totals["readability"].append(sr)
        print(f"{page:20} {st[0]:6.3f} {st[1]:6.3f} {st[2]:6.3f}   {sr[0]:6.3f} {sr[1]:6.3f} {sr[2]:6.3f}")
    for name, s in totals.items():
        n = len(s)
        print(f"{name:12} mean P {sum(x[0] for x in s) / n:.3f}  R {sum(x[1] for x in s) / n:.3f}  F1 {sum(x[2] for x in s) / n:.3f}")


if __name__ == "__main__":
    main()
