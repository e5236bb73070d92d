"""Graph views: layout, local graphs, the explorer's output, offline assets and escaping."""

from __future__ import annotations

import html
import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import markupsafe
import networkx as nx
import pytest

from build_graph import layout
from build_graph.layout import compute_layout, global_layout, radial_layout
from build_graph.pipeline import build_atlas
from build_graph.render import explorer, graphview
from build_graph.render.context import SiteContext
from build_graph.render.html import Toc, environment, href, json_attr, url_of
from build_graph.render.site import render_site
from site_pages import Tags
from test_links import resolve

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(os.environ.get("ATLAS_TEST_DATA") or ROOT / "data")
HOSTILE = ROOT / "tests" / "fixtures" / "graph"
SCRIPT = ROOT / "build_graph" / "assets" / "atlas-graph.js"
STYLE = ROOT / "build_graph" / "assets" / "atlas-graph.css"
HREF_TITLE = 'Title with href="javascript:alert(1)" <b>x</b>'
IMG_TITLE = "Sparse <img src=x onerror=alert(1)> experts {{ config.site_name }}"
SCRIPT_TITLE = "Quotes \"double\" 'single' & </script><script>alert(2)</script>"


def toy_graph(order: int = 0, papers: int = 300) -> nx.DiGraph:
    """The same graph whatever ``order``; only the insertion order changes."""
    rng = random.Random(7)
    nodes = [(f"technique:t{i}", {"type": "technique"}) for i in range(12)]
    nodes += [(f"venue:v{i}", {"type": "venue"}) for i in range(3)]
    edges = [(f"technique:t{i}", f"technique:t{i % 3}", {"type": "subtopic_of"}) for i in range(3, 12)]
    for p in range(papers):
        paper = f"paper:p{p}"
        nodes.append((paper, {"type": "paper"}))
        if p % 7:
            edges.append((paper, f"venue:v{p % 3}", {"type": "published_in"}))
        edges += [(paper, f"technique:t{t}", {"type": "uses"}) for t in rng.sample(range(12), p % 4)]
        for a in rng.sample(range(papers * 2), 1 + p % 5):
            nodes.append((f"author:a{a}", {"type": "author"}))
            edges.append((f"author:a{a}", paper, {"type": "authored"}))
    shuffle = random.Random(order)
    if order:
        shuffle.shuffle(nodes)
        shuffle.shuffle(edges)
    graph = nx.DiGraph()
    graph.add_nodes_from(nodes)
    graph.add_edges_from(edges)
    return graph


# ---- layout -----------------------------------------------------------------


def test_layout_is_deterministic_and_rounded():
    graph = toy_graph()
    first = compute_layout(graph)
    assert first == compute_layout(graph)
    assert set(first) == set(graph.nodes)
    assert all(round(v, 1) == v for xy in first.values() for v in xy)


def test_layout_does_not_depend_on_insertion_order():
    assert compute_layout(toy_graph(0)) == compute_layout(toy_graph(1)) == compute_layout(toy_graph(2))


LAYOUT_SCRIPT = """
import json, sys
sys.path.insert(0, {root!r})
sys.path.insert(0, {tests!r})
from test_graphview import toy_graph
from build_graph.layout import compute_layout
print(json.dumps(compute_layout(toy_graph(3)), sort_keys=True))
"""

EXPLORER_SCRIPT = """
import sys
from pathlib import Path
sys.path.insert(0, {root!r})
from build_graph.pipeline import build_atlas
from build_graph.render.site import render_site
pages = render_site(build_atlas(Path({seeds!r}), Path({data!r}), strict=True))
for path in ("assets/graph/explorer.json", "assets/graph/search.json", "graph/index.md", "graph/nodes.md"):
    sys.stdout.write(str(pages[path]))
for path, text in pages.items():
    if path.startswith(("papers/", "assets/graph/t/", "graph/t/")):
        sys.stdout.write(str(text))
"""


