"""The header's search (Pagefind) and the paged papers table, in a real browser.

The project's site, built with ``mkdocs build --strict`` (the plugin runs
Pagefind after the build) and served locally: the search opens from the
header and from its keyboard shortcut, shows the right paper while the
query is typed, and its filters narrow the results.
"""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

TUTEL = "Tutel: Adaptive Mixture-of-Experts at Scale"


def results(page) -> list[str]:
    return page.locator(".atlas-search .md-search-result__item h1").all_inner_texts()


def type_query(page, text: str) -> None:
    page.keyboard.type(text, delay=30)
    page.wait_for_function("document.querySelectorAll('.atlas-search .md-search-result__item').length > 0")


def test_typing_a_query_shows_the_right_paper(site, watched):
    page = watched.page
    page.goto(site.url)
    page.keyboard.press("s")                                   # Material's shortcut opens the search
    assert page.evaluate("document.activeElement.classList.contains('md-search__input')")
    type_query(page, "tutel")
    assert any(TUTEL in title for title in results(page)), results(page)
    page.locator(".atlas-search .md-search-result__link").first.click()
    page.wait_for_url("**/papers/tutel-*/")
    page.wait_for_function("(document.querySelector('article.md-content__inner h1') || {}).textContent"
                           ".includes('Tutel')")
    assert not any("search_index.json" in url for url in watched.requests)   # no lunr index fetched
    watched.assert_clean()


def test_filters_narrow_the_results(site, watched):
    page = watched.page
    page.goto(site.url)
    page.locator(".atlas-search .md-search__input").click()           # the header's box, on a wide screen
    type_query(page, "memory")
    before = page.locator(".atlas-search .md-search-result__meta").inner_text()
    page.locator(".atlas-search-filters summary").click()
    kind = page.locator(".atlas-search-filter-boxes select[name='type']")
    kind.wait_for()
    kind.select_option("Technique")
    page.wait_for_function(
        "[...document.querySelectorAll('.atlas-search .atlas-search-type')].every(t => t.textContent === 'Technique')"
        " && document.querySelector('.atlas-search .md-search-result__meta').textContent !== %r" % before)
    after = page.locator(".atlas-search .md-search-result__meta").inner_text()
    assert int(after.split()[0]) < int(before.split()[0])
    year = page.locator(".atlas-search-filter-boxes select[name='year']")
    kind.select_option("Paper")
    year.select_option(index=1)
    chosen = year.input_value()
    page.wait_for_function("document.querySelectorAll('.atlas-search .atlas-search-type').length > 0"
                           " && [...document.querySelectorAll('.atlas-search .atlas-search-type')]"
                           ".every(t => t.textContent === 'Paper')")
    title = page.locator(".atlas-search .md-search-result__item h1").first.inner_text()
    page.locator(".atlas-search .md-search-result__link").first.click()
    page.wait_for_url("**/papers/**")
    heading = page.locator("article.md-content__inner h1").first
    page.wait_for_function("(document.querySelector('article.md-content__inner h1') || {}).id"
                           " !== 'mlsys-atlas'")
    assert title.replace("Paper", "").strip() in heading.inner_text()
    assert f"{chosen}" in page.locator("article.md-content__inner").inner_text()
    watched.assert_clean()


def test_papers_table_pages_sorts_and_filters_from_its_data(site, watched, atlas):
    page = watched.page
    page.goto(site.url + "papers/")
    page.wait_for_function("(document.querySelector('.atlas-table-count') || {}).textContent")
    total = len(atlas.corpus.papers)
    assert page.locator(".atlas-table-count").inner_text() == f"{total} of {total} papers"
    rows = page.locator("#atlas-papers tbody tr")
    assert rows.count() == min(total, 100)
    page.locator("#atlas-papers th", has_text="Year").click()          # oldest first
    years = [int(y) for y in page.locator("#atlas-papers tbody tr td:nth-child(4)").all_inner_texts() if y]
    assert years == sorted(years)
    page.locator(".atlas-table-filters input[type=search]").fill("tutel")
    assert page.locator(".atlas-table-count").inner_text() == f"1 of {total} papers"
    assert TUTEL in rows.first.inner_text()
    watched.assert_clean()
