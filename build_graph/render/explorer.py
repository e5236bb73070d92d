"""The global graph explorer (``graph/index.md``) and its text alternative.

The explorer is built with pyvis: nodes and edges go into a
``pyvis.network.Network`` (filled as plain lists, because ``add_edge``
scans every edge and is quadratic), the vis-network options are set on it
with physics off, and its data is rendered with our own Jinja template
(``build_graph/templates/explorer.html``). pyvis's stock template is not used
because it pulls Bootstrap and vis-network from CDNs in every mode and turns a
tooltip into ``innerHTML`` as soon as its text contains ``href``.

What goes where, and why:

* ``graph/index.md`` holds only the controls and an empty canvas (a few KB),
  so the page stays small and out of the search index;
* ``assets/graph/explorer.json`` holds the default layers (papers, techniques,
  venues) with positions from ``layout.global_layout``; the shared script
  fetches it, so the browser does no layout work;
* ``assets/graph/authors.json`` holds the author layer and is fetched only
  when the reader switches that layer on;
* ``graph/nodes.md`` and ``graph/authors.md`` list the same nodes and edges as
  tables with links: the text alternative for screen readers and for readers
  without JavaScript.

Node ids in the JSON are integers (an index into the node list) and edges are
``[from, to]`` pairs: at 5,000 papers this halves the download.
"""

from __future__ import annotations

import importlib.util
import json
import sys
import types
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from jinja2 import Environment, FileSystemLoader, StrictUndefined

from ..layout import global_layout
from .context import GRAPH_PAGE, newest_first
from .graphview import TYPE_NAMES, page_of, paper_counts, rel_link
from .markup import html_text, rel

if TYPE_CHECKING:
    from pyvis.network import Network

EXPLORER_DATA = "assets/graph/explorer.json"
AUTHORS_DATA = "assets/graph/authors.json"
TEXT_PAGE = "graph/nodes.md"
AUTHORS_TEXT_PAGE = "graph/authors.md"
DEFAULT_LAYERS = ("paper", "technique", "venue")
LAYER_NAMES = {"paper": "Papers", "technique": "Techniques", "venue": "Venues", "author": "Authors"}
TEMPLATES = Path(__file__).resolve().parent.parent / "templates"
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


@lru_cache(maxsize=1)
def _templates() -> Environment:
    return Environment(loader=FileSystemLoader(str(TEMPLATES)), autoescape=True,
                       undefined=StrictUndefined, keep_trailing_newline=False)


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


def pyvis_network() -> type:
    """``pyvis.network.Network``, imported without importing IPython.

    pyvis imports ``IPython.display.IFrame`` at module level, for showing a
    graph in a notebook (``Network.show``), which the atlas never does; that
    import alone is 0.3 s of every build, a tenth of the seed site's. Unless
    IPython is already loaded, a stand-in ``IFrame`` (which refuses to be
    used) serves pyvis's import, and the stand-in modules are taken out of
    ``sys.modules`` right after, so a later ``import IPython`` gets the real one.
    """
    if "pyvis.network" in sys.modules or "IPython" in sys.modules:
        from pyvis.network import Network
        return Network

    class IFrame:
        def __init__(self, *args, **kwargs):
            raise RuntimeError("MLSys Atlas imported pyvis without IPython: no notebook display")

    display = types.ModuleType("IPython.display")
    display.IFrame = IFrame
    ipython = types.ModuleType("IPython")
    ipython.display = display
    stand_ins = {"IPython": ipython, "IPython.display": display}
    sys.modules.update(stand_ins)
    try:
        from pyvis.network import Network
    finally:
        for name, module in stand_ins.items():
            if sys.modules.get(name) is module:
                del sys.modules[name]
    return Network


def build_network(ctx) -> tuple[Network, dict]:
    """The pyvis network of the default layers, plus the author layer as plain data."""
    Network = pyvis_network()
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
                "url": rel_link(GRAPH_PAGE, page_of(ctx, node))}
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
                             "url": rel_link(GRAPH_PAGE, page_of(ctx, node))})
        author_edges += [[number, index[p]] for p in papers]
    return net, {"nodes": author_nodes, "edges": author_edges}


def _json(data) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True) + "\n"


def explorer_page(ctx, net: Network, author_count: int) -> str:
    nodes, edges, _heading, height, _width, options = net.get_network_data()
    graph = ctx.atlas.graph
    counts = {kind: sum(1 for n in nodes if n["group"] == kind) for kind in DEFAULT_LAYERS}
    counts["author"] = author_count
    areas = [(n.partition(":")[2], d["label"]) for n, d in graph.nodes(data=True)
             if d["type"] == "technique" and d.get("area")]
    years = sorted({n["year"] for n in nodes if n.get("year")})
    fragment = _templates().get_template("explorer.html").render(
        data_url=rel_link(GRAPH_PAGE, EXPLORER_DATA), authors_url=rel_link(GRAPH_PAGE, AUTHORS_DATA),
        node_count=len(nodes), edge_count=len(edges), height=height,
        options=json.dumps(json.loads(options) if isinstance(options, str) else options,
                           separators=(",", ":"), sort_keys=True),
        layers=[{"id": kind, "name": LAYER_NAMES[kind], "count": counts[kind],
                 "on": kind in DEFAULT_LAYERS} for kind in ("paper", "technique", "venue", "author")],
        areas=areas, years=years)
    text = rel(GRAPH_PAGE, TEXT_PAGE)
    out = ["---", "search:", "  exclude: true", "hide:", "  - toc", "---", "",
           "# Knowledge graph", "",
           f"{counts['paper']} papers, {counts['technique']} techniques and {counts['venue']} venues; "
           f"switch on the {author_count} authors as an extra layer. Nodes are sized by their "
           "number of connections. Hover a node for details, click it to open its page, "
           "zoom in to read titles.", "",
           f"Text version: [every node and edge as tables]({text}) · "
           f"[the author layer]({rel(GRAPH_PAGE, AUTHORS_TEXT_PAGE)}).",
           "{: #atlas-graph-alt }", "",
           fragment.strip(), ""]
    return "\n".join(out)


