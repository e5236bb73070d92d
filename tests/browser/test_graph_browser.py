"""The graph views in a real browser: Chromium over the built, locally served site.

Every test also checks that the page logged no console error, made no
request to another host and opened no dialog (no injected script ran).
"""

from __future__ import annotations

import json

import pytest

from build_graph.render import explorer
from build_graph.render.context import GRAPH_PAGE, PAPER, SiteContext, newest_first
from build_graph.render.html import href, url_of

pytestmark = pytest.mark.browser

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

DRAWN_BY_GROUP = """() => {
  const e = window.atlasGraphs.explorer, out = {};
  e.network.body.nodeIndices.forEach(id => {
    const g = e.info[id].group;
    out[g] = (out[g] || 0) + 1;
  });
  return out;
}"""


@pytest.fixture(scope="module")
def the_map(atlas):
    """The map the explorer must draw, as Python computes it (render/explorer.py)."""
    ctx = SiteContext(atlas)
    chosen = explorer.map_nodes(ctx)
    return ctx, chosen, explorer.strongest_links(chosen)


def open_explorer(watched, base: str):
    page = watched.page
    page.goto(base + "graph/")
    page.wait_for_function(WAIT_EXPLORER)
    return page


def drawn(page) -> int:
    return page.evaluate("() => window.atlasGraphs.explorer.drawn()")


def paper_id(paper) -> str:
    """The explorer's id of a paper: "p:" and its link from the graph page."""
    return "p:" + href(GRAPH_PAGE, PAPER.format(paper.slug))


def unique_paper(atlas):
    """A paper whose label no other node shares, so a search for it is unambiguous."""
    labels = [data["label"] for _, data in atlas.graph.nodes(data=True)]
    for paper in sorted(atlas.corpus.papers, key=newest_first):
        if labels.count(paper.label) == 1 and paper.techniques:
            return paper
    raise AssertionError("no paper with a unique label")


def graph_requests(watched) -> list[str]:
    return sorted(u.split("/assets/graph/", 1)[1] for u in watched.requests if "/assets/graph/" in u)


def click_node(page, node) -> None:
    page.locator(".atlas-graph-canvas").scroll_into_view_if_needed()
    x, y = page.evaluate(NODE_ON_SCREEN, node)
    page.mouse.click(x, y)


def test_a_techniques_authors_come_in_when_it_is_clicked_again(watched, site_url, the_map):
    """The authors of a selected technique come in as a paper's do: the most
    frequent authors of its drawn papers, at most 30, each linked to those papers."""
    _ctx, chosen, _links = the_map
    index, item = max(((i, m) for i, m in enumerate(chosen) if m.kind == "technique" and not m.is_area),
                      key=lambda pair: (len(pair[1].papers), -pair[0]))
    page = open_explorer(watched, site_url)
    page.evaluate("id => window.atlasGraphs.explorer.network.focus(id, {scale: 1.5, animation: false})", index)
    page.wait_for_timeout(50)
    click_node(page, index)
    page.wait_for_function("id => window.atlasGraphs.explorer.expanded[id] === 1", arg=index)
    assert page.evaluate(DRAWN_BY_GROUP).get("author", 0) == 0
    page.wait_for_timeout(500)                       # not a double click
    page.evaluate("id => window.atlasGraphs.explorer.network.focus(id, {scale: 1.5, animation: false})", index)
    page.wait_for_timeout(50)
    click_node(page, index)
    people = {a for p in item.papers[:explorer.CHUNK] for a in p.authors}
    page.wait_for_function(f"""() => (({DRAWN_BY_GROUP})().author || 0) === {min(len(people), 30)}""")
    assert page.url == f"{site_url}graph/"
    watched.assert_clean()


