#!/usr/bin/env python3
"""Scores loomcrawl and trafilatura on trafilatura's own benchmark (tests/evaldata.json: 990 pages of real sites,
each with passages the main content must hold and passages it must not), as its tests/evaluate.py scores:
a passage counts when it is a substring of the whitespace-normalized text.

Needs: a checkout of https://github.com/adbar/trafilatura, pip install trafilatura, and a build
(./mvnw -pl crawler -am install -DskipTests). Run from the repository's root:
    python3 scripts/content-corpus/trafilatura-eval.py TRAFILATURA_CHECKOUT
"""
import os, re, sys, tempfile

import trafilatura

import pages
from extract import extract


def norm(text):
    return re.sub(r"\s+", " ", text).strip()


def counts(item, text):
    text = norm(text)
    tp = sum(1 for w in item["with"] if norm(w) in text)
    fp = sum(1 for w in item["without"] if norm(w) in text)
    return tp, fp, len(item["with"]) - tp, len(item["without"]) - fp


def report(name, totals):
    tp, fp, fn, tn = (sum(c[i] for c in totals) for i in range(4))
    print(f"{name:12} {len(totals)} pages: precision {tp / (tp + fp):.3f}  recall {tp / (tp + fn):.3f}"
          f"  accuracy {(tp + tn) / (tp + fp + fn + tn):.3f}  F1 {2 * tp / (2 * tp + fp + fn):.3f}")


def main():
    saved = pages.trafilatura(sys.argv[1])
    out = tempfile.mkdtemp()
    extract([(path, url, os.path.join(out, f"{i}.txt")) for i, (url, _, path) in enumerate(saved)])
    ours, theirs = [], []
    for i, (url, item, path) in enumerate(saved):
        ours.append(counts(item, open(os.path.join(out, f"{i}.txt"), encoding="utf-8").read()))
        html = open(path, "rb").read()
        text = trafilatura.extract(html, include_comments=False, include_tables=True, include_formatting=False)
        theirs.append(counts(item, text or ""))
    report("loomcrawl", ours)
    report("trafilatura", theirs)


if __name__ == "__main__":
    main()
