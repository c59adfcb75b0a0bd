"""Runs loomcrawl's extractor (ExtractPages.java) over saved pages, for readability-pages.py and trafilatura-eval.py.
Needs a build of the crawler module (./mvnw -pl crawler -am install -DskipTests); run from the repository's root."""
import os, subprocess, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def java(program, options=()):
    """The command that runs one of the Java programs beside this file (its name) on the crawler's class path."""
    subprocess.run(["./mvnw", "-B", "-q", "-pl", "crawler", "dependency:build-classpath",
                    "-Dmdep.outputFile=target/content-cp.txt"], check=True)
    cp = "crawler/target/classes:" + open("crawler/target/content-cp.txt").read().strip()
    binary = os.path.join(os.environ["JAVA_HOME"], "bin", "java") if "JAVA_HOME" in os.environ else "java"
    return [binary, *options, "-cp", cp, os.path.join(HERE, program)]


def extract(pages, charset=None):
    """pages: (html path, URL, output path) triples; writes loomcrawl's content of each to its output path, as
    Markdown where that ends in .md, else as text. A page is decoded as a crawl decodes it, or in charset if given."""
    with tempfile.NamedTemporaryFile("w", suffix=".tsv", delete=False) as f:
        f.writelines(f"{a}\t{b}\t{c}\n" for a, b, c in pages)
    subprocess.run(java("ExtractPages.java") + [f.name] + ([charset] if charset else []), check=True)
    os.unlink(f.name)