@pytest.mark.parametrize("script", [LAYOUT_SCRIPT, EXPLORER_SCRIPT], ids=["layout", "explorer"])
def test_output_is_identical_under_any_hash_seed(script):
    code = script.format(root=str(ROOT), tests=str(ROOT / "tests"), seeds=str(ROOT / "seeds"),
                         data=str(DATA))
    outputs = []
    for seed in ("0", "987654"):
        run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             env={**os.environ, "PYTHONHASHSEED": seed}, timeout=300)
        assert run.returncode == 0, run.stderr
        outputs.append(run.stdout)
    assert outputs[0] and outputs[0] == outputs[1]


def test_force_layout_runs_on_anchors_only(monkeypatch):
    """The quadratic step sees techniques and venues, never papers or authors."""
    seen = []
    real = nx.spring_layout

    def spy(graph, *args, **kwargs):
        seen.append(set(graph.nodes))
        return real(graph, *args, **kwargs)

    monkeypatch.setattr(layout.nx, "spring_layout", spy)
    graph = toy_graph(papers=200)
    compute_layout(graph)
    anchors = {n for n, kind in graph.nodes(data="type") if kind in ("technique", "venue")}
    assert seen == [anchors]


def test_layout_is_cached_by_structure():
    from build_graph.caches import BuildCaches
    caches = BuildCaches()
    graph = toy_graph(papers=50)
    first = global_layout(graph, caches)
    assert global_layout(toy_graph(order=5, papers=50), caches) is first
    assert global_layout(toy_graph(order=5, papers=50)) == first        # no caches: computed again, same
    graph.add_edge("paper:p1", "technique:t11", type="uses")
    assert global_layout(graph, caches) is not first


def test_map_layout_is_cached_apart_and_places_only_anchors():
    from build_graph.caches import BuildCaches
    caches = BuildCaches()
    graph = toy_graph(papers=50)
    anchors = layout.anchor_layout(graph, caches)
    assert set(anchors) == {n for n, kind in graph.nodes(data="type") if kind in ("technique", "venue")}
    assert layout.anchor_layout(toy_graph(order=3, papers=50), caches) is anchors
    assert layout.anchor_layout(graph) == anchors
    # Its own cache entry: the whole-graph layout is not handed out for it, nor it for that.
    assert global_layout(graph, caches) is not anchors
    assert set(global_layout(graph, caches)) == set(graph.nodes)


def test_no_two_nodes_share_a_position():
    positions = compute_layout(toy_graph())
    assert len(set(positions.values())) == len(positions)


def test_radial_layout_puts_the_centre_first_and_keeps_rank_order():
    neighbours = [f"n{i}" for i in range(39)]
    positions = radial_layout("c", neighbours)
    assert positions["c"] == (0.0, 0.0)
    assert len(set(positions.values())) == 40
    distance = [round((positions[n][0] ** 2 + positions[n][1] ** 2) ** 0.5) for n in neighbours]
    assert distance == sorted(distance)         # the most relevant sit on the inner ring
    assert positions == radial_layout("c", neighbours)


# ---- local graphs -----------------------------------------------------------

SURNAMES = ["Smith", "Jones", "Garcia", "Miller", "Davis", "Lopez", "Wilson", "Anderson", "Thomas",
            "Taylor", "Moore", "Jackson", "Martin", "Lee", "Perez", "Thompson", "White", "Harris",
            "Sanchez", "Clark", "Ramirez", "Lewis", "Robinson", "Walker", "Young", "Allen", "King",
            "Wright", "Scott", "Torres", "Nguyen", "Hill", "Flores", "Green", "Adams", "Nelson",
            "Baker", "Hall", "Rivera", "Campbell", "Mitchell", "Carter", "Roberts", "Gomez",
            "Phillips", "Evans", "Turner", "Diaz", "Parker", "Cruz", "Edwards", "Collins"]


