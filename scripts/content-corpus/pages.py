"""The saved pages of the two public benchmarks the scripts beside this one read, from their checkouts."""
import json, os

# Readability's pages were saved as UTF-8 from this URL, whatever their <meta> says.
READABILITY_URL = "http://fakehost/test/page.html"
READABILITY_CHARSET = "UTF-8"


def trafilatura(checkout):
    """tests/evaldata.json of https://github.com/adbar/trafilatura: (URL, its entry, the saved page), by URL."""
    tests = os.path.join(checkout, "tests")
    data = json.load(open(os.path.join(tests, "evaldata.json"), encoding="utf-8"))
    pages = []
    for url in sorted(data):
        for sub in ("cache", "eval"):
            path = os.path.join(tests, sub, data[url]["file"])
            if os.path.isfile(path):
                pages.append((url, data[url], path))
                break
    return pages


def readability(checkout):
    """test/test-pages of https://github.com/mozilla/readability: (its folder, the saved page), by name."""
    folder = os.path.join(checkout, "test", "test-pages")
    return [(os.path.join(folder, n), os.path.join(folder, n, "source.html")) for n in sorted(os.listdir(folder))]
