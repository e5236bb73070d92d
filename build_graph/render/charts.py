"""The site's charts: each one an SVG and the table of the same facts.

A chart function takes plain counts (from ``trends.Trends``) and returns a
``Chart``: the SVG (``svg.Svg``) and the rows of the table printed beside it
in a collapsible block (``_macros.html``: ``chart``). Both are made from the
same list of values in the same function, so what the picture shows and what
the table says cannot drift apart; ``tests/test_charts.py`` reads them back
from built pages and compares them.

Every mark that carries a value (a bar, a point, a cell) has a ``<title>``
naming it ("2023: 12 papers"), which is the browser's tooltip and what the
tests read. Colours and line styles are CSS classes styled in
``assets/atlas-charts.css`` with Material's palette variables: the SVG holds
no colour.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from markupsafe import Markup

from .svg import Band, Linear, Svg, count_label, nice_ceiling, num, ticks

WIDTH = 640
SERIES_STYLES = 4
"""Line styles (colour and dash) for series in one chart: ``s1``..``s4``; a chart
never draws more lines than this, so no two look alike."""


@dataclass(frozen=True)
class Chart:
    """An SVG and its data as a table: ``columns`` head the ``rows``; no SVG for the
    one table under a grid of small multiples."""

    svg: Markup | None
    caption: str
    columns: tuple[str, ...]
    rows: tuple[tuple, ...]


def year_range(years) -> list[int]:
    """Every year from the first to the last of ``years``: a gap is a zero, not skipped."""
    years = [y for y in years if y]
    return list(range(min(years), max(years) + 1)) if years else []


def percent(value: float) -> str:
    return f"{num(value)}%"


def plural(n: int, word: str) -> str:
    return f"{count_label(n)} {word}{'' if n == 1 else 's'}"


def _label_every(n: int, width: float, room: float = 34) -> int:
    """Label one year in every k, so that labels ``room`` px wide never overlap."""
    return max(1, math.ceil(n * room / max(width, 1)))


def _year_axis(svg: Svg, band: Band, years: list[int], y: float) -> None:
    every = _label_every(len(years), band.end - band.start)
    for i, year in enumerate(years):
        if (len(years) - 1 - i) % every == 0:
            svg.text(band.centre(i), y, str(year), "tick", "m")


def _count_ticks(top: float) -> list[float]:
    """0, the middle and the top, leaving the middle out when it is not a whole count."""
    values = ticks(top, 2)
    return [v for v in values if v == int(v)]


def year_bars(ident: str, title: str, desc: str, counts: dict[int, int], *,
              totals: dict[int, int] | None = None, noun: str = "paper",
              compact: bool = False) -> Chart:
    """Papers per year as bars; with ``totals``, also the share of each year's
    papers (a line on its own axis at the right).

    ``compact``: a short strip with only the first and last years labelled
    (an author's timeline).
    """
    years = year_range(counts)
    height = 64 if compact else 190
    left, right = (8, 8) if compact else (46, 46 if totals is not None else 12)
    top_px, bottom_px = 8, height - 20
    svg = Svg(WIDTH, height, title=title, desc=desc, ident=ident,
              css="atlas-chart" + (" atlas-chart--compact" if compact else ""))
    band = Band(left, WIDTH - right, len(years))
    top = nice_ceiling(max(counts.values(), default=0))
    scale = Linear(top, bottom_px, top_px)
    shares = {y: 100.0 * counts.get(y, 0) / totals[y] if totals and totals.get(y) else 0.0
              for y in years} if totals is not None else None
    if not compact:
        with svg.group("grid"):
            for value in _count_ticks(top):
                svg.line(left, scale(value), WIDTH - right, scale(value), "rule")
        for value in _count_ticks(top):
            svg.text(left - 6, scale(value) + 4, count_label(value), "tick", "e")
    gap = min(band.step * 0.2, 6)
    with svg.group("bars"):
        for i, year in enumerate(years):
            n = counts.get(year, 0)
            label = f"{year}: {plural(n, noun)}"
            if shares is not None:
                label += f", {percent(shares[year])} of all papers that year"
            y = scale(n)
            svg.rect(band.left(i) + gap / 2, y, band.step - gap, bottom_px - y, "bar", label)
    if shares is not None and years:
        share_top = nice_ceiling(max(shares.values()))
        share_scale = Linear(share_top, bottom_px, top_px)
        for value in ticks(share_top, 2):
            svg.text(WIDTH - right + 6, share_scale(value) + 4, percent(value), "tick share-tick")
        points = [(band.centre(i), share_scale(shares[y])) for i, y in enumerate(years)]
        svg.polyline(points, "share")
        with svg.group("share-points"):
            for (x, y), year in zip(points, years):
                svg.circle(x, y, 2.5, "share-point", f"{year}: {percent(shares[year])} of all papers")
    svg.line(left, bottom_px, WIDTH - right, bottom_px, "axis")
    if compact and years:
        svg.text(band.centre(0), height - 6, str(years[0]), "tick", "m")
        if len(years) > 1:
            svg.text(band.centre(len(years) - 1), height - 6, str(years[-1]), "tick", "m")
    else:
        _year_axis(svg, band, years, height - 6)
    if shares is not None:
        columns = ("Year", "Papers", "Share of all papers that year")
        rows = tuple((y, counts.get(y, 0), percent(shares[y])) for y in years)
    else:
        columns = ("Year", "Papers")
        rows = tuple((y, counts.get(y, 0)) for y in years)
    return Chart(svg.markup(), title, columns, rows)


def year_lines(ident: str, title: str, desc: str, series: list[tuple[str, dict[int, int]]],
               years: list[int]) -> Chart:
    """A few series of counts per year as lines, each labelled at its end.

    Lines differ by dash pattern as well as colour (``s1``..``s4``), and each is
    named at its last point, so no reader depends on telling colours apart.
    """
    series = series[:SERIES_STYLES]
    height = 170
    left, right, top_px, bottom_px = 46, 150, 8, height - 20
    svg = Svg(WIDTH, height, title=title, desc=desc, ident=ident, css="atlas-chart")
    band = Band(left, WIDTH - right, len(years))
    top = nice_ceiling(max((c.get(y, 0) for _, c in series for y in years), default=0))
    scale = Linear(top, bottom_px, top_px)
    with svg.group("grid"):
        for value in _count_ticks(top):
            svg.line(left, scale(value), WIDTH - right, scale(value), "rule")
    for value in _count_ticks(top):
        svg.text(left - 6, scale(value) + 4, count_label(value), "tick", "e")
    ends = []
    for number, (name, counts) in enumerate(series, start=1):
        css = f"s{number}"
        points = [(band.centre(i), scale(counts.get(y, 0))) for i, y in enumerate(years)]
        svg.polyline(points, f"series {css}")
        with svg.group(f"points {css}"):
            for (x, y), year in zip(points, years):
                svg.circle(x, y, 2.5, "point", f"{name}, {year}: {plural(counts.get(year, 0), 'paper')}")
        if points:
            ends.append([points[-1][1], name, css])
    # Labels at the lines' ends, pushed apart so they never overlap.
    ends.sort(key=lambda e: e[0])
    for i in range(1, len(ends)):
        ends[i][0] = max(ends[i][0], ends[i - 1][0] + 13)
    for y, name, css in ends:
        svg.text(WIDTH - right + 8, y + 4, _clip(name, 24), f"tick label {css}")
    svg.line(left, bottom_px, WIDTH - right, bottom_px, "axis")
    _year_axis(svg, band, years, height - 6)
    columns = ("Year", *(name for name, _ in series))
    rows = tuple((y, *(counts.get(y, 0) for _, counts in series)) for y in years)
    return Chart(svg.markup(), title, columns, rows)


def _clip(text: str, length: int) -> str:
    """A label cut to ``length`` characters with an ellipsis (the table has it whole)."""
    return text if len(text) <= length else text[: length - 1].rstrip() + "…"


def share_panel(ident: str, name: str, counts: dict[int, int], totals: dict[int, int],
                years: list[int], top: float) -> Markup:
    """One panel of a small-multiples grid: the share of each year's papers, on a
    scale (``top``, percent) shared by every panel so they compare at a glance."""
    width, height = 220, 90
    left, right, top_px, bottom_px = 30, 6, 6, height - 16
    title = f"{name}: share of papers per year"
    first, last = (years[0], years[-1]) if years else ("", "")
    svg = Svg(width, height, title=title,
              desc=f"Bars from {first} to {last}; the table below the grid has the values.",
              ident=ident, css="atlas-chart atlas-chart--panel")
    band = Band(left, width - right, len(years))
    scale = Linear(top, bottom_px, top_px)
    svg.line(left, scale(top), width - right, scale(top), "rule")
    svg.text(left - 4, scale(top) + 4, percent(top), "tick", "e")
    svg.text(left - 4, bottom_px, "0", "tick", "e")
    gap = min(band.step * 0.2, 3)
    with svg.group("bars"):
        for i, year in enumerate(years):
            n = counts.get(year, 0)
            share = 100.0 * n / totals[year] if totals.get(year) else 0.0
            y = scale(share)
            svg.rect(band.left(i) + gap / 2, y, band.step - gap, bottom_px - y, "bar",
                     f"{name}, {year}: {percent(share)} ({plural(n, 'paper')})")
    svg.line(left, bottom_px, width - right, bottom_px, "axis")
    if years:
        svg.text(band.centre(0), height - 4, str(years[0]), "tick", "m")
        if len(years) > 1:
            svg.text(band.centre(len(years) - 1), height - 4, str(years[-1]), "tick", "m")
    return svg.markup()


def small_multiples(ident: str, title: str, panels: list[tuple[str, dict[int, int]]],
                    totals: dict[int, int]) -> tuple[list[tuple[str, Markup]], Chart]:
    """A grid of ``share_panel``s on one scale, and one table for all of them."""
    years = year_range(totals)
    shares = [100.0 * c.get(y, 0) / totals[y] for _, c in panels for y in years if totals.get(y)]
    top = nice_ceiling(max(shares, default=0))
    grid = [(name, share_panel(f"{ident}-{i}", name, counts, totals, years, top))
            for i, (name, counts) in enumerate(panels, start=1)]
    columns = ("Year", *(name for name, _ in panels))
    rows = tuple((y, *(f"{percent(100.0 * c.get(y, 0) / totals[y] if totals.get(y) else 0.0)} "
                       f"({count_label(c.get(y, 0))})" for _, c in panels)) for y in years)
    return grid, Chart(None, title, columns, rows)


def heat_grid(ident: str, title: str, desc: str, rows_in: list[tuple[str, dict[int, int]]],
              totals: dict[int, int]) -> Chart:
    """Techniques (rows) by year (columns): each cell the papers of that year
    tagged with the technique, written in the cell and shaded by its share of
    that year's papers, relative to the grid's largest share (``h0`` for none,
    then ``h1``..``h4``), so the strongest cell is always the darkest."""
    years = year_range(totals)
    label_w, cell_h, head = 170, 20, 18
    cell_w = max(22, min(48, (WIDTH - label_w) / max(len(years), 1)))
    width = int(label_w + cell_w * len(years)) + 2
    height = head + cell_h * len(rows_in) + 2
    svg = Svg(width, height, title=title, desc=desc, ident=ident, css="atlas-chart atlas-chart--grid")
    every = _label_every(len(years), cell_w * len(years), 30)
    shares = [c.get(y, 0) / totals[y] for _, c in rows_in for y in years if totals.get(y)]
    strongest = max(shares, default=0) or 1
    for j, year in enumerate(years):
        if (len(years) - 1 - j) % every == 0:
            svg.text(label_w + cell_w * (j + 0.5), 13, str(year), "tick", "m")
    for i, (name, counts) in enumerate(rows_in):
        y = head + i * cell_h
        svg.text(label_w - 6, y + 14, _clip(name, 26), "tick", "e")
        for j, year in enumerate(years):
            n = counts.get(year, 0)
            share = n / totals[year] if totals.get(year) else 0.0
            step = 0 if n == 0 else min(4, 1 + int(4 * share / strongest))
            x = label_w + j * cell_w
            svg.rect(x + 1, y + 1, cell_w - 2, cell_h - 2, f"cell h{step}",
                     f"{name}, {year}: {plural(n, 'paper')} of {count_label(totals.get(year, 0))}")
            if n:
                svg.text(x + cell_w / 2, y + 14, count_label(n), f"cell-n{' on' if step >= 3 else ''}", "m")
    columns = ("Technique", *(str(y) for y in years))
    rows = tuple((name, *(counts.get(y, 0) for y in years)) for name, counts in rows_in)
    return Chart(svg.markup(), title, columns, rows)


def slope_bars(ident: str, title: str, desc: str, items: list[tuple[str, float]]) -> Markup:
    """Horizontal bars of each technique's change in share (percentage points
    per year): rises to the right of the zero line, falls to the left."""
    label_w, row_h, pad = 190, 18, 6
    height = row_h * len(items) + 2 * pad + 14
    svg = Svg(WIDTH, height, title=title, desc=desc, ident=ident, css="atlas-chart atlas-chart--slopes")
    reach = nice_ceiling(max((abs(s) for _, s in items), default=0))
    zero = label_w + (WIDTH - label_w - 60) / 2
    half = (WIDTH - label_w - 60) / 2
    svg.line(zero, pad, zero, height - 14, "axis")
    svg.text(zero - half, height - 2, f"−{num(reach)}", "tick", "m")
    svg.text(zero, height - 2, "0", "tick", "m")
    svg.text(zero + half, height - 2, f"+{num(reach)} points a year", "tick", "m")
    with svg.group("bars"):
        for i, (name, value) in enumerate(items):
            y = pad + i * row_h
            length = half * abs(value) / reach
            x = zero if value >= 0 else zero - length
            svg.rect(x, y + 3, length, row_h - 6, "bar up" if value >= 0 else "bar down",
                     f"{name}: {signed(value)} percentage points a year")
    for i, (name, value) in enumerate(items):
        svg.text(label_w - 6, pad + i * row_h + 13, _clip(name, 28), "tick", "e")
    return svg.markup()


def signed(value: float) -> str:
    """``+1.2``, ``−0.5`` (a true minus sign), ``0``."""
    text = num(abs(value))
    return "0" if text == "0" else ("+" if value > 0 else "−") + text


def graph_thumbnail(ident: str, title: str, desc: str,
                    nodes: list[tuple[float, float, int, str]],
                    links: list[tuple[int, int]], width: int = 360, height: int = 220) -> Markup:
    """The explorer's map, small: ``nodes`` are ``(x, y, papers, kind)`` at
    the layout's positions, fitted into the box; ``links`` join node indexes.
    Circles grow with the square root of their papers, as the explorer's do."""
    svg = Svg(width, height, title=title, desc=desc, ident=ident, css="atlas-chart atlas-thumb")
    if not nodes:
        return svg.markup()
    xs, ys = [n[0] for n in nodes], [n[1] for n in nodes]
    pad = 12
    dx, dy = max(xs) - min(xs), max(ys) - min(ys)
    k = min((width - 2 * pad) / dx if dx else math.inf, (height - 2 * pad) / dy if dy else math.inf)
    k = 0.0 if k == math.inf else k             # one node, or all at one point: the centre
    ox, oy = (width - k * dx) / 2, (height - k * dy) / 2

    def at(i):                                  # whole pixels: a thumbnail needs no finer
        return round(ox + k * (xs[i] - min(xs))), round(oy + k * (ys[i] - min(ys)))

    biggest = max(n[2] for n in nodes) or 1
    svg.segments([(at(a), at(b)) for a, b in links], "links")
    for kind in sorted({n[3] for n in nodes}):
        with svg.group(kind):
            for i, node in enumerate(nodes):
                if node[3] == kind:
                    svg.circle(*at(i), 1.5 + 7 * math.sqrt(node[2] / biggest), "")
    return svg.markup()
