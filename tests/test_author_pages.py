"""Who gets a page of their own: people with two or more papers, or a note.

Everyone else is described on their one paper's page, and every link to them
leads there (render/context.py: ``AUTHOR_PAGE_MIN_PAPERS``)."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from build_graph.pipeline import build_atlas
from build_graph.render.context import AUTHOR, AUTHOR_PAGE_MIN_PAPERS, PAPER, SiteContext
from build_graph.render.html import href
from build_graph.render.notes import Note
from build_graph.render.site import render_site
from site_pages import DATA, SITES


@pytest.fixture(scope="module")
def seed_site():
    atlas = build_atlas(SITES["seeds"], DATA, strict=True)
    counts = Counter(a for p in atlas.corpus.papers for a in dict.fromkeys(p.authors))
    noted = sorted(key for key, n in counts.items() if n == 1)[0]
    page = AUTHOR.format(atlas.corpus.authors[noted].slug)
    notes = {page: Note(page, "Works on collectives.\n", Path("notes/authors/x.md"))}
    return atlas, counts, noted, render_site(atlas, notes), SiteContext(atlas, notes)


def test_the_seed_site_has_both_kinds_of_people(seed_site):
    _, counts, _, _, _ = seed_site
    assert AUTHOR_PAGE_MIN_PAPERS == 2
    assert sum(n == 1 for n in counts.values()) > 100 and sum(n >= 2 for n in counts.values()) > 10


@pytest.mark.parametrize("kind", ["one paper", "one paper and a note", "two or more papers"])
def test_who_gets_a_page(seed_site, kind):
    atlas, counts, noted, pages, ctx = seed_site
    people = {"one paper": [k for k, n in counts.items() if n == 1 and k != noted],
              "one paper and a note": [noted],
              "two or more papers": [k for k, n in counts.items() if n >= 2]}[kind]
    for key in people:
        own = AUTHOR.format(atlas.corpus.authors[key].slug)
        assert (own in pages) == (kind != "one paper"), key
        only = ctx.papers_by_author[key][0]
        assert ctx.author_page(key) == (PAPER.format(only.slug) if kind == "one paper" else own)


def test_a_paper_names_its_pageless_authors_as_text_and_links_the_others(seed_site):
    atlas, counts, noted, pages, ctx = seed_site
    checked = Counter()
    for paper in atlas.corpus.papers:
        if not paper.authors:
            continue
        here = PAPER.format(paper.slug)
        body = pages[here].body
        byline = re.split(r"<br|</p>", body[body.index("<strong>Authors:</strong>"):])[0]
        for key in dict.fromkeys(paper.authors):
            name = atlas.corpus.authors[key].name
            linked = re.search(r'<a href="[^"]*">' + re.escape(escape_text(name)) + "</a>", byline)
            assert bool(linked) == ctx.has_own_page(key), (paper.slug, name)
            checked[ctx.has_own_page(key)] += 1
    assert checked[True] and checked[False]


def escape_text(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def test_links_to_a_pageless_person_lead_to_their_paper(seed_site):
    atlas, counts, noted, pages, ctx = seed_site
    targets = set()
    for src, page in pages.items():
        if not src.endswith(".md"):
            continue
        for link in re.findall(r'href="([^"#]+)"', page.body):
            if "authors/" in link and not link.startswith(("http", "../../assets", "../assets")):
                targets.add(link.rsplit("authors/", 1)[1].strip("/"))
    slugs_with_pages = {atlas.corpus.authors[k].slug for k in atlas.corpus.authors if ctx.has_own_page(k)}
    linked_people = {t for t in targets if t and "/" not in t and t != "index"}
    assert linked_people <= slugs_with_pages
    assert linked_people == slugs_with_pages       # and every page is reachable


def test_the_index_lists_everyone(seed_site):
    atlas, counts, noted, pages, ctx = seed_site
    body = pages["authors/index.md"].body
    for key, author in atlas.corpus.authors.items():
        target = href("authors/index.md", ctx.author_page(key))
        assert re.search(r'<a href="' + re.escape(target) + '">' + re.escape(escape_text(author.name)) + "</a>",
                         body), author.name
