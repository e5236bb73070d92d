"""The global graph explorer (``graph/index.md``): a map of the field, papers on demand.

Drawing every paper does not work past a few hundred: at 4,300 papers the
explorer was one dense blob of 4,500 nodes with labels printed over one
another, and nobody could name the field's areas from it. So the explorer
opens on a *map* and brings papers in only where the reader asks:

* **The map** (``assets/graph/explorer.json``, fetched by the page): the
  areas, techniques and venues that have papers, at most ``MAP_CAP`` of them
  (the biggest; areas first), sized by paper count. An edge joins two map
  nodes that share papers, weighted by how many, and only the
  ``LINKS_PER_NODE`` strongest of each node are kept, so the structure shows
  instead of a hairball. Positions come from ``layout.anchor_layout``
  (computed in Python, deterministic, cached by the graph's structure).
* **Clusters** (``assets/graph/t/<technique>/<n>.json``,
  ``assets/graph/v/<venue>/<n>.json``): a map node's papers, newest first,
  ``CHUNK`` per file, each with its position on a spiral around the node, its
  links to other map nodes and its authors. The script fetches chunk 1 when
  the node is clicked and the next one when the "+N more" node is; nothing
  else is ever loaded for drawing, so the first load stays small at any atlas
  size.
* **The search index** (``assets/graph/search.json``): every paper's title
  with the cluster and chunk that hold it, fetched on the first search only.
  Finding a paper that is not drawn loads its cluster, centres on it and
  selects it.
* **The text alternative**: ``graph/nodes.md`` is the map as a table (each
  node, its paper count and its strongest links) and each map node's papers
  are listed on pages of ``CHUNK`` rows (``graph/t/<technique>/``, then
  ``.../2/``…), the same chunks as the data files.

pyvis is still the builder of what is drawn at first: the map's nodes, edges
and options go into a ``pyvis.network.Network`` (filled as plain lists,
because ``add_edge`` scans every edge) and the page's script hands them to
vis-network. pyvis's stock template is not used because it pulls Bootstrap
and vis-network from CDNs and turns a tooltip into ``innerHTML`` as soon as
its text contains ``href``.

The formats (``atlas-graph.js`` is their reader; change both together):

``explorer.json``::

    {"v": 3, "chunk": 200,
     "nodes": [{"id": 0, "label", "group": "technique"|"venue", "area": true?,
                "value": papers, "x", "y", "url", "title", "areas": [area ids],
                "years": [[year, papers], ...], "src": "t/<key>", "parts": chunks}],
     "edges": [[from, to, shared papers], ...]}

A map node's id is its index in ``nodes``; ``url`` and every other link in
every file are relative to the explorer page.

``t/<key>/<n>.json`` (chunk ``n`` of a cluster, from 1)::

    {"v": 3, "node": map id, "part": n, "parts": chunks, "total": papers,
     "papers": [[slug, title, year, url, tooltip, x, y, [map ids], [author indexes]], ...],
     "authors": [[slug, name, own page], ...], "author_pages": "../authors/"}

A person with a page of their own (``own page`` 1) is at ``author_pages`` +
slug + ``/``; any other (0) is described on their one paper's page, the
``url`` of the row that names them (render/context.py: ``author_page``).
Spelling that out per person doubled the chunks' size.

``search.json``: ``{"v": 3, "papers": [[title, map id or -1, chunk, url], ...]}``
(-1: the paper has no map node; the script then offers its page).
"""

from __future__ import annotations

import importlib.util
import json
import math
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from pyvis.network import Network

from ..layout import anchor_layout, spiral
from .context import AUTHORS_INDEX, GRAPH_PAGE, newest_first
from .graphview import page_of, tooltip
from .html import EXCLUDED, TEMPLATES, Html, href, render

EXPLORER_DATA = "assets/graph/explorer.json"
SEARCH_DATA = "assets/graph/search.json"
TEXT_PAGE = "graph/nodes.md"
FORMAT = 3
AUTHOR_PAGES = href(GRAPH_PAGE, AUTHORS_INDEX)     # where people's own pages are, from the explorer
MAP_CAP = 400          # nodes drawn in the default view, whatever the atlas size
LINKS_PER_NODE = 4     # strongest links kept per map node
CHUNK = 200            # papers per cluster file and per text page
AUTHORS_IN_LIST = 3    # authors named per paper on the text pages
FOLDERS = {"technique": "t", "venue": "v"}
KIND_NAMES = {"technique": "Technique", "venue": "Venue"}

