"""Index pages in the navigation: papers table, authors A–Z, venues, techniques tree,
and a home page for a site without one.

Each function gathers its page's data and renders its template
(``build_graph/templates/*_index.html``). Index pages are excluded from
search: every entry they list has its own page.
"""

from __future__ import annotations

import json
import unicodedata
from dataclasses import replace

from ..model import Paper
from .context import (AUTHORS_INDEX, BIBTEX_FILE, GRAPH_PAGE, HOME_PAGE, PAPER, PAPERS_INDEX,
                      PAPERS_TABLE, QUALITY_PAGE,
                      TECHNIQUE, TECHNIQUES_INDEX, TRENDS_PAGE, VENUE, VENUES_INDEX, newest_first)
from .dashboard import dashboard
from .html import EXCLUDED, Html, href, render
from .paging import chunks, pager, part_path


PAPERS_INLINE = 100
"""Rows of the papers table written into its HTML: what a reader without
JavaScript sees (the newest papers), and what shows before the full table loads."""


def _row(ctx, paper: Paper) -> tuple[str, str]:
    """The authors and venue shown in a paper's row."""
    authors = [ctx.authors[k].name for k in paper.authors]
    shown = ", ".join(authors[:3]) + (" et al." if len(authors) > 3 or paper.authors_truncated else "")
    return shown, ctx.venues[paper.venue].name if paper.venue else ""


def papers_index(ctx) -> Html:
    """The papers table: its first ``PAPERS_INLINE`` rows in HTML, all rows in
    ``papers_table`` (JSON), which assets/atlas.js pages, sorts and filters.

    Written whole, the table was 7.7 MB of HTML at 10,000 papers; this page
    stays the same size at any atlas size (docs/performance.md).
    """
    papers = sorted(ctx.corpus.papers, key=newest_first)
    rows = []
    for p in papers[:PAPERS_INLINE]:
        shown, venue = _row(ctx, p)
        rows.append((p, href(PAPERS_INDEX, PAPER.format(p.slug)), shown, venue,
                     [(t.technique, ctx.technique_name(t.technique), href(PAPERS_INDEX, TECHNIQUE.format(t.technique)))
                      for t in p.techniques]))
    return render("papers_index.html", PAPERS_INDEX, EXCLUDED, rows=rows, total=len(papers),
                  table=href(PAPERS_INDEX, PAPERS_TABLE), bibtex=href(PAPERS_INDEX, BIBTEX_FILE),
                  paper_link=href(PAPERS_INDEX, PAPER.format("{}")),
                  technique_link=href(PAPERS_INDEX, TECHNIQUE.format("{}")))


def papers_table(ctx) -> str:
    """Every paper's row of the papers index, newest first, as compact JSON.

    ``{"venues": [name, ...], "techniques": [[id, name, filterable], ...],
    "papers": [[slug, title, authors, venue index or -1, year or 0,
    [technique index, ...], untitled], ...]}``: names are stored once and
    rows refer to them by position, so a row is about 120 bytes. The page
    builds links from the slugs (``data-paper-link``); every string reaches the
    page through ``textContent``.
    """
    papers = sorted(ctx.corpus.papers, key=newest_first)
    venues = sorted({p.venue for p in papers if p.venue}, key=lambda v: ctx.venues[v].name.casefold())
    venue_at = {v: i for i, v in enumerate(venues)}
    used = dict.fromkeys(t.technique for p in papers for t in p.techniques)
    techniques = [tid for tid in ctx.taxonomy.techniques if tid in used]
    technique_at = {tid: i for i, tid in enumerate(techniques)}
    rows = []
    for p in papers:
        shown, _ = _row(ctx, p)
        rows.append([p.slug, p.label, shown, venue_at.get(p.venue, -1), p.year or 0,
                     [technique_at[t.technique] for t in p.techniques], int(bool(p.untitled))])
    data = {"venues": [ctx.venues[v].name for v in venues],
            "techniques": [[tid, ctx.technique_name(tid), int(not ctx.taxonomy.techniques[tid].is_area)]
                           for tid in techniques],
            "papers": rows}
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n"


def _initial(name: str) -> str:
    folded = unicodedata.normalize("NFKD", name)[:1].upper()
    return folded if folded.isalpha() and folded.isascii() else "#"


AUTHORS_PER_PAGE = 1000
"""Authors on one page of the A–Z (about 100 KB). An atlas with more people
gets one page per initial (cut into parts of this size), linked from the index."""


def _letter_page(anchor: str) -> str:
    # "index" is never an author's slug (normalize/slugs.py), so these cannot meet one.
    return f"authors/index/{anchor}.md"


