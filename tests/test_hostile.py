"""Untrusted text from listings appears verbatim and never runs, in every
place it reaches: pages, index tables, titles and meta tags, the search index,
graph data, BibTeX and the export.

The fixtures in tests/fixtures/hostile/seeds put HTML, Markdown, Jinja and
quote-breaking text into titles, names, abstracts, a venue (via a sidecar), a
session name and an arXiv comment line.
"""

from __future__ import annotations

import html
import gzip
import json
import os
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest

from site_pages import search_fragments

HOSTILE = Path(__file__).resolve().parent / "fixtures" / "hostile" / "seeds"

TITLE = ("<script>window.__pwned='title'</script> & \"Quoted' {{ config.site_name }} "
         "{% if true %}x{% endif %}")
LINK_TITLE = "[Click me](javascript:window.__pwned='link') `tick` | cell | {: onclick=\"window.__pwned=true\"} ---"
NAMES = ["<img src=x onerror=window.__pwned=document.domain>", "Eve \"Quote\" O'Neil",
         "[Mallory](javascript:window.__pwned=true)", "{{ Jinja Person }}", "Carol <b>Bold</b>"]
VENUE = "<svg onload=window.__pwned='venue'>Conf \"X\" & {{ v }}"
SESSION = "<script>window.__pwned='session'</script>"
COMMENT = "Accepted to <b onmouseover=\"window.__pwned=true\">NeurIPS 2022</b> \"quoted\" & more"
ABSTRACT_BITS = ["# Heading injection <b>bold</b> | pipe | `code` --- ***",
                 "<svg onload=window.__pwned=true>", "[x](javascript:alert(document.cookie))"]
TEMPLATE_BITS = "It uses {{ 7*7 }} and {% for x in y %}"


def build_site(root: Path, out: Path, seeds: Path) -> None:
    config = (root / "mkdocs.yml").read_text(encoding="utf-8")
    config = re.sub(r"(?m)^(\s+seeds:) \S+", rf"\1 {seeds.as_posix()}", config)
    temp = root / f"mkdocs.hostile-{os.getpid()}.yml"
    temp.write_text(config, encoding="utf-8")
    try:
        result = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(temp),
                                 "-d", str(out)], cwd=root, capture_output=True, text=True,
                                env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    finally:
        temp.unlink()
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.fixture(scope="module")
def site(root, tmp_path_factory):
    out = tmp_path_factory.mktemp("hostile") / "site"
    build_site(root, out, HOSTILE)
    return out


