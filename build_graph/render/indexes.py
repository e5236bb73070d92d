"""Index pages in the navigation: papers table, authors A–Z, venues, techniques tree,
and a home page for a site without one.

Each function gathers its page's data and renders its template
(``build_graph/templates/*_index.html``). Index pages are excluded from
search: every entry they list has its own page.
"""

from __future__ import annotations

import unicodedata

from .context import (AUTHOR, AUTHORS_INDEX, GRAPH_PAGE, HOME_PAGE, PAPER, PAPERS_INDEX, QUALITY_PAGE,
                      TECHNIQUE, TECHNIQUES_INDEX, VENUE, VENUES_INDEX, newest_first)
from .html import EXCLUDED, Html, href, render


def papers_index(ctx) -> Html:
    rows = []
    for p in sorted(ctx.corpus.papers, key=newest_first):
        authors = [ctx.authors[k].name for k in p.authors]
        shown = ", ".join(authors[:3]) + (" et al." if len(authors) > 3 or p.authors_truncated else "")
        rows.append((p, href(PAPERS_INDEX, PAPER.format(p.slug)), shown,
                     ctx.venues[p.venue].name if p.venue else "", " ".join(t.technique for t in p.techniques),
                     [(t.technique, ctx.technique_name(t.technique), href(PAPERS_INDEX, TECHNIQUE.format(t.technique)))
                      for t in p.techniques]))
    options = [[tid, t.name] for tid, t in ctx.taxonomy.techniques.items()
               if not t.is_area and tid in ctx.papers_by_technique]
    return render("papers_index.html", PAPERS_INDEX, EXCLUDED, rows=rows, options=options)


def _initial(name: str) -> str:
    folded = unicodedata.normalize("NFKD", name)[:1].upper()
    return folded if folded.isalpha() and folded.isascii() else "#"


def authors_index(ctx) -> Html:
    authors = sorted(ctx.authors.values(), key=lambda a: (a.name.split()[-1].casefold(), a.name.casefold()))
    groups: dict[str, list] = {}
    for author in authors:
        groups.setdefault(_initial(author.name.split()[-1]), []).append(
            (author.name, href(AUTHORS_INDEX, AUTHOR.format(author.slug)),
             len(ctx.papers_by_author.get(author.key, []))))
    letters = sorted(groups, key=lambda l: (l == "#", l))
    return render("authors_index.html", AUTHORS_INDEX, EXCLUDED, count=len(authors),
                  groups=[(l, "other" if l == "#" else l.lower(), groups[l]) for l in letters])


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
    the atlas holds and where to start. A site that writes its own keeps it."""
    papers, authors = len(ctx.corpus.papers), len(ctx.authors)
    techniques = sum(1 for t in ctx.taxonomy.techniques.values() if not t.is_area)
    used = sum(1 for tid in ctx.papers_by_technique if not ctx.taxonomy.techniques[tid].is_area)
    links = [("Papers", PAPERS_INDEX, f"all {papers}, sortable and filterable by year, venue and technique"),
             ("Techniques", TECHNIQUES_INDEX, f"{used} of the taxonomy's {techniques} techniques are used here"),
             ("Authors", AUTHORS_INDEX, f"{authors} people"),
             ("Venues", VENUES_INDEX, f"{len(ctx.venues)} venues"),
             ("Graph", GRAPH_PAGE, "papers, authors, venues and techniques as one explorable graph"),
             ("Data quality", QUALITY_PAGE, "what the listings got wrong and what could not be settled")]
    return render("home.html", HOME_PAGE, papers=papers, authors=authors, links=links)
