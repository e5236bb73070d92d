"""Graph views: the 1-hop neighbourhood shown on every entity page.

A page's local graph is its node plus at most ``LOCAL_CAP - 1`` neighbours,
with a "+N more" note for the rest. "Most relevant" means, in this order:
the techniques and venues it touches (few, and they place the node in the
map), then papers newest first, then authors in byline order (on a paper's
page) or by how many papers they have. A big venue's graph therefore shows
its latest papers, and a paper's graph never drops its venue for its 40th
author.

The data travels in a ``data-graph`` attribute with positions already
computed (``layout.radial_layout``), so the browser does no layout work and
every visit shows the same picture. It is drawn by the one shared, cached
script ``assets/atlas-graph.js``, which loads vis-network only on pages that
have a graph. Without JavaScript the list under it is the graph; it is also
the text alternative that the graph links to.

The ``data-graph`` format (version 1)
-------------------------------------

It is on every entity page (24,000 pages at 5,000 papers), and every byte of
it is written and copied through the theme's template on every build, so it
is compact: positional arrays, no repeated ids::

    {"v": 1, "c": 0, "more": 3,
     "n": [[label, type, title, url, x, y], ...],
     "e": [[from, to, type], ...]}

* ``v``: the format's version (1); the script draws nothing for another one.
* ``c``: the index in ``n`` of the page's own node (the centre), always 0 today.
* ``more``: neighbours left out ("+N more not shown").
* ``n``: the nodes, in rank order. A node's id *is* its index in this list.
  ``label`` is the node's name, verbatim (untrusted: the script only ever
  draws it on the canvas or sets it as ``textContent``); ``type`` is a code
  from ``NODE_CODES`` (``p`` paper, ``t`` technique, ``v`` venue, ``a``
  author); ``title`` is the tooltip's second line ("Paper · MLSys 2023");
  ``url`` is relative to this page, ``""`` for a neighbour whose page is this
  one (an author with no page of their own, on their paper's); ``x``, ``y`` are whole canvas units (the
  radial layout's rings are 150 units apart and the graph is never drawn
  above 1:1, so a tenth of a unit is invisible).
* ``e``: the edges, ``[from, to, type]`` with ``from``/``to`` indexes into
  ``n`` and ``type`` a code from ``EDGE_CODES`` (``a`` authored, ``i``
  published in, ``u`` uses, ``s`` subtopic of). The script draws edges
  without looking at their type; it is there for readers and tests.

The JSON goes in a single-quoted attribute (``data-graph='…'``) through
``html.json_attr``, the one JSON-in-attribute helper, so JSON's many ``"``
need no escaping (each one was ``&quot;``, six bytes, before); only ``&``,
``<``, ``>`` and ``'`` become entities, which ``getAttribute`` decodes before
the script's ``JSON.parse``. Against the earlier ``{"nodes": [{"id": …}],
"edges": [{"from": …}]}`` format this cut the attribute on a paper page from
4.4 KB to 0.9 KB on average (14 KB to 2.8 KB at most) on the seed site, and
from 6.2 KB to 1.3 KB with 1,000 papers.
``docs/assets/atlas-graph.js`` (``drawLocal``) is the reader of this format;
change both together.
"""

from __future__ import annotations


from ..layout import radial_layout
from .context import GRAPH_PAGE, PAPER, TECHNIQUE, VENUE, newest_first
from .html import href, shared_link

LOCAL_CAP = 40
TYPE_ORDER = {"paper": 0, "technique": 1, "venue": 2, "author": 3}
TYPE_NAMES = {"paper": "Paper", "technique": "Technique", "venue": "Venue", "author": "Author"}
LIST_ID = "atlas-neighbours"
GRAPH_FORMAT = 1
# One-letter codes in ``data-graph`` (see the module docstring); atlas-graph.js
# holds the same tables.
NODE_CODES = {"paper": "p", "technique": "t", "venue": "v", "author": "a"}
EDGE_CODES = {"authored": "a", "published_in": "i", "uses": "u", "subtopic_of": "s"}


def paper_counts(ctx) -> dict[str, int]:
    """Papers per technique, venue and author node, counted once per render (kept on ``ctx``)."""
    if ctx.graph_paper_counts is None:
        graph = ctx.atlas.graph
        counts: dict[str, int] = {}
        for node, data in graph.nodes(data=True):
            if data["type"] == "paper":
                for other in (*graph.successors(node), *graph.predecessors(node)):
                    counts[other] = counts.get(other, 0) + 1
        ctx.graph_paper_counts = counts
    return ctx.graph_paper_counts


def page_of(ctx, node_id: str) -> str:
    kind, _, key = node_id.partition(":")
    if kind == "author":
        return ctx.author_page(ctx.author_keys[key])
    return {"paper": PAPER, "venue": VENUE, "technique": TECHNIQUE}[kind].format(key)