class Audit(HTMLParser):
    """Collects everything in a page that could execute, and its visible text."""

    SAFE_TAGS = {"em", "strong", "code", "a", "p", "li", "ul", "ol", "h1", "h2", "h3", "h4", "div",
                 "span", "table", "thead", "tbody", "tr", "th", "td", "br", "pre", "nav", "label",
                 "input", "header", "footer", "main", "article", "button", "form", "html", "head",
                 "body", "title", "meta", "link", "script", "svg", "path", "aside", "details",
                 "summary", "hr", "select", "option", "blockquote"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.problems: list = []
        self.text: list[str] = []
        self.stack: list[str] = []
        self.scripts: list[str] = []
        self.in_article = 0

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name.startswith("on"):
                self.problems.append(("event handler attribute", tag, name, value))
            if name in {"href", "src", "action", "formaction", "xlink:href"} and value and \
                    value.strip().lower().startswith(("javascript:", "vbscript:", "data:text/html")):
                self.problems.append(("script URL", tag, name, value))
        if tag in {"iframe", "object", "embed", "style", "img", "b", "i"}:
            self.problems.append(("injected tag", tag, attrs))
        self.stack.append(tag)

    def handle_endtag(self, tag):
        if self.stack and self.stack[-1] == tag:
            self.stack.pop()

    def handle_data(self, data):
        if self.stack and self.stack[-1] == "script":
            self.scripts.append(data)
            if "__pwned" in data or "alert(" in data:
                self.problems.append(("script content", data[:80]))
        else:
            self.text.append(data)


def audit(path: Path) -> Audit:
    parser = Audit()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


def visible(path: Path) -> str:
    return " ".join(" ".join(audit(path).text).split())


def _own_picture(problem, page: Path, handwritten: set[Path]) -> bool:
    """An ``<img>`` a hand-written docs page shows on purpose (a screenshot in
    docs/assets/): no listing reaches those pages, and the picture is a file of
    this site, not a URL from the input."""
    if page not in handwritten or problem[:2] != ("injected tag", "img"):
        return False
    src = dict(problem[2]).get("src") or ""
    return ":" not in src and not src.startswith("//") and (page.parent / src).resolve().is_file()


def test_nothing_executable_anywhere(site, root):
    pages = sorted(site.rglob("*.html"))
    assert len(pages) > 10
    handwritten = {site / (md.relative_to(root / "docs").with_suffix("").as_posix() + "/index.html")
                   for md in (root / "docs").rglob("*.md") if md.name != "index.md"}
    for page in pages:
        problems = [p for p in audit(page).problems if not _own_picture(p, page, handwritten)]
        assert problems == [], page.relative_to(site)


def paper_page(site, prefix):
    return next((site / "papers").glob(prefix + "*/index.html"))


def test_titles_appear_verbatim_in_heading_title_tag_and_index(site):
    page = paper_page(site, "script-window-pwned-title")
    raw = page.read_text(encoding="utf-8")
    title_tag = re.search(r"<title>(.*?)</title>", raw, re.S).group(1)
    assert html.unescape(title_tag) == f"{TITLE} - MLSys Atlas"
    h1 = re.search(r"<h1[^>]*>(.*?)</h1>", raw, re.S).group(1)
    assert html.unescape(re.sub(r"<a class=\"headerlink\".*?</a>", "", h1)).strip() == TITLE
    assert TITLE in visible(site / "papers" / "index.html")
    assert LINK_TITLE in visible(paper_page(site, "click-me"))


def test_markdown_in_text_does_not_become_markup(site):
    raw = paper_page(site, "script-window-pwned-title").read_text(encoding="utf-8")
    article = raw[raw.index("<article"):raw.index("</article>")]
    assert article.count("<h1") == 1 and "<hr" not in article
    assert "Heading injection" not in re.sub(r"<p>.*?</p>|<li>.*?</li>", "", article, flags=re.S)
    text = visible(paper_page(site, "script-window-pwned-title"))
    for bit in ABSTRACT_BITS:
        assert bit in text
    assert TEMPLATE_BITS in visible(paper_page(site, "we-present-script"))
    click = paper_page(site, "click-me").read_text(encoding="utf-8")
    before_cite = click[click.index("<article"):click.index('id="cite"')]
    assert "<code>" not in before_cite


def test_names_venue_session_and_comments_verbatim(site):
    text = visible(paper_page(site, "script-window-pwned-title"))
    for name in NAMES[:4]:
        assert name in text
    session_paper = visible(paper_page(site, "backtick-title"))
    assert VENUE in session_paper and SESSION in session_paper and "Carol <b>Bold</b>" in session_paper
    assert COMMENT in visible(paper_page(site, "we-present-script"))
    authors_index = visible(site / "authors" / "index.html")
    for name in NAMES:
        assert name in authors_index


def test_search_index_holds_the_text_verbatim(site):
    """The search index holds titles and names as text (the page shows them
    through textContent, tests/browser/test_untrusted_browser.py)."""
    fragments = search_fragments(site).values()
    assert TITLE in [f["meta"]["title"] for f in fragments]
    assert any(NAMES[0] in f["content"] for f in fragments)


def test_export_keeps_text_verbatim(site):
    export = json.loads(gzip.decompress((site / "assets" / "atlas.json.gz").read_bytes()))
    papers = [n for n in export["nodes"] if n["type"] == "paper"]
    assert TITLE in [p["title"] for p in papers]
    hostile = next(p for p in papers if p["title"] == TITLE)
    assert hostile["authors"][:4] == NAMES[:4]
    assert VENUE in [n["label"] for n in export["nodes"] if n["type"] == "venue"]


def test_graph_data_keeps_text_as_data(site):
    """Graph data is JSON for the page's own script, which only ever sets
    textContent; the labels must survive exactly."""
    graph_files = sorted((site / "assets").rglob("*.json"))
    labels = set()
    for path in graph_files:
        data = json.loads(path.read_text(encoding="utf-8"))
        for node in data.get("nodes", []) if isinstance(data, dict) else []:
            labels.add(node.get("label"))
        if path.parent.parent.name == "t":                 # an explorer cluster: [slug, title, ...] rows
            labels.update(row[1] for row in data["papers"])
    assert TITLE in labels
    # Local graphs: data-graph='…' (single quotes, see render.html.json_attr).
    # An HTML parser and a plain reading of the source must agree on where the
    # value ends, and it must hold the hostile text verbatim.
    local = paper_page(site, "script-window-pwned-title").read_text(encoding="utf-8")
    data = json.loads(local_graph_attribute(local))
    assert data["n"][data["c"]][0] == TITLE
    graph_labels = set()
    for page in site.glob("*/*/index.html"):
        text = page.read_text(encoding="utf-8")
        if 'class="atlas-local-graph"' in text:
            graph_labels |= {row[0] for row in json.loads(local_graph_attribute(text))["n"]}
    assert {TITLE, VENUE, *NAMES} <= graph_labels


def local_graph_attribute(page: str) -> str:
    """The decoded ``data-graph`` of the page's local graph, checked to end where the source says."""
    found = []

    class Tags(HTMLParser):
        def handle_starttag(self, tag, attrs):
            if ("class", "atlas-local-graph") in attrs:
                found.append(dict(attrs))

    Tags(convert_charrefs=True).feed(page)
    assert len(found) == 1
    assert set(found[0]) == {"class", "data-graph", "role", "aria-label", "aria-describedby"}
    source = re.findall(r"""data-graph='([^'<>]*)' role="img" """, page)
    assert len(source) == 1 and html.unescape(source[0]) == found[0]["data-graph"]
    return found[0]["data-graph"]


def test_bibtex_is_inert(site):
    bib = site / "assets" / "atlas.bib"
    text = bib.read_text(encoding="utf-8")
    assert text.count("{") == text.count("}")
    assert "{{ config.site_name }}" not in text            # braces are escaped for BibTeX
