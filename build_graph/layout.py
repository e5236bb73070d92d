"""Node positions for the graph views, computed once in Python and shipped with the site.

Why not let the browser lay the graph out: a force simulation over thousands
of papers freezes the page for seconds and gives a different picture on every
visit. Why not ``spring_layout`` over every node: it is quadratic, and the
site must build in seconds at 10,000 papers on two cores.

So the layout has two tiers:

1. the *anchors* (techniques and venues, a few hundred at most) that have
   papers, with the taxonomy above them, are laid out with
   ``nx.spring_layout`` on a small weighted graph: taxonomy edges plus how
   many papers two anchors share (log-damped, so one big venue does not pull
   everything into one point). Techniques without papers go on a ring around
   their parent, and a last pass pushes apart anchors that ended up too close;
2. every paper sits at the centroid of its anchors, and every author at the
   centroid of their papers. Nodes that share a centroid are spread on a
   sunflower (Vogel) spiral, in an order taken from a hash of their ids, so
   they never stack and the order does not depend on input order, ``random``
   or ``PYTHONHASHSEED``.

This is linear in papers + authors after the small anchor layout. Coordinates
are rounded to 0.1 px so output is byte-identical across runs, input orders
and hash seeds (and last-bit float differences between machines vanish).
Results are cached by a hash of the graph's structure, so ``mkdocs serve``
does not lay out an unchanged graph again.
"""

from __future__ import annotations

import hashlib
import math
from collections import defaultdict

import networkx as nx
import numpy as np

Position = tuple[float, float]

SEED = 20240501
ANCHOR_TYPES = ("technique", "venue")
GOLDEN_ANGLE = math.pi * (3 - math.sqrt(5))
ANCHOR_SPACING = 260.0     # px between neighbouring anchors, at least
PAPER_RING = (64.0, 26.0)  # (first radius, clear of a big anchor node; spiral step)
AUTHOR_RING = (18.0, 12.0)
LEAN = 0.35                # how far a paper leans from its main anchor to its centroid


def _digest(text: str) -> int:
    return int.from_bytes(hashlib.sha1(text.encode("utf-8")).digest()[:8], "big")


def _round(value: float) -> float:
    value = round(value, 1)
    return 0.0 if value == 0 else value     # no "-0.0" in the output


def structure_key(graph: nx.DiGraph) -> str:
    """A hash of what the layout depends on: node ids and types, edges and their field."""
    digest = hashlib.sha256()
    for node in sorted(graph.nodes):
        digest.update(f"{node}\t{graph.nodes[node].get('type')}\n".encode("utf-8"))
    for u, v in sorted(graph.edges):
        digest.update(f"{u}\t{v}\t{graph.edges[u, v].get('field') or ''}\n".encode("utf-8"))
    return digest.hexdigest()


def _anchor_positions(graph: nx.DiGraph, anchors: list[str],
                      paper_anchors: dict[str, list[str]]) -> dict[str, Position]:
    if not anchors:
        return {}
    anchor_set = set(anchors)
    parent: dict[str, str] = {}
    for u in anchors:
        for v in sorted(graph.successors(u)):
            if v in anchor_set and graph.edges[u, v].get("type") == "subtopic_of":
                parent[u] = v
                break
    # Only anchors with papers (and the taxonomy above them) take part in the
    # force layout; the rest of the taxonomy would otherwise spread into a
    # huge sparse halo and squeeze every paper into a blob in the middle.
    active = {a for members in paper_anchors.values() for a in members}
    for node in list(active):
        seen = set()
        while node in parent and node not in seen:
            seen.add(node)
            node = parent[node]
            active.add(node)
    active_list = [a for a in anchors if a in active] or list(anchors)
    spacing = max(ANCHOR_SPACING,
                  2.7 * PAPER_RING[1] * math.sqrt(len(paper_anchors) / len(active_list)))
    positions = _force_layout(active_list, parent, paper_anchors, spacing)
    _place_around_parents([a for a in anchors if a not in positions], parent, positions, spacing)
    points = _separate(np.array([positions[node] for node in anchors], dtype=float), spacing * 0.55)
    return {node: (float(x), float(y)) for node, (x, y) in zip(anchors, points)}


