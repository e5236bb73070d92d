"""Lookups every page renderer needs, computed once per build.

Renderers are pure functions of an ``Atlas``; this object holds the indexes
(papers by author, by venue, by technique; co-authors; co-occurring
techniques) so that rendering all pages stays linear in the size of the atlas.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from functools import cached_property

from ..model import Paper
from ..pipeline import Atlas
from ..trends import Trends, compute_trends

PAPER = "papers/{}.md"
AUTHOR = "authors/{}.md"
VENUE = "venues/{}.md"
TECHNIQUE = "techniques/{}.md"
PAPERS_INDEX = "papers/index.md"
AUTHORS_INDEX = "authors/index.md"
VENUES_INDEX = "venues/index.md"
TECHNIQUES_INDEX = "techniques/index.md"
GRAPH_PAGE = "graph/index.md"
HOME_PAGE = "index.md"           # used only when the site has no home page of its own
QUALITY_PAGE = "quality.md"
TRENDS_PAGE = "trends.md"
EXPORT_FILE = "assets/atlas.json.gz"      # render/site.py: why gzipped
BIBTEX_FILE = "assets/atlas.bib"
PAPERS_TABLE = "assets/papers-table.json"     # the papers index's rows (render/indexes.py)


AUTHOR_PAGE_MIN_PAPERS = 2
"""A person gets a page of their own from this many papers in the atlas (or with
a hand-written note). About 70% of the people in a field's listings have one
paper, and that paper's page already says all the atlas knows of them (their
co-authors, venue and techniques); a page each would be most of the site's
files and bytes (issue 13: at 4,300 papers, 16,000 pages of about 20 KB).
Wherever a person is linked, one without a page links to their paper. The
plugin's ``author_page_from`` option changes it (1: everyone has a page)."""


def newest_first(paper: Paper):
    return (-(paper.year or 0), paper.date or "", paper.label.casefold(), paper.slug)


class SiteContext:
    def __init__(self, atlas: Atlas, notes: dict | None = None,
                 author_page_from: int = AUTHOR_PAGE_MIN_PAPERS):
        self.atlas = atlas
        self.notes = notes or {}
        self.author_page_from = author_page_from
        self.corpus = atlas.corpus
        self.taxonomy = atlas.taxonomy
        self.papers = {p.slug: p for p in atlas.corpus.papers}
        self.authors = atlas.corpus.authors
        self.venues = atlas.corpus.venues
        self.paper_lines: dict[tuple, object] = {}     # render.pages.paper_line, per place
        self.links: dict[tuple, object] = {}           # render.html.shared_link, per place
        self.graph_memo = None                         # render.graphview: per-node facts
        self.graph_paper_counts: dict[str, int] | None = None
        self.explorer_map = None                       # render.explorer.explorer_map: the map's nodes, links

    def warm(self) -> None:
        """Compute the indexes every page reads, once: render jobs that run in a
        forked process (``parallel.py``) then share them instead of each
        computing its own."""
        for name in ("papers_by_author", "papers_by_venue", "papers_by_technique", "subtree_counts",
                     "author_keys", "trends", "citation_keys"):
            getattr(self, name)

    @cached_property
    def trends(self) -> Trends:
        """Every chart's counts over time, from one pass over the papers (``trends.py``)."""
        return compute_trends(self.corpus.papers, self.taxonomy)

    @cached_property
    def citation_keys(self) -> dict[str, str]:
        from ..bibtex import citation_keys
        return citation_keys(self.corpus.papers, self.corpus)

    @cached_property
    def papers_by_author(self) -> dict[str, list[Paper]]:
        out: dict[str, list[Paper]] = defaultdict(list)
        for paper in self.corpus.papers:
            for key in dict.fromkeys(paper.authors):
                out[key].append(paper)
        return {k: sorted(v, key=newest_first) for k, v in out.items()}

    @cached_property
    def papers_by_venue(self) -> dict[str, list[Paper]]:
        out: dict[str, list[Paper]] = defaultdict(list)
        for paper in self.corpus.papers:
            if paper.venue:
                out[paper.venue].append(paper)
        return {k: sorted(v, key=newest_first) for k, v in out.items()}

    @cached_property
    def papers_by_technique(self) -> dict[str, list[Paper]]:
        """Directly tagged papers per technique."""
        out: dict[str, list[Paper]] = defaultdict(list)
        for paper in self.corpus.papers:
            for tag in paper.techniques:
                out[tag.technique].append(paper)
        return {k: sorted(v, key=newest_first) for k, v in out.items()}

    @cached_property
    def subtree_counts(self) -> dict[str, int]:
        """Papers tagged with a technique or any technique below it."""
        members: dict[str, set[str]] = defaultdict(set)
        for tid, papers in self.papers_by_technique.items():
            for node in [tid, *self.taxonomy.ancestors(tid)]:
                members[node].update(p.slug for p in papers)
        return {tid: len(members.get(tid, ())) for tid in self.taxonomy.techniques}

    def author_page(self, key: str) -> str:
        """The page about a person: their own, or (see ``AUTHOR_PAGE_MIN_PAPERS``)
        the page of their one paper."""
        own = AUTHOR.format(self.authors[key].slug)
        papers = self.papers_by_author.get(key, [])
        if len(papers) >= self.author_page_from or own in self.notes or not papers:
            return own
        return PAPER.format(papers[0].slug)

    @cached_property
    def author_keys(self) -> dict[str, str]:
        """Author key by slug (graph nodes are ``author:<slug>``)."""
        return {a.slug: key for key, a in self.authors.items()}

    def has_own_page(self, key: str) -> bool:
        return self.author_page(key) == AUTHOR.format(self.authors[key].slug)

    def coauthors(self, key: str) -> list[tuple[str, int]]:
        counts: Counter = Counter()
        for paper in self.papers_by_author.get(key, []):
            counts.update(a for a in dict.fromkeys(paper.authors) if a != key)
        return sorted(counts.items(), key=lambda kv: (-kv[1], self.authors[kv[0]].name.casefold()))

    def cooccurring(self, tid: str) -> list[tuple[str, int]]:
        counts: Counter = Counter()
        for paper in self.papers_by_technique.get(tid, []):
            counts.update(t.technique for t in paper.techniques if t.technique != tid)
        return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))

    def technique_name(self, tid: str) -> str:
        return self.taxonomy.techniques[tid].name

    def author_name(self, key: str) -> str:
        return self.authors[key].name

    def evidence(self, paper: Paper, tid: str):
        return next((t for t in paper.techniques if t.technique == tid), None)
