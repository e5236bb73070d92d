"""Builds the real site in tmp_path with ``mkdocs build --strict``, as CI does."""

from __future__ import annotations

import html
import json
import os
import re
import subprocess
import sys

import pytest


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
    for node in export["nodes"]:
        kind, _, key = node["id"].partition(":")
        page = site / f"{kind}s" / key / "index.html"
        assert page.is_file(), page


def test_index_pages_and_download(site, export):
    for path in ["papers", "authors", "venues", "techniques", "quality"]:
        assert (site / path / "index.html").is_file()
    assert json.loads((site / "assets" / "atlas.json").read_text(encoding="utf-8")) == export


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
    assert 'href="../../authors/hoyuen-chau/"' in html
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
    assert "weak: named in one sentence" in technique
    strong = next(t for p in atlas.corpus.papers for t in p.techniques if t.field == "title")
    assert "(title)" in (site / "papers").joinpath(
        next(p.slug for p in atlas.corpus.papers if strong in p.techniques), "index.html").read_text("utf-8")


def test_quality_page_lists_real_problems(site):
    html = (site / "quality" / "index.html").read_text("utf-8")
    assert "listing declares 46 entries but holds 25" in html
    assert "NameError" in html and "Adam Belay" in html


def test_search_indexes_paper_text_and_pages_stay_whole(site):
    """Search indexes a paper's title, facts and abstract, not the sections marked
    data-search-exclude; the page itself keeps them all."""
    index = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))
    slug = "tutel-adaptive-mixture-of-experts-at-scale"
    entries = [d for d in index["docs"] if d["location"].startswith(f"papers/{slug}/")]
    assert len(entries) == 1
    assert "Changho Hwang" in entries[0]["text"] and "MLSys" in entries[0]["text"]
    assert "@inproceedings" not in entries[0]["text"] and "Related papers" not in entries[0]["text"]
    html = (site / "papers" / slug / "index.html").read_text("utf-8")
    for section in ('id="techniques"', 'id="related-papers"', 'id="neighbourhood"', 'id="cite"',
                    'id="sources"', "@inproceedings"):
        assert section in html, section


def test_search_holds_the_start_of_long_abstracts_and_the_page_all_of_it(site, atlas):
    """Search indexes the first SEARCH_ABSTRACT_CHARS characters of an abstract
    (the 15 MB budget at 10,000 papers, docs/performance.md); the page shows it whole."""
    from build_graph.render.pages import SEARCH_ABSTRACT_CHARS
    paper = max(atlas.corpus.papers, key=lambda p: len(p.abstract or ""))
    words = " ".join(paper.abstract.split())
    assert len(words) > SEARCH_ABSTRACT_CHARS + 100
    head, tail = words[:SEARCH_ABSTRACT_CHARS - 50], words[-60:]
    index = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))
    entry = next(d for d in index["docs"] if d["location"] == f"papers/{paper.slug}/")
    flat = " ".join(re.sub(r"<[^>]+>", " ", entry["text"]).split())
    html_text = " ".join(re.sub(r"<[^>]+>", " ", (site / "papers" / paper.slug / "index.html")
                                .read_text("utf-8")).split())
    assert html.escape(head, quote=False) in flat and html.escape(tail, quote=False) not in flat
    assert html.escape(tail, quote=False) in html_text