def _force_layout(anchors: list[str], parent: dict[str, str],
                  paper_anchors: dict[str, list[str]], spacing: float) -> dict[str, Position]:
    """``spring_layout`` on a small graph: taxonomy edges plus papers shared (log-damped)."""
    if len(anchors) == 1:
        return {anchors[0]: (0.0, 0.0)}
    members = set(anchors)
    shared: dict[tuple[str, str], int] = defaultdict(int)
    for group in paper_anchors.values():
        for i, a in enumerate(group):
            for b in group[i + 1:]:
                shared[(a, b) if a < b else (b, a)] += 1
    small = nx.Graph()
    small.add_nodes_from(anchors)        # sorted: spring_layout's result depends on node order
    for child in anchors:
        if parent.get(child) in members:
            small.add_edge(child, parent[child], weight=3.0)
    for (a, b), count in sorted(shared.items()):
        if a not in members or b not in members:
            continue
        weight = 1.0 + math.log1p(count)
        if small.has_edge(a, b):
            small[a][b]["weight"] += weight
        else:
            small.add_edge(a, b, weight=weight)
    scale = spacing * math.sqrt(len(anchors)) / 2
    raw = nx.spring_layout(small, seed=SEED, iterations=80, weight="weight", scale=scale)
    return {node: (float(raw[node][0]), float(raw[node][1])) for node in anchors}


def _place_around_parents(rest: list[str], parent: dict[str, str],
                          positions: dict[str, Position], spacing: float) -> None:
    """Anchors without papers: on a ring around their parent, or on an outer ring."""
    def depth(node: str) -> int:
        count, seen = 0, set()
        while node in parent and node not in seen:
            seen.add(node)
            node = parent[node]
            count += 1
        return count

    children: dict[str, list[str]] = defaultdict(list)
    roots = []
    for node in sorted(rest, key=lambda n: (depth(n), n)):
        if node in parent:
            children[parent[node]].append(node)
        else:
            roots.append(node)
    if roots:
        reach = max((math.hypot(x, y) for x, y in positions.values()), default=0.0) + spacing
        for i, node in enumerate(roots):
            angle = -math.pi / 2 + 2 * math.pi * i / len(roots)
            positions[node] = (reach * math.cos(angle), reach * math.sin(angle))
    pending = [node for node in sorted(children) if node in positions]
    while pending:
        centre = pending.pop(0)
        ring = children.pop(centre, [])
        cx, cy = positions[centre]
        radius = max(0.45 * spacing, len(ring) * 0.6 * spacing / (2 * math.pi))
        phase = (_digest(centre) % 3600) / 3600 * 2 * math.pi
        for i, node in enumerate(ring):
            angle = phase + 2 * math.pi * i / len(ring)
            positions[node] = (cx + radius * math.cos(angle), cy + radius * math.sin(angle))
            if node in children:
                pending.append(node)
    for node in rest:                    # a parent cycle: nothing above to hang it on
        positions.setdefault(node, (0.0, 0.0))


def _separate(points: np.ndarray, min_distance: float, rounds: int = 50) -> np.ndarray:
    """Push apart anchors closer than ``min_distance``.

    Fruchterman-Reingold packs a well-connected core tightly and leaves the
    rim sparse; stacked technique nodes make unreadable labels. Each round
    moves every too-close pair apart by half of what is missing. Vectorised
    and over anchors only (a few hundred), so it costs milliseconds.
    """
    points = points.copy()
    count = len(points)
    if count < 2:
        return points
    ties = np.arange(count, dtype=float)
    for _ in range(rounds):
        delta = points[:, None, :] - points[None, :, :]
        distance = np.sqrt((delta ** 2).sum(axis=2))
        np.fill_diagonal(distance, 2 * min_distance)     # a point never pushes itself
        close = distance < min_distance
        if not close.any():
            break
        # Coincident points: separate along a direction fixed by their index.
        zero = distance == 0
        if zero.any():
            angle = (ties[:, None] - ties[None, :]) * GOLDEN_ANGLE
            delta[zero] = np.stack([np.cos(angle), np.sin(angle)], axis=2)[zero]
            distance[zero] = 1.0
        push = np.where(close, (min_distance - distance) / (2 * distance), 0.0)
        points += (delta * push[:, :, None]).sum(axis=1) / 2
    return points


def _spread(groups: dict[tuple, list[str]], centres: dict[tuple, Position],
            ring: tuple[float, float], out: dict[str, Position]) -> None:
    """Place each group's members on a sunflower spiral around the group's centre."""
    first, step = ring
    for key in sorted(groups):
        members = sorted(groups[key], key=lambda n: (_digest(n), n))
        cx, cy = centres[key]
        phase = (_digest(repr(key)) % 3600) / 3600 * 2 * math.pi
        for i, node in enumerate(members):
            radius = first + step * math.sqrt(i)
            angle = phase + i * GOLDEN_ANGLE
            out[node] = (cx + radius * math.cos(angle), cy + radius * math.sin(angle))


def _bbox_corner(positions: dict[str, Position]) -> Position:
    if not positions:
        return (0.0, 0.0)
    xs = [p[0] for p in positions.values()]
    ys = [p[1] for p in positions.values()]
    return (max(xs) + ANCHOR_SPACING, max(ys) + ANCHOR_SPACING)