@pytest.fixture(scope="module")
def crowded(tmp_path_factory):
    """One venue with 45 papers, and one paper with 52 authors."""
    seeds = tmp_path_factory.mktemp("crowded")
    entries = []
    for i in range(1, 46):
        authors = ", ".join(f"Robin {SURNAMES[(i + k) % len(SURNAMES)]}" for k in range(2))
        entries.append(f"#{i} Study number {i} of quantization for training [PDF] [Copy] [Kimi] [REL]"
                       f"\n\nAuthors: {authors}\n\nWe apply quantization in study {i}.\n")
    authors = ", ".join(f"Casey {name}" for name in SURNAMES)
    entries.append("#46 A crowded collaboration on federated learning [PDF] [Copy] [Kimi] [REL]"
                   f"\n\nAuthors: {authors}\n\nA federated learning system with quantization.\n")
    (seeds / "mlsys.txt").write_text("MLSYS.2023\n\n| Total: 46\n\n" + "\n\n".join(entries),
                                     encoding="utf-8")
    atlas = build_atlas(seeds, DATA, strict=True)
    return SiteContext(atlas)


def neighbourhood_section(ctx, centre: str, here: str) -> str:
    """The "Neighbourhood" section of a page, as its template writes it."""
    template = environment().from_string('{% import "_macros.html" as m with context %}'
                                         "{{ m.neighbourhood(graph) }}")
    return template.render(toc=Toc(), url=lambda target: href(here, target),
                           graph=graphview.local_graph(ctx, centre, here))


def test_local_graph_is_capped_with_a_more_note(crowded):
    venue = next(n for n, kind in crowded.atlas.graph.nodes(data="type") if kind == "venue")
    here = graphview.page_of(crowded, venue)
    data, kept, more = graphview.local_graph_data(crowded, venue, here)
    papers = crowded.atlas.graph.in_degree(venue)
    assert papers == 46
    assert len(data["n"]) == graphview.LOCAL_CAP == 40
    assert more == data["more"] == papers - 39
    section = neighbourhood_section(crowded, venue, here)
    assert f"+{more} more not shown" in section
    assert f"(+{more} more not shown)" in section            # also in the graph's aria-label
    listed = re.findall(r'<a href="\.\./\.\./papers/', section)
    assert len(listed) == 39


def test_local_graph_keeps_the_most_relevant_neighbours(crowded):
    graph = crowded.atlas.graph
    paper = next(n for n, d in graph.nodes(data=True)
                 if d["type"] == "paper" and d["label"].startswith("A crowded"))
    kept, more = graphview.neighbourhood(crowded, paper)
    kinds = [graph.nodes[n]["type"] for n in kept]
    # Venue and techniques are never dropped for the 40th author ...
    assert "venue" in kinds and "technique" in kinds
    assert kinds == sorted(kinds, key=lambda k: k == "author")
    # ... and the authors kept are the first of the byline.
    authors = [n for n in kept if graph.nodes[n]["type"] == "author"]
    positions = [graph.edges[a, paper]["position"] for a in authors]
    assert positions == list(range(1, len(authors) + 1))
    assert more == len(SURNAMES) - len(authors)


LOCAL_GRAPH_ATTRS = {"class", "data-graph", "role", "aria-label", "aria-describedby"}


def graph_attribute(page: str) -> str:
    """The ``data-graph`` value of the page's one local graph, decoded, as an HTML
    parser reads it; fails if anything in the data ended the attribute early
    (the value would be cut short and stray attributes would appear) or if a
    regular expression over the source would see a different value."""
    graphs = [attrs for tag, attrs in Tags.of(page)
              if tag == "div" and "atlas-local-graph" in (attrs.get("class") or "").split()]
    assert len(graphs) == 1
    assert set(graphs[0]) == LOCAL_GRAPH_ATTRS, sorted(graphs[0])
    source = re.findall(r"""<div class="atlas-local-graph" data-graph='([^'<>]*)' role="img" """, page)
    assert len(source) == 1
    assert html.unescape(source[0]) == graphs[0]["data-graph"]
    return graphs[0]["data-graph"]