# vis-network options, handed to the browser as they are. Physics is off and
# there is no toggle for it: the layout comes from Python. Edges and labels
# are drawn by atlas-graph.js itself (see there).
OPTIONS = {
    "autoResize": True,
    "physics": {"enabled": False, "stabilization": {"enabled": False}},
    "layout": {"improvedLayout": False, "randomSeed": 1},
    "interaction": {"hover": True, "tooltipDelay": 100, "navigationButtons": False,
                    "multiselect": False, "keyboard": {"enabled": True, "bindToWindow": False}},
    "nodes": {"borderWidth": 1, "scaling": {"min": 6, "max": 48}},
}


@dataclass
class MapNode:
    """One node of the map: a technique (or area) or a venue, and its papers, newest first."""
    node: str
    kind: str
    papers: list = field(default_factory=list)
    area: str = ""
    is_area: bool = False

    @property
    def key(self) -> str:
        return self.node.partition(":")[2]

    @property
    def parts(self) -> int:
        return max(1, math.ceil(len(self.papers) / CHUNK))

    def data_file(self, part: int) -> str:
        return f"assets/graph/{FOLDERS[self.kind]}/{self.key}/{part}.json"

    def text_page(self, part: int) -> str:
        folder = f"graph/{FOLDERS[self.kind]}/{self.key}"
        return f"{folder}/index.md" if part == 1 else f"{folder}/{part}.md"


def _area_of(ctx, tid: str) -> str:
    """The top of a technique's chain of parents (itself for an area)."""
    return ctx.taxonomy.area_of(tid) if tid in ctx.taxonomy.techniques else tid


def _venue_node(ctx, key: str | None) -> str:
    return f"venue:{ctx.venues[key].slug}" if key in ctx.venues else ""


def map_nodes(ctx) -> list[MapNode]:
    """The map: at most ``MAP_CAP`` techniques, areas and venues with papers, biggest first.

    A technique counts its own papers; an area counts every paper below it,
    so it is the biggest node of its part of the map and is never dropped
    before its techniques."""
    graph = ctx.atlas.graph
    members: dict[str, set[str]] = defaultdict(set)
    for tid, papers in ctx.papers_by_technique.items():
        slugs = {p.slug for p in papers}
        members[tid] |= slugs
        for above in ctx.taxonomy.ancestors(tid):
            if graph.nodes.get(f"technique:{above}", {}).get("area"):
                members[above] |= slugs
    candidates = []
    for tid, slugs in members.items():
        node = f"technique:{tid}"
        if node not in graph or not slugs:
            continue
        papers = sorted((ctx.papers[s] for s in slugs), key=newest_first)
        candidates.append(MapNode(node, "technique", papers, _area_of(ctx, tid),
                                  bool(graph.nodes[node].get("area"))))
    for venue, papers in ctx.papers_by_venue.items():
        node = _venue_node(ctx, venue)
        if node in graph and papers:
            candidates.append(MapNode(node, "venue", list(papers)))
    candidates.sort(key=lambda m: (not m.is_area, -len(m.papers), m.node))
    return candidates[:MAP_CAP]


def strongest_links(chosen: list[MapNode]) -> list[tuple[int, int, int]]:
    """``(a, b, shared papers)`` for each node's ``LINKS_PER_NODE`` strongest partners.

    Venue–venue pairs share no papers; an area and its own techniques are
    not linked (see below)."""
    holders: dict[str, list[int]] = defaultdict(list)
    for index, item in enumerate(chosen):
        for paper in item.papers:
            holders[paper.slug].append(index)
    own_area = {i: next((j for j, other in enumerate(chosen) if other.is_area and other.key == item.area), -1)
                for i, item in enumerate(chosen) if item.kind == "technique" and not item.is_area}
    shared: dict[tuple[int, int], int] = defaultdict(int)
    for group in holders.values():
        for i, a in enumerate(group):
            for b in group[i + 1:]:
                # An area holds all its techniques' papers: that link says
                # nothing (the layout already puts them together) and would
                # be every technique's strongest, drowning the real ones.
                if own_area.get(b) != a and own_area.get(a) != b:
                    shared[(a, b)] += 1
    best: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for (a, b), count in shared.items():
        best[a].append((-count, b))
        best[b].append((-count, a))
    kept: set[tuple[int, int]] = set()
    for a, partners in best.items():
        for _, b in sorted(partners)[:LINKS_PER_NODE]:
            kept.add((min(a, b), max(a, b)))
    return [(a, b, shared[(a, b)]) for a, b in sorted(kept)]


