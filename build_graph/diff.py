"""What a change to the seeds or curated data does to the graph, as a PR comment.

A reviewer of a pull request that adds a listing cannot see, from the text of
the listing, which papers it makes, which it merges into existing ones, which
authors it splits or joins and which warnings it brings. So both sides are
built with the *current* code and their node-link exports compared: the diff
shows the effect of the data change, whatever the listing looked like.

Comparison is on the public export (``graph.node_link``), not on internal
objects, so it reports exactly what a downloader of ``atlas.json`` would see
change:

* nodes are matched by id; a node whose attributes differ is *changed*, field
  by field (lists compare as lists, so a reordered author list is a change);
  ``sources`` compare by file only, because deleting one entry renumbers the
  ``FILE#N`` of every later entry without changing those papers;
* edges are matched by ``(source, target, type)``;
* warnings are matched by ``(file, code, message)`` ignoring line and entry
  numbers, so adding a paragraph above a warning does not make it "new";
* a paper node that disappears while every one of its entries (``FILE#N``)
  now belongs to another paper was *merged* (say a correction showed two
  entries to be one paper), not removed, and is listed as such; the ledger
  (entries made, merged, skipped per listing) is compared file by file;
* errors of the NEW side are listed whatever OLD had: they break the build.

Everything in the Markdown output that came from a listing goes through
``md_cell``/``md_line``: a title can hold ``<script>``, ``|``, backticks or
``@someone`` and must neither render nor notify anyone. The comment is capped
below GitHub's 65,536-character limit with a note saying what was cut.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from .errors import AtlasError, Finding
from .graph import node_link

NODE_TYPES = ("paper", "author", "venue", "technique")
MARKER = "<!-- mlsys-atlas-graph-diff -->"
REFERENCE_PATH = "build_graph/data"       # the packaged reference data, in the repository
MAX_VALUE = 200
MAX_COMMENT = 65_536
_BUDGET = MAX_COMMENT - 1_000      # room for the truncation note
_ZWSP = "\u200b"


# --- resolving OLD / NEW -------------------------------------------------------------

def resolve_side(spec: str, repo_root: Path, workdir: Path) -> tuple[Path, Path]:
    """``(seeds_dir, data_dir)`` for one side of the diff.

    A directory is used in place: a seeds folder (with the ``data/`` beside
    it when there is one; the packaged reference data fills in the rest), or
    a checkout holding ``seeds/``. Anything else is a git revision of
    ``repo_root``, whose ``seeds/``, ``data/`` and packaged reference data
    (``build_graph/data/``) are extracted into ``workdir`` so the working tree
    is never touched: a pull request that edits the taxonomy shows its effect.
    """
    path = Path(spec)
    if path.is_dir():
        if (path / "seeds").is_dir():
            path = path / "seeds"
        sibling = path.resolve().parent / "data"
        return path, sibling
    return _extract_revision(spec, Path(repo_root), Path(workdir))


def _git(repo_root: Path, *args: str) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(["git", *args], cwd=repo_root, capture_output=True, check=False)
    except FileNotFoundError as err:
        raise AtlasError("git is not installed, so a revision cannot be read") from err


def _extract_revision(rev: str, repo_root: Path, workdir: Path) -> tuple[Path, Path]:
    # A leading '-' would reach git as an option (e.g. --output=FILE), not a revision.
    if not rev or rev.startswith("-"):
        raise AtlasError(f"{rev!r} is neither a folder nor a git revision")
    top = _git(repo_root, "rev-parse", "--show-toplevel")
    if top.returncode != 0:
        raise AtlasError(f"{rev!r} is not a folder, and {repo_root} is not in a git repository "
                         "to read it as a revision from")
    repo_root = Path(top.stdout.decode().strip())
    found = _git(repo_root, "rev-parse", "--verify", "--quiet", rev + "^{commit}")
    if found.returncode != 0:
        raise AtlasError(f"{rev!r} is neither an existing folder nor a git revision of "
                         f"{repo_root}", expected="a seeds folder or a revision such as HEAD~1 "
                         "or origin/main")
    commit = found.stdout.decode().strip()
    paths = [p for p in ("seeds", "data", REFERENCE_PATH)
             if _git(repo_root, "cat-file", "-e", f"{commit}:{p}").returncode == 0]
    if "seeds" not in paths:
        raise AtlasError(f"revision {rev!r} has no seeds/ folder")
    workdir.mkdir(parents=True, exist_ok=True)
    archive = subprocess.Popen(["git", "archive", commit, *paths], cwd=repo_root,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    untar = subprocess.run(["tar", "-x", "-C", str(workdir)], stdin=archive.stdout,
                           capture_output=True, check=False)
    archive.stdout.close()
    archive_err = archive.stderr.read()
    archive.stderr.close()
    if archive.wait() != 0 or untar.returncode != 0:
        message = (archive_err or untar.stderr).decode(errors="replace").strip()
        raise AtlasError(f"could not extract seeds/ and data/ at {rev!r}: {message}")
    data = workdir / "data"
    data.mkdir(exist_ok=True)
    reference = workdir / REFERENCE_PATH
    for file in sorted(reference.glob("*.yaml")) if reference.is_dir() else []:
        if not (data / file.name).exists():    # an older revision kept them in data/
            shutil.copyfile(file, data / file.name)
    return workdir / "seeds", data


# --- comparing ----------------------------------------------------------------------

@dataclass(frozen=True)
class NodeRef:
    id: str
    type: str
    label: str


@dataclass(frozen=True)
class FieldChange:
    name: str
    old: object
    new: object


@dataclass(frozen=True)
class NodeChange:
    node: NodeRef
    fields: tuple[FieldChange, ...]


@dataclass(frozen=True)
class EdgeRef:
    source: str
    target: str
    type: str
    source_label: str
    target_label: str


@dataclass(frozen=True)
class Merge:
    """A paper of OLD whose entries all belong to another paper in NEW."""

    node: NodeRef
    into: NodeRef


@dataclass(frozen=True)
class LedgerChange:
    """One listing's ledger counts, OLD and NEW (``None``: the listing is absent)."""

    file: str
    old: tuple[int, int, int, int] | None     # detected, made, merged, skipped
    new: tuple[int, int, int, int] | None


