"""Token F1, as ContentCorpusTest scores: words and numbers, lower case, counted as bags (a word twice counts twice)."""
import re
from collections import Counter


def tokens(s):
    return [t.lower() for t in re.findall(r"[^\W_]+", s)]


def score(found, marked):
    """Precision, recall and F1 of the found tokens against the marked ones."""
    common = sum((Counter(found) & Counter(marked)).values())
    p = common / len(found) if found else 0
    r = common / len(marked) if marked else 0
    return p, r, (2 * p * r / (p + r) if p + r else 0)