def _years(papers) -> list[list[int]]:
    counts: dict[int, int] = defaultdict(int)
    for paper in papers:
        if paper.year:
            counts[paper.year] += 1
    return [[year, counts[year]] for year in sorted(counts)]


def _count_title(item: MapNode) -> str:
    count = len(item.papers)
    name = "Area" if item.is_area else KIND_NAMES[item.kind]
    return f"{name} · {count} paper{'s' if count != 1 else ''}"


def build_network(ctx, chosen: list[MapNode], links) -> Network:
    """The map as a pyvis network: what the browser draws first."""
    positions = anchor_layout(ctx.atlas.graph, ctx.atlas.caches)
    graph = ctx.atlas.graph
    areas_of_venue: dict[int, set[str]] = defaultdict(set)
    technique_area = {m.key: m.area for m in chosen if m.kind == "technique"}
    for index, item in enumerate(chosen):
        if item.kind == "venue":
            for paper in item.papers:
                areas_of_venue[index].update(technique_area.get(t.technique) or _area_of(ctx, t.technique)
                                             for t in paper.techniques)
    net = Network(height="72vh", width="100%", directed=False, cdn_resources="local")
    for index, item in enumerate(chosen):
        x, y = positions[item.node]
        entry = {"id": index, "label": graph.nodes[item.node]["label"], "group": item.kind,
                 "value": len(item.papers), "x": x, "y": y, "title": _count_title(item),
                 "url": href(GRAPH_PAGE, page_of(ctx, item.node)),
                 "areas": [item.area] if item.kind == "technique" else sorted(areas_of_venue[index]),
                 "years": _years(item.papers), "src": f"{FOLDERS[item.kind]}/{item.key}",
                 "parts": item.parts}
        if item.is_area:
            entry["area"] = True
        net.nodes.append(entry)
    net.node_ids = [n["id"] for n in net.nodes]
    net.edges = [{"from": a, "to": b, "value": w} for a, b, w in links]
    net.options = json.loads(json.dumps(OPTIONS))
    return net


def _json(data) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True) + "\n"


def _phase(key: str) -> float:
    """A fixed turn per cluster, so two neighbouring clusters' spirals do not line up."""
    return (sum(key.encode("utf-8")) * 0.618034) % 1 * 2 * math.pi


def cluster_files(ctx, chosen: list[MapNode], positions) -> dict[str, str]:
    """Every map node's papers as chunks of ``CHUNK``, positioned on a spiral around it."""
    index = {item.node: i for i, item in enumerate(chosen)}
    files = {}
    same: dict[str, tuple] = {}         # a paper's URL, tooltip and map links, the same in every chunk
    for number, item in enumerate(chosen):
        centre = positions[item.node]
        # Clear of the node itself, whose drawn size grows with its paper count.
        first = 40.0 + 6.0 * math.sqrt(len(item.papers))
        points = spiral(centre, len(item.papers), first=first, phase=_phase(item.key))
        for part in range(1, item.parts + 1):
            rows, authors, author_index = [], [], {}
            start = (part - 1) * CHUNK
            for offset, paper in enumerate(item.papers[start:start + CHUNK]):
                facts = same.get(paper.slug)
                if facts is None:               # a paper is listed under about six map nodes
                    links = sorted({index[t] for t in (f"technique:{tag.technique}" for tag in paper.techniques)
                                    if t in index} | ({index[_venue_node(ctx, paper.venue)]}
                                                      if _venue_node(ctx, paper.venue) in index else set()))
                    facts = same[paper.slug] = (href(GRAPH_PAGE, page_of(ctx, paper.node_id)),
                                                tooltip(ctx, paper.node_id), links)
                url, tip, links = facts
                mine = []
                for author in dict.fromkeys(paper.authors):
                    if author not in author_index:
                        author_index[author] = len(authors)
                        person = ctx.authors[author]
                        authors.append([person.slug, person.name, int(ctx.has_own_page(author))])
                    mine.append(author_index[author])
                x, y = points[start + offset]
                rows.append([paper.slug, paper.label, paper.year, url, tip, x, y, links, mine])
            files[item.data_file(part)] = _json({"v": FORMAT, "node": number, "part": part, "parts": item.parts,
                                                 "total": len(item.papers), "papers": rows, "authors": authors,
                                                 "author_pages": AUTHOR_PAGES})
    return files


