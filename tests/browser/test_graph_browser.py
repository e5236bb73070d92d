"""The graph views in a real browser: Chromium over the built, locally served site.

Every test also checks that the page logged no console error, made no
request to another host and opened no dialog (no injected script ran).
"""

from __future__ import annotations

import json

import pytest

from build_graph.render.context import newest_first

pytestmark = pytest.mark.browser

DEFAULT_LAYERS = ("paper", "technique", "venue")

WAIT_EXPLORER = """() => {
  const e = window.atlasGraphs && window.atlasGraphs.explorer;
  return Boolean(e && e.firstDrawMs !== null);
}"""

NODE_BY_LABEL = """label => {
  const e = window.atlasGraphs.explorer;
  const hit = Object.values(e.info).find(n => n.label === label);
  return hit ? hit.id : null;
}"""

NODE_ON_SCREEN = """id => {
  const e = window.atlasGraphs.explorer;
  const canvas = e.container.querySelector('.atlas-graph-canvas canvas');
  const box = canvas.getBoundingClientRect();
  const at = e.network.canvasToDOM(e.network.getPositions([id])[id]);
  return [box.left + at.x, box.top + at.y];
}"""


def open_explorer(watched, base: str):
    page = watched.page
    page.goto(base + "graph/")
    page.wait_for_function(WAIT_EXPLORER)
    return page


def drawn(page) -> int:
    return page.evaluate("() => window.atlasGraphs.explorer.drawn()")


def unique_paper(atlas):
    """A paper whose label no other node shares, so a search for it is unambiguous."""
    labels = [data["label"] for _, data in atlas.graph.nodes(data=True)]
    for paper in sorted(atlas.corpus.papers, key=newest_first):
        if labels.count(paper.label) == 1 and paper.techniques:
            return paper
    raise AssertionError("no paper with a unique label")


def test_explorer_draws_every_node_of_the_default_layers(watched, site_url, atlas):
    page = open_explorer(watched, site_url)
    expected = sum(1 for _, kind in atlas.graph.nodes(data="type") if kind in DEFAULT_LAYERS)
    assert drawn(page) == expected
    assert page.get_attribute(".atlas-explorer", "data-atlas-drawn") == str(expected)
    assert page.evaluate("() => window.atlasGraphs.explorer.view.length") == expected
    assert page.evaluate("() => window.atlasGraphs.explorer.edgesDrawn") == sum(
        1 for u, v in atlas.graph.edges
        if atlas.graph.nodes[u]["type"] in DEFAULT_LAYERS and atlas.graph.nodes[v]["type"] in DEFAULT_LAYERS)
    assert page.evaluate("() => window.atlasGraphs.explorer.labelsDrawn") > 0
    # vis-network came from this site, once, and the author layer was not loaded yet.
    assert [u for u in watched.requests if u.endswith("/assets/vendor/vis-network.min.js")] == [
        site_url + "assets/vendor/vis-network.min.js"]
    assert not [u for u in watched.requests if u.endswith("authors.json")]
    watched.assert_clean()


def test_clicking_a_paper_node_opens_its_page(watched, site_url, atlas):
    paper = unique_paper(atlas)
    page = open_explorer(watched, site_url)
    node = page.evaluate(NODE_BY_LABEL, paper.label)
    page.locator(".atlas-graph-canvas").scroll_into_view_if_needed()
    page.evaluate("id => window.atlasGraphs.explorer.network.focus(id, {scale: 3, animation: false})", node)
    page.wait_for_timeout(100)
    x, y = page.evaluate(NODE_ON_SCREEN, node)
    page.evaluate("() => { window.__sameDocument = true; }")
    page.mouse.click(x, y)
    page.wait_for_url(f"{site_url}papers/{paper.slug}/")
    # Material's instant navigation handled it (no full reload), and the new
    # page's local graph still draws.
    assert page.evaluate("() => window.__sameDocument === true")
    page.wait_for_selector(".atlas-local-graph[data-atlas-drawn]")
    watched.assert_clean()