def test_local_graph_carries_positions_and_a_text_alternative(crowded):
    graph = crowded.atlas.graph
    paper = next(n for n, kind in graph.nodes(data="type") if kind == "paper")
    here = graphview.page_of(crowded, paper)
    text = neighbourhood_section(crowded, paper, here)
    data = json.loads(graph_attribute(text))
    assert set(data) == {"v", "c", "more", "n", "e"} and data["v"] == 1
    kept, more = graphview.neighbourhood(crowded, paper)
    members = [paper, *kept]
    assert data["c"] == 0 and data["more"] == more
    assert len(data["n"]) == len(members)
    for node, row in zip(members, data["n"]):
        label, kind, title, url, x, y = row
        assert label == graph.nodes[node]["label"]
        assert kind == graphview.NODE_CODES[graph.nodes[node]["type"]]
        assert title == graphview.tooltip(crowded, node)
        page = graphview.page_of(crowded, node)
        # A neighbour whose page is this one (a person with no other paper) leads nowhere.
        assert url == ("" if page == here and node != paper else href(here, page))
        assert type(x) is int and type(y) is int
    # Whole units: the radial layout, rounded, and no two nodes on one spot.
    layout_xy = radial_layout(paper, kept)
    assert [tuple(row[4:]) for row in data["n"]] == [(round(layout_xy[n][0]), round(layout_xy[n][1]))
                                                       for n in members]
    assert (data["n"][0][4], data["n"][0][5]) == (0, 0)
    assert len({tuple(row[4:]) for row in data["n"]}) == len(members)
    # Edges are index triples, exactly the graph's edges among the members.
    edges = {(members[i], members[j], kind) for i, j, kind in data["e"]}
    assert len(edges) == len(data["e"])
    assert edges == {(u, v, graphview.EDGE_CODES[graph.edges[u, v]["type"]])
                     for u in members for v in graph.successors(u) if v in members}
    assert all(any(0 in e[:2] for e in data["e"] if i in e[:2]) for i in range(1, len(members)))
    assert 'aria-describedby="atlas-neighbours"' in text and 'id="atlas-neighbours"' in text
    assert 'href="#atlas-neighbours"' in text


def test_graph_codes_match_the_script():
    """The one-letter type codes are decoded by atlas-graph.js: both tables agree."""
    script = SCRIPT.read_text(encoding="utf-8")
    table = re.search(r"var NODE_CODES = \{([^}]*)\}", script).group(1)
    assert dict(re.findall(r'(\w+): "(\w+)"', table)) == {v: k for k, v in graphview.NODE_CODES.items()}
    assert re.search(r"var GRAPH_FORMAT = (\d+);", script).group(1) == str(graphview.GRAPH_FORMAT)
    assert len(set(graphview.EDGE_CODES.values())) == len(graphview.EDGE_CODES)


ATTR_HOSTILE = ["it's", "Quotes \"double\" 'single' & </script><script>alert(2)</script>",
                "&amp; &lt;b&gt; &#39; &quot; &", "{{ config.site_name }} {% raw %}", "*[x](y)* `z` # h",
                "ends with id=", "x name='n' id=\"i\" id=", "> <!-- -->", "back\\slash \\' \\\"",
                "line\nbreak\ttab\r\x00nul \u2028 ünï ✓ 𝔘"]


@pytest.mark.parametrize("text", ATTR_HOSTILE)
def test_json_attr_round_trips_through_html(text):
    """Whatever the text, the single-quoted attribute decodes to the same JSON
    and holds no quote or tag-like text. (``=`` is no longer escaped: that was
    for the regular expressions of the Markdown fast path, which is gone; no
    Markdown runs over the pages now.)"""
    data = {"v": 1, "c": 0, "more": 0, "n": [[text, "p", text, "./", 0, 0]], "e": [[0, 0, "u"]]}
    value = json_attr(data)
    assert not set("'<>") & set(value)
    assert json.loads(html.unescape(value)) == data
    line = (f"""<div class="atlas-local-graph" data-graph='{value}' role="img" """
            'aria-label="g" aria-describedby="x"></div>')
    assert json.loads(graph_attribute(line)) == data
    # Through a template, as the pages use it.
    rendered = environment().from_string(
        """<div class="atlas-local-graph" data-graph='{{ data | json_attr }}' role="img" """
        'aria-label="g" aria-describedby="x"></div>').render(data=data)
    assert rendered == line