def _cell_link(here: str, ctx, node: str) -> str:
    return f'<a href="{rel_link(here, page_of(ctx, node))}">{html_text(ctx.atlas.graph.nodes[node]["label"])}</a>'


def text_alternative(ctx, layers: dict[str, list[str]]) -> str:
    """Every node of the default layers and every edge between them, as tables.

    Raw HTML tables (like the papers index): thousands of Markdown links would
    make this page the slowest of the build, and every target is a page we made.
    """
    here = TEXT_PAGE
    graph = ctx.atlas.graph
    out = ["---", "search:", "  exclude: true", "---", "", "# Knowledge graph as text", "",
           f"The same nodes and edges as the [graph explorer]({rel(here, GRAPH_PAGE)}), one row per "
           "node; the links in a row are its edges. Authors are listed on "
           f"[their own page]({rel(here, AUTHORS_TEXT_PAGE)}).", "",
           f"- [Techniques](#techniques) ({len(layers['technique'])})",
           f"- [Venues](#venues) ({len(layers['venue'])})",
           f"- [Papers](#papers) ({len(layers['paper'])})", "",
           "## Techniques", "",
           '<table class="atlas-table"><thead><tr><th>Technique</th><th>Part of</th><th>Papers</th>'
           "</tr></thead><tbody>"]
    for node in layers["technique"]:
        parent = graph.nodes[node].get("parent")
        count = len(ctx.papers_by_technique.get(node.partition(":")[2], []))
        out.append(f"<tr><td>{_cell_link(here, ctx, node)}</td>"
                   f"<td>{_cell_link(here, ctx, parent) if parent in graph else ''}</td>"
                   f"<td>{count}</td></tr>")
    out += ["</tbody></table>", "", "## Venues", "",
            '<table class="atlas-table"><thead><tr><th>Venue</th><th>Papers</th></tr></thead><tbody>']
    for node in layers["venue"]:
        count = sum(1 for p in graph.predecessors(node) if graph.nodes[p]["type"] == "paper")
        out.append(f"<tr><td>{_cell_link(here, ctx, node)}</td><td>{count}</td></tr>")
    out += ["</tbody></table>", "", "## Papers", "",
            '<table class="atlas-table"><thead><tr><th>Paper</th><th>Year</th><th>Venue</th>'
            "<th>Techniques</th></tr></thead><tbody>"]
    for node in layers["paper"]:
        data = graph.nodes[node]
        venues = [v for v in graph.successors(node) if graph.nodes[v]["type"] == "venue"]
        techniques = [t for t in graph.successors(node) if graph.nodes[t]["type"] == "technique"]
        out.append(f"<tr><td>{_cell_link(here, ctx, node)}</td><td>{data.get('year') or ''}</td>"
                   f"<td>{', '.join(_cell_link(here, ctx, v) for v in venues)}</td>"
                   f"<td>{', '.join(_cell_link(here, ctx, t) for t in techniques)}</td></tr>")
    out += ["</tbody></table>", ""]
    return "\n".join(out)


def authors_text(ctx, layers: dict[str, list[str]]) -> str:
    here = AUTHORS_TEXT_PAGE
    graph = ctx.atlas.graph
    out = ["---", "search:", "  exclude: true", "---", "", "# Author layer as text", "",
           f"The author layer of the [graph explorer]({rel(here, GRAPH_PAGE)}): "
           f"{len(layers['author'])} authors, each with the papers they wrote (its edges).", "",
           '<table class="atlas-table"><thead><tr><th>Author</th><th>Papers</th></tr></thead><tbody>']
    for node in layers["author"]:
        papers = sorted((p for p in graph.successors(node) if graph.nodes[p]["type"] == "paper"),
                        key=lambda p: newest_first(ctx.papers[graph.nodes[p]["slug"]]))
        out.append(f"<tr><td>{_cell_link(here, ctx, node)}</td>"
                   f"<td>{'<br>'.join(_cell_link(here, ctx, p) for p in papers)}</td></tr>")
    out += ["</tbody></table>", ""]
    return "\n".join(out)


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
    spec = importlib.util.find_spec("pyvis")      # its location, without importing IPython
    lib = Path(spec.origin).resolve().parent / "templates" / "lib" / "vis-9.1.2"
    return {"assets/vendor/vis-network.min.js": lib / "vis-network.min.js"}