def test_search_box_focuses_the_node_it_finds(watched, site_url, atlas):
    paper = unique_paper(atlas)
    page = open_explorer(watched, site_url)
    node = page.evaluate(NODE_BY_LABEL, paper.label)
    page.focus("#atlas-graph-q")                  # keyboard only from here
    page.keyboard.type(paper.label)
    page.keyboard.press("Enter")
    page.wait_for_function("id => window.atlasGraphs.explorer.focused === id", arg=node)
    state = page.evaluate("""id => {
      const net = window.atlasGraphs.explorer.network;
      return {selected: net.getSelectedNodes(), view: net.getViewPosition(),
              node: net.getPositions([id])[id], scale: net.getScale(),
              tip: window.atlasGraphs.explorer.tip.textContent,
              status: document.querySelector('.atlas-graph-status').textContent};
    }""", node)
    assert state["selected"] == [node]
    assert abs(state["view"]["x"] - state["node"]["x"]) < 1
    assert abs(state["view"]["y"] - state["node"]["y"]) < 1
    assert state["scale"] >= 1.1
    assert paper.label in state["tip"]
    assert "Found paper" in state["status"]
    watched.assert_clean()


def test_filters_work_from_the_keyboard(watched, site_url, atlas):
    page = open_explorer(watched, site_url)
    papers = sum(1 for _, kind in atlas.graph.nodes(data="type") if kind == "paper")
    total = drawn(page)
    page.focus('input[name="layer"][value="paper"]')
    page.keyboard.press("Space")
    page.wait_for_function(f"() => window.atlasGraphs.explorer.drawn() === {total - papers}")
    page.keyboard.press("Space")
    page.wait_for_function(f"() => window.atlasGraphs.explorer.drawn() === {total}")
    years = sorted({p.year for p in atlas.corpus.papers if p.year})
    newest = sum(1 for p in atlas.corpus.papers if p.year == years[-1])
    page.focus('select[name="from"]')
    page.keyboard.press("End")                   # the newest year
    page.wait_for_function(f"() => window.atlasGraphs.explorer.drawn() < {total}")
    shown_papers = page.evaluate("""() => {
      const e = window.atlasGraphs.explorer;
      return e.view.get().filter(n => n.group === 'paper').length;
    }""")
    assert shown_papers == newest
    page.select_option('select[name="from"]', "")
    # The first area, chosen with the arrow key: its papers are those with a
    # technique in that area.
    page.focus('select[name="area"]')
    page.keyboard.press("ArrowDown")
    area = page.eval_on_selector('select[name="area"]', "s => s.value")
    assert area

    def area_of(node):
        while atlas.graph.nodes[node].get("parent"):
            node = atlas.graph.nodes[node]["parent"]
        return node.partition(":")[2]

    in_area = sum(1 for p in atlas.corpus.papers
                  if any(area_of(f"technique:{t.technique}") == area for t in p.techniques))
    page.wait_for_function(f"""() => window.atlasGraphs.explorer.view.get()
        .filter(n => n.group === 'paper').length === {in_area}""")
    watched.assert_clean()


def test_author_layer_loads_only_when_switched_on(watched, site_url, atlas):
    page = open_explorer(watched, site_url)
    total = drawn(page)
    authors = sum(1 for _, kind in atlas.graph.nodes(data="type") if kind == "author")
    assert not [u for u in watched.requests if u.endswith("authors.json")]
    page.focus('input[name="layer"][value="author"]')
    page.keyboard.press("Space")
    page.wait_for_function(f"() => window.atlasGraphs.explorer.drawn() === {total + authors}")
    assert [u for u in watched.requests if u.endswith("authors.json")]
    watched.assert_clean()


def test_dark_mode_restyles_the_graph(watched, site_url, atlas):
    paper = unique_paper(atlas)
    page = open_explorer(watched, site_url)
    node = page.evaluate(NODE_BY_LABEL, paper.label)
    read = """id => {
      const e = window.atlasGraphs.explorer;
      const css = getComputedStyle(e.container);
      return {scheme: e.scheme, attr: e.container.getAttribute('data-atlas-scheme'),
              fill: e.network.body.nodes[id].options.color.background,
              font: e.network.body.nodes[id].options.font.color,
              want: css.getPropertyValue('--atlas-paper').trim(),
              label: css.getPropertyValue('--atlas-label').trim(),
              background: getComputedStyle(e.container.querySelector('.atlas-graph-canvas')).backgroundColor};
    }"""
    light = page.evaluate(read, node)
    assert light["scheme"] == "default" and light["fill"] == light["want"]
    page.click('label[for="__palette_1"]')       # Material's palette toggle
    page.wait_for_function("() => window.atlasGraphs.explorer.scheme === 'slate'")
    dark = page.evaluate(read, node)
    assert dark["attr"] == "slate"
    assert dark["fill"] == dark["want"] != light["fill"]
    assert dark["font"] == dark["label"] != light["font"]
    assert dark["background"] != light["background"]
    watched.assert_clean()


