#!/usr/bin/env python3
"""Times loomcrawl's main content over trafilatura's 990 benchmark pages (ExtractionTime.java), under the
launcher's JIT and collector options for crawls (conf/jvm.options), and prints its figures.

Needs a checkout of https://github.com/adbar/trafilatura and a build (./mvnw -pl crawler -am install -DskipTests).
Run from the repository's root:
    python3 scripts/content-corpus/extraction-time.py TRAFILATURA_CHECKOUT [ROUNDS]
"""
import os, subprocess, sys, tempfile

import pages

HERE = os.path.dirname(os.path.abspath(__file__))
OPTIONS = ["-XX:TieredStopAtLevel=1", "-XX:CICompilerCount=3", "-XX:+UseParallelGC", "-Xmx768m",
           "-XX:+UseCompactObjectHeaders"]


def main():
    subprocess.run(["./mvnw", "-B", "-q", "-pl", "crawler", "dependency:build-classpath",
                    "-Dmdep.outputFile=target/content-cp.txt"], check=True)
    cp = "crawler/target/classes:" + open("crawler/target/content-cp.txt").read().strip()
    java = os.path.join(os.environ["JAVA_HOME"], "bin", "java") if "JAVA_HOME" in os.environ else "java"
    with tempfile.NamedTemporaryFile("w", suffix=".tsv", delete=False) as f:
        f.writelines(f"{path}\t{url}\n" for url, _, path in pages.trafilatura(sys.argv[1]))
    subprocess.run([java] + OPTIONS + ["-cp", cp, os.path.join(HERE, "ExtractionTime.java"), f.name]
                   + sys.argv[2:3], check=True)
    os.unlink(f.name)


if __name__ == "__main__":
    main()