def test_relative_links_match_mkdocs():
    """The package's one link helper gives the URL MkDocs would give between
    the built pages (directory URLs)."""
    from mkdocs.utils import get_relative_url
    pages = ["papers/a.md", "authors/b.md", "graph/index.md", "graph/nodes.md", "quality.md",
             "techniques/index.md", "index.md"]
    for here in pages:
        for target in [*pages, "assets/graph/explorer.json"]:
            expected = get_relative_url(url_of(target) or ".", url_of(here) or ".")
            if target.endswith(".md") and not expected.endswith("/"):
                expected += "/"
            assert href(here, target) == expected, (here, target)


# ---- the explorer: offline, small, escaped ---------------------------------


@pytest.fixture(scope="module")
def hostile_atlas():
    return build_atlas(HOSTILE, DATA, strict=True)


@pytest.fixture(scope="module")
def hostile_pages(hostile_atlas):
    return render_site(hostile_atlas)


def test_explorer_page_loads_nothing_from_another_host(hostile_pages):
    page = hostile_pages[explorer.GRAPH_PAGE].body
    lowered = page.lower()
    for needle in ("<script", "http://", "https://", "cdn", "bootstrap", "vis-network", "innerhtml",
                   "<html", "<head", "<style"):
        assert needle not in lowered, needle
    template = (explorer.TEMPLATES / "explorer.html").read_text(encoding="utf-8").lower()
    assert "http://" not in template and "https://" not in template and "<script" not in template
    # The node data is a separate file, not in the page (nor in the search index).
    assert '"nodes"' not in page and "data-src=" in page


def test_pyvis_stock_template_is_what_we_avoid():
    """Why the template is ours: pyvis's pulls CDNs and uses innerHTML once a title has ``href``."""
    from pyvis.network import Network
    net = Network(cdn_resources="local")
    net.add_node(1, label="x", title=HREF_TITLE)
    stock = net.generate_html()
    assert "https://cdn" in stock and "innerHTML" in stock


def test_shared_script_and_style_never_parse_data_as_html():
    script = SCRIPT.read_text(encoding="utf-8")
    for needle in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(",
                   "new Function", "http://", "https://"):
        assert needle not in script, needle
    style = STYLE.read_text(encoding="utf-8")
    assert "@import" not in style and "http" not in style


def test_labels_and_tooltips_reach_the_data_verbatim(hostile_pages):
    search = json.loads(hostile_pages[explorer.SEARCH_DATA])
    assert {HREF_TITLE, IMG_TITLE, SCRIPT_TITLE} <= {row[0] for row in search["papers"]}
    chunks = [json.loads(text) for path, text in hostile_pages.items() if path.startswith("assets/graph/t/")]
    titles = {row[1] for chunk in chunks for row in chunk["papers"]}
    assert {HREF_TITLE, IMG_TITLE, SCRIPT_TITLE} <= titles
    page = hostile_pages[explorer.GRAPH_PAGE].body
    for title in (HREF_TITLE, IMG_TITLE, SCRIPT_TITLE):
        assert title not in page and html.escape(title) not in page
    # The tooltip text is plain text too: the script puts it in the DOM with textContent only.
    tooltips = [row[4] for chunk in chunks for row in chunk["papers"]]
    assert tooltips and all(isinstance(t, str) and t.startswith("Paper") for t in tooltips)


@pytest.mark.parametrize("title", [HREF_TITLE, IMG_TITLE, SCRIPT_TITLE])
def test_local_graph_attribute_cannot_break_out(hostile_pages, title):
    page = next(text.body for path, text in hostile_pages.items()
                if path.startswith("papers/") and path != "papers/index.md"
                and html.unescape(text.title) == title)
    start = page.index("data-graph='") + len("data-graph='")
    attribute = page[start:page.index("'", start)]
    # Only the characters that could end the value or look like markup are escaped.
    assert not set("'<>") & set(attribute)
    assert "&quot;" not in attribute and '"' in attribute
    data = json.loads(html.unescape(attribute))
    assert data["n"][0][0] == title
    assert json.loads(graph_attribute(page)) == data
    assert "<img" not in page and "<b>x" not in page and "<script>alert" not in page