NODE_TYPES = {"p": "paper", "t": "technique", "v": "venue", "a": "author"}

# What the local graph's network holds for each node, read back from vis-network.
LOCAL_STATE = """() => {
  const e = window.atlasGraphs.find(g => g.kind === 'local');
  const net = e.network, at = net.getPositions();
  return Object.keys(e.info).map(id => {
    const n = e.info[id], body = net.body.nodes[id];
    return {id: Number(id), label: n.label, group: n.group, title: n.title,
            url: new URL(n.url, location.href).href, canvas: body.options.label,
            size: body.options.size, border: body.options.borderWidth, x: at[id].x, y: at[id].y};
  });
}"""

LOCAL_NODE_ON_SCREEN = """id => {
  const e = window.atlasGraphs.find(g => g.kind === 'local');
  const box = e.container.querySelector('canvas').getBoundingClientRect();
  const at = e.network.canvasToDOM(e.network.getPositions([id])[id]);
  return [box.left + at.x, box.top + at.y];
}"""


def local_graph(page) -> dict:
    """The page's data-graph (format 1, see build_graph/render/graphview.py), as the browser decodes it."""
    data = json.loads(page.get_attribute(".atlas-local-graph", "data-graph"))
    assert data["v"] == 1 and set(data) == {"v", "c", "more", "n", "e"}
    return data


def test_paper_page_draws_its_local_graph(watched, site_url, atlas):
    paper = unique_paper(atlas)
    page = watched.page
    page.goto(f"{site_url}papers/{paper.slug}/")
    page.wait_for_selector(".atlas-local-graph[data-atlas-drawn]")
    data = local_graph(page)
    rows = data["n"]
    assert int(page.get_attribute(".atlas-local-graph", "data-atlas-drawn")) == len(rows)
    assert len(rows) == 1 + len(set(atlas.graph.predecessors(paper.node_id))
                                | set(atlas.graph.successors(paper.node_id)))
    assert rows[data["c"]][0] == paper.label
    # Every node reached the network with its label, type, tooltip, link and position.
    state = page.evaluate(LOCAL_STATE)
    assert [s["id"] for s in state] == list(range(len(rows)))
    for s, (label, kind, title, url, x, y) in zip(state, rows):
        assert (s["label"], s["group"], s["title"]) == (label, NODE_TYPES[kind], title)
        assert (s["x"], s["y"]) == (x, y)
        assert s["canvas"] and label.startswith(s["canvas"].rstrip("…"))
    # The centre is this page, drawn larger; the others link to the pages the text version lists.
    centre = state[data["c"]]
    others = [s for s in state if s["id"] != data["c"]]
    assert centre["url"] == page.url and (centre["size"], centre["border"]) == (20, 3)
    assert all((s["size"], s["border"]) == (12, 1) for s in others)
    listed = page.eval_on_selector_all("#atlas-neighbours a", "links => links.map(a => a.href)")
    assert sorted(s["url"] for s in others) == sorted(listed)
    # Edges: index triples, one for each of the paper's edges, all drawn.
    assert len(data["e"]) == len(rows) - 1 and all(data["c"] in e[:2] for e in data["e"])
    assert page.evaluate("() => window.atlasGraphs.find(g => g.kind === 'local').edges.length") == len(data["e"])
    assert page.get_attribute(".atlas-local-graph", "aria-describedby") == "atlas-neighbours"
    # Clicking a neighbour opens its page.
    technique = next(s for s in others if s["group"] == "technique")
    page.locator(".atlas-local-graph").scroll_into_view_if_needed()
    x, y = page.evaluate(LOCAL_NODE_ON_SCREEN, technique["id"])
    page.mouse.click(x, y)
    page.wait_for_url(technique["url"])
    watched.assert_clean()