@dataclass
class GraphDiff:
    added: list[NodeRef] = field(default_factory=list)
    removed: list[NodeRef] = field(default_factory=list)
    changed: list[NodeChange] = field(default_factory=list)
    edges_added: list[EdgeRef] = field(default_factory=list)
    edges_removed: list[EdgeRef] = field(default_factory=list)
    new_warnings: list[Finding] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)      # errors of NEW: they break the build
    merged: list[Merge] = field(default_factory=list)    # paper nodes gone into another paper
    ledger: list[LedgerChange] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not (self.added or self.removed or self.changed or self.edges_added
                    or self.edges_removed or self.new_warnings or self.errors or self.merged
                    or self.ledger)

    def of_type(self, kind: str):
        return ([n for n in self.added if n.type == kind],
                [n for n in self.removed if n.type == kind],
                [c for c in self.changed if c.node.type == kind])


def _type_rank(kind: str) -> int:
    return NODE_TYPES.index(kind) if kind in NODE_TYPES else len(NODE_TYPES)


def _node_order(ref: NodeRef):
    return (_type_rank(ref.type), ref.type, ref.id)


def _findings(atlas) -> list[Finding]:
    from .report import build_report
    return build_report(atlas).findings


_ENTRY_NUMBER = re.compile(r"\bentry \d+\b")


def _compared(name: str, value):
    """Removing one entry renumbers every later ``FILE#N``; only the files matter."""
    if name == "sources" and isinstance(value, list):
        return [str(v).rsplit("#", 1)[0] for v in value]
    return value


def _warning_key(finding: Finding) -> tuple[str, str, str]:
    return finding.file, finding.code, _ENTRY_NUMBER.sub("entry N", finding.message)


def _edge_keys(data: dict) -> set[tuple[str, str, str]]:
    return {(e["source"], e["target"], e.get("type", "")) for e in data["edges"]}


def _edge_ref(key: tuple[str, str, str], nodes: dict) -> EdgeRef:
    source, target, kind = key

    def label(node_id: str) -> str:
        return str(nodes.get(node_id, {}).get("label", node_id))

    return EdgeRef(source, target, kind, label(source), label(target))


def _edge_order(edge: EdgeRef):
    return edge.type, edge.source, edge.target


