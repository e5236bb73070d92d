"""One HTML page per paper, author, venue and technique.

Each function gathers what its page shows, as plain data, and renders its
template (``build_graph/templates/<kind>.html``); the template escapes every
piece of listing text. Titles reach the page only as the escaped first
heading and as ``Html.title`` (escaped by the same template).
"""

from __future__ import annotations

from collections import Counter
from functools import partial

from ..bibtex import bibtex_entry
from ..model import Paper
from . import graphview
from .context import (AUTHOR, BIBTEX_FILE, PAPER, PAPERS_INDEX, TECHNIQUE, VENUE, SiteContext,
                      newest_first)
from .html import EXCLUDED, Html, fragment, href, render, shared_link
from .notes import note_html
from .page_charts import author_techniques, author_timeline, technique_charts, venue_charts
from .paging import PER_PAGE, chunks, pager, part_path

LIGHT = {"hide": ["navigation"]}
"""Entity pages are not in the navigation, so the left sidebar would only repeat
the header's tabs: hidden (mkdocs-material reads ``hide`` from the page's meta)."""

LIGHTER = {"hide": ["navigation", "toc"]}
"""Paper and person pages have no table of contents either: they are short (a
screen or two of sections whose headings are in view), and there are two of
them or more per paper, so its 0.9 KB on each was 2 KB per paper (issue 13).
Technique and venue pages, long and few, keep theirs."""

COAUTHORS_SHOWN = 60
"""Co-authors listed on a person's page, most frequent first; a prolific author
has thousands, and each is also named on the papers they share."""

def abstract_paragraphs(abstract: str) -> list[str]:
    """The abstract's paragraphs, each on one line."""
    return [text for text in (" ".join(para.split()) for para in abstract.split("\n\n")) if text]


def safe_href(url: str | None) -> str | None:
    """Only http(s) links leave the site; anything else (javascript:, data:) is shown as text."""
    if url and url.lower().startswith(("https://", "http://")) \
            and not any(c.isspace() or c in "<>" for c in url):
        return url
    return None


def paper_line(ctx: SiteContext, paper: Paper, here: str):
    """Title, venue and year of a paper in a list, as HTML (``paper_line.html``).

    A paper is listed on each of its authors' pages, its venue's and its
    techniques': the line depends only on where ``here``'s URL sits (its
    folder, and whether it is an index page), so it is rendered once per place.
    """
    folder, _, name = here.rpartition("/")
    key = (folder, name == "index.md", paper.slug)
    line = ctx.paper_lines.get(key)
    if line is None:
        venue = ctx.venues[paper.venue] if paper.venue else None
        line = ctx.paper_lines[key] = fragment(
            "paper_line.html", url=lambda target: href(here, target), paper=paper,
            paper_page=PAPER.format(paper.slug), venue=venue,
            venue_page=VENUE.format(venue.slug) if venue else None)
    return line


def _note(ctx: SiteContext, here: str) -> dict:
    note = ctx.notes.get(here)
    return {"note_html": note_html(note) if note else None, "note_path": note.path if note else None}


def paper_page(ctx: SiteContext, paper: Paper) -> Html:
    here = PAPER.format(paper.slug)
    links = []
    if paper.arxiv:
        links.append((f"arXiv:{paper.arxiv}", f"https://arxiv.org/abs/{paper.arxiv}"))
    if paper.doi:
        links.append((f"DOI {paper.doi}", f"https://doi.org/{paper.doi}"))
    links += [(url, safe_href(url)) for url in paper.urls if safe_href(url)]
    by_source: dict[tuple, list[str]] = {}
    for c in paper.corrections:
        by_source.setdefault((c.source, c.note), []).append(c.field)
    disagreements = []
    for name, values in paper.field_values.items():       # which source said what, when they differ
        if len({v.value for v in values}) > 1:
            shown = {"title": paper.title, "venue": paper.venue, "year": paper.year,
                     "authors": ", ".join(ctx.corpus.authors[a].name for a in paper.authors)}.get(name)
            disagreements.append((name, [(v.value, v.source.ref, v.kind) for v in values], str(shown)))
    venue = ctx.venues[paper.venue] if paper.venue else None
    return render(
        "paper.html", here, {"atlas": "paper", **LIGHTER},
        paper=paper, title_fix=paper.corrected("title"), safe_href=safe_href,
        authors=[shared_link(ctx.links, here, ctx.author_page(k), ctx.authors[k].name)
                 for k in paper.authors],
        venue=venue, venue_page=VENUE.format(venue.slug) if venue else None, links=links,
        abstract=abstract_paragraphs(paper.abstract) if paper.abstract else [],
        techniques=[(ctx.technique_name(t.technique), href(here, TECHNIQUE.format(t.technique)), t)
                    for t in paper.techniques],
        related=[(paper_line(ctx, ctx.papers[item.slug], here),
                  item.reason(ctx.technique_name, ctx.author_name))
                 for item in ctx.atlas.related.get(paper.slug, [])],
        graph=graphview.local_graph(ctx, paper.node_id, here),
        bibtex=bibtex_entry(paper, ctx.corpus, ctx.citation_keys[paper.slug]).rstrip("\n"),
        bibtex_file=BIBTEX_FILE,
        corrections=[(fields, source, note) for (source, note), fields in by_source.items()],
        disagreements=disagreements, search_filters=_search_filters(ctx, paper), **_note(ctx, here))