def home_cluster(slug: str, places: dict[int, dict[str, int]], chosen: list[MapNode]) -> int:
    """The map node a search result opens: the paper's most specific technique on
    the map (fewest papers), else its area, else its venue; -1 when none is on it."""
    options = [i for i, members in places.items() if slug in members]
    if not options:
        return -1
    return min(options, key=lambda i: (chosen[i].kind != "technique", chosen[i].is_area,
                                       len(chosen[i].papers), i))


def search_index(ctx, chosen: list[MapNode]) -> str:
    """Every paper, found by title: the map node and chunk whose file holds it."""
    places = {i: {p.slug: n for n, p in enumerate(item.papers)} for i, item in enumerate(chosen)}
    holders: dict[str, dict[int, dict[str, int]]] = defaultdict(dict)
    for i, members in places.items():
        for slug in members:
            holders[slug][i] = members
    rows = []
    for paper in sorted(ctx.corpus.papers, key=newest_first):
        home = home_cluster(paper.slug, holders[paper.slug], chosen)
        part = places[home][paper.slug] // CHUNK + 1 if home >= 0 else 0
        rows.append([paper.label, home, part, href(GRAPH_PAGE, page_of(ctx, paper.node_id))])
    return _json({"v": FORMAT, "papers": rows})


def explorer_page(ctx, net: Network, chosen: list[MapNode]) -> Html:
    nodes, edges, _heading, height, _width, options = net.get_network_data()
    counts = {"technique": sum(1 for m in chosen if m.kind == "technique" and not m.is_area),
              "area": sum(1 for m in chosen if m.is_area),
              "venue": sum(1 for m in chosen if m.kind == "venue"),
              "paper": len(ctx.corpus.papers)}
    graph = ctx.atlas.graph
    areas = sorted(((m.key, graph.nodes[m.node]["label"]) for m in chosen if m.is_area),
                   key=lambda pair: (pair[1].casefold(), pair[0]))
    years = sorted({p.year for p in ctx.corpus.papers if p.year})
    return render(
        "graph.html", GRAPH_PAGE, {**EXCLUDED, "hide": ["toc"]},
        counts=counts, text_page=TEXT_PAGE, cap=MAP_CAP, chunk=CHUNK,
        data_url=href(GRAPH_PAGE, EXPLORER_DATA), search_url=href(GRAPH_PAGE, SEARCH_DATA),
        node_count=len(nodes), edge_count=len(edges), height=height,
        options=json.dumps(json.loads(options) if isinstance(options, str) else options,
                           separators=(",", ":"), sort_keys=True),
        areas=areas, years=years)


def text_alternative(ctx, chosen: list[MapNode], links) -> Html:
    """The map as a table: each node, its papers (a link to their pages) and its strongest links."""
    graph = ctx.atlas.graph
    here = TEXT_PAGE
    partners: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for a, b, w in links:
        partners[a].append((-w, b))
        partners[b].append((-w, a))
    labels = {i: graph.nodes[m.node]["label"] for i, m in enumerate(chosen)}
    area_label = {m.key: labels[i] for i, m in enumerate(chosen) if m.is_area}
    rows = []
    for i, item in enumerate(chosen):
        strongest = [(labels[b], href(here, chosen[b].text_page(1)), -w)
                     for w, b in sorted(partners[i])[:LINKS_PER_NODE]]
        rows.append({"label": labels[i], "page": href(here, page_of(ctx, item.node)),
                     "kind": "Area" if item.is_area else KIND_NAMES[item.kind],
                     "area": area_label.get(item.area, "") if item.kind == "technique" and not item.is_area else "",
                     "count": len(item.papers), "papers": href(here, item.text_page(1)), "links": strongest})
    total_anchors = sum(1 for _, kind in graph.nodes(data="type") if kind in ("technique", "venue"))
    return render("graph_nodes.html", TEXT_PAGE, EXCLUDED, graph_page=GRAPH_PAGE, rows=rows,
                  left_out=total_anchors - len(chosen), cap=MAP_CAP, paper_count=len(ctx.corpus.papers))


