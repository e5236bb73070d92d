"""The global graph explorer (``graph/index.md``) and its text alternative.

The explorer is built with pyvis: nodes and edges go into a
``pyvis.network.Network`` (filled as plain lists, because ``add_edge``
scans every edge and is quadratic), the vis-network options are set on it
with physics off, and its data is rendered with our own Jinja template
(``build_graph/templates/explorer.html``). pyvis's stock template is not used
because it pulls Bootstrap and vis-network from CDNs in every mode and turns a
tooltip into ``innerHTML`` as soon as its text contains ``href``.

What goes where, and why:

* ``graph/index.md`` (``templates/graph.html``) holds only the controls and an empty canvas (a few KB),
  so the page stays small and out of the search index;
* ``assets/graph/explorer.json`` holds the default layers (papers, techniques,
  venues) with positions from ``layout.global_layout``; the shared script
  fetches it, so the browser does no layout work;
* ``assets/graph/authors.json`` holds the author layer and is fetched only
  when the reader switches that layer on;
* ``graph/nodes.md`` and ``graph/authors.md`` (``graph_nodes.html``,
  ``graph_authors.html``) list the same nodes and edges as
  tables with links: the text alternative for screen readers and for readers
  without JavaScript.

Node ids in the JSON are integers (an index into the node list) and edges are
``[from, to]`` pairs: at 5,000 papers this halves the download.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

from pyvis.network import Network

from ..layout import global_layout
from .context import GRAPH_PAGE, newest_first
from .graphview import TYPE_NAMES, page_of, paper_counts
from .html import EXCLUDED, TEMPLATES, Html, href, render

EXPLORER_DATA = "assets/graph/explorer.json"
AUTHORS_DATA = "assets/graph/authors.json"
TEXT_PAGE = "graph/nodes.md"
AUTHORS_TEXT_PAGE = "graph/authors.md"
DEFAULT_LAYERS = ("paper", "technique", "venue")
LAYER_NAMES = {"paper": "Papers", "technique": "Techniques", "venue": "Venues", "author": "Authors"}
AUTHORS_IN_TOOLTIP = 3

# vis-network options, handed to the browser as they are. Physics is off and
# there is no toggle for it: the layout comes from Python, and a force
# simulation over thousands of nodes is what freezes browsers. Edges and
# labels are drawn by atlas-graph.js itself (see there), so there are no edge
# or label options; node size follows the degree (``value``), on a square-root
# scale set by the script.
OPTIONS = {
    "autoResize": True,
    "physics": {"enabled": False, "stabilization": {"enabled": False}},
    "layout": {"improvedLayout": False, "randomSeed": 1},
    "interaction": {"hover": True, "tooltipDelay": 100, "navigationButtons": False,
                    "multiselect": False, "keyboard": {"enabled": True, "bindToWindow": False}},
    "nodes": {"borderWidth": 1, "scaling": {"min": 5, "max": 44}},
}


def _area_of(graph, node: str) -> str:
    """The top of a technique's chain of parents (itself for an area)."""
    seen = set()
    while True:
        parent = graph.nodes[node].get("parent")
        if not parent or parent not in graph or parent in seen:
            return node.partition(":")[2]
        seen.add(node)
        node = parent


def _paper_tooltip(data: dict) -> str:
    lines = [TYPE_NAMES["paper"] + "".join(f" · {part}" for part in (data.get("venue"), data.get("year"))
                                           if part)]
    authors = data.get("authors") or []
    if authors:
        shown = ", ".join(authors[:AUTHORS_IN_TOOLTIP])
        if len(authors) > AUTHORS_IN_TOOLTIP or data.get("authors_truncated"):
            shown += " et al."
        lines.append(shown)
    # The techniques are not repeated here: they are the paper's edges, and
    # the script names them in the tooltip (a fifth of the file at 5,000 papers).
    return "\n".join(lines)


def _count_line(kind: str, count: int) -> str:
    return f"{TYPE_NAMES[kind]} · {count} paper{'s' if count != 1 else ''}"