def _search_filters(ctx: SiteContext, paper: Paper) -> list[tuple[str, str]]:
    """The search filters of a paper's page: its venue, year and techniques."""
    filters = [("venue", ctx.venues[paper.venue].name)] if paper.venue else []
    filters += [("year", str(paper.year))] if paper.year else []
    return filters + [("technique", ctx.technique_name(t.technique)) for t in paper.techniques]


def author_page(ctx: SiteContext, key: str) -> Html:
    author = ctx.authors[key]
    here = AUTHOR.format(author.slug)
    papers = ctx.papers_by_author.get(key, [])
    coauthors = ctx.coauthors(key)
    return render(
        "author.html", here, {"atlas": "author", **EXCLUDED, **LIGHTER},
        author=author, variants=sorted(author.spellings - {author.name}),
        papers=_items(ctx, papers[:PER_PAGE], here),
        pager=pager(here, here, 1, len(chunks(papers, PER_PAGE)), len(papers), PER_PAGE),
        coauthors=[(shared_link(ctx.links, here, ctx.author_page(o), ctx.authors[o].name), n)
                   for o, n in coauthors[:COAUTHORS_SHOWN]],
        more_coauthors=max(0, len(coauthors) - COAUTHORS_SHOWN),
        techniques=[(ctx.technique_name(t), href(here, TECHNIQUE.format(t)), n)
                    for t, n in author_techniques(ctx, key)],
        timeline=author_timeline(ctx, key),
        graph=graphview.local_graph(ctx, f"author:{author.slug}", here), **_note(ctx, here))


def venue_page(ctx: SiteContext, key: str) -> Html:
    venue = ctx.venues[key]
    here = VENUE.format(venue.slug)
    papers = ctx.papers_by_venue.get(key, [])
    return render(
        "venue.html", here, {"atlas": "venue", **EXCLUDED, **LIGHT},
        venue=venue, count=len(papers), years=_by_year(ctx, papers[:PER_PAGE], here),
        **venue_charts(ctx, key),
        pager=pager(here, here, 1, len(chunks(papers, PER_PAGE)), len(papers), PER_PAGE),
        graph=graphview.local_graph(ctx, f"venue:{venue.slug}", here), **_note(ctx, here))


def technique_page(ctx: SiteContext, tid: str) -> Html:
    technique = ctx.taxonomy.techniques[tid]
    here = TECHNIQUE.format(tid)
    papers = ctx.papers_by_technique.get(tid, [])
    authors = Counter(a for p in papers for a in dict.fromkeys(p.authors))
    top = sorted(authors.items(), key=lambda kv: (-kv[1], ctx.author_name(kv[0]).casefold()))[:10]
    return render(
        "technique.html", here, {"atlas": "technique", **LIGHT},
        technique=technique,
        parent=((ctx.technique_name(technique.parent), TECHNIQUE.format(technique.parent))
                if technique.parent else None),
        children=[(ctx.technique_name(c), href(here, TECHNIQUE.format(c)), ctx.subtree_counts.get(c, 0))
                  for c in ctx.taxonomy.children(tid)],
        terms=[*technique.aliases, *technique.acronyms],
        papers=_items(ctx, papers[:PER_PAGE], here, tid), direct=len(papers),
        pager=pager(here, here, 1, len(chunks(papers, PER_PAGE)), len(papers), PER_PAGE),
        total=ctx.subtree_counts.get(tid, 0),
        **technique_charts(ctx, tid),
        cooccurring=[(ctx.technique_name(o), href(here, TECHNIQUE.format(o)), n)
                     for o, n in ctx.cooccurring(tid)[:12]],
        top_authors=[(ctx.author_name(a), href(here, ctx.author_page(a)), n) for a, n in top],
        papers_index=PAPERS_INDEX,
        graph=graphview.local_graph(ctx, f"technique:{tid}", here), **_note(ctx, here))


