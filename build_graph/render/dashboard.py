"""The Trends page and the home page's dashboard, from ``ctx.trends``.

The Trends page ranks techniques by the rule in ``trends.py`` and states
that rule on the page itself; it also draws the biggest areas as small
multiples on one scale. The dashboard is the generated part of the home
page (counts, a thumbnail of the explorer's map, the newest papers, the top
rising techniques, a search box): a site that writes its own ``index.md``
keeps its prose in Markdown and the plugin puts the dashboard into it
(``plugin.insert_dashboard``); a site without one gets ``home.html``, which
includes the same dashboard.
"""

from __future__ import annotations

from markupsafe import Markup

from .. import trends as rule
from ..layout import anchor_layout
from ..model import Paper
from .charts import Chart, graph_thumbnail, percent, signed, slope_bars, small_multiples, year_bars
from .context import (AUTHORS_INDEX, GRAPH_PAGE, HOME_PAGE, PAPERS_INDEX, TECHNIQUE, TECHNIQUES_INDEX,
                      TRENDS_PAGE, VENUES_INDEX, newest_first)
from .explorer import TEXT_PAGE, explorer_map
from .html import EXCLUDED, Html, fragment, href, render, shared_link
from .pages import paper_line

AREAS_SHOWN = 9
"""Areas in the Trends page's small multiples (a 3 × 3 grid), most papers first."""
NEWEST_SHOWN = 8
RISING_SHOWN = 5
THUMBNAIL_NODES = 80
"""Map nodes drawn in the home page's thumbnail: the biggest, so it stays a few KB."""


def _movers_chart(ctx, here: str) -> Chart | None:
    trends = ctx.trends
    items = trends.rising + sorted(trends.falling, key=lambda m: (-m.slope, m.technique))
    if not items:
        return None
    window = trends.window
    svg = slope_bars(
        "chart-movers", "Techniques rising and falling fastest",
        f"Bars: each technique's change in share of the year's papers, in percentage points a year, "
        f"over {', '.join(map(str, window))}; rising to the right, falling to the left.",
        [(ctx.technique_name(m.technique), m.slope) for m in items])
    columns = ("Technique", *(f"{y}: papers (share)" for y in window), "Change (points a year)")
    rows = tuple(
        (shared_link(ctx.links, here, TECHNIQUE.format(m.technique), ctx.technique_name(m.technique)),
         *(f"{n} ({percent(s)})" for n, s in zip(m.papers, m.shares)), signed(m.slope))
        for m in items)
    return Chart(svg, "techniques rising and falling fastest", columns, rows)


def _areas(ctx):
    trends = ctx.trends
    areas = [a.id for a in ctx.taxonomy.areas() if trends.area_years.get(a.id)]
    areas.sort(key=lambda a: (-sum(trends.area_years[a].values()), a))
    panels = [(ctx.technique_name(a), trends.area_years[a]) for a in areas[:AREAS_SHOWN]]
    if not panels:
        return [], None
    return small_multiples("chart-area", "Share of each year's papers, by area", panels, trends.totals)


def trends_page(ctx) -> Html:
    trends = ctx.trends
    totals = trends.totals
    years_chart = year_bars(
        "chart-all", "All papers per year",
        "Bars: the atlas's dated papers in each year.", totals) if totals else None
    grid, areas_table = _areas(ctx)
    return render(
        "trends.html", TRENDS_PAGE, EXCLUDED, trends=trends, rule=rule,
        dated=sum(totals.values()), years_with_data=sorted(y for y, n in totals.items() if n >= rule.MIN_YEAR_PAPERS),
        movers=_movers_chart(ctx, TRENDS_PAGE), grid=grid, areas_table=areas_table,
        years_chart=years_chart)


def _thumbnail(ctx) -> Markup:
    chosen, links = explorer_map(ctx)
    positions = anchor_layout(ctx.atlas.graph, ctx.atlas.caches)
    shown = sorted(range(len(chosen)), key=lambda i: (-len(chosen[i].papers), chosen[i].node))[:THUMBNAIL_NODES]
    shown.sort()
    at = {old: new for new, old in enumerate(shown)}
    nodes = [(*positions[chosen[i].node], len(chosen[i].papers),
              "area" if chosen[i].is_area else chosen[i].kind) for i in shown]
    kept = [(at[a], at[b]) for a, b, _ in links if a in at and b in at]
    techniques = sum(1 for i in shown if chosen[i].kind == "technique")
    return graph_thumbnail(
        "chart-map", "The map of the field",
        f"The explorer's map, small: its {techniques} largest techniques and areas and "
        f"{len(shown) - techniques} largest venues, placed as in the explorer, joined where they share papers.",
        nodes, kept)


def _newest(ctx, here: str) -> list:
    papers: list[Paper] = sorted(ctx.corpus.papers, key=newest_first)[:NEWEST_SHOWN]
    return [paper_line(ctx, p, here) for p in papers]


def dashboard(ctx, here: str = HOME_PAGE) -> Markup:
    """The home page's generated part, as HTML for the home page at ``here``."""
    used = sum(1 for tid in ctx.papers_by_technique if not ctx.taxonomy.techniques[tid].is_area)
    counts = [(len(ctx.corpus.papers), "papers", PAPERS_INDEX), (len(ctx.authors), "authors", AUTHORS_INDEX),
              (len(ctx.venues), "venues", VENUES_INDEX), (used, "techniques", TECHNIQUES_INDEX)]
    rising = [(shared_link(ctx.links, here, TECHNIQUE.format(m.technique), ctx.technique_name(m.technique)),
               signed(m.slope)) for m in ctx.trends.rising[:RISING_SHOWN]]
    return fragment(
        "dashboard.html", url=lambda target: href(here, target),
        counts=[(f"{n:,}", noun, page) for n, noun, page in counts],
        thumbnail=_thumbnail(ctx), graph_page=GRAPH_PAGE, map_text=TEXT_PAGE, trends_page=TRENDS_PAGE,
        newest=_newest(ctx, here), rising=rising, window=ctx.trends.window)