def test_text_alternative_is_the_map_and_each_nodes_papers(hostile_pages, hostile_atlas):
    ctx = SiteContext(hostile_atlas)
    chosen = explorer.map_nodes(ctx)
    text = hostile_pages[explorer.TEXT_PAGE].body
    escape = markupsafe.escape           # what the templates' autoescaping writes
    for item in chosen:
        assert escape(hostile_atlas.graph.nodes[item.node]["label"]) in text, item.node
        assert f'href="{href(explorer.TEXT_PAGE, item.text_page(1))}">{len(item.papers)}</a>' in text
    # Every paper on a map node is listed on that node's pages, escaped.
    for item in chosen:
        pages = "".join(hostile_pages[item.text_page(part)].body for part in range(1, item.parts + 1))
        for paper in item.papers:
            assert escape(paper.label) in pages, (item.node, paper.slug)
        assert "<img src=x" not in pages and "<b>x</b>" not in pages
    assert "<img src=x" not in text and "<b>x</b>" not in text
    assert hostile_pages[explorer.TEXT_PAGE].meta == {"search": {"exclude": True}}


def test_explorer_counts_match_the_map(hostile_pages, hostile_atlas):
    chosen = explorer.map_nodes(SiteContext(hostile_atlas))
    data = json.loads(hostile_pages[explorer.EXPLORER_DATA])
    assert data["v"] == explorer.FORMAT and data["chunk"] == explorer.CHUNK
    assert [n["id"] for n in data["nodes"]] == list(range(len(chosen)))
    assert [n["label"] for n in data["nodes"]] == [hostile_atlas.graph.nodes[m.node]["label"] for m in chosen]
    assert [n["value"] for n in data["nodes"]] == [len(m.papers) for m in chosen]
    page = hostile_pages[explorer.GRAPH_PAGE]
    assert f'data-nodes="{len(data["nodes"])}"' in page.body
    assert page.meta["search"] == {"exclude": True}


# ---- the map: capped, strongest links, papers on demand ---------------------


@pytest.fixture(scope="module")
def seed_ctx():
    return SiteContext(build_atlas(ROOT / "seeds", DATA, strict=True))


def test_map_keeps_the_biggest_nodes_areas_first(seed_ctx, monkeypatch):
    everything = explorer.map_nodes(seed_ctx)
    graph = seed_ctx.atlas.graph
    assert all(m.papers for m in everything)
    with_papers = {n for n, kind in graph.nodes(data="type") if kind in ("technique", "venue")
                   and any(graph.nodes[p]["type"] == "paper" for p in graph.predecessors(n))}
    assert with_papers <= {m.node for m in everything}
    areas = [m for m in everything if m.is_area]
    cap = len(areas) + 6
    assert len(everything) > cap
    monkeypatch.setattr(explorer, "MAP_CAP", cap)
    capped = explorer.map_nodes(seed_ctx)
    assert capped == everything[:cap]
    assert capped[:len(areas)] == areas
    rest = [len(m.papers) for m in capped[len(areas):]]
    assert rest == sorted(rest, reverse=True)
    assert min(rest) >= max(len(m.papers) for m in everything[cap:])
    # An area counts every paper below it, so it is never smaller than its techniques.
    for area in areas:
        below = [m for m in everything if m.area == area.key and not m.is_area]
        assert all({p.slug for p in m.papers} <= {p.slug for p in area.papers} for m in below)