def _items(ctx: SiteContext, papers: list[Paper], here: str, tid: str | None = None) -> list[tuple]:
    """``(line, tag)`` per paper for ``paper_list``: the tag (with its evidence) on technique lists."""
    return [(paper_line(ctx, p, here), ctx.evidence(p, tid) if tid else None) for p in papers]


def _by_year(ctx: SiteContext, papers: list[Paper], here: str) -> list[tuple]:
    """``(year, items)`` groups of papers already sorted newest first."""
    groups: dict[int | None, list[Paper]] = {}
    for paper in papers:
        groups.setdefault(paper.year, []).append(paper)
    return [(year, _items(ctx, group, here)) for year, group in groups.items()]


def list_parts(ctx: SiteContext, page: str, name: str, relation: str, papers: list[Paper],
               tid: str | None = None, by_year: bool = False) -> dict[str, Html]:
    """Parts 2, 3, ... of the papers listed on entity ``page`` (part 1 is the page itself)."""
    parts = chunks(papers, PER_PAGE)
    out = {}
    for number, chunk in enumerate(parts[1:], start=2):
        here = part_path(page, number)
        groups = (_by_year(ctx, chunk, here) if by_year else [(None, _items(ctx, chunk, here, tid))])
        out[here] = render("list_part.html", here, {"atlas": "list", **EXCLUDED, **LIGHT},
                           name=name, relation=relation, owner=page, groups=groups, by_year=by_year,
                           pager=pager(page, here, number, len(parts), len(papers), PER_PAGE))
    return out


def _paper_pages(ctx: SiteContext, papers) -> dict[str, Html]:
    return {PAPER.format(paper.slug): paper_page(ctx, paper) for paper in papers}


def _author_pages(ctx: SiteContext, keys) -> dict[str, Html]:
    pages = {}
    for key in keys:
        page = AUTHOR.format(ctx.authors[key].slug)
        pages[page] = author_page(ctx, key)
        pages.update(list_parts(ctx, page, ctx.authors[key].name, "by", ctx.papers_by_author.get(key, [])))
    return pages


def _venue_pages(ctx: SiteContext, keys) -> dict[str, Html]:
    pages = {}
    for key in keys:
        page = VENUE.format(ctx.venues[key].slug)
        pages[page] = venue_page(ctx, key)
        pages.update(list_parts(ctx, page, ctx.venues[key].name, "at",
                                ctx.papers_by_venue.get(key, []), by_year=True))
    return pages


def _technique_pages(ctx: SiteContext, tids) -> dict[str, Html]:
    pages = {}
    for tid in tids:
        page = TECHNIQUE.format(tid)
        pages[page] = technique_page(ctx, tid)
        pages.update(list_parts(ctx, page, ctx.technique_name(tid), "tagged directly with",
                                ctx.papers_by_technique.get(tid, []), tid=tid))
    return pages


JOB_SIZE = 250
"""Entities per job (``entity_jobs``): small enough that two processes finish
together, large enough that handing out a job costs nothing."""


def entity_jobs(ctx: SiteContext) -> list:
    """The page of every paper, person with a page, venue and technique (with
    their list parts), as jobs of ``JOB_SIZE`` entities for ``parallel.run_jobs``."""
    kinds = [(_paper_pages, ctx.corpus.papers),
             (_author_pages, [k for k in sorted(ctx.authors) if ctx.has_own_page(k)]),
             (_venue_pages, sorted(ctx.venues)),
             (_technique_pages, list(ctx.taxonomy.techniques))]
    return [partial(make, ctx, items[start:start + JOB_SIZE])
            for make, items in kinds for start in range(0, len(items), JOB_SIZE)]


def all_pages(ctx: SiteContext) -> dict[str, Html]:
    """Every entity page, in this process (``entity_jobs`` one after another)."""
    pages = {}
    for job in entity_jobs(ctx):
        pages.update(job())
    return pages


__all__ = ["all_pages", "entity_jobs", "newest_first"]