def authors_index(ctx) -> dict[str, Html]:
    """Authors A–Z by family name: one page, or with more than ``AUTHORS_PER_PAGE``
    people an index of initials and a page (in parts) per initial."""
    authors = sorted(ctx.authors.values(), key=lambda a: (a.name.split()[-1].casefold(), a.name.casefold()))
    groups: dict[str, list] = {}
    for author in authors:
        groups.setdefault(_initial(author.name.split()[-1]), []).append(author)
    letters = [(letter, "other" if letter == "#" else letter.lower())
               for letter in sorted(groups, key=lambda l: (l == "#", l))]

    def entries(here, people):
        return [(a.name, href(here, ctx.author_page(a.key)), len(ctx.papers_by_author.get(a.key, [])))
                for a in people]

    if len(authors) <= AUTHORS_PER_PAGE:
        return {AUTHORS_INDEX: render(
            "authors_index.html", AUTHORS_INDEX, EXCLUDED, count=len(authors), letters=None,
            groups=[(letter, anchor, entries(AUTHORS_INDEX, groups[letter])) for letter, anchor in letters])}
    pages = {}
    overview = []
    for letter, anchor in letters:
        page = _letter_page(anchor)
        parts = chunks(groups[letter], AUTHORS_PER_PAGE)
        overview.append((letter, len(groups[letter]),
                         [(n, href(AUTHORS_INDEX, part_path(page, n))) for n in range(1, len(parts) + 1)]))
        for number, people in enumerate(parts, start=1):
            here = part_path(page, number)
            pages[here] = render(
                "authors_letter.html", here, EXCLUDED, letter=letter, index=AUTHORS_INDEX,
                authors=entries(here, people),
                pager=pager(page, here, number, len(parts), len(groups[letter]), AUTHORS_PER_PAGE))
    pages[AUTHORS_INDEX] = render("authors_index.html", AUTHORS_INDEX, EXCLUDED, count=len(authors),
                                  letters=overview, groups=[])
    return pages


def venues_index(ctx) -> Html:
    venues = []
    for key in sorted(ctx.venues, key=str.casefold):
        venue = ctx.venues[key]
        papers = ctx.papers_by_venue.get(key, [])
        venues.append((venue, href(VENUES_INDEX, VENUE.format(venue.slug)), len(papers), sorted({p.year for p in papers if p.year})))
    return render("venues_index.html", VENUES_INDEX, EXCLUDED, venues=venues,
                  without=sum(1 for p in ctx.corpus.papers if not p.venue))


def techniques_index(ctx) -> Html:
    taxonomy = ctx.taxonomy

    def tree(tid: str) -> tuple:
        t = taxonomy.techniques[tid]
        return (t.name, href(TECHNIQUES_INDEX, TECHNIQUE.format(tid)), ctx.subtree_counts.get(tid, 0),
                [tree(child) for child in taxonomy.children(tid)])

    return render("techniques_index.html", TECHNIQUES_INDEX, EXCLUDED,
                  techniques=sum(1 for t in taxonomy.techniques.values() if not t.is_area),
                  areas=[tree(area.id) for area in taxonomy.areas()])


def home_page(ctx) -> Html:
    """A home page for a site that has none of its own (``docs/index.md``): what
    the atlas holds, where to start, and the dashboard. A site that writes its
    own home page keeps it, and the plugin puts ``parts["dashboard"]`` into it."""
    papers, authors = len(ctx.corpus.papers), len(ctx.authors)
    techniques = sum(1 for t in ctx.taxonomy.techniques.values() if not t.is_area)
    used = sum(1 for tid in ctx.papers_by_technique if not ctx.taxonomy.techniques[tid].is_area)
    links = [("Papers", PAPERS_INDEX, f"all {papers}, sortable and filterable by year, venue and technique"),
             ("Techniques", TECHNIQUES_INDEX, f"{used} of the taxonomy's {techniques} techniques are used here"),
             ("Trends", TRENDS_PAGE, "techniques rising and falling, and the areas over time"),
             ("Authors", AUTHORS_INDEX, f"{authors} people"),
             ("Venues", VENUES_INDEX, f"{len(ctx.venues)} venues"),
             ("Graph", GRAPH_PAGE, "papers, authors, venues and techniques as one explorable graph"),
             ("Data quality", QUALITY_PAGE, "what the listings got wrong and what could not be settled")]
    board = dashboard(ctx, HOME_PAGE)
    page = render("home.html", HOME_PAGE, papers=papers, authors=authors, links=links, dashboard=board)
    return replace(page, parts={"dashboard": str(board)})
