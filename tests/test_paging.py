"""Long lists are cut into bounded pages, and nothing is lost on the way.

The fast tests render the seed atlas with tiny page sizes, so every paged
path runs on real data: each technique's, venue's and author's papers appear
exactly once over the entity page and its parts, in order; the papers table's
JSON holds every paper; the A–Z splits into pages per initial. The slow test
renders a synthetic atlas of a few thousand papers at the real sizes and
checks every page against the 500 KB bound.
"""

from __future__ import annotations

import html
import json
import re

import pytest

from build_graph.pipeline import build_atlas
from build_graph.render import indexes, pages as entity_pages
from build_graph.render.context import AUTHOR, PAPERS_INDEX, PAPERS_TABLE, TECHNIQUE, VENUE, SiteContext, newest_first
from build_graph.render.html import Html, url_of
from build_graph.render.paging import MAX_PAGE_BYTES, part_path
from build_graph.render.site import render_site
from site_pages import DATA, SITES
from test_links import links, resolve, targets

PAPER_LINK = re.compile(r'<a href="((?:\.\./)+papers/[^/"]+/)">')


@pytest.fixture(scope="module")
def small_pages(monkeypatch_module):
    monkeypatch_module.setattr(entity_pages, "PER_PAGE", 3)
    monkeypatch_module.setattr(indexes, "AUTHORS_PER_PAGE", 40)
    monkeypatch_module.setattr(indexes, "PAPERS_INLINE", 5)
    atlas = build_atlas(SITES["seeds"], DATA, strict=True)
    return atlas, render_site(atlas)


@pytest.fixture(scope="module")
def monkeypatch_module():
    with pytest.MonkeyPatch.context() as patch:
        yield patch


def listed(pages: dict, page: str) -> list[str]:
    """The papers (source paths) listed on ``page`` and its parts, in order."""
    out, number = [], 1
    while (path := part_path(page, number)) in pages:
        here = url_of(path)
        body = pages[path].body
        body = body.split('id="neighbourhood"')[0]          # the graph's text version repeats some
        body = body.split('id="co-authors"')[0]
        body = body.split('id="most-frequent-authors"')[0]     # a one-paper person links to their paper
        for link in PAPER_LINK.findall(body):
            target, _ = resolve(here, link)
            out.append(target[:-1] + ".md")
        number += 1
    return out