def _merges(removed: list[NodeRef], old_nodes: dict, new_nodes: dict, ref) -> list[Merge]:
    """Removed papers whose entries another paper, present on both sides, took on
    while keeping all of its own.

    Refs (``FILE#N``) alone are not enough: deleting an entry renumbers the
    later ones, so a removed paper's ref can name a different paper in NEW.
    A merge is recognised only when the other paper's NEW sources are exactly
    its OLD sources plus the removed paper's.
    """
    owner = {}
    for node in new_nodes.values():
        if node.get("type") == "paper":
            for source in node.get("sources") or []:
                owner[source] = node["id"]
    merges = []
    for gone in removed:
        sources = old_nodes[gone.id].get("sources") or []
        targets = {owner.get(s) for s in sources}
        if gone.type != "paper" or not sources or len(targets) != 1 or None in targets:
            continue
        target = targets.pop()
        if target not in old_nodes:
            continue
        before = set(old_nodes[target].get("sources") or [])
        if set(new_nodes[target].get("sources") or []) == before | set(sources):
            merges.append(Merge(gone, ref(new_nodes[target])))
    return merges


def _ledger_changes(old_rows, new_rows) -> list[LedgerChange]:
    def counts(row):
        return (row.detected, row.made, row.merged, len(row.skipped))

    before = {r.file: counts(r) for r in old_rows}
    after = {r.file: counts(r) for r in new_rows}
    return [LedgerChange(f, before.get(f), after.get(f)) for f in sorted(before.keys() | after.keys())
            if before.get(f) != after.get(f)]


def diff_atlases(old, new) -> GraphDiff:
    before, after = node_link(old.graph), node_link(new.graph)
    old_nodes = {n["id"]: n for n in before["nodes"]}
    new_nodes = {n["id"]: n for n in after["nodes"]}

    def ref(node: dict) -> NodeRef:
        return NodeRef(node["id"], str(node.get("type", "")), str(node.get("label", node["id"])))

    result = GraphDiff()
    result.added = sorted((ref(new_nodes[i]) for i in new_nodes.keys() - old_nodes.keys()),
                          key=_node_order)
    result.removed = sorted((ref(old_nodes[i]) for i in old_nodes.keys() - new_nodes.keys()),
                            key=_node_order)
    for node_id in old_nodes.keys() & new_nodes.keys():
        a, b = old_nodes[node_id], new_nodes[node_id]
        fields = tuple(FieldChange(name, a.get(name), b.get(name))
                       for name in sorted((a.keys() | b.keys()) - {"id"})
                       if _compared(name, a.get(name)) != _compared(name, b.get(name)))
        if fields:
            result.changed.append(NodeChange(ref(b), fields))
    result.changed.sort(key=lambda c: _node_order(c.node))

    old_edges, new_edges = _edge_keys(before), _edge_keys(after)
    result.edges_added = sorted((_edge_ref(k, new_nodes) for k in new_edges - old_edges),
                                key=_edge_order)
    result.edges_removed = sorted((_edge_ref(k, old_nodes) for k in old_edges - new_edges),
                                  key=_edge_order)

    result.merged = _merges(result.removed, old_nodes, new_nodes, ref)
    gone = {m.node.id for m in result.merged}
    result.removed = [r for r in result.removed if r.id not in gone]
    result.ledger = _ledger_changes(old.corpus.ledger, new.corpus.ledger)

    seen = {_warning_key(f) for f in _findings(old)}
    result.new_warnings = [f for f in _findings(new) if _warning_key(f) not in seen]
    result.errors = [e.format() for e in new.errors]
    return result


# --- Markdown -----------------------------------------------------------------------

# The characters GitHub's Markdown (CommonMark) gives meaning to, escaped with a backslash.
_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()>#+\-.!|])")


def md_text(text: str | None) -> str:
    """Untrusted text for the pull-request comment (Markdown, read on GitHub):
    ``&`` and ``<`` become entities and every character Markdown gives meaning
    to is backslash-escaped, so ``# x``, ``[a](javascript:...)``, ``|`` and
    backticks show as typed. Newlines become spaces so text cannot start a block."""
    if not text:
        return ""
    text = " ".join(str(text).split()).replace("&", "&amp;").replace("<", "&lt;")
    return _MD_SPECIAL.sub(r"\\\1", text)


