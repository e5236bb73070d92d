"""What each chart shows equals the table beside it, on every page that has one.

Read back from the rendered pages of the fixture sites (and a synthetic atlas
with real trends): every mark's ``<title>`` (bar, point, cell) names its value,
the marks' geometry must agree with those values, and the table in the chart's
details block must hold exactly the same facts.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections import Counter
from html import unescape
from pathlib import Path

import pytest

from build_graph.devtools.synth import write_synthetic_seeds
from build_graph.pipeline import build_atlas
from build_graph.render.html import Html
from build_graph.render.site import render_site
from site_pages import DATA, pages

NS = "{http://www.w3.org/2000/svg}"
FIGURE = re.compile(r'<figure class="atlas-figure">(.*?)</figure>', re.S)
SVG = re.compile(r"<svg .*?</svg>", re.S)
TABLE = re.compile(r'<table class="atlas-chart-table">(.*?)</table>', re.S)


def synthetic_pages(tmp: Path) -> dict:
    write_synthetic_seeds(tmp, 600, seed=3)
    return render_site(build_atlas(tmp, DATA, strict=True))


@pytest.fixture(scope="module")
def sites(tmp_path_factory) -> dict[str, dict]:
    return {"seeds": pages("seeds"), "hostile": pages("hostile"), "graph": pages("graph"),
            "synthetic": synthetic_pages(tmp_path_factory.mktemp("synthetic"))}


def cells(row_html: str) -> list[str]:
    return [unescape(re.sub(r"<[^>]+>", "", c)).strip()
            for c in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row_html, re.S)]


def table(html: str) -> tuple[list[str], list[list[str]]]:
    rows = [cells(r) for r in re.findall(r"<tr>(.*?)</tr>", html, re.S)]
    return rows[0], rows[1:]


def marks(svg: str) -> list[tuple[ET.Element, str]]:
    """Every element with a value: (element, its title's text)."""
    root = ET.fromstring(svg)
    return [(el, el.find(f"{NS}title").text) for el in root.iter()
            if el.tag in (f"{NS}rect", f"{NS}circle") and el.find(f"{NS}title") is not None]


def classes(el: ET.Element) -> set[str]:
    return set((el.get("class") or "").split())


def count_of(text: str) -> int:
    return int(text.replace(",", ""))


def check_year_bars(svg: str, head: list[str], rows: list[list[str]]) -> int:
    bars = [(el, t) for el, t in marks(svg) if "bar" in classes(el)]
    shown = {}
    for el, title in bars:
        m = re.fullmatch(r"(\d+): ([\d,]+) papers?(?:, ([\d.]+%) of all papers that year)?", title)
        assert m, title
        shown[m[1]] = (count_of(m[2]), m[3], float(el.get("height")))
    table_facts = {r[0]: (count_of(r[1]), r[2] if len(r) > 2 else None) for r in rows}
    assert {y: v[:2] for y, v in shown.items()} == table_facts
    # The picture agrees with the numbers: bar heights are proportional to the counts.
    top = max(shown.values(), key=lambda v: v[0])
    if top[0]:
        per = top[2] / top[0]
        for year, (n, _, height) in shown.items():
            assert abs(height - n * per) <= 0.2, (year, n, height)
    points = {t.split(":")[0]: t.split(": ")[1].split(" ")[0] for el, t in marks(svg) if "share-point" in classes(el)}
    if len(head) > 2:
        assert points == {r[0]: r[2] for r in rows}
    return len(bars)


def check_lines(svg: str, head: list[str], rows: list[list[str]]) -> int:
    shown = {}
    for el, title in marks(svg):
        name, _, rest = title.rpartition(", ")
        m = re.fullmatch(r"(\d+): ([\d,]+) papers?", rest)
        assert m, title
        shown[(name, m[1])] = count_of(m[2])
    assert shown == {(head[j], r[0]): count_of(r[j]) for r in rows for j in range(1, len(head))}
    return len(shown)


def check_grid(svg: str, head: list[str], rows: list[list[str]]) -> int:
    shown = {}
    for el, title in marks(svg):
        name, _, rest = title.rpartition(", ")
        m = re.fullmatch(r"(\d+): ([\d,]+) papers? of ([\d,]+)", rest)
        assert m, title
        shown[(name, m[1])] = count_of(m[2])
        assert ("h0" in classes(el)) == (count_of(m[2]) == 0)
    assert shown == {(r[0], head[j]): count_of(r[j]) for r in rows for j in range(1, len(head))}
    return len(shown)


def check_slopes(svg: str, head: list[str], rows: list[list[str]]) -> int:
    shown = {}
    for el, title in marks(svg):
        name, _, value = title.rpartition(": ")
        shown[name] = value.replace(" percentage points a year", "")
        assert ("up" in classes(el)) == (not value.startswith("−"))
    assert shown == {r[0]: r[-1] for r in rows}
    return len(shown)


def check_panels(body: str, head: list[str], rows: list[list[str]]) -> int:
    shown = {}
    for svg in SVG.findall(body):
        if "atlas-chart--panel" not in svg.split(">", 1)[0]:
            continue
        for el, title in marks(svg):
            name, _, rest = title.rpartition(", ")
            m = re.fullmatch(r"(\d+): ([\d.]+%) \(([\d,]+) papers?\)", rest)
            assert m, title
            shown[(name, m[1])] = f"{m[2]} ({m[3]})"
    assert shown == {(head[j], r[0]): r[j] for r in rows for j in range(1, len(head))}
    return len(shown)


def check_page(body: str) -> Counter:
    checked: Counter = Counter()
    for figure in FIGURE.findall(body):
        svg, found = SVG.search(figure), TABLE.search(figure)
        if not found:                      # a small-multiples panel: its table follows the grid
            continue
        head, rows = table(found.group(1))
        svg = svg.group(0)
        opening = svg.split(">", 1)[0]
        if "atlas-chart--slopes" in opening:
            checked["slopes"] += check_slopes(svg, head, rows)
        elif "atlas-chart--grid" in opening:
            checked["grid"] += check_grid(svg, head, rows)
        elif 'class="series' in svg:
            checked["lines"] += check_lines(svg, head, rows)
        else:
            checked["bars"] += check_year_bars(svg, head, rows)
    if "atlas-multiples" in body:
        grid_table = body.split('<div class="atlas-multiples">', 1)[1]
        head, rows = table(TABLE.search(grid_table).group(1))
        checked["panels"] += check_panels(grid_table.split("</div>", 1)[0], head, rows)
    return checked


@pytest.mark.parametrize("site", ["seeds", "hostile", "graph", "synthetic"])
def test_every_chart_shows_what_its_table_says(sites, site):
    checked: Counter = Counter()
    for path, page in sites[site].items():
        if isinstance(page, Html):
            checked += check_page(page.body)
    assert checked["bars"] > 0
    if site == "synthetic":                # the atlas with trends has every kind of chart
        assert set(checked) == {"bars", "lines", "grid", "slopes", "panels"}, checked


def test_paper_pages_have_no_charts(sites):
    for site in sites.values():
        for path, page in site.items():
            if path.startswith("papers/") and isinstance(page, Html):
                assert "<svg" not in page.body, path


def test_chart_pages_are_deterministic(sites, tmp_path):
    again = synthetic_pages(tmp_path)
    for path in ("trends.md", "index.md"):
        assert again[path] == sites["synthetic"][path]
        assert again[path].parts == sites["synthetic"][path].parts