def cluster_pages(ctx, chosen: list[MapNode]) -> dict[str, Html]:
    """Each map node's papers, ``CHUNK`` per page: the text form of the cluster files."""
    graph = ctx.atlas.graph
    index = {item.node: i for i, item in enumerate(chosen)}
    pages = {}
    for item in chosen:
        label = graph.nodes[item.node]["label"]
        for part in range(1, item.parts + 1):
            here = item.text_page(part)
            rows = []
            for paper in item.papers[(part - 1) * CHUNK:part * CHUNK]:
                # Authors, venue and the paper's other map nodes are named, not linked:
                # the row links the paper, whose page links them all, and the map's
                # table (graph/nodes/) links every node. Those links were half of
                # these pages' bytes, and the pages 6.6 KB per paper at 20,000 papers.
                authors = [ctx.authors[a].name for a in list(dict.fromkeys(paper.authors))[:AUTHORS_IN_LIST]]
                others = [graph.nodes[n]["label"]
                          for n in dict.fromkeys(f"technique:{t.technique}" for t in paper.techniques)
                          if n in index and n != item.node]
                venue = _venue_node(ctx, paper.venue)
                rows.append({"title": paper.label, "page": href(here, page_of(ctx, paper.node_id)),
                             "year": paper.year or "", "authors": authors,
                             "more_authors": len(dict.fromkeys(paper.authors)) - len(authors),
                             "venue": graph.nodes[venue]["label"] if venue in graph else None,
                             "others": others})
            pages[here] = render(
                "graph_cluster.html", here, EXCLUDED, label=label, rows=rows, part=part, parts=item.parts,
                total=len(item.papers), first=(part - 1) * CHUNK + 1, kind=_count_title(item).split(" ·")[0],
                node_page=href(here, page_of(ctx, item.node)), text_page=href(here, TEXT_PAGE),
                previous=href(here, item.text_page(part - 1)) if part > 1 else None,
                next=href(here, item.text_page(part + 1)) if part < item.parts else None)
    return pages


def explorer_map(ctx) -> tuple[list[MapNode], list[tuple[int, int, int]]]:
    """The map's nodes and strongest links, worked out once per build (the home
    page's thumbnail draws the same map)."""
    if ctx.explorer_map is None:
        chosen = map_nodes(ctx)
        ctx.explorer_map = (chosen, strongest_links(chosen))
    return ctx.explorer_map


def render_explorer(ctx) -> dict[str, str]:
    """The explorer page, the map, cluster and search data, and the text pages, as ``{path: content}``."""
    chosen, links = explorer_map(ctx)
    net = build_network(ctx, chosen, links)
    out: dict[str, str] = {
        GRAPH_PAGE: explorer_page(ctx, net, chosen),
        EXPLORER_DATA: _json({"v": FORMAT, "chunk": CHUNK, "nodes": net.nodes,
                              "edges": [[e["from"], e["to"], e["value"]] for e in net.edges]}),
        SEARCH_DATA: search_index(ctx, chosen),
        TEXT_PAGE: text_alternative(ctx, chosen, links),
    }
    out.update(cluster_files(ctx, chosen, anchor_layout(ctx.atlas.graph, ctx.atlas.caches)))
    out.update(cluster_pages(ctx, chosen))
    return out


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


__all__ = ["CHUNK", "EXPLORER_DATA", "GRAPH_PAGE", "MAP_CAP", "SEARCH_DATA", "TEMPLATES", "TEXT_PAGE",
           "build_network", "map_nodes", "render_explorer", "strongest_links", "vendor_files"]