class _Memo:
    """What every local graph asks about a node, worked out once per build.

    A node sits in the neighbourhood of all its neighbours (an author's paper
    is on each co-author's page), so its rank key, label, tooltip and links
    were computed tens of times; at 1,000 papers that was half the graph views'
    time. Links depend only on the folder of the page they are on, except the
    link to the page itself (``./``), which is never cached.
    """

    def __init__(self, ctx):
        self.ctx = ctx
        self.rank: dict[str, tuple] = {}
        self.node: dict[str, tuple] = {}
        self.links: dict[tuple, str] = {}

    def node_rank(self, centre: str, neighbour: str) -> tuple:
        key = self.rank.get(neighbour)
        if key is None:
            key = _rank(self.ctx, centre, neighbour)
            if key[0] != 2:                 # authors rank by their place in the centre's byline
                self.rank[neighbour] = key
        return key

    def info(self, node: str) -> tuple:
        """(label, type code, tooltip, page)."""
        found = self.node.get(node)
        if found is None:
            data = self.ctx.atlas.graph.nodes[node]
            found = self.node[node] = (data["label"], NODE_CODES[data["type"]], tooltip(self.ctx, node),
                                       page_of(self.ctx, node))
        return found

    def link(self, how, here: str, page: str) -> str:
        if page == here:
            return how(here, page)
        # A link depends on the folder of ``here`` and on whether ``here``
        # is an index page (its URL is one level up); nothing else.
        folder, _, name = here.rpartition("/")
        key = (how, folder, name == "index.md", page)
        found = self.links.get(key)
        if found is None:
            found = self.links[key] = how(here, page)
        return found


def _memo(ctx) -> _Memo:
    if ctx.graph_memo is None:
        ctx.graph_memo = _Memo(ctx)
    return ctx.graph_memo


def _rank(ctx, centre: str, neighbour: str) -> tuple:
    graph = ctx.atlas.graph
    data = graph.nodes[neighbour]
    kind = data["type"]
    if kind in ("technique", "venue"):
        return (0, TYPE_ORDER[kind], -graph.degree(neighbour), data["label"].casefold(), neighbour)
    if kind == "paper":
        return (1, *newest_first(ctx.papers[data["slug"]]))
    edge = graph.edges.get((neighbour, centre)) or {}
    position = edge.get("position") or 10**9
    return (2, position, -graph.degree(neighbour), data["label"].casefold(), neighbour)


def neighbourhood(ctx, centre: str, cap: int = LOCAL_CAP) -> tuple[list[str], int]:
    graph = ctx.atlas.graph
    neighbours = set(graph.predecessors(centre)) | set(graph.successors(centre))
    memo = _memo(ctx)
    ordered = sorted(neighbours, key=lambda n: memo.node_rank(centre, n))
    kept = ordered[: cap - 1]
    return kept, len(ordered) - len(kept)


def tooltip(ctx, node: str) -> str:
    """The line under a node's name when hovered: what it is and how big it is."""
    graph = ctx.atlas.graph
    data = graph.nodes[node]
    kind = data["type"]
    if kind == "paper":
        where = " ".join(str(part) for part in (data.get("venue"), data.get("year")) if part)
        return "Paper" + (f" · {where}" if where else "")
    count = paper_counts(ctx).get(node, 0)
    return f"{TYPE_NAMES[kind]} · {count} paper{'s' if count != 1 else ''}"


def local_graph_data(ctx, centre: str, here: str) -> tuple[dict, list[str], int]:
    """The ``data-graph`` JSON (format in the module docstring), the neighbours kept, how many not."""
    graph = ctx.atlas.graph
    kept, more = neighbourhood(ctx, centre)
    members = [centre, *kept]
    index = {node: i for i, node in enumerate(members)}
    positions = radial_layout(centre, kept)
    memo = _memo(ctx)
    nodes = []
    for node in members:
        label, code, title, page = memo.info(node)
        x, y = positions[node]
        url = "" if page == here and node != centre else memo.link(href, here, page)
        nodes.append([label, code, title, url, round(x), round(y)])
    edges = []
    for node in members:
        for target in graph.successors(node):
            if target in index:
                edges.append([index[node], index[target], EDGE_CODES[graph.edges[node, target]["type"]]])
    return {"v": GRAPH_FORMAT, "c": index[centre], "more": more, "n": nodes, "e": edges}, kept, more


def local_graph(ctx, centre: str, here: str) -> dict | None:
    """What ``_macros.html``'s ``neighbourhood`` draws: the ``data-graph`` data, the
    neighbours as a list by type (the graph's text alternative) and how many
    were left out; ``None`` for a node without neighbours."""
    data, kept, more = local_graph_data(ctx, centre, here)
    if not kept:
        return None
    graph = ctx.atlas.graph
    by_type: dict[str, list[str]] = {}
    for node in kept:
        by_type.setdefault(graph.nodes[node]["type"], []).append(node)
    memo = _memo(ctx)
    groups = [(f"{kind.capitalize()}s", [shared_link(ctx.links, here, memo.info(n)[3], memo.info(n)[0])
                                         for n in by_type[kind]])
              for kind in sorted(by_type, key=TYPE_ORDER.get)]
    return {"data": data, "more": more, "groups": groups, "page": GRAPH_PAGE,
            "shown": f"its {len(kept)} nearest neighbours" + (f" (+{more} more not shown)" if more else "")}