def test_default_view_draws_only_the_map(watched, site_url, the_map):
    _ctx, chosen, links = the_map
    page = open_explorer(watched, site_url)
    assert 0 < drawn(page) == len(chosen) <= explorer.MAP_CAP
    assert page.get_attribute(".atlas-explorer", "data-atlas-drawn") == str(len(chosen))
    groups = page.evaluate(DRAWN_BY_GROUP)
    assert set(groups) <= {"technique", "venue"} and "paper" not in groups and "author" not in groups
    assert page.evaluate("() => window.atlasGraphs.explorer.edgesDrawn") == len(links)
    # Labels: some drawn, biggest first, and no two overlap.
    boxes = page.evaluate("() => window.atlasGraphs.explorer.labelBoxes")
    assert boxes
    for i, (_, x0, y0, x1, y1) in enumerate(boxes):
        for _, a0, b0, a1, b1 in boxes[i + 1:]:
            assert not (x0 < a1 and x1 > a0 and y0 < b1 and y1 > b0)
    # Only the map was fetched: no papers, no search index; vis-network from this site, once.
    assert graph_requests(watched) == ["explorer.json"]
    assert [u for u in watched.requests if u.endswith("/assets/vendor/vis-network.min.js")] == [
        site_url + "assets/vendor/vis-network.min.js"]
    watched.assert_clean()


def test_clicking_a_technique_brings_in_its_papers_and_a_paper_its_authors(watched, site_url, the_map):
    ctx, chosen, _links = the_map
    index, item = max(((i, m) for i, m in enumerate(chosen) if m.kind == "technique" and not m.is_area),
                      key=lambda pair: (len(pair[1].papers), -pair[0]))
    page = open_explorer(watched, site_url)
    before = drawn(page)
    page.evaluate("id => window.atlasGraphs.explorer.network.focus(id, {scale: 1.5, animation: false})", index)
    page.wait_for_timeout(50)
    click_node(page, index)
    page.wait_for_function("id => window.atlasGraphs.explorer.expanded[id] === 1", arg=index)
    expected = item.papers[:explorer.CHUNK]
    page.wait_for_function(f"() => window.atlasGraphs.explorer.drawn() >= {before + len(expected)}")
    ids = page.evaluate("() => window.atlasGraphs.explorer.network.body.nodeIndices.filter(i => String(i).startsWith('p:'))")
    assert sorted(ids) == sorted(paper_id(p) for p in expected)
    assert graph_requests(watched) == ["explorer.json", f"t/{item.key}/1.json"]
    # A paper's authors come in when it is clicked, and only then.
    paper = expected[0]
    pid = paper_id(paper)
    page.evaluate("id => window.atlasGraphs.explorer.network.focus(id, {scale: 2, animation: false})", pid)
    page.wait_for_timeout(50)
    assert page.evaluate(DRAWN_BY_GROUP).get("author", 0) == 0
    click_node(page, pid)
    authors = len(dict.fromkeys(paper.authors))
    page.wait_for_function(f"""() => (({DRAWN_BY_GROUP})().author || 0) === {min(authors, 30)}""")
    # Each person is a node of their own, linked to the page about them: theirs, or this paper's.
    urls = page.evaluate("""() => Object.values(window.atlasGraphs.explorer.info)
        .filter(n => n.group === 'author').map(n => [n.label, new URL(n.url, location.href).href])""")
    expected_urls = [[ctx.authors[k].name, site_url + url_of(ctx.author_page(k))]
                     for k in list(dict.fromkeys(paper.authors))[:30]]
    assert sorted(urls) == sorted(expected_urls)
    assert any(not ctx.has_own_page(k) for k in paper.authors[:30])
    # A double click opens the paper's page through Material's instant navigation.
    page.evaluate("() => { window.__sameDocument = true; }")
    x, y = page.evaluate(NODE_ON_SCREEN, pid)
    page.mouse.dblclick(x, y)
    page.wait_for_url(f"{site_url}papers/{paper.slug}/")
    assert page.evaluate("() => window.__sameDocument === true")
    watched.assert_clean()


