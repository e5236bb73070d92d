"""Graph views: the 1-hop neighbourhood shown on every entity page.

A page's local graph is its node plus at most ``LOCAL_CAP - 1`` neighbours,
the most relevant first (papers: co-authors' and shared techniques' weight;
others: the newest papers), with a "+N more" note for the rest. The data
travels in a ``data-graph`` attribute (JSON, attribute-escaped) and is drawn
by the one shared, cached script ``assets/atlas-graph.js``; without
JavaScript the list under it is the graph, and it is also the text
alternative for screen readers.
"""

from __future__ import annotations

from .context import AUTHOR, PAPER, TECHNIQUE, VENUE, newest_first
from .markup import json_attr, md_link, rel, rel_url

LOCAL_CAP = 40
TYPE_ORDER = {"paper": 0, "technique": 1, "venue": 2, "author": 3}


def page_of(ctx, node_id: str) -> str:
    kind, _, key = node_id.partition(":")
    return {"paper": PAPER, "author": AUTHOR, "venue": VENUE, "technique": TECHNIQUE}[kind].format(key)


def _rank(ctx, centre: str, neighbour: str) -> tuple:
    data = ctx.atlas.graph.nodes[neighbour]
    if data["type"] == "paper":
        paper = ctx.papers[data["slug"]]
        return (0, *newest_first(paper))
    degree = ctx.atlas.graph.degree(neighbour)
    return (TYPE_ORDER[data["type"]], -degree, data["label"].casefold(), neighbour)


def neighbourhood(ctx, centre: str, cap: int = LOCAL_CAP) -> tuple[list[str], int]:
    graph = ctx.atlas.graph
    neighbours = set(graph.predecessors(centre)) | set(graph.successors(centre))
    ordered = sorted(neighbours, key=lambda n: _rank(ctx, centre, n))
    kept = ordered[: cap - 1]
    return kept, len(ordered) - len(kept)


def local_graph_data(ctx, centre: str, here: str) -> tuple[dict, list[str], int]:
    graph = ctx.atlas.graph
    kept, more = neighbourhood(ctx, centre)
    members = [centre, *kept]
    member_set = set(members)
    nodes = []
    for node in members:
        data = graph.nodes[node]
        nodes.append({"id": node, "label": data["label"], "type": data["type"],
                      "url": rel_url(here, page_of(ctx, node)), "centre": node == centre})
    edges = []
    for node in members:
        for target in graph.successors(node):
            if target in member_set:
                edges.append({"from": node, "to": target, "type": graph.edges[node, target]["type"]})
    return {"nodes": nodes, "edges": edges, "more": more}, kept, more


def local_graph_section(ctx, centre: str, here: str) -> list[str]:
    data, kept, more = local_graph_data(ctx, centre, here)
    if not kept:
        return []
    graph = ctx.atlas.graph
    out = ["## Neighbourhood", "",
           f'<div class="atlas-local-graph" data-graph="{json_attr(data)}" role="img" '
           f'aria-label="Graph of this page and its {len(kept)} nearest neighbours; '
           f'the list below holds the same nodes"></div>', ""]
    by_type: dict[str, list[str]] = {}
    for node in kept:
        by_type.setdefault(graph.nodes[node]["type"], []).append(node)
    for kind in sorted(by_type, key=TYPE_ORDER.get):
        links = [md_link(graph.nodes[n]["label"], rel(here, page_of(ctx, n))) for n in by_type[kind]]
        out.append(f"- **{kind.capitalize()}s:** " + ", ".join(links))
    if more:
        out.append(f"- +{more} more not shown")
    out.append("")
    return out
