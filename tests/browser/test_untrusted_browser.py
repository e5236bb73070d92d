"""Hostile listings in a real browser: no script runs, the text is visible.

The fixture listings (tests/fixtures/hostile/seeds) carry ``<script>``,
``<img onerror>``, ``<svg onload>``, ``javascript:`` links, Markdown and
Jinja in titles, names, abstracts, a venue, a session and an arXiv comment.
Every payload would set ``window.__pwned`` or open a dialog if it ran.
"""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

TITLE = ("<script>window.__pwned='title'</script> & \"Quoted' {{ config.site_name }} "
         "{% if true %}x{% endif %}")


@pytest.fixture
def untrusted(untrusted_site):
    return untrusted_site


def pages(site):
    papers = sorted(p.parent.name for p in (site.dir / "papers").glob("*/index.html"))
    venues = sorted(p.parent.name for p in (site.dir / "venues").glob("*/index.html"))
    authors = sorted(p.parent.name for p in (site.dir / "authors").glob("*/index.html"))[:6]
    clusters = sorted(p.parent.name for p in (site.dir / "graph" / "t").glob("*/index.html"))[:4]
    return (["papers/", "authors/", "venues/", "quality/", "graph/", "graph/nodes/"]
            + [f"graph/t/{c}/" for c in clusters]
            + [f"papers/{p}/" for p in papers] + [f"venues/{v}/" for v in venues]
            + [f"authors/{a}/" for a in authors])


def test_no_script_runs_on_any_affected_page(untrusted, watched):
    page = watched.page
    visited = pages(untrusted)
    assert len(visited) > 10
    for path in visited:
        page.goto(untrusted.url + path)
        page.wait_for_load_state("load")
        page.mouse.move(400, 400)                  # give hover payloads their chance
        assert page.evaluate("window.__pwned === undefined"), path
    watched.assert_clean()


def test_hostile_title_is_visible_as_text(untrusted, watched):
    page = watched.page
    page.goto(untrusted.url + "papers/")
    assert page.get_by_text(TITLE, exact=False).first.is_visible()
    link = page.locator("#atlas-papers a", has_text="window.__pwned='title'").first
    link.click()
    page.wait_for_function("(document.querySelector('article h1') || {}).textContent"
                           " && document.querySelector('article h1').textContent.includes('__pwned')")
    heading = page.locator("article h1").first.inner_text().strip()
    assert heading.replace("¶", "").strip() == TITLE
    assert page.title() == f"{TITLE} - MLSys Atlas"
    assert page.get_by_text("<img src=x onerror=window.__pwned=document.domain>").first.is_visible()
    assert page.evaluate("window.__pwned === undefined")
    watched.assert_clean()


def test_search_results_show_text_not_markup(untrusted, watched):
    page = watched.page
    page.goto(untrusted.url)
    page.locator(".md-search__input").first.click()
    page.keyboard.type("heading", delay=30)
    page.wait_for_function("[...document.querySelectorAll('.md-search-result__item h1')]"
                           ".some(h => h.textContent.includes('__pwned'))", timeout=20_000)
    results = page.locator(".md-search-result__list").inner_text()
    assert TITLE in results                                  # the title, as text
    assert "<img src=x onerror=window.__pwned=document.domain>" in results     # an author, in the excerpt
    assert page.locator(".md-search-result__list script, .md-search-result__list img").count() == 0
    assert page.evaluate("window.__pwned === undefined")
    watched.assert_clean()
