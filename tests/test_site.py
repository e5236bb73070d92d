"""Builds the real site in tmp_path with ``mkdocs build --strict``, as CI does."""

from __future__ import annotations

import html
import gzip
import json
import os
import re
import subprocess
import sys

import pytest

from build_graph.render.context import SiteContext
from site_pages import search_fragments


pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def site(root, tmp_path_factory):
    out = tmp_path_factory.mktemp("site") / "site"
    result = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(out)],
                            cwd=root, capture_output=True, text=True,
                            env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert result.returncode == 0, result.stdout + result.stderr
    return out


def test_every_entity_has_a_page(site, export):
    """Every paper, venue and technique; a person from two papers on (with one,
    their paper's page is theirs: tests/test_author_pages.py)."""
    papers_of = {}
    for edge in export["edges"]:
        if edge["source"].startswith("author:"):
            papers_of.setdefault(edge["source"], set()).add(edge["target"])
    for node in export["nodes"]:
        kind, _, key = node["id"].partition(":")
        page = site / f"{kind}s" / key / "index.html"
        assert page.is_file() == (kind != "author" or len(papers_of[node["id"]]) >= 2), page


def test_index_pages_and_download(site, export):
    for path in ["papers", "authors", "venues", "techniques", "quality"]:
        assert (site / path / "index.html").is_file()
    assert json.loads(gzip.decompress((site / "assets" / "atlas.json.gz").read_bytes())) == export


def test_generated_pages_stay_out_of_the_nav(site):
    html = (site / "papers" / "tutel-adaptive-mixture-of-experts-at-scale" / "index.html").read_text("utf-8")
    nav = html[html.index('class="md-nav md-nav--primary"'):html.index("</nav>")]
    assert "tutel" not in nav and "/authors/" not in nav.replace("authors/\"", "")
    assert nav.count("md-nav__link") < 30


def test_nav_titles_name_the_generated_index_pages(site):
    """The site's nav says "Graph: graph/index.md": that title is in the nav and the
    page's <title>, as for a hand-written page, while the page keeps its heading."""
    html = (site / "graph" / "index.html").read_text("utf-8")
    start = html.index('class="md-nav md-nav--primary"')
    nav = html[start:html.index("</nav>", start)]
    assert re.search(r'<span class="md-ellipsis">\s*Graph\s*</span>', nav)
    assert "<title>Graph - MLSys Atlas</title>" in html and ">Knowledge graph<" in html


def test_no_asset_from_another_host(site):
    pattern = re.compile(r"""(?:src|href)=["'](?:https?:)?//[^"']+\.(?:js|css)|url\((?:https?:)?//""")
    for page in site.rglob("*.html"):
        assert not pattern.search(page.read_text("utf-8")), page


def test_paper_page_content(site):
    html = (site / "papers" / "tutel-adaptive-mixture-of-experts-at-scale" / "index.html").read_text("utf-8")
    assert "<title>Tutel: Adaptive Mixture-of-Experts at Scale - MLSys Atlas</title>" in html
    # Tutel's authors have no other paper here: this page is theirs, their names are text.
    assert "HoYuen Chau" in html and "authors/hoyuen-chau/" not in html
    assert 'href="../../venues/mlsys/"' in html
    assert "003_582fbc6f8791162a.txt#16" in html
    taccl = next((site / "papers").glob("taccl-*/index.html")).read_text("utf-8")
    # The listing gives no title; data/corrections.yaml does, with its source.
    assert "Synthesizing Collective Communication Algorithms" in taccl and "3× faster" in taccl
    assert "Untitled paper" not in taccl and "Title from a correction" in taccl
    assert 'href="https://www.microsoft.com/en-us/research/publication/synthesizing-collective-' in taccl


def test_weak_tags_are_marked_on_paper_and_technique_pages(site, atlas):
    paper, tag = next((p, t) for p in atlas.corpus.papers for t in p.techniques if t.strength == "weak")
    page = (site / "papers" / paper.slug / "index.html").read_text("utf-8")
    assert f"({tag.field}, weak)" in page
    technique = (site / "techniques" / tag.technique / "index.html").read_text("utf-8")
    assert "weak: named only in passing" in technique
    strong = next(t for p in atlas.corpus.papers for t in p.techniques if t.field == "title")
    assert "(title)" in (site / "papers").joinpath(
        next(p.slug for p in atlas.corpus.papers if strong in p.techniques), "index.html").read_text("utf-8")


def test_quality_page_lists_real_problems(site):
    html = (site / "quality" / "index.html").read_text("utf-8")
    assert "listing declares 46 entries but holds 25" in html
    assert "NameError" in html and "Adam Belay" in html


