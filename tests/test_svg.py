"""The SVG writer and the chart functions on their own: escaping, determinism,
and the edges of scales (no papers, one year, one point, huge counts)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from build_graph.render import charts
from build_graph.render.svg import Band, Linear, Svg, nice_ceiling, num, ticks

NS = "{http://www.w3.org/2000/svg}"
HOSTILE = ["<script>alert(1)</script>", 'a "quoted" & <b>bold</b> name', "]]><!-- x -->", "{{ 7*7 }} {% raw %}",
           "Ünïcødé — ‘quotes’", "x' onload='alert(1)"]


def parse(svg) -> ET.Element:
    """The SVG as an XML tree: fails on anything that is not well-formed."""
    return ET.fromstring(str(svg))


def texts(root: ET.Element) -> list[str]:
    return ["".join(el.itertext()) for el in root.iter() if el.tag in (f"{NS}text", f"{NS}title", f"{NS}desc")]


@pytest.mark.parametrize("value, expected", [
    (0, "0"), (-0.04, "0"), (12, "12"), (12.04, "12"), (12.06, "12.1"), (-3.25, "-3.2"),
    (1e9, "1000000000"), (0.05, "0.1"), (2.5, "2.5"),
])
def test_numbers_have_at_most_one_decimal(value, expected):
    assert num(value) == expected


@pytest.mark.parametrize("value, top", [
    (0, 1), (-5, 1), (1, 1), (3, 5), (7, 10), (11, 20), (24, 25), (26, 50), (0.3, 0.5),
    (99.9, 100), (123_456_789, 200_000_000), (float("nan"), 1),
])
def test_axis_tops_are_round_and_fit_the_data(value, top):
    assert nice_ceiling(value) == top


def test_scales_at_their_edges():
    assert Linear(0, 100, 10)(5) == 100           # an empty chart: every bar sits on the axis
    assert Linear(10, 100, 10)(10) == 10
    assert Linear(10, 100, 10)(50) == 10          # never above the plot
    assert Band(0, 100, 0).step == 100            # no slots: no division by zero
    assert ticks(5, 2) == [0, 2.5, 5]


CASES = {
    "no papers": {},
    "one year": {2023: 4},
    "one paper": {1999: 1},
    "gap years": {2015: 2, 2020: 7},
    "huge counts": {2020: 2_000_000_000, 2021: 1},
    "long span": {y: y % 7 for y in range(1950, 2026)},
}


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("with_share", [False, True])
def test_year_bars_at_the_edges(name, with_share):
    counts = CASES[name]
    totals = {y: 2 * n + 1 for y, n in counts.items()} if with_share else None
    chart = charts.year_bars("c", "Title", "Desc", counts, totals=totals)
    root = parse(chart.svg)
    assert root.get("role") == "img" and root.find(f"{NS}title").text == "Title"
    years = charts.year_range(counts)
    bars = root.findall(f".//{NS}rect")
    assert len(bars) == len(years) == len(chart.rows)
    for bar in bars:                                   # every bar inside the picture, none negative
        x, y, w, h = (float(bar.get(k)) for k in ("x", "y", "width", "height"))
        assert 0 <= x and x + w <= 640 + 0.1 and 0 <= y and h >= 0 and y + h <= float(root.get("height"))
    heights = {int(b.find(f"{NS}title").text.split(":")[0]): float(b.get("height")) for b in bars}
    if counts:
        top_year = max(counts, key=counts.get)
        assert heights[top_year] == max(heights.values()) > 0
    coords = re.findall(r'\s(?:x|y|width|height|cx|cy|r|x1|x2|y1|y2)="([^"]+)"', str(chart.svg))
    assert all(re.fullmatch(r"-?\d+(\.\d)?", c) for c in coords)


@pytest.mark.parametrize("text", HOSTILE)
def test_text_from_inputs_is_escaped(text):
    """Names come from listings and the taxonomy: in the SVG they are text, never markup."""
    svgs = [
        charts.year_bars(text, text, text, {2020: 1, 2021: 2}, totals={2020: 3, 2021: 4}).svg,
        charts.year_lines("id", text, text, [(text, {2020: 1}), ("other", {2021: 2})], [2020, 2021]).svg,
        charts.heat_grid("id", text, text, [(text, {2020: 1})], {2020: 3}).svg,
        charts.slope_bars("id", text, text, [(text, 1.5), ("b", -2.0)]),
        charts.share_panel("id", text, {2020: 1}, {2020: 2}, [2020], 50),
        charts.graph_thumbnail("id", text, text, [(0, 0, 3, "technique"), (10, 5, 1, "venue")], [(0, 1)]),
    ]
    for svg in svgs:
        root = parse(svg)
        assert not [el for el in root.iter() if el.tag in (f"{NS}script", f"{NS}b", f"{NS}foreignObject")]
        assert not any(name.startswith("on") for el in root.iter() for name in el.attrib)
        assert any(text in t or text[:23] in t for t in texts(root))     # shown, as text (labels may be cut)


def test_output_is_deterministic_and_independent_of_input_order():
    counts = {2019: 3, 2021: 5, 2020: 1}
    backwards = dict(reversed(list(counts.items())))
    totals = {2019: 10, 2020: 10, 2021: 12}
    first = charts.year_bars("c", "T", "D", counts, totals=totals)
    assert first == charts.year_bars("c", "T", "D", counts, totals=totals)
    assert first == charts.year_bars("c", "T", "D", backwards, totals=dict(reversed(list(totals.items()))))


def test_lines_stay_apart_and_one_point_is_drawn():
    chart = charts.year_lines("c", "T", "D", [("a", {2020: 1}), ("b", {2020: 1}), ("c", {2020: 1})], [2020])
    root = parse(chart.svg)
    assert len(root.findall(f".//{NS}polyline")) == 0          # one year: points, not lines
    labels = [float(t.get("y")) for t in root.iter(f"{NS}text") if "label" in (t.get("class") or "")]
    assert len(labels) == 3 and all(b - a >= 13 for a, b in zip(sorted(labels), sorted(labels)[1:]))
    assert chart.rows == ((2020, 1, 1, 1),)


def test_a_thumbnail_of_one_node_sits_in_the_middle():
    root = parse(charts.graph_thumbnail("m", "Map", "D", [(123.4, -50, 1, "technique")], []))
    circle = root.find(f".//{NS}circle")
    assert (circle.get("cx"), circle.get("cy")) == ("180", "110")


def test_svg_element_ids_use_the_ident():
    svg = Svg(10, 10, title="t", desc="d", ident='a"b', css="x")
    root = parse(svg.markup())
    assert root.get("aria-labelledby") == 'a"b-t a"b-d'