def layer_nodes(ctx) -> dict[str, list[str]]:
    """Node ids per type, in the order the explorer lists them."""
    graph = ctx.atlas.graph
    techniques = [n for n, d in graph.nodes(data=True) if d["type"] == "technique"]
    venues = sorted((n for n, d in graph.nodes(data=True) if d["type"] == "venue"),
                    key=lambda n: (graph.nodes[n]["label"].casefold(), n))
    papers = [p.node_id for p in sorted(ctx.corpus.papers, key=newest_first)]
    authors = sorted((n for n, d in graph.nodes(data=True) if d["type"] == "author"),
                     key=lambda n: (graph.nodes[n]["label"].casefold(), n))
    return {"technique": techniques, "venue": venues, "paper": papers, "author": authors}


def build_network(ctx) -> tuple[Network, dict]:
    """The pyvis network of the default layers, plus the author layer as plain data."""
    graph = ctx.atlas.graph
    positions = global_layout(graph, ctx.atlas.caches)
    layers = layer_nodes(ctx)
    papers_of = paper_counts(ctx)
    net = Network(height="70vh", width="100%", directed=True, cdn_resources="local")
    index: dict[str, int] = {}
    default_nodes = [n for kind in ("technique", "venue", "paper") for n in layers[kind]]
    for node in default_nodes:
        index[node] = len(index)
    degree = {n: 0 for n in default_nodes}
    for node in default_nodes:
        for target in graph.successors(node):
            if target in index:
                net.edges.append({"from": index[node], "to": index[target]})
                degree[node] += 1
                degree[target] += 1
    for node in default_nodes:
        data = graph.nodes[node]
        kind = data["type"]
        item = {"id": index[node], "label": data["label"], "group": kind,
                "x": positions[node][0], "y": positions[node][1], "value": degree[node],
                "url": href(GRAPH_PAGE, page_of(ctx, node))}
        if kind == "paper":
            item["title"] = _paper_tooltip(data)
            item["year"] = data.get("year")      # its areas: the script takes them from its techniques
        elif kind == "technique":
            item["title"] = (_count_line(kind, papers_of.get(node, 0))
                             + ("\nArea" if data.get("area") else ""))
            item["areas"] = [_area_of(graph, node)]
            if data.get("area"):
                item["area"] = True
        else:
            item["title"] = _count_line(kind, papers_of.get(node, 0))
        net.nodes.append(item)
    net.node_ids = [item["id"] for item in net.nodes]
    net.options = json.loads(json.dumps(OPTIONS))

    author_nodes, author_edges = [], []
    for node in layers["author"]:
        papers = [p for p in graph.successors(node) if p in index]
        number = len(index) + len(author_nodes)
        author_nodes.append({"id": number, "label": graph.nodes[node]["label"], "group": "author",
                             "x": positions[node][0], "y": positions[node][1],
                             "value": len(papers), "title": _count_line("author", len(papers)),
                             "url": href(GRAPH_PAGE, page_of(ctx, node))})
        author_edges += [[number, index[p]] for p in papers]
    return net, {"nodes": author_nodes, "edges": author_edges}


def _json(data) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True) + "\n"


def explorer_page(ctx, net: Network, author_count: int) -> Html:
    nodes, edges, _heading, height, _width, options = net.get_network_data()
    graph = ctx.atlas.graph
    counts = {kind: sum(1 for n in nodes if n["group"] == kind) for kind in DEFAULT_LAYERS}
    counts["author"] = author_count
    areas = [(n.partition(":")[2], d["label"]) for n, d in graph.nodes(data=True)
             if d["type"] == "technique" and d.get("area")]
    years = sorted({n["year"] for n in nodes if n.get("year")})
    return render(
        "graph.html", GRAPH_PAGE, {**EXCLUDED, "hide": ["toc"]},
        counts=counts, text_page=TEXT_PAGE, authors_text_page=AUTHORS_TEXT_PAGE,
        data_url=href(GRAPH_PAGE, EXPLORER_DATA), authors_url=href(GRAPH_PAGE, AUTHORS_DATA),
        node_count=len(nodes), edge_count=len(edges), height=height,
        options=json.dumps(json.loads(options) if isinstance(options, str) else options,
                           separators=(",", ":"), sort_keys=True),
        layers=[{"id": kind, "name": LAYER_NAMES[kind], "count": counts[kind],
                 "on": kind in DEFAULT_LAYERS} for kind in ("paper", "technique", "venue", "author")],
        areas=areas, years=years)


