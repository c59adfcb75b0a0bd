#!/usr/bin/env python3
"""Times loomcrawl's main content over trafilatura's 990 benchmark pages (ExtractionTime.java), under the JVM
options the launcher gives a crawl (conf/jvm.options), and prints its figures.

Needs a checkout of https://github.com/adbar/trafilatura and a build (./mvnw -pl crawler -am install -DskipTests).
Run from the repository's root:
    python3 scripts/content-corpus/extraction-time.py TRAFILATURA_CHECKOUT [ROUNDS]
"""
import os, shutil, subprocess, sys, tempfile

import pages
from extract import java


def crawl_options(command):
    """The JVM options the launcher gives crawl on the JDK of command's java: its own jvm_options, which reads
    conf/jvm.options."""
    jdk = os.path.dirname(os.path.dirname(os.path.realpath(shutil.which(command[0]))))
    script = '. cli/src/dist/bin/loomcrawl-launch.sh && jvm_options "$1" crawl conf/jvm.options && echo "$jvm_opts"'
    return subprocess.run(["bash", "-c", script, "_", jdk], capture_output=True, text=True, check=True).stdout.split()


def main():
    command = java("ExtractionTime.java")
    with tempfile.NamedTemporaryFile("w", suffix=".tsv", delete=False) as f:
        f.writelines(f"{path}\t{url}\n" for url, _, path in pages.trafilatura(sys.argv[1]))
    subprocess.run(command[:1] + crawl_options(command) + command[1:] + [f.name] + sys.argv[2:3], check=True)
    os.unlink(f.name)


if __name__ == "__main__":
    main()