def _defuse(text: str) -> str:
    """Escaped Markdown that also cannot ping anyone: ``@name`` becomes ``@\u200bname``."""
    return md_text(text).replace("@", "@" + _ZWSP)


def cap(text: str, limit: int = MAX_VALUE) -> str:
    return text if len(text) <= limit else text[:limit].rstrip() + "…"


def md_line(text) -> str:
    return _defuse(cap(str(text)))


def md_cell(text) -> str:
    """A table cell: ``md_text`` escapes ``|`` too, so a value cannot add a column."""
    return md_line(text) or " "


def md_id(node_id: str) -> str:
    """Ids as code when they are plain (slugs always are); escaped text otherwise."""
    if node_id and all(c.isascii() and (c.isalnum() or c in ":-_./") for c in node_id):
        return f"`{node_id}`"
    return md_line(node_id)


def _show(value) -> str:
    if value is None or value == "" or value == []:
        return "(none)"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return "; ".join(_show(v) for v in value)
    if isinstance(value, dict):
        return "; ".join(f"{k}: {_show(v)}" for k, v in value.items()) or "(none)"
    return str(value)


def _field_cells(change: FieldChange) -> tuple[str, str]:
    old, new = change.old, change.new
    if isinstance(old, list) and isinstance(new, list):
        gone = [v for v in old if v not in new]
        came = [v for v in new if v not in old]
        if gone or came:
            return (md_cell("− " + _show(gone)) if gone else " ",
                    md_cell("+ " + _show(came)) if came else " ")
        return md_cell("order: " + _show(old)), md_cell("order: " + _show(new))
    a, b = _show(old), _show(new)
    if len(a) > MAX_VALUE or len(b) > MAX_VALUE:
        a, b = _around_difference(a, b)
    return md_cell(a), md_cell(b)


def _around_difference(a: str, b: str) -> tuple[str, str]:
    """Long values (abstracts) differ somewhere in the middle: show that part."""
    start = 0
    while start < min(len(a), len(b)) and a[start] == b[start]:
        start += 1
    start = max(0, start - 40)
    prefix = "…" if start else ""
    return prefix + a[start:], prefix + b[start:]


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _counts(added: int, removed: int, changed: int = 0) -> str:
    bits = [(added, "added"), (removed, "removed"), (changed, "changed")]
    return ", ".join(f"{n} {word}" for n, word in bits if n)


def _summary(diff: GraphDiff) -> str:
    parts = []
    for kind in NODE_TYPES:
        added, removed, changed = diff.of_type(kind)
        if added or removed or changed:
            parts.append(f"{kind}s {_counts(len(added), len(removed), len(changed))}")
    if diff.merged:
        parts.append(f"papers merged {len(diff.merged)}")
    if diff.edges_added or diff.edges_removed:
        parts.append("edges " + _counts(len(diff.edges_added), len(diff.edges_removed)))
    if diff.ledger:
        parts.append(_plural(len(diff.ledger), "ledger change"))
    if diff.new_warnings:
        parts.append(_plural(len(diff.new_warnings), "new warning"))
    if diff.errors:
        parts.append(_plural(len(diff.errors), "error"))
    return "**Summary:** " + "; ".join(parts) + "."


def _node_section(diff: GraphDiff, kind: str) -> list[str]:
    added, removed, changed = diff.of_type(kind)
    merged = [m for m in diff.merged if m.node.type == kind]
    if not (added or removed or changed or merged):
        return []
    lines = [f"### {kind.capitalize()}s", ""]
    for title, refs in (("Added", added), ("Removed", removed)):
        if refs:
            lines += [f"**{title}** ({len(refs)})", ""]
            lines += [f"- {md_line(r.label)} ({md_id(r.id)})" for r in refs]
            lines.append("")
    if merged:
        lines += [f"**Merged** ({len(merged)}): every entry of the paper now belongs to another", ""]
        lines += [f"- {md_line(m.node.label)} ({md_id(m.node.id)}) → {md_line(m.into.label)} "
                  f"({md_id(m.into.id)})" for m in merged]
        lines.append("")
    if changed:
        lines += [f"**Changed** ({len(changed)})", ""]
        for change in changed:
            lines += [f"- {md_line(change.node.label)} ({md_id(change.node.id)})", "",
                      "  | Field | Old | New |", "  | --- | --- | --- |"]
            for fc in change.fields:
                old, new = _field_cells(fc)
                lines.append(f"  | {md_cell(fc.name)} | {old} | {new} |")
            lines.append("")
    return lines


