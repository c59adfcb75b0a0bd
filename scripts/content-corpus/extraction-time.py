#!/usr/bin/env python3
"""Times loomcrawl's main content over trafilatura's 990 benchmark pages (ExtractionTime.java), under the JVM
options the launcher gives a crawl (conf/jvm.options), and prints its figures.

Needs a checkout of https://github.com/adbar/trafilatura and a build (./mvnw -pl crawler -am install -DskipTests).
Run from the repository's root:
    python3 scripts/content-corpus/extraction-time.py TRAFILATURA_CHECKOUT [ROUNDS]
"""
import os, re, subprocess, sys, tempfile

import pages
from extract import java


def crawl_options(command):
    """conf/jvm.options' lines for all commands and for crawl, those for a JDK newer than command's left out."""
    version = subprocess.run(command[:1] + ["-version"], capture_output=True, text=True).stderr
    major = int(re.search(r'version "(\d+)', version).group(1))
    options = []
    for line in open("conf/jvm.options"):
        m = re.match(r"(all|crawl)(?:@(\d+))?:(.*)", line)
        if m and int(m.group(2) or 0) <= major:
            options += m.group(3).split()
    return options


def main():
    command = java("ExtractionTime.java")
    with tempfile.NamedTemporaryFile("w", suffix=".tsv", delete=False) as f:
        f.writelines(f"{path}\t{url}\n" for url, _, path in pages.trafilatura(sys.argv[1]))
    subprocess.run(command[:1] + crawl_options(command) + command[1:] + [f.name] + sys.argv[2:3], check=True)
    os.unlink(f.name)


if __name__ == "__main__":
    main()