def test_every_paper_is_listed_once_over_the_parts(small_pages):
    atlas, pages = small_pages
    ctx = SiteContext(atlas)
    paged = 0
    cases = ([(TECHNIQUE.format(t), ps) for t, ps in ctx.papers_by_technique.items()]
             + [(VENUE.format(ctx.venues[v].slug), ps) for v, ps in ctx.papers_by_venue.items()]
             + [(AUTHOR.format(ctx.authors[a].slug), ps) for a, ps in ctx.papers_by_author.items()
                if ctx.has_own_page(a)])
    for page, papers in cases:
        expected = [f"papers/{p.slug}.md" for p in papers]
        assert listed(pages, page) == expected, page
        parts = -(-len(papers) // 3)
        assert part_path(page, parts + 1) not in pages
        if parts > 1:
            paged += 1
            last = pages[part_path(page, parts)].body
            assert f"Papers {3 * (parts - 1) + 1}–{len(papers)} of {len(papers)}" in last
            assert 'aria-current="page">%d<' % parts in last
    assert paged >= 5


def test_part_pages_link_to_each_other_and_land(small_pages):
    _, pages = small_pages
    known = targets(pages)
    parts = [path for path in pages if "/page-" in path]
    assert parts
    for path in parts:
        here = url_of(path)
        for _, _, link in links(pages[path].body):
            target, _ = resolve(here, link)
            assert target in known, (path, link)
        assert pages[path].meta["search"] == {"exclude": True}


def test_papers_table_holds_every_paper_and_the_page_only_the_newest(small_pages):
    atlas, pages = small_pages
    table = json.loads(pages[PAPERS_TABLE])
    newest = sorted(atlas.corpus.papers, key=newest_first)
    assert [row[0] for row in table["papers"]] == [p.slug for p in newest]
    for row, paper in zip(table["papers"], newest):
        assert row[1] == paper.label and row[4] == (paper.year or 0)
        assert (table["venues"][row[3]] if row[3] >= 0 else None) == \
            (atlas.corpus.venues[paper.venue].name if paper.venue else None)
        assert [table["techniques"][i][0] for i in row[5]] == [t.technique for t in paper.techniques]
    body = pages[PAPERS_INDEX].body
    assert body.count("<tr>") == 1 + 5                 # the header row and the newest five
    assert f"The newest 5 of {len(newest)} papers" in body


def test_the_authors_a_to_z_splits_by_initial_and_keeps_everyone(small_pages):
    atlas, pages = small_pages
    letters = [path for path in pages if path.startswith("authors/index/")]
    assert len(letters) > 5
    seen = []
    for path in letters:
        assert pages[path].body.count("<li>") <= 40
        seen += [resolve(url_of(path), link)[0] for link in re.findall(r'<li><a href="([^"]+)"', pages[path].body)]
    ctx = SiteContext(atlas)
    # Everyone is listed, linked to their page (or, with one paper, to that paper's).
    assert sorted(seen) == sorted(url_of(ctx.author_page(key)) for key in atlas.corpus.authors)
    assert sum(target.startswith("authors/") for target in seen) == \
        sum(ctx.has_own_page(key) for key in atlas.corpus.authors) > 0


def test_entity_pages_hide_the_navigation_and_short_ones_their_contents(small_pages):
    _, pages = small_pages
    for path, page in pages.items():
        if isinstance(page, Html) and path.split("/")[0] in ("papers", "authors", "venues", "techniques") \
                and not path.endswith("/index.md") and not path.startswith("authors/index/"):
            # Papers and people (short, and two or more per paper) have no table of contents.
            short = page.meta.get("atlas") in ("paper", "author")
            assert page.meta.get("hide") == (["navigation", "toc"] if short else ["navigation"]), path


THEME_BYTES = 30_000
"""What mkdocs-material puts around a page's body (the seed site's home page is 18 KB in all)."""

OTHER_ISSUE = ("graph/",)
"""The graph's text alternatives are split in their own change (the graph explorer's)."""


@pytest.mark.slow
def test_no_page_passes_the_bound_in_a_field_sized_atlas(tmp_path):
    from build_graph.devtools.synth import write_synthetic_seeds
    seeds = tmp_path / "seeds"
    seeds.mkdir()
    write_synthetic_seeds(seeds, 2500, 0)
    pages = render_site(build_atlas(seeds, DATA, strict=False))
    sizes = {path: len(page.body.encode()) for path, page in pages.items()
             if isinstance(page, Html) and not path.startswith(OTHER_ISSUE)}
    largest = max(sizes, key=sizes.get)
    assert sizes[largest] + THEME_BYTES <= MAX_PAGE_BYTES, (largest, sizes[largest])
    assert any("/page-" in path for path in sizes)           # the bound held because lists were paged
    assert any(path.startswith("authors/index/") for path in sizes)


def test_the_quality_report_shows_each_group_s_start_and_pages_the_rest(monkeypatch):
    """Every warning is on the report or on its group's pages, once, in order."""
    from build_graph.render import quality
    from build_graph.report import build_report
    atlas = build_atlas(SITES["seeds"], DATA, strict=True)
    monkeypatch.setattr(quality, "SHOWN", 2)
    monkeypatch.setattr(quality, "PER_PART", 3)
    pages = quality.quality_page(SiteContext(atlas))
    report = build_report(atlas)
    groups = report.by_code()
    assert any(len(f) > 3 for f in groups.values())            # some group needs parts
    main = pages["quality.md"].body
    for code, findings in groups.items():
        shown = main.split(f'id="{code}"')[1].split("<h3")[0]
        assert shown.count("<li>") == min(2, len(findings))
        if len(findings) <= 2:
            assert quality.group_page(code) not in pages
            continue
        assert 'href="' + code + '/">all of them</a>' in shown
        listed, number = [], 1
        while (path := part_path(quality.group_page(code), number)) in pages:
            body = pages[path].body
            assert body.count("<li>") <= 3
            listed += re.findall(r"<li><code>[^<]*</code> (.*?)</li>", body)
            number += 1
        assert number - 1 == -(-len(findings) // 3)
        assert [html.unescape(m) for m in listed] == [f.message for f in findings]