def _edge_section(diff: GraphDiff) -> list[str]:
    if not (diff.edges_added or diff.edges_removed):
        return []
    lines = ["### Edges", "", "| | Type | From | To |", "| --- | --- | --- | --- |"]
    for sign, edges in (("+", diff.edges_added), ("−", diff.edges_removed)):
        for e in edges:
            lines.append(f"| {sign} | {md_cell(e.type)} | {md_cell(e.source_label)} | "
                         f"{md_cell(e.target_label)} |")
    return lines + [""]


def _error_section(diff: GraphDiff) -> list[str]:
    # First after the summary: if the comment is truncated, errors must survive.
    if not diff.errors:
        return []
    return (["### Errors (the site will not build)", ""]
            + [f"- {md_line(e)}" for e in diff.errors] + [""])


def _warning_section(diff: GraphDiff) -> list[str]:
    if not diff.new_warnings:
        return []
    return (["### New warnings", ""]
            + [f"- {md_line(f.file + (f':{f.line}' if f.line else ''))} "
               f"\\[{md_line(f.code)}\\] {md_line(f.message)}" for f in diff.new_warnings]
            + [""])


def format_markdown(diff: GraphDiff, limit: int = MAX_COMMENT) -> str:
    head = [MARKER, "## MLSys Atlas graph diff", ""]
    if diff.empty:
        return "\n".join(head + ["No changes to the graph.", ""])
    body = [_summary(diff), ""] + _error_section(diff)
    for kind in NODE_TYPES:
        body += _node_section(diff, kind)
    body += _ledger_section(diff) + _edge_section(diff) + _warning_section(diff)
    return _fit(head + body, limit)


def _ledger_section(diff: GraphDiff) -> list[str]:
    if not diff.ledger:
        return []

    def cell(counts, i: int) -> str:
        return "–" if counts is None else str(counts[i])

    lines = ["### Ledger", "", "Entries per listing: detected = made + merged + skipped.", "",
             "| Listing | Detected | Made | Merged | Skipped |", "| --- | ---: | ---: | ---: | ---: |"]
    for change in diff.ledger:
        cells = []
        for i in range(4):
            old, new = cell(change.old, i), cell(change.new, i)
            cells.append(new if old == new else f"{old} → {new}")
        lines.append(f"| {md_cell(change.file)} | " + " | ".join(cells) + " |")
    return lines + [""]


def _fit(lines: list[str], limit: int) -> str:
    text = "\n".join(lines) + "\n"
    if len(text) <= limit:
        return text
    budget = max(0, min(_BUDGET, limit - 400))
    kept, size = [], 0
    for line in lines:
        if size + len(line) + 1 > budget:
            break
        kept.append(line)
        size += len(line) + 1
    left = len(lines) - len(kept)
    kept += ["", f"> **Truncated:** {left} more lines did not fit in a comment. Run "
                 "`python -m build_graph diff OLD NEW` for the full report."]
    return "\n".join(kept) + "\n"


def diff_specs(old_spec: str, new_spec: str, repo_root: Path, workdir: Path) -> GraphDiff:
    """Both sides resolved, built (errors collected, not raised) and compared."""
    atlases = []
    for name, spec in (("old", old_spec), ("new", new_spec)):
        seeds, data = resolve_side(spec, repo_root, Path(workdir) / name)
        atlases.append(_build(name, spec, seeds, data))
    return diff_atlases(*atlases)


def _build(name: str, spec: str, seeds: Path, data: Path):
    """Build one side. A curated file that side predates (say the base of the
    pull request that introduces it) comes from the packaged reference data
    for reference files, and is absent for site files such as authors.yaml:
    those are never filled in, or the diff would hide the very change under
    review."""
    from .pipeline import build_atlas
    try:
        return build_atlas(seeds, data)
    except OSError as err:
        raise AtlasError(f"cannot build the {name} side ({spec}): {err}") from err
