"""Everything the site shows that is computed from the listings, as ``{path: content}``.

Pages (``.md`` source paths, so MkDocs places them like hand-written ones)
map to ``html.Html``: the page's HTML, title, table of contents and metadata.
Other files map to their text (the BibTeX file, the graph data), or bytes
(the gzipped JSON export). The plugin hands the result to MkDocs in memory (nothing generated is
written into ``docs/``); the CLI writes it to a folder for other tools.
Output is a pure function of the inputs, so two builds give identical pages.
"""

from __future__ import annotations

import gzip
from functools import partial

from ..bibtex import bibtex_file
from ..graph import export_json
from ..parallel import run_jobs
from ..pipeline import Atlas
from .context import (AUTHOR_PAGE_MIN_PAPERS, BIBTEX_FILE, EXPORT_FILE, HOME_PAGE, PAPERS_INDEX, PAPERS_TABLE,
                      TECHNIQUES_INDEX, TRENDS_PAGE,
                      VENUES_INDEX, SiteContext)
from .dashboard import trends_page
from .explorer import render_explorer
from .html import Html
from .indexes import authors_index, home_page, papers_index, papers_table, techniques_index, venues_index
from .pages import entity_jobs
from .quality import quality_page


def export_gzip(graph) -> bytes:
    """The graph export (``graph.export_json``), gzipped with no timestamp, so the
    same graph gives the same bytes. Raw, it was the site's largest file and
    4.8 KB per paper (20 MB at 4,300 papers; at 20,000 it would near the 100 MB
    a single file may have on GitHub); gzipped it is a quarter of that, and
    ``python -m build_graph export`` still writes the plain JSON."""
    return gzip.compress(export_json(graph).encode("utf-8"), compresslevel=9, mtime=0)


def render_site(atlas: Atlas, notes: dict | None = None,
                author_page_from: int = AUTHOR_PAGE_MIN_PAPERS,
                parallel: bool | None = None) -> dict[str, Html | str | bytes]:
    """``notes``: ``{page src_uri: Note}`` from ``render.notes.load_notes``;
    ``author_page_from``: papers that give a person a page of their own;
    ``parallel``: as ``parallel.run_jobs`` takes it (None: two cores when it is safe)."""
    ctx = SiteContext(atlas, notes, author_page_from)
    ctx.warm()                           # what every job reads, computed once before any fork
    jobs = [
        partial(_map_pages, ctx),        # the largest job first, so the two processes end together
        partial(_whole_atlas_pages, ctx),
        lambda: {EXPORT_FILE: export_gzip(atlas.graph), BIBTEX_FILE: bibtex_file(atlas)},
        *entity_jobs(ctx),
    ]
    return dict(sorted(run_jobs(jobs, parallel).items()))


def _map_pages(ctx: SiteContext) -> dict:
    pages = render_explorer(ctx)
    pages[HOME_PAGE] = home_page(ctx)    # with the explorer: its thumbnail draws the same map
    return pages


def _whole_atlas_pages(ctx: SiteContext) -> dict:
    pages: dict[str, Html | str] = {PAPERS_INDEX: papers_index(ctx), PAPERS_TABLE: papers_table(ctx)}
    pages.update(authors_index(ctx))
    pages[VENUES_INDEX] = venues_index(ctx)
    pages[TECHNIQUES_INDEX] = techniques_index(ctx)
    pages.update(quality_page(ctx))
    pages[TRENDS_PAGE] = trends_page(ctx)
    return pages
