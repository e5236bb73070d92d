"""The charts of technique, venue and author pages, read from ``ctx.trends``.

Each function picks what its page shows from the counts ``trends.py``
gathered in one pass, and draws it with ``charts.py``; none of them looks at
the papers again. Paper pages get no chart: they must stay small.
"""

from __future__ import annotations

from .charts import Chart, heat_grid, year_bars, year_lines, year_range

TOGETHER_SHOWN = 4
"""Co-occurring techniques drawn over time on a technique's page (the list beside has more)."""
VENUE_TECHNIQUES = 6
"""A venue's most frequent techniques drawn per year."""
TIMELINE_PAPERS = 3
"""An author's timeline is drawn from this many dated papers on (and two years)."""


def technique_charts(ctx, tid: str) -> dict[str, Chart | None]:
    """Papers per year with the share of all papers that year; and the most
    frequent co-occurring techniques, year by year."""
    trends = ctx.trends
    name = ctx.technique_name(tid)
    counts = trends.technique_years.get(tid, {})
    if not counts:
        return {"years_chart": None, "together_chart": None}
    years = year_range(counts)
    years_chart = year_bars(
        "chart-years", f"{name}: papers per year",
        f"Bars: papers tagged directly with {name} in each year from {years[0]} to {years[-1]}. "
        "Line (right axis): their share of all the atlas's papers from that year.",
        counts, totals=trends.totals)
    together = trends.cooccurring_years.get(tid, {})
    totals = {other: sum(years.values()) for other, years in together.items()}
    top = sorted(totals, key=lambda o: (-totals[o], o))[:TOGETHER_SHOWN]
    together_chart = None
    if top:
        together_chart = year_lines(
            "chart-together", f"{name}: techniques most often used with it, per year",
            f"One line per technique: the papers tagged with both it and {name}, "
            f"each year from {years[0]} to {years[-1]}.",
            [(ctx.technique_name(o), together[o]) for o in top], years)
    return {"years_chart": years_chart, "together_chart": together_chart}


def venue_charts(ctx, key: str) -> dict[str, Chart | None]:
    """Papers per year; and the venue's most frequent techniques, year by year."""
    trends = ctx.trends
    venue = ctx.venues[key]
    counts = trends.venue_years.get(key, {})
    if not counts:
        return {"years_chart": None, "techniques_chart": None}
    years = year_range(counts)
    years_chart = year_bars(
        "chart-years", f"{venue.name}: papers per year",
        f"Bars: the venue's papers in the atlas, each year from {years[0]} to {years[-1]}.", counts)
    per_year = trends.venue_techniques.get(key, {})
    overall: dict[str, int] = {}
    for counter in per_year.values():
        for tid, n in counter.items():
            overall[tid] = overall.get(tid, 0) + n
    top = sorted(overall, key=lambda t: (-overall[t], t))[:VENUE_TECHNIQUES]
    techniques_chart = None
    if top:
        techniques_chart = heat_grid(
            "chart-techniques", f"{venue.name}: its most frequent techniques per year",
            f"A grid: one row per technique, one column per year from {years[0]} to {years[-1]}; "
            "each cell holds the venue's papers of that year tagged with the technique, "
            "darker when they are a larger share of the year's papers.",
            [(ctx.technique_name(t), {y: c.get(t, 0) for y, c in per_year.items()}) for t in top],
            {y: counts.get(y, 0) for y in years})
    return {"years_chart": years_chart, "techniques_chart": techniques_chart}


def author_timeline(ctx, key: str) -> Chart | None:
    """A compact strip of the person's papers per year, from ``TIMELINE_PAPERS``
    dated papers over two years or more. Fewer would draw one or two bars that
    only repeat the years their list of papers shows; and an atlas has several
    people per paper, most with one or two papers (page weight: at 20,000
    papers, 74,000 author pages)."""
    counts = ctx.trends.author_years.get(key, {})
    if len(counts) < 2 or sum(counts.values()) < TIMELINE_PAPERS:
        return None
    name = ctx.author_name(key)
    years = year_range(counts)
    return year_bars("chart-timeline", f"{name}: papers per year",
                     f"Bars: their papers in the atlas, each year from {years[0]} to {years[-1]}.",
                     counts, compact=True)


def author_techniques(ctx, key: str) -> list[tuple[str, int]]:
    """``(technique, papers)``, most first; counted in the trends pass."""
    counts = ctx.trends.author_techniques.get(key, {})
    return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