def test_zooming_into_a_technique_or_finding_it_brings_in_its_papers(watched, site_url, the_map):
    _ctx, chosen, _links = the_map
    techniques = [i for i, m in enumerate(chosen) if m.kind == "technique" and not m.is_area]
    zoomed, found = techniques[0], techniques[1]
    page = open_explorer(watched, site_url)
    page.evaluate("id => window.atlasGraphs.explorer.network.focus(id, {scale: 0.9, animation: false})", zoomed)
    page.locator(".atlas-graph-canvas").scroll_into_view_if_needed()
    x, y = page.evaluate(NODE_ON_SCREEN, zoomed)
    page.mouse.move(x, y)
    assert page.evaluate("() => Object.keys(window.atlasGraphs.explorer.expanded).length") == 0
    for _ in range(4):
        page.mouse.wheel(0, -120)
        page.wait_for_timeout(30)
    page.wait_for_function("id => window.atlasGraphs.explorer.expanded[id] === 1", arg=zoomed)
    assert page.evaluate("() => Object.keys(window.atlasGraphs.explorer.expanded)") == [str(zoomed)]
    # From the keyboard: Find names a technique, which brings its papers in and selects it.
    label = page.evaluate("id => window.atlasGraphs.explorer.info[id].label", found)
    page.focus("#atlas-graph-q")
    page.keyboard.type(label)
    page.keyboard.press("Enter")
    page.wait_for_function("id => window.atlasGraphs.explorer.focused === id", arg=found)
    assert page.evaluate("id => window.atlasGraphs.explorer.expanded[id]", found) == 1
    watched.assert_clean()


def test_searching_a_paper_not_drawn_loads_and_centres_it(watched, site_url, atlas):
    paper = unique_paper(atlas)
    page = open_explorer(watched, site_url)
    node = paper_id(paper)
    assert page.evaluate(NODE_BY_LABEL, paper.label) is None      # not drawn yet
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
    assert state["scale"] >= 1.2
    assert paper.label in state["tip"]
    assert "Found paper" in state["status"]
    requests = graph_requests(watched)
    assert "search.json" in requests and any(r.endswith("/1.json") for r in requests)
    watched.assert_clean()


def test_filters_act_on_the_map_and_on_expanded_papers(watched, site_url, the_map):
    _ctx, chosen, _links = the_map
    page = open_explorer(watched, site_url)
    total = drawn(page)
    index = next(i for i, m in enumerate(chosen) if m.kind == "technique" and not m.is_area)
    page.evaluate("id => window.atlasGraphs.explorer.expand(id, 1)", index)
    page.wait_for_function("id => window.atlasGraphs.explorer.expanded[id] === 1", arg=index)
    years = sorted({p.year for m in chosen for p in m.papers if p.year})
    newest = years[-1]
    page.focus('select[name="from"]')
    page.keyboard.press("End")                   # the newest year
    on_map = sum(1 for m in chosen if any(p.year == newest for p in m.papers))
    papers = sum(1 for p in chosen[index].papers[:explorer.CHUNK] if p.year == newest)
    page.wait_for_function(f"""() => {{ const g = ({DRAWN_BY_GROUP})();
        return (g.technique || 0) + (g.venue || 0) === {on_map} && (g.paper || 0) === {papers}; }}""")
    page.select_option('select[name="from"]', "")
    # The first area, chosen with the arrow key: the map keeps that area's
    # techniques and the venues that published in it.
    page.focus('select[name="area"]')
    page.keyboard.press("ArrowDown")
    area = page.eval_on_selector('select[name="area"]', "s => s.value")
    assert area
    in_area = page.evaluate("""area => Object.values(window.atlasGraphs.explorer.info)
        .filter(n => typeof n.id === 'number' && (n.areas || []).includes(area)).length""", area)
    assert 0 < in_area < total
    expected_techniques = sum(1 for m in chosen if m.kind == "technique" and m.area == area)
    page.wait_for_function(f"""() => {{ const g = ({DRAWN_BY_GROUP})();
        return (g.technique || 0) === {expected_techniques} && (g.technique || 0) + (g.venue || 0) === {in_area}; }}""")
    watched.assert_clean()