def test_pages_without_a_graph_do_not_load_vis_network(watched, site_url):
    page = watched.page
    page.goto(site_url)
    page.wait_for_load_state("networkidle")
    assert page.evaluate("() => typeof window.vis") == "undefined"
    assert not [u for u in watched.requests if "vis-network" in u]
    watched.assert_clean()


def test_instant_navigation_to_the_explorer(watched, site_url, atlas):
    page = watched.page
    page.goto(site_url)
    page.evaluate("() => { window.__sameDocument = true; }")
    page.click('nav.md-nav--primary a.md-nav__link[href$="graph/"]')
    page.wait_for_url(site_url + "graph/")
    page.wait_for_function(WAIT_EXPLORER)
    assert page.evaluate("() => window.__sameDocument === true")
    expected = sum(1 for _, kind in atlas.graph.nodes(data="type") if kind in DEFAULT_LAYERS)
    assert drawn(page) == expected
    watched.assert_clean()


HOSTILE_TITLE = 'Title with href="javascript:alert(1)" <b>x</b>'
IMG_TITLE = "Sparse <img src=x onerror=alert(1)> experts {{ config.site_name }}"


def test_hostile_titles_stay_text_in_tooltips(watched, hostile_site_url):
    """pyvis would turn this tooltip into innerHTML because it contains ``href``."""
    page = open_explorer(watched, hostile_site_url)
    for title in (HOSTILE_TITLE, IMG_TITLE):
        node = page.evaluate(NODE_BY_LABEL, title)
        assert node is not None, f"{title!r} is not a node of the explorer"
        page.locator(".atlas-graph-canvas").scroll_into_view_if_needed()
        page.evaluate("id => window.atlasGraphs.explorer.network.focus(id, {scale: 2, animation: false})", node)
        page.wait_for_timeout(100)
        x, y = page.evaluate(NODE_ON_SCREEN, node)
        page.mouse.move(x - 40, y - 40)
        page.mouse.move(x, y)
        tip = page.locator(".atlas-explorer .atlas-graph-tip")
        tip.wait_for(state="visible")
        assert tip.locator("strong").text_content() == title
        assert tip.evaluate("t => Array.from(t.querySelectorAll('*')).map(e => e.tagName)") \
            == ["STRONG"] + ["DIV"] * tip.locator("div").count()
    assert page.evaluate("() => document.querySelectorAll('img[src=\"x\"], b').length") == 0
    watched.assert_clean()


QUOTES_TITLE = "Quotes \"double\" 'single' & </script><script>alert(2)</script>"


@pytest.mark.parametrize("title, prefix", [(HOSTILE_TITLE, "title-with-href"), (QUOTES_TITLE, "quotes-")])
def test_hostile_titles_stay_text_in_local_graphs(watched, hostile_site_url, hostile_site_dir, title, prefix):
    page = watched.page
    slug = next(p.name for p in (hostile_site_dir / "papers").iterdir() if p.name.startswith(prefix))
    page.goto(f"{hostile_site_url}papers/{slug}/")
    page.wait_for_selector(".atlas-local-graph[data-atlas-drawn]")
    data = local_graph(page)
    assert data["n"][data["c"]][0] == title
    assert page.evaluate(LOCAL_STATE)[data["c"]]["label"] == title
    # The tooltip shows it verbatim, as text.
    page.locator(".atlas-local-graph").scroll_into_view_if_needed()
    x, y = page.evaluate(LOCAL_NODE_ON_SCREEN, data["c"])
    page.mouse.move(x - 40, y - 40)
    page.mouse.move(x, y)
    tip = page.locator(".atlas-local-graph .atlas-graph-tip")
    tip.wait_for(state="visible")
    assert tip.locator("strong").text_content() == title
    assert tip.evaluate("t => Array.from(t.querySelectorAll('*')).map(e => e.tagName)") \
        == ["STRONG"] + ["DIV"] * tip.locator("div").count()
    assert page.evaluate("() => document.querySelectorAll('article b, article img[src=\"x\"]').length") == 0
    watched.assert_clean()
