"""A small SVG writer for the atlas's charts: elements, numbers, scales, ticks.

Why our own and not a chart library: the charts are a handful of bars, lines
and labels, drawn for thousands of pages per build. A writer that appends
strings is cheap, writes nothing but what the chart needs (no inline styles,
no scripts, no fonts), and its output is byte-deterministic by construction.
The look lives in one stylesheet (``assets/atlas-charts.css``) through CSS
classes, so the light and dark palettes restyle every chart without a byte
of it changing.

Rules every chart keeps:

* numbers are written with at most one decimal (``num``), so files stay
  small and last-bit float differences never reach the output;
* every piece of text goes through ``escape`` (listing text such as a venue
  or technique name may hold ``<``, ``&`` or quotes);
* the root is ``<svg role="img">`` with ``<title>`` and ``<desc>`` referenced
  by ``aria-labelledby``, and the data sits in a table beside it (templates).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from markupsafe import Markup, escape


def num(value: float) -> str:
    """``value`` with at most one decimal and no ``-0``: ``12``, ``12.5``, ``-3``.
    (The hot path of every chart: formatted once, no float arithmetic.)"""
    text = f"{value:.1f}"
    if text.endswith(".0"):
        text = text[:-2]
    return "0" if text == "-0" else text


def count_label(value: int) -> str:
    """An axis label for a count: ``1,234,567``; short enough for any count a field has."""
    return f"{int(value):,}"


def nice_ceiling(value: float) -> float:
    """The smallest of 1, 2, 2.5, 5 × 10^k that is ≥ ``value`` (1 for 0 or less):
    an axis top that reads well and fits every bar."""
    if value <= 0 or not math.isfinite(value):
        return 1
    exponent = math.floor(math.log10(value))
    for step in (1, 2, 2.5, 5, 10):
        top = step * 10 ** exponent
        if top >= value * (1 - 1e-12):
            return int(top) if top >= 1 and top == int(top) else top
    return 10 ** (exponent + 1)


def ticks(top: float, count: int = 2) -> list[float]:
    """``count + 1`` evenly spaced tick values from 0 to ``top`` (a ``nice_ceiling``)."""
    return [top * i / count for i in range(count + 1)]


@dataclass(frozen=True)
class Band:
    """A band scale: ``n`` slots across ``[start, end)``, one per year (or category)."""

    start: float
    end: float
    n: int

    @property
    def step(self) -> float:
        return (self.end - self.start) / max(self.n, 1)

    def left(self, i: int) -> float:
        return self.start + i * self.step

    def centre(self, i: int) -> float:
        return self.left(i) + self.step / 2


@dataclass(frozen=True)
class Linear:
    """A linear scale from ``[0, top]`` onto ``[bottom, top_px]`` (SVG y grows downward)."""

    top: float
    bottom_px: float
    top_px: float

    def __call__(self, value: float) -> float:
        if self.top <= 0:
            return self.bottom_px
        return self.bottom_px - (self.bottom_px - self.top_px) * min(value, self.top) / self.top


class Svg:
    """An SVG document written element by element.

    ``title`` and ``desc`` are plain text; ``ident`` makes their ids unique on
    a page that holds several charts. ``css`` is the root's class list.
    """

    def __init__(self, width: int, height: int, *, title: str, desc: str, ident: str, css: str):
        self.width, self.height = width, height
        self.parts: list[str] = []
        self.ident = ident
        ident = escape(ident)
        self.head = (f'<svg xmlns="http://www.w3.org/2000/svg" class="{escape(css)}" role="img" '
                     f'viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
                     f'aria-labelledby="{ident}-t {ident}-d">'
                     f'<title id="{ident}-t">{escape(title)}</title>'
                     f'<desc id="{ident}-d">{escape(desc)}</desc>')

    def rect(self, x: float, y: float, w: float, h: float, css: str, label: str | None = None) -> None:
        """A rectangle; ``label`` becomes its own ``<title>`` (the browser's tooltip)."""
        tip = f"<title>{escape(label)}</title>" if label is not None else ""
        end = f">{tip}</rect>" if tip else "/>"
        self.parts.append(f'<rect class="{css}" x="{num(x)}" y="{num(y)}" '
                          f'width="{num(max(w, 0))}" height="{num(max(h, 0))}"{end}')

    def line(self, x1: float, y1: float, x2: float, y2: float, css: str) -> None:
        self.parts.append(f'<line class="{css}" x1="{num(x1)}" y1="{num(y1)}" x2="{num(x2)}" y2="{num(y2)}"/>')

    def polyline(self, points: list[tuple[float, float]], css: str) -> None:
        if len(points) == 1:                       # one point: a dot, since a line needs two
            self.circle(*points[0], 2.5, css)
            return
        joined = " ".join(f"{num(x)},{num(y)}" for x, y in points)
        self.parts.append(f'<polyline class="{css}" points="{joined}"/>')

    def circle(self, x: float, y: float, r: float, css: str, label: str | None = None) -> None:
        """A circle; ``css`` empty when a group around it gives the class."""
        tip = f"<title>{escape(label)}</title>" if label is not None else ""
        end = f">{tip}</circle>" if tip else "/>"
        attr = f'class="{css}" ' if css else ""
        self.parts.append(f'<circle {attr}cx="{num(x)}" cy="{num(y)}" r="{num(r)}"{end}')

    def segments(self, pairs: list[tuple[tuple[float, float], tuple[float, float]]], css: str) -> None:
        """Many separate straight lines as one path (``M x y L x y`` each): a
        tenth of the bytes of as many ``<line>`` elements."""
        if pairs:
            d = "".join(f"M{num(a[0])} {num(a[1])}L{num(b[0])} {num(b[1])}" for a, b in pairs)
            self.parts.append(f'<path class="{css}" d="{d}"/>')

    def text(self, x: float, y: float, text: str, css: str = "", anchor: str = "") -> None:
        """Text in ``currentColor`` (the stylesheet); ``anchor``: ``m`` middle, ``e`` end."""
        classes = " ".join(c for c in (css, f"a{anchor}" if anchor else "") if c)
        attr = f' class="{classes}"' if classes else ""
        self.parts.append(f'<text{attr} x="{num(x)}" y="{num(y)}">{escape(text)}</text>')

    def group(self, css: str) -> "_Group":
        return _Group(self, css)

    def markup(self) -> Markup:
        return Markup(self.head + "".join(self.parts) + "</svg>")


class _Group:
    """``with svg.group("cls"):`` wraps what is drawn inside in ``<g class="cls">``."""

    def __init__(self, svg: Svg, css: str):
        self.svg, self.css = svg, css

    def __enter__(self):
        self.svg.parts.append(f'<g class="{self.css}">')
        return self.svg

    def __exit__(self, *exc):
        self.svg.parts.append("</g>")
        return False