def test_dark_mode_restyles_nodes_and_labels(watched, site_url):
    page = open_explorer(watched, site_url)
    read = """() => {
      const e = window.atlasGraphs.explorer;
      const css = getComputedStyle(e.container);
      return {scheme: e.scheme, attr: e.container.getAttribute('data-atlas-scheme'),
              fill: e.network.body.nodes[0].options.color.background,
              want: e.info[0].group === 'venue' ? css.getPropertyValue('--atlas-venue').trim()
                                                : css.getPropertyValue('--atlas-technique').trim(),
              labelColour: e.palette.label, halo: e.palette.bg,
              label: css.getPropertyValue('--atlas-label').trim(),
              background: getComputedStyle(e.container.querySelector('.atlas-graph-canvas')).backgroundColor};
    }"""
    light = page.evaluate(read)
    assert light["scheme"] == "default" and light["fill"] == light["want"]
    page.click('label[for="__palette_1"]')       # Material's palette toggle
    page.wait_for_function("() => window.atlasGraphs.explorer.scheme === 'slate'")
    dark = page.evaluate(read)
    assert dark["attr"] == "slate"
    assert dark["fill"] == dark["want"] != light["fill"]
    # The labels the script draws itself take the new text and halo colours.
    assert dark["labelColour"] == dark["label"] != light["labelColour"]
    assert dark["halo"] != light["halo"]
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


def test_the_graph_library_loads_only_when_a_graph_nears_the_view(watched, site_url, atlas):
    """A paper page's graph is below the fold: vis-network is not fetched until
    the reader scrolls towards it, then it is, and the graph draws."""
    paper = max(atlas.corpus.papers, key=lambda p: (len(p.abstract or ""), p.slug))
    page = watched.page
    page.set_viewport_size({"width": 1280, "height": 500})
    page.goto(f"{site_url}papers/{paper.slug}/")
    page.wait_for_load_state("networkidle")
    top = page.evaluate("() => document.querySelector('.atlas-local-graph').getBoundingClientRect().top")
    assert top > 2 * 500, "the graph must start more than a screen below the fold for this test"
    assert not [url for url in watched.requests if "vis-network" in url]
    assert page.query_selector(".atlas-local-graph[data-atlas-drawn]") is None
    page.locator(".atlas-local-graph").scroll_into_view_if_needed()
    page.wait_for_selector(".atlas-local-graph[data-atlas-drawn]")
    assert [url for url in watched.requests if "vis-network" in url]


def test_paper_page_draws_its_local_graph(watched, site_url, atlas):
    paper = unique_paper(atlas)
    page = watched.page
    page.goto(f"{site_url}papers/{paper.slug}/")
    page.locator(".atlas-local-graph").scroll_into_view_if_needed()
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
    # (People with no page but this one are named in the list, not linked, and lead nowhere.)
    here = page.url.split("#")[0]          # (navigation.tracking puts the section in the URL)
    assert sorted(s["url"] for s in others if s["url"].split("#")[0] != here) == sorted(listed)
    assert [row[3] for row in rows if row[3] in ("", "./")] == ["./"] + [""] * (len(others) - len(listed))
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


def test_instant_navigation_to_the_explorer(watched, site_url, the_map):
    page = watched.page
    page.goto(site_url)
    page.evaluate("() => { window.__sameDocument = true; }")
    page.click('nav.md-nav--primary a.md-nav__link[href$="graph/"]')
    page.wait_for_url(site_url + "graph/")
    page.wait_for_function(WAIT_EXPLORER)
    assert page.evaluate("() => window.__sameDocument === true")
    assert drawn(page) == len(the_map[1])
    watched.assert_clean()


HOSTILE_TITLE = 'Title with href="javascript:alert(1)" <b>x</b>'
IMG_TITLE = "Sparse <img src=x onerror=alert(1)> experts {{ config.site_name }}"


def test_hostile_titles_stay_text_in_tooltips(watched, hostile_site_url):
    """pyvis would turn this tooltip into innerHTML because it contains ``href``."""
    page = open_explorer(watched, hostile_site_url)
    for title in (HOSTILE_TITLE, IMG_TITLE):
        page.fill("#atlas-graph-q", title)
        page.press("#atlas-graph-q", "Enter")
        page.wait_for_function("label => { const e = window.atlasGraphs.explorer; "
                               "return e.focused !== null && e.info[e.focused].label === label; }", arg=title)
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
    page.locator(".atlas-local-graph").scroll_into_view_if_needed()
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
