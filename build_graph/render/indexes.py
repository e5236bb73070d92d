"""Index pages in the navigation: papers table, authors A–Z, venues, techniques tree.

The papers table is plain HTML with ``data-*`` attributes on each row; the
site's own script (``assets/atlas.js``) adds sorting and filtering by year,
venue and technique. Without JavaScript it is still a complete table.
Index pages are excluded from search: every entry they list has its own page.
"""

from __future__ import annotations

import unicodedata

from .context import (AUTHOR, AUTHORS_INDEX, GRAPH_PAGE, HOME_PAGE, PAPER, PAPERS_INDEX, QUALITY_PAGE,
                      TECHNIQUE, TECHNIQUES_INDEX, VENUE, VENUES_INDEX, newest_first)
from .markup import html_attr, html_text, json_attr, md_link, md_text, rel, rel_url


def _front(search: bool = False) -> str:
    return "---\nsearch:\n  exclude: true\n---\n" if not search else ""


def papers_index(ctx) -> str:
    here = PAPERS_INDEX
    papers = sorted(ctx.corpus.papers, key=newest_first)
    rows = []
    for p in papers:
        venue = ctx.venues[p.venue].name if p.venue else ""
        techniques = [t.technique for t in p.techniques]
        authors = [ctx.authors[k].name for k in p.authors]
        shown = ", ".join(authors[:3]) + (" et al." if len(authors) > 3 or p.authors_truncated else "")
        tech_links = ", ".join(
            f'<a href="{rel_url(here, TECHNIQUE.format(t))}">{html_text(ctx.technique_name(t))}</a>'
            for t in techniques)
        untitled = ' <em class="atlas-untitled">(untitled)</em>' if p.untitled else ""
        rows.append(
            f'<tr data-year="{p.year or ""}" data-venue="{html_attr(venue)}" '
            f'data-techniques="{html_attr(" ".join(techniques))}">'
            f'<td><a href="{rel_url(here, PAPER.format(p.slug))}">{html_text(p.label)}</a>{untitled}</td>'
            f"<td>{html_text(shown)}</td><td>{html_text(venue)}</td><td>{p.year or ''}</td>"
            f"<td>{tech_links}</td></tr>")
    options = [[tid, t.name] for tid, t in ctx.taxonomy.techniques.items()
               if not t.is_area and tid in ctx.papers_by_technique]
    out = [_front(), "# Papers", "",
           f"{len(papers)} papers. Click a column heading to sort; use the filters to narrow the list.",
           "",
           '<div class="atlas-table-filters" data-for="atlas-papers" '
           f'data-techniques="{json_attr(options)}"></div>',
           "",
           '<table class="atlas-table" id="atlas-papers"><thead><tr>'
           '<th data-sort="text">Title</th><th data-sort="text">Authors</th>'
           '<th data-sort="text">Venue</th><th data-sort="number">Year</th><th>Techniques</th>'
           "</tr></thead><tbody>", *rows, "</tbody></table>", ""]
    return "\n".join(out)


def _initial(name: str) -> str:
    folded = unicodedata.normalize("NFKD", name)[:1].upper()
    return folded if folded.isalpha() and folded.isascii() else "#"


def authors_index(ctx) -> str:
    here = AUTHORS_INDEX
    authors = sorted(ctx.authors.values(), key=lambda a: (a.name.split()[-1].casefold(), a.name.casefold()))
    groups: dict[str, list] = {}
    for author in authors:
        groups.setdefault(_initial(author.name.split()[-1]), []).append(author)
    letters = sorted(groups, key=lambda l: (l == "#", l))
    out = [_front(), "# Authors", "", f"{len(authors)} people, by family name.", "",
           " · ".join(f"[{l}](#{'other' if l == '#' else l.lower()})" for l in letters), ""]
    for letter in letters:
        anchor = "other" if letter == "#" else letter.lower()
        out += [f"## {'Other' if letter == '#' else letter} {{#{anchor}}}", ""]
        for author in groups[letter]:
            count = len(ctx.papers_by_author.get(author.key, []))
            out.append(f"- {md_link(author.name, rel(here, AUTHOR.format(author.slug)))} ({count})")
        out.append("")
    return "\n".join(out)


def venues_index(ctx) -> str:
    here = VENUES_INDEX
    out = [_front(), "# Venues", "", "| Venue | Full name | Papers | Years |", "| --- | --- | ---: | --- |"]
    for key in sorted(ctx.venues, key=str.casefold):
        venue = ctx.venues[key]
        papers = ctx.papers_by_venue.get(key, [])
        years = sorted({p.year for p in papers if p.year})
        out.append(f"| {md_link(venue.name, rel(here, VENUE.format(venue.slug)))} | "
                   f"{md_text(venue.full_name)} | {len(papers)} | {', '.join(map(str, years))} |")
    without = sum(1 for p in ctx.corpus.papers if not p.venue)
    out += ["", f"{without} papers have no venue in their listings (preprints and profile entries).", ""]
    return "\n".join(out)


def techniques_index(ctx) -> str:
    here = TECHNIQUES_INDEX
    taxonomy = ctx.taxonomy
    counts = ctx.subtree_counts
    out = [_front(), "# Techniques", "",
           f"{sum(1 for t in taxonomy.techniques.values() if not t.is_area)} techniques in "
           f"{len(taxonomy.areas())} areas. The number after each is how many papers use it or a "
           "narrower technique. A paper is tagged when a technique's name or one of its phrases "
           "appears in its title or abstract; each paper page shows the sentence that matched.", ""]

    def walk(tid: str, depth: int) -> None:
        t = taxonomy.techniques[tid]
        out.append("    " * depth + f"- {md_link(t.name, rel(here, TECHNIQUE.format(tid)))} ({counts.get(tid, 0)})")
        for child in taxonomy.children(tid):
            walk(child, depth + 1)

    for area in taxonomy.areas():
        walk(area.id, 0)
    out.append("")
    return "\n".join(out)


def home_page(ctx) -> str:
    """A home page for a site that has none of its own (``docs/index.md``): what
    the atlas holds and where to start. A site that writes its own keeps it."""
    here = HOME_PAGE
    papers, authors = len(ctx.corpus.papers), len(ctx.authors)
    techniques = sum(1 for t in ctx.taxonomy.techniques.values() if not t.is_area)
    used = sum(1 for tid in ctx.papers_by_technique if not ctx.taxonomy.techniques[tid].is_area)
    links = [("Papers", PAPERS_INDEX, f"all {papers}, sortable and filterable by year, venue and technique"),
             ("Techniques", TECHNIQUES_INDEX, f"{used} of the taxonomy's {techniques} techniques are used here"),
             ("Authors", AUTHORS_INDEX, f"{authors} people"),
             ("Venues", VENUES_INDEX, f"{len(ctx.venues)} venues"),
             ("Graph", GRAPH_PAGE, "papers, authors, venues and techniques as one explorable graph"),
             ("Data quality", QUALITY_PAGE, "what the listings got wrong and what could not be settled")]
    out = ["# Atlas", "",
           f"{papers} papers by {authors} authors, linked through their venues and techniques.", ""]
    out += [f"- **{md_link(name, rel(here, target))}**: {text}." for name, target, text in links]
    out.append("")
    return "\n".join(out)
