"""The charts in a real browser: they draw, they restyle with the palette, and
the home page's dashboard works (its thumbnail opens the explorer, its search
box drives the header's search).

The project's site, built with ``mkdocs build --strict`` and served locally.
"""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

TECHNIQUE = "techniques/edge-computing/"

# What the browser drew: each chart's size on screen, its bars' sizes, and the
# computed colours of its text, grid lines and bars.
DRAWN = """() => [...document.querySelectorAll('svg.atlas-chart')].map(svg => {
  const box = svg.getBoundingClientRect();
  const bars = [...svg.querySelectorAll('rect.bar')].map(r => r.getBoundingClientRect().height);
  const text = svg.querySelector('text'), rule = svg.querySelector('.rule, .axis, .links'), bar = svg.querySelector('.bar, .technique circle');
  const style = el => el ? getComputedStyle(el) : null;
  return {width: box.width, height: box.height, bars, title: svg.querySelector('title').textContent,
          text: text && style(text).fill, rule: rule && style(rule).stroke, bar: bar && style(bar).fill,
          background: getComputedStyle(document.body).backgroundColor,
          scheme: document.body.getAttribute('data-md-color-scheme')};
})"""


def drawn(page, path: str, url: str) -> list[dict]:
    page.goto(url + path)
    page.wait_for_selector("svg.atlas-chart")
    return page.evaluate(DRAWN)


@pytest.mark.parametrize("path, least", [(TECHNIQUE, 2), ("trends/", 3), ("", 1), ("venues/mlsys/", 2)])
def test_charts_draw(site, watched, path, least):
    charts = drawn(watched.page, path, site.url)
    assert len(charts) >= least
    for chart in charts:
        assert chart["width"] > 150 and chart["height"] > 40, chart
        marks = [chart["text"], chart["bar"]]             # the map thumbnail has marks and no text
        assert any(m not in (None, "none", "rgba(0, 0, 0, 0)") for m in marks), chart
        if chart["bars"]:
            assert max(chart["bars"]) > 5, chart                  # bars have height on screen
    watched.assert_clean()


@pytest.mark.parametrize("path", [TECHNIQUE, "trends/", ""])
def test_charts_restyle_in_dark_mode(site, browser, path):
    """Loaded in a dark-mode browser, the site picks Material's slate scheme, and
    the charts' text and lines take its colours: nothing in the SVG is a fixed colour."""
    schemes = {}
    for scheme in ("light", "dark"):
        context = browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme=scheme,
                                      service_workers="block")
        page = context.new_page()
        schemes[scheme] = drawn(page, path, site.url)[0]
        context.close()
    light, dark = schemes["light"], schemes["dark"]
    assert (light["scheme"], dark["scheme"]) == ("default", "slate")
    assert dark["background"] != light["background"]
    assert dark["rule"] != light["rule"]
    if light["text"]:                            # (the home page's first chart is the map: no text)
        assert dark["text"] != light["text"]
        for colours in (light, dark):            # text stands out from the page behind it
            assert colours["text"] != colours["background"]


def test_palette_toggle_restyles_a_drawn_chart(site, watched):
    page = watched.page
    before = drawn(page, TECHNIQUE, site.url)[0]
    page.click('label[for="__palette_1"]')                  # Material's palette toggle
    page.wait_for_function("document.body.getAttribute('data-md-color-scheme') === 'slate'")
    after = page.evaluate(DRAWN)[0]
    assert after["text"] != before["text"] and after["rule"] != before["rule"]
    watched.assert_clean()


def test_home_thumbnail_opens_the_explorer(site, watched):
    page = watched.page
    page.goto(site.url)
    thumb = page.locator("a.atlas-thumb-link")
    assert thumb.locator("circle").count() > 10
    thumb.click()
    page.wait_for_url("**/graph/")
    watched.assert_clean()


def test_home_search_box_drives_the_header_search(site, watched):
    page = watched.page
    page.goto(site.url)
    page.fill("#atlas-home-q", "tutel")
    page.press("#atlas-home-q", "Enter")
    page.wait_for_function("document.querySelectorAll('.atlas-search .md-search-result__item').length > 0")
    assert page.evaluate("document.getElementById('__search').checked")
    assert page.locator(".atlas-search .md-search__input").input_value() == "tutel"
    titles = page.locator(".atlas-search .md-search-result__item h1").all_inner_texts()
    assert any("Tutel" in t for t in titles), titles
    watched.assert_clean()