def test_links_are_shared_papers_and_each_nodes_strongest(seed_ctx):
    chosen = explorer.map_nodes(seed_ctx)
    links = explorer.strongest_links(chosen)
    sets = [{p.slug for p in m.papers} for m in chosen]
    kept = {(a, b): w for a, b, w in links}

    def contains(a, b):                  # an area and one of its own techniques: never linked
        return chosen[a].is_area and chosen[b].kind == "technique" and chosen[b].area == chosen[a].key

    for (a, b), w in kept.items():
        assert a < b and w == len(sets[a] & sets[b]) > 0
        assert not contains(a, b) and not contains(b, a)
    for a in range(len(chosen)):
        shared = sorted((-len(sets[a] & sets[b]), b) for b in range(len(chosen))
                        if b != a and sets[a] & sets[b] and not contains(a, b) and not contains(b, a))
        for _, b in shared[:explorer.LINKS_PER_NODE]:
            assert (min(a, b), max(a, b)) in kept
    assert len(links) <= explorer.LINKS_PER_NODE * len(chosen)


def test_papers_come_in_chunks_that_hold_every_paper(seed_ctx, monkeypatch):
    monkeypatch.setattr(explorer, "CHUNK", 4)
    chosen = explorer.map_nodes(seed_ctx)
    files = explorer.render_explorer(seed_ctx)
    for number, item in enumerate(chosen):
        rows = []
        for part in range(1, item.parts + 1):
            chunk = json.loads(files[item.data_file(part)])
            assert (chunk["node"], chunk["part"], chunk["parts"], chunk["total"]) == \
                (number, part, item.parts, len(item.papers))
            assert 0 < len(chunk["papers"]) <= 4
            assert chunk["author_pages"] == "../authors/"
            for row in chunk["papers"]:
                paper = seed_ctx.papers[row[0]]
                # Every author of the paper, in byline order, each with where their page is:
                # their own, or (one paper) this paper's.
                named = [chunk["authors"][k] for k in row[8]]
                assert [a[0] for a in named] == [seed_ctx.authors[k].slug for k in dict.fromkeys(paper.authors)]
                for (slug, name, own), key in zip(named, dict.fromkeys(paper.authors)):
                    assert name == seed_ctx.authors[key].name
                    assert own == int(seed_ctx.has_own_page(key))
                    own_url = resolve(url_of(explorer.GRAPH_PAGE), chunk["author_pages"] + slug + "/")[0]
                    url = own_url if own else resolve(url_of(explorer.GRAPH_PAGE), row[3])[0]
                    assert url == url_of(seed_ctx.author_page(key))
                assert number in row[7] or item.is_area
            rows += [row[0] for row in chunk["papers"]]
            page = files[item.text_page(part)].body
            assert ('rel="next"' in page) == (part < item.parts)
            assert ('rel="prev"' in page) == (part > 1)
        assert rows == [p.slug for p in item.papers]
        assert item.data_file(item.parts + 1) not in files
    # Search reaches every paper: its row names a chunk that holds it.
    search = json.loads(files[explorer.SEARCH_DATA])["papers"]
    assert len(search) == len(seed_ctx.corpus.papers)
    by_url = {href(explorer.GRAPH_PAGE, f"papers/{p.slug}.md"): p for p in seed_ctx.corpus.papers}
    assert len({row[3] for row in search}) == len(search)
    for title, home, part, url in search:
        paper = by_url[url]
        assert title == paper.label
        if home < 0:
            assert not any(paper in m.papers for m in chosen)
            continue
        chunk = json.loads(files[chosen[home].data_file(part)])
        assert paper.slug in [row[0] for row in chunk["papers"]]


def test_cluster_papers_sit_around_their_node(seed_ctx):
    chosen = explorer.map_nodes(seed_ctx)
    files = explorer.render_explorer(seed_ctx)
    data = json.loads(files[explorer.EXPLORER_DATA])
    for number, item in enumerate(chosen[:20]):
        chunk = json.loads(files[item.data_file(1)])
        node = data["nodes"][number]
        spots = [(row[5], row[6]) for row in chunk["papers"]]
        assert len(set(spots)) == len(spots)
        distances = [((x - node["x"]) ** 2 + (y - node["y"]) ** 2) ** 0.5 for x, y in spots]
        assert distances == sorted(distances) and distances[0] > 30
