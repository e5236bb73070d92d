"""The indentation the theme leaves is removed; what a browser shows is not."""

from __future__ import annotations

import json
from html.parser import HTMLParser

import pytest

from build_graph.render.compact import compact_html, drop_lunr_translations
from site_pages import pages


CASES = [
    ("indented tags", "<div>\n    <p>a</p>\n    \n\n  <p>b</p>\n</div>", "<div>\n<p>a</p>\n<p>b</p>\n</div>"),
    ("text across lines keeps a space", "<p>one\n      two</p>", "<p>one\ntwo</p>"),
    ("leading blank lines", "\n\n   <!doctype html>\n<html>", "<!doctype html>\n<html>"),
    ("pre kept", "<div>\n  <pre><code>a\n    b\n\n  c</code></pre>\n  </div>",
     "<div>\n<pre><code>a\n    b\n\n  c</code></pre>\n</div>"),
    ("PRE with attributes kept", '<PRE class="x">\n  x\n</PRE>\n  y', '<PRE class="x">\n  x\n</PRE>\ny'),
    ("textarea kept", "<textarea>\n  keep\n</textarea>\n   <p>", "<textarea>\n  keep\n</textarea>\n<p>"),
    ("script kept", "<script>\n  var a = `x\n   y`;\n</script>\n  <p>", "<script>\n  var a = `x\n   y`;\n</script>\n<p>"),
    ("style kept", "<style>\n  p { }\n</style>", "<style>\n  p { }\n</style>"),
    ("two pre blocks", "<pre>\n a</pre>\n  <p>\n  </p><pre>\n b</pre>", "<pre>\n a</pre>\n<p>\n</p><pre>\n b</pre>"),
    ("a pre-like word is not pre", "<preview>\n  x</preview>", "<preview>\nx</preview>"),
    ("no newline, no change", "<p>a    b</p>", "<p>a    b</p>"),
]


@pytest.mark.parametrize("name, given, expected", CASES, ids=[c[0] for c in CASES])
def test_compact_html(name, given, expected):
    assert compact_html(given) == expected
    assert compact_html(expected) == expected            # idempotent


class Shown(HTMLParser):
    """The text a browser shows, with white space collapsed outside <pre>."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.out, self.pre = [], 0

    def handle_starttag(self, tag, attrs):
        self.pre += tag in ("pre", "textarea")
        self.out.append(f"<{tag} {sorted(attrs)}>")

    def handle_endtag(self, tag):
        self.pre -= tag in ("pre", "textarea")
        self.out.append(f"</{tag}>")

    def handle_data(self, data):
        self.out.append(data if self.pre else " ".join(data.split()) or None)


def shown(html: str) -> list:
    parser = Shown()
    parser.feed(html)
    return [piece for piece in parser.out if piece]


@pytest.mark.parametrize("site", ["seeds", "hostile"])
def test_every_generated_page_shows_the_same(site):
    """On every generated page (hostile text included) the tags, attributes and
    visible text are the same before and after."""
    for src, page in pages(site).items():
        body = getattr(page, "body", None)
        if body is not None:
            assert shown(compact_html(body)) == shown(body), src


CONFIG = {"base": "../..", "features": ["navigation.instant"], "search": "../../assets/w.js",
          "translations": {"clipboard.copy": "Copy", "search.result.none": "No matching documents",
                           "search.result.other": "# matching documents", "select.version": "Select version"},
          "annotate": None, "tags": None, "version": None}


def page_with(config_text: str) -> str:
    return f'<body><p>x</p><script id="__config" type="application/json">{config_text}</script></body>'


@pytest.mark.parametrize("name, given, expected", [
    ("the theme's config", page_with(json.dumps(CONFIG)),
     page_with('{"base":"../..","features":["navigation.instant"],"search":"../../assets/w.js",'
               '"translations":{"clipboard.copy":"Copy","select.version":"Select version"},'
               '"annotate":null,"tags":null,"version":null}')),
    ("a value that would end the script",                   # escaped as the theme's tojson does
     page_with(json.dumps({"translations": {"a": "</script><b>"}}).replace("<", "\\u003c")),
     page_with('{"translations":{"a":"<\\/script><b>"}}')),
    ("no config", "<p>no config</p>", "<p>no config</p>"),
    ("not JSON", page_with("{oops"), page_with("{oops")),
    ("no translations", page_with('{"base": "."}'), page_with('{"base": "."}')),
], ids=lambda v: v if isinstance(v, str) and len(v) < 40 else None)
def test_drop_lunr_translations(name, given, expected):
    assert drop_lunr_translations(given) == expected
