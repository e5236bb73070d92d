"""Counts over time for the charts, in one pass over the atlas's papers.

Every chart of the site (a technique's papers per year and share, its
co-occurring techniques over time, a venue's years and techniques, an
author's timeline, the areas' small multiples, the rising and falling
techniques) reads from one ``Trends`` object built here. Pages never scan
the papers again: at 20,000 papers, a scan per technique page times a few
hundred techniques would be millions of visits; one pass is 20,000.

The trend rule (``movers``), stated on the Trends page too:

* a year *has data* when the atlas holds at least ``MIN_YEAR_PAPERS``
  dated papers from it, so a share is never taken of a handful of papers;
* the *window* is the ``WINDOW`` latest years that have data (they need not
  be consecutive; the slope uses the real years);
* a technique's *share* in a year is the papers tagged with it directly
  divided by all dated papers of that year, so growth of the whole atlas is
  not mistaken for growth of a technique;
* a technique takes part when it is tagged on at least
  ``MIN_TECHNIQUE_PAPERS`` papers in the window, so one paper cannot make a
  trend;
* its trend is the least-squares slope of its share against the year, in
  percentage points per year; rising are the largest positive slopes,
  falling the most negative, ties broken by the technique's id.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field

from .model import Paper
from .taxonomy import Taxonomy

MIN_YEAR_PAPERS = 10
"""A year counts for the trend rule only with at least this many dated papers."""
WINDOW = 3
"""The trend rule looks at this many of the latest years that have data."""
MIN_TECHNIQUE_PAPERS = 5
"""A technique needs this many papers in the window to be ranked at all."""
MOVERS_SHOWN = 10
"""Rising (and falling) techniques listed on the Trends page."""


@dataclass(frozen=True)
class Mover:
    """One technique under the trend rule: its papers and shares in the window's years."""

    technique: str
    years: tuple[int, ...]
    papers: tuple[int, ...]
    shares: tuple[float, ...]          # percent of the year's dated papers
    slope: float                       # percentage points per year

    @property
    def total(self) -> int:
        return sum(self.papers)


@dataclass
class Trends:
    """Counts per year for every chart; built by ``compute_trends``.

    Year counters count papers, not tags: a paper tagged twice with
    techniques of one area counts once for that area.
    """

    totals: Counter = field(default_factory=Counter)                 # year -> dated papers
    undated: int = 0
    technique_years: dict = field(default_factory=lambda: defaultdict(Counter))   # tid -> year -> n
    cooccurring_years: dict = field(default_factory=lambda: defaultdict(lambda: defaultdict(Counter)))
    area_years: dict = field(default_factory=lambda: defaultdict(Counter))        # area -> year -> n
    venue_years: dict = field(default_factory=lambda: defaultdict(Counter))       # venue -> year -> n
    venue_techniques: dict = field(default_factory=lambda: defaultdict(lambda: defaultdict(Counter)))
    author_years: dict = field(default_factory=lambda: defaultdict(Counter))      # author -> year -> n
    author_techniques: dict = field(default_factory=lambda: defaultdict(Counter))  # author -> tid -> n
    window: tuple[int, ...] = ()
    movers: list[Mover] = field(default_factory=list)

    @property
    def years(self) -> list[int]:
        """Every year with a dated paper, oldest first."""
        return sorted(self.totals)

    def share(self, count: int, year: int) -> float:
        """``count`` as a percentage of the dated papers of ``year`` (0 for a year without any)."""
        total = self.totals.get(year, 0)
        return 100.0 * count / total if total else 0.0

    @property
    def rising(self) -> list[Mover]:
        return [m for m in self.movers if m.slope > 0][:MOVERS_SHOWN]

    @property
    def falling(self) -> list[Mover]:
        ordered = sorted((m for m in self.movers if m.slope < 0), key=lambda m: (m.slope, m.technique))
        return ordered[:MOVERS_SHOWN]


def compute_trends(papers: list[Paper], taxonomy: Taxonomy) -> Trends:
    """All counts over time, in one pass over ``papers``; then the trend rule."""
    trends = Trends()
    area_of = {tid: taxonomy.area_of(tid) for tid in taxonomy.techniques}
    for paper in papers:
        tids = list(dict.fromkeys(t.technique for t in paper.techniques if t.technique in area_of))
        authors = list(dict.fromkeys(paper.authors))
        for author in authors:
            trends.author_techniques[author].update(tids)
        year = paper.year
        if not year:
            trends.undated += 1
            continue
        trends.totals[year] += 1
        for author in authors:
            trends.author_years[author][year] += 1
        if paper.venue:
            trends.venue_years[paper.venue][year] += 1
            trends.venue_techniques[paper.venue][year].update(tids)
        for tid in tids:
            trends.technique_years[tid][year] += 1
            for other in tids:
                if other != tid:
                    trends.cooccurring_years[tid][other][year] += 1
        for area in dict.fromkeys(area_of[tid] for tid in tids):
            trends.area_years[area][year] += 1
    trends.window = trend_window(trends.totals)
    trends.movers = movers(trends, taxonomy)
    return trends


def trend_window(totals: Counter) -> tuple[int, ...]:
    """The ``WINDOW`` latest years with at least ``MIN_YEAR_PAPERS`` papers, oldest first;
    empty when fewer years have that much data."""
    years = sorted(y for y, n in totals.items() if n >= MIN_YEAR_PAPERS)
    return tuple(years[-WINDOW:]) if len(years) >= WINDOW else ()


def slope(xs: list[float], ys: list[float]) -> float:
    """The least-squares slope of ``ys`` against ``xs`` (0 when the xs do not vary)."""
    mean_x, mean_y = sum(xs) / len(xs), sum(ys) / len(ys)
    spread = sum((x - mean_x) ** 2 for x in xs)
    if not spread:
        return 0.0
    return sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys)) / spread


def movers(trends: Trends, taxonomy: Taxonomy) -> list[Mover]:
    """Every technique that meets the threshold, by slope, steepest rise first."""
    window = trends.window
    if not window:
        return []
    out = []
    for tid, by_year in trends.technique_years.items():
        if taxonomy.techniques[tid].is_area:
            continue
        counts = tuple(by_year.get(y, 0) for y in window)
        if sum(counts) < MIN_TECHNIQUE_PAPERS:
            continue
        shares = tuple(trends.share(n, y) for n, y in zip(counts, window))
        out.append(Mover(tid, window, counts, tuple(round(s, 1) for s in shares),
                         round(slope(list(window), list(shares)), 2)))
    return sorted(out, key=lambda m: (-m.slope, m.technique))