def test_search_indexes_paper_text_and_pages_stay_whole(site):
    """Search (Pagefind) indexes a paper's title, facts and abstract with its
    filters, and not the lists below them; the page itself keeps them all."""
    fragments = search_fragments(site)
    slug = "tutel-adaptive-mixture-of-experts-at-scale"
    entry = fragments[f"/papers/{slug}/"]
    assert entry["meta"]["title"] == "Tutel: Adaptive Mixture-of-Experts at Scale"
    assert "Changho Hwang" in entry["content"] and "MLSys" in entry["content"]
    assert "@inproceedings" not in entry["content"] and "Related papers" not in entry["content"]
    assert entry["filters"]["type"] == ["Paper"] and entry["filters"]["venue"] == ["MLSys"]
    assert entry["filters"]["year"] and entry["filters"]["technique"]
    html = (site / "papers" / slug / "index.html").read_text("utf-8")
    for section in ('id="techniques"', 'id="related-papers"', 'id="neighbourhood"', 'id="cite"',
                    'id="sources"', "@inproceedings"):
        assert section in html, section


def test_search_holds_entities_and_hand_written_pages_not_lists(site, atlas):
    """One entry per paper, author page, venue and technique, and per hand-written
    page; none for index pages, the graph, the quality report or list parts.
    (A person with one paper is found by that paper, which names them.)"""
    urls = set(search_fragments(site))
    ctx = SiteContext(atlas)
    expected = ({f"/papers/{p.slug}/" for p in atlas.corpus.papers}
                | {f"/authors/{a.slug}/" for k, a in atlas.corpus.authors.items() if ctx.has_own_page(k)}
                | {f"/venues/{v.slug}/" for v in atlas.corpus.venues.values()}
                | {f"/techniques/{t}/" for t in atlas.taxonomy.techniques})
    hand_written = {"/" + p.relative_to(site).parent.as_posix() + "/"
                    for p in site.glob("*/index.html") if p.parent.name in ("architecture", "performance")}
    assert expected | hand_written <= urls
    assert not {u for u in urls if u in ("/papers/", "/authors/", "/graph/", "/quality/")
                or "/page-" in u or u.startswith("/graph/")}
    assert not (site / "search" / "search_index.json").exists()       # no lunr index is published


def test_search_indexes_whole_abstracts(site, atlas):
    """Pagefind's index is fetched in pieces, so a long abstract is indexed whole."""
    paper = max(atlas.corpus.papers, key=lambda p: len(p.abstract or ""))
    words = " ".join(paper.abstract.split())
    content = " ".join(search_fragments(site)[f"/papers/{paper.slug}/"]["content"].split())
    assert words[:200] in content and words[-60:] in content


def test_a_person_without_a_page_is_found_by_their_paper(site, atlas):
    fragments = search_fragments(site)
    ctx = SiteContext(atlas)
    pageless = [k for k in atlas.corpus.authors if not ctx.has_own_page(k)]
    assert len(pageless) > 100
    for key in pageless:
        paper = ctx.papers_by_author[key][0]
        assert atlas.corpus.authors[key].name in fragments[f"/papers/{paper.slug}/"]["content"], key


def test_every_icon_reference_lands_on_a_symbol_of_the_sprite(site):
    sprite = (site / "assets" / "atlas-icons.svg").read_text("utf-8")
    symbols = set(re.findall(r'<symbol id="([^"]+)"', sprite))
    used = set()
    for page in site.rglob("*.html"):
        html = page.read_text("utf-8")
        for href in re.findall(r'<use xlink:href="([^"#]+)#([^"]+)"', html):
            target = (page.parent / href[0]).resolve()
            assert target == (site / "assets" / "atlas-icons.svg").resolve(), page
            used.add(href[1])
    assert used == symbols and len(symbols) >= 5        # logo, menu, search, palette toggles, top


def test_paper_and_person_pages_carry_no_table_of_contents(site):
    """Hidden is not enough (the theme would still write it): it is empty. Technique pages keep theirs."""
    paper = (site / "papers" / "tutel-adaptive-mixture-of-experts-at-scale" / "index.html").read_text("utf-8")
    author = next(p for p in (site / "authors").glob("*/index.html") if p.parent.name != "index")
    technique = (site / "techniques" / "mixture-of-experts" / "index.html").read_text("utf-8")
    assert 'id="cite"' in paper and 'data-md-component="toc"' not in paper
    assert 'id="co-authors"' in author.read_text("utf-8")
    assert 'data-md-component="toc"' not in author.read_text("utf-8")
    assert 'data-md-component="toc"' in technique
