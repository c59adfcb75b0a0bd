"""The HTML every template of the corpus is made of (make.py's and heldout.py's): an article's blocks, a page's
head, a list of links."""
import html, json, re


def blocks_html(blocks, p_class=None, between=None, heading_anchor=False, code_class=None):
    """The article's blocks as HTML; between(i) may return boilerplate to put after the i-th block."""
    parts = []
    for i, (kind, v) in enumerate(blocks):
        if kind == "p":
            parts.append(f'<p{" class=%s" % json.dumps(p_class) if p_class else ""}>{v}</p>')
        elif kind in ("h2", "h3"):
            slug = re.sub(r"[^a-z0-9]+", "-", v.lower()).strip("-")
            anchor = f'<a class="headerlink" href="#{slug}" title="Permalink to this heading">\u00b6</a>' if heading_anchor else ""
            parts.append(f'<{kind} id="{slug}">{v}{anchor}</{kind}>')
        elif kind in ("ul", "ol"):
            parts.append(f"<{kind}>" + "".join(f"<li>{i}</li>" for i in v) + f"</{kind}>")
        elif kind == "pre":
            cls = f' class="{code_class}"' if code_class else ""
            parts.append(f"<pre><code{cls}>{html.escape(v)}</code></pre>")
        elif kind == "quote":
            parts.append(f"<blockquote><p>{v}</p></blockquote>")
        elif kind == "table":
            head = "".join(f"<th>{c}</th>" for c in v[0])
            body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in v[1:])
            parts.append(f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>")
        elif kind == "dl":
            parts.append("<dl>" + "".join(f'<dt id="{html.escape(t)}"><code>{html.escape(t)}</code><a class="headerlink" href="#">\u00b6</a></dt><dd><p>{d}</p></dd>' for t, d in v) + "</dl>")
        if between:
            extra = between(i)
            if extra:
                parts.append(extra)
    return "\n".join(parts)


def head(a, site, extra=""):
    meta = []
    if a.get("description"):
        meta.append(f'<meta name="description" content="{html.escape(a["description"])}">')
    if a.get("author"):
        meta.append(f'<meta name="author" content="{html.escape(a["author"])}">')
    if a.get("published"):
        meta.append(f'<meta property="article:published_time" content="{a["published"]}">')
    return f"""<!DOCTYPE html>
<html lang="{a['lang']}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{html.escape(a['title'])} | {site}</title>
{chr(10).join(meta)}
<link rel="stylesheet" href="/static/site.css">
<script>window.dataLayer = window.dataLayer || []; function gtag(){{dataLayer.push(arguments);}}</script>
{extra}
</head>"""


def links(words, prefix="/"):
    return "".join(f'<li><a href="{prefix}{re.sub("[^a-z]+", "-", w.lower())}">{w}</a></li>' for w in words)