def _pull(graph: nx.DiGraph, paper: str, anchor: str, kind: str, papers: int) -> float:
    """How strongly an anchor pulls a paper: a plain centroid of 5 anchors lands
    every paper in the middle of the map. Rare techniques pull harder than
    common ones (like IDF: "speculative decoding" says more than "LLMs"), a
    technique named in the title three times harder than one in the abstract,
    and the venue, which says little about the topic, least."""
    weight = 1.0 / math.sqrt(max(1, papers))
    if kind == "venue":
        return round(0.5 * weight, 6)
    if graph.edges[paper, anchor].get("field") == "title":
        weight *= 3.0
    return round(weight, 6)


def _weighted_centre(key: tuple, positions: dict[str, Position], fallback: Position) -> Position:
    """Near the strongest anchor, leaning towards the others.

    The centroid itself, with several anchors per paper, puts nearly every
    paper in the middle of the map; starting from the paper's main anchor
    keeps papers in readable clusters around their techniques."""
    total = sum(weight for _, weight in key)
    if not key or total <= 0:
        return fallback
    cx = sum(positions[a][0] * w for a, w in key) / total
    cy = sum(positions[a][1] * w for a, w in key) / total
    main = max(key, key=lambda item: (item[1], item[0]))[0]
    mx, my = positions[main]
    return (mx + LEAN * (cx - mx), my + LEAN * (cy - my))


def compute_layout(graph: nx.DiGraph) -> dict[str, Position]:
    types = {node: data.get("type") for node, data in graph.nodes(data=True)}
    anchors = sorted(n for n, t in types.items() if t in ANCHOR_TYPES)
    papers = sorted(n for n, t in types.items() if t == "paper")
    authors = sorted(n for n, t in types.items() if t == "author")
    paper_anchors = {p: sorted(n for n in graph.successors(p) if types[n] in ANCHOR_TYPES)
                     for p in papers}
    positions: dict[str, Position] = dict(_anchor_positions(graph, anchors, paper_anchors))

    orphan_centre = _bbox_corner(positions)
    papers_of: dict[str, int] = defaultdict(int)
    for members in paper_anchors.values():
        for anchor in members:
            papers_of[anchor] += 1
    groups: dict[tuple, list[str]] = defaultdict(list)
    centres: dict[tuple, Position] = {}
    for paper in papers:
        key = tuple((a, _pull(graph, paper, a, types[a], papers_of[a])) for a in paper_anchors[paper])
        groups[key].append(paper)
        if key not in centres:
            centres[key] = _weighted_centre(key, positions, orphan_centre)
    _spread(groups, centres, PAPER_RING, positions)

    groups = defaultdict(list)
    centres = {}
    lone_centre = _bbox_corner(positions)
    for author in authors:
        points = [positions[p] for p in sorted(graph.successors(author)) if types[p] == "paper"]
        if points:
            centre = (round(sum(p[0] for p in points) / len(points), 1),
                      round(sum(p[1] for p in points) / len(points), 1))
        else:
            centre = lone_centre
        groups[centre].append(author)
        centres[centre] = centre
    _spread(groups, centres, AUTHOR_RING, positions)

    for node in graph.nodes:         # any other node type: beside everything else
        positions.setdefault(node, orphan_centre)
    return {node: (_round(x), _round(y)) for node, (x, y) in positions.items()}


def global_layout(graph: nx.DiGraph, caches=None) -> dict[str, Position]:
    """Positions for every node. With ``caches`` (a ``caches.BuildCaches``), reused
    while the graph's structure is unchanged: under ``mkdocs serve`` most edits
    change a paper's text, not who is linked to whom."""
    if caches is None:
        return compute_layout(graph)
    return caches.layout(structure_key(graph), lambda: compute_layout(graph))


def radial_layout(centre: str, neighbours: list[str], radius: float = 150.0,
                  first_ring: int = 16) -> dict[str, Position]:
    """A local graph: the page's node in the middle, its neighbours on rings in rank order.

    As few rings as hold everyone (ring ``k`` holds up to ``first_ring +
    8 (k - 1)``), filled in proportion to their circumference so spacing is
    even; a neighbour's place depends only on its rank, so the picture is
    stable and the most relevant neighbours sit on the inner ring.
    """
    out: dict[str, Position] = {centre: (0.0, 0.0)}
    total = len(neighbours)
    rings, capacity = 0, 0
    while capacity < total:
        rings += 1
        capacity += first_ring + 8 * (rings - 1)
    weights = sum(range(1, rings + 1))
    index = 0
    for ring in range(1, rings + 1):
        size = total - index if ring == rings else round(total * ring / weights)
        members = neighbours[index:index + size]
        offset = (ring - 1) * math.pi / max(1, size)
        for i, node in enumerate(members):
            angle = -math.pi / 2 + offset + 2 * math.pi * i / len(members)
            out[node] = (_round(radius * ring * math.cos(angle)),
                         _round(radius * ring * math.sin(angle)))
        index += len(members)
    return out