def _node(ctx, node: str, here: str) -> tuple[str, str]:
    """(label, link from ``here``)."""
    return ctx.atlas.graph.nodes[node]["label"], href(here, page_of(ctx, node))


def text_alternative(ctx, layers: dict[str, list[str]]) -> Html:
    """Every node of the default layers and every edge between them, as tables."""
    here = TEXT_PAGE
    graph = ctx.atlas.graph
    techniques = []
    for node in layers["technique"]:
        parent = graph.nodes[node].get("parent")
        techniques.append((_node(ctx, node, here), _node(ctx, parent, here) if parent in graph else None,
                           len(ctx.papers_by_technique.get(node.partition(":")[2], []))))
    venues = [(_node(ctx, node, here), sum(1 for p in graph.predecessors(node) if graph.nodes[p]["type"] == "paper"))
              for node in layers["venue"]]
    papers = []
    for node in layers["paper"]:
        targets = list(graph.successors(node))
        papers.append((_node(ctx, node, here), graph.nodes[node].get("year"),
                       [_node(ctx, v, here) for v in targets if graph.nodes[v]["type"] == "venue"],
                       [_node(ctx, t, here) for t in targets if graph.nodes[t]["type"] == "technique"]))
    return render("graph_nodes.html", TEXT_PAGE, EXCLUDED, graph_page=GRAPH_PAGE,
                  authors_text_page=AUTHORS_TEXT_PAGE, techniques=techniques, venues=venues, papers=papers)


def authors_text(ctx, layers: dict[str, list[str]]) -> Html:
    here = AUTHORS_TEXT_PAGE
    graph = ctx.atlas.graph
    authors = []
    for node in layers["author"]:
        papers = sorted((p for p in graph.successors(node) if graph.nodes[p]["type"] == "paper"),
                        key=lambda p: newest_first(ctx.papers[graph.nodes[p]["slug"]]))
        authors.append((_node(ctx, node, here), [_node(ctx, p, here) for p in papers]))
    return render("graph_authors.html", AUTHORS_TEXT_PAGE, EXCLUDED, graph_page=GRAPH_PAGE, authors=authors)


def render_explorer(ctx) -> dict[str, str]:
    """The explorer page, its two data files and its two text pages, as ``{path: content}``."""
    net, authors = build_network(ctx)
    layers = layer_nodes(ctx)
    return {
        GRAPH_PAGE: explorer_page(ctx, net, len(authors["nodes"])),
        EXPLORER_DATA: _json({"nodes": net.nodes,
                              "edges": [[e["from"], e["to"]] for e in net.edges]}),
        AUTHORS_DATA: _json(authors),
        TEXT_PAGE: text_alternative(ctx, layers),
        AUTHORS_TEXT_PAGE: authors_text(ctx, layers),
    }


def vendor_files() -> dict[str, Path]:
    """vis-network, served by the site itself from the installed pyvis package.

    Not committed and not copied into ``docs/``: the hook adds it as a
    generated file, so it always matches the installed pyvis. Only the
    script: vis-network's 220 KB stylesheet styles its configurator and
    navigation buttons, which the atlas does not use (``atlas-graph.css``
    styles the rest).
    """
    spec = importlib.util.find_spec("pyvis")
    lib = Path(spec.origin).resolve().parent / "templates" / "lib" / "vis-9.1.2"
    return {"assets/vendor/vis-network.min.js": lib / "vis-network.min.js"}
