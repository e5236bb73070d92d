"""Determinism and stable identifiers (issue 7).

Two builds from the same inputs give byte-identical generated pages, graph
JSON and layout coordinates, whatever the hash seed (``PYTHONHASHSEED``), the
order the filesystem lists files in, the clock or the time zone. Adding an
unrelated listing never changes an existing paper slug, author slug, venue
slug or citation key.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import networkx as nx
import pytest

from build_graph.graph import export_json
from build_graph.pipeline import build_atlas
from build_graph.render.html import Html, url_of
from build_graph.render.site import render_site
from build_graph.report import build_report, format_text
from build_graph.sources import seed_files

ROOT = Path(__file__).resolve().parent.parent
SEEDS = ROOT / "seeds"
BROKEN = Path(__file__).resolve().parent / "fixtures" / "broken"

try:
    from build_graph import layout
except ImportError:                                   # pragma: no cover - another engineer's module
    layout = None
try:
    from build_graph.bibtex import citation_keys
except ImportError:                                   # pragma: no cover
    citation_keys = None


def _digest(pages: dict) -> dict[str, str]:
    """Pages (``Html``: body, title, contents, metadata) and files, by content hash."""
    return {path: hashlib.sha256(text if isinstance(text, bytes) else
                                 (repr(text) if isinstance(text, Html) else text).encode("utf-8")).hexdigest()
            for path, text in pages.items()}


def _as_files(pages: dict) -> dict[str, bytes]:
    """What ``python -m build_graph build`` writes for ``pages``."""
    return {(url_of(path) + "index.html" if isinstance(text, Html) else path): (text if isinstance(text, bytes) else str(text).encode("utf-8"))
            for path, text in pages.items()}


@pytest.fixture(scope="module")
def baseline(atlas):
    # ``atlas`` and every build below have their own BuildCaches (none is passed),
    # so no in-process cache can be what makes a second build identical.
    return render_site(atlas)


# --- (b) hash seed and time zone, in fresh processes ---------------------------------------

def _folder_bytes(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_cli_build_is_identical_across_hash_seeds_and_time_zones(tmp_path, baseline):
    runs = {"0": "UTC", "12345": "Pacific/Kiritimati"}       # UTC+14: another calendar day
    procs = {}
    for seed, tz in runs.items():
        env = {**os.environ, "PYTHONHASHSEED": seed, "TZ": tz}
        procs[seed] = subprocess.Popen(
            [sys.executable, "-m", "build_graph", "build", "--seeds", str(SEEDS),
             "--out", str(tmp_path / seed)],
            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    for seed, proc in procs.items():
        _, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err.decode()
    first, second = (_folder_bytes(tmp_path / seed) for seed in runs)
    assert len(first) == len(baseline) > 100
    assert sorted(first) == sorted(second)
    differing = [path for path in first if first[path] != second[path]]
    assert not differing, f"{len(differing)} files differ between hash seeds, e.g. {differing[:5]}"
    # ... and this process (another, random, hash seed) rendered the very same bytes
    assert first == _as_files(baseline)
    assert "assets/atlas.json.gz" in first                  # the export JSON is among them
    # layout coordinates ship in the explorer data: same in both processes (checked above)
    explorer = [p for p in first if p.endswith("explorer.json")]
    if layout is not None and explorer:
        nodes = json.loads(first[explorer[0]])["nodes"]
        assert nodes and all(isinstance(n.get("x"), float) for n in nodes[:5])


# --- (a) + (d) a second build, at another time of day, in the same process ------------------

_REAL_DATETIME, _REAL_DATE = dt.datetime, dt.date
_FAKE_NOW = _REAL_DATETIME(2031, 12, 31, 23, 59, 58)


class _FakeDatetime(_REAL_DATETIME):
    @classmethod
    def now(cls, tz=None):
        return _FAKE_NOW.replace(tzinfo=tz) if tz else _FAKE_NOW

    @classmethod
    def utcnow(cls):
        return _FAKE_NOW

    @classmethod
    def today(cls):
        return _FAKE_NOW


class _FakeDate(_REAL_DATE):
    @classmethod
    def today(cls):
        return _FAKE_NOW.date()


def test_second_build_at_another_time_is_byte_identical(monkeypatch, atlas, baseline):
    fake = _FAKE_NOW.timestamp()
    monkeypatch.setattr(time, "time", lambda: fake)
    monkeypatch.setattr(time, "time_ns", lambda: int(fake * 1e9))
    monkeypatch.setattr(time, "localtime", lambda *a: _REAL_DATETIME.fromtimestamp(fake).timetuple())
    monkeypatch.setattr(time, "gmtime", lambda *a: _REAL_DATETIME.utcfromtimestamp(fake).timetuple())
    monkeypatch.setattr(dt, "datetime", _FakeDatetime)
    monkeypatch.setattr(dt, "date", _FakeDate)
    again = build_atlas(SEEDS, SEEDS.parent / "data", strict=True)
    pages = render_site(again)
    monkeypatch.undo()
    assert export_json(again.graph) == export_json(atlas.graph)
    assert _digest(pages) == _digest(baseline)
    assert pages == baseline


def test_generated_pages_do_not_mention_today(baseline):
    today = dt.date.today()
    stamps = {today.isoformat(), today.strftime("%d %B %Y"), today.strftime("%B %d, %Y"),
              today.strftime("%b %d, %Y"), today.strftime("%Y/%m/%d")}
    for path, text in baseline.items():
        for stamp in stamps:
            assert stamp not in repr(text), f"{path} mentions today's date {stamp!r}"


_CLOCKS = re.compile(r"\b(?:datetime\.now|datetime\.utcnow|datetime\.today|date\.today|dt\.date\.today|"
                     r"time\.time|time\.time_ns|time\.localtime|time\.gmtime|time\.strftime|"
                     r"time\.ctime|os\.getpid|uuid\.uuid[14]|random\.(?!Random\(seed))")
_BUILD_ENTRY_POINTS = ("build_graph.pipeline", "build_graph.render.site", "build_graph.site_build",
                       "build_graph.mkdocs_hook", "build_graph.cli", "build_graph.report",
                       "build_graph.bibtex")


def _build_modules() -> list[Path]:
    """Source files of every module a build imports (tools such as benchmarks excluded),
    found in a fresh interpreter so this test process's imports do not count."""
    script = ("import sys\n" + "".join(f"import {m}\n" for m in _BUILD_ENTRY_POINTS
                                       if _importable(m))
              + "print('\\n'.join(sorted(m.__file__ for n, m in sys.modules.items()"
                " if n.startswith('build_graph') and getattr(m, '__file__', None))))")
    out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True,
                         check=True).stdout
    return [Path(line) for line in out.splitlines() if line]


def _importable(module: str) -> bool:
    import importlib.util
    return importlib.util.find_spec(module) is not None


def test_build_code_reads_no_clock_and_no_unseeded_randomness():
    modules = _build_modules()
    assert any(p.name == "pipeline.py" for p in modules) and len(modules) > 20
    offenders = []
    for path in modules:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            code = line.split("#", 1)[0]
            if _CLOCKS.search(code) and "perf_counter" not in code:
                offenders.append(f"{path.name}:{number}: {line.strip()}")
    assert not offenders, "the build must not depend on the clock:\n" + "\n".join(offenders)


# --- (c) file listing order ------------------------------------------------------------------

def _reversed_rglob(monkeypatch):
    real = Path.rglob

    def rglob(self, pattern, *args, **kw):
        return iter(sorted(real(self, pattern, *args, **kw), reverse=True))

    monkeypatch.setattr(Path, "rglob", rglob)


def test_seed_files_are_sorted_whatever_the_listing_order(monkeypatch, tmp_path):
    for name in ["b.txt", "a.txt", "sub/c.txt", "A.txt", "a.meta.yaml", ".hidden.txt"]:
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("Abstract: x\n")
    natural = [p.relative_to(tmp_path).as_posix() for p in seed_files(tmp_path)]
    _reversed_rglob(monkeypatch)
    assert [p.relative_to(tmp_path).as_posix() for p in seed_files(tmp_path)] == natural
    assert natural == sorted(natural) == ["A.txt", "a.meta.yaml", "a.txt", "b.txt", "sub/c.txt"]


def test_build_does_not_depend_on_file_listing_order(monkeypatch, tmp_path, atlas):
    folder = tmp_path / "seeds"
    shutil.copytree(SEEDS, folder)
    shutil.copy(BROKEN / "latin1.txt", folder / "zz_broken_a.txt")
    shutil.copy(BROKEN / "image.txt", folder / "zz_broken_b.txt")
    _reversed_rglob(monkeypatch)
    again = build_atlas(folder, SEEDS.parent / "data")
    assert export_json(again.graph) == export_json(atlas.graph)
    assert [e.file for e in again.errors] == ["zz_broken_a.txt", "zz_broken_b.txt"]
    report = format_text(build_report(again))
    expected = format_text(build_report(atlas))
    assert report.split("\nerror: ")[0] == expected.rsplit("\n", 1)[0]


# --- (e) adding an unrelated listing changes no existing identifier -----------------------------

LONG_TITLE = ("A Very Long Title About " + "Scalable Distributed Heterogeneous Accelerator " * 6
              + "Systems")
NEW_LISTING = f"""OSDI.2024

| Total: 3

#1 ULPPACK: Fast Sub-8-bit Matrix Multiply on Commodity SIMD Hardware — Обзор [PDF] [Copy] [Kimi] [REL]

Authors: Larissa Rozales Goncalves, Jae W Lee

A review, written in Russian, of kernels for quantised networks on phones.

#2 Adaptive Message Quantization and Parallelization for Distributed Full-graph GNN Inference on Phones [PDF] [Copy] [Kimi] [REL]

Authors: Zed Quux, LARISSA ROZALES GONÇALVES

Inference, not training, of graph networks on phones.

#3 {LONG_TITLE} [PDF] [Copy] [Kimi] [REL]

Authors: Mmm Nnn

A paper with a title far longer than any slug may be.
"""


def _identifiers(atlas) -> dict[str, dict]:
    corpus = atlas.corpus
    out = {"papers": {p.sources[0].ref: p.slug for p in corpus.papers},
           "authors": {key: a.slug for key, a in corpus.authors.items()},
           "venues": {key: v.slug for key, v in corpus.venues.items()}}
    if citation_keys is not None:
        out["cite"] = citation_keys(corpus.papers, corpus)
    return out


def test_adding_an_unrelated_listing_changes_no_existing_identifier(tmp_path, atlas):
    folder = tmp_path / "seeds"
    shutil.copytree(SEEDS, folder)
    (folder / "000_0new.txt").write_text(NEW_LISTING, encoding="utf-8")   # sorts first
    grown = build_atlas(folder, SEEDS.parent / "data", strict=True)
    old, new = _identifiers(atlas), _identifiers(grown)

    row = next(r for r in grown.corpus.ledger if r.file == "000_0new.txt")
    assert (row.made, row.merged, row.skipped) == (3, 0, []), "the new papers are new papers"
    assert len(grown.corpus.papers) - len(atlas.corpus.papers) == 3

    for kind in ("papers", "authors", "venues"):
        changed = {k: (v, new[kind].get(k)) for k, v in old[kind].items() if new[kind].get(k) != v}
        assert not changed, f"{kind} whose identifier changed: {changed}"
        assert len(set(new[kind].values())) == len(new[kind]), f"two {kind} share an identifier"

    added = {p.sources[0].ref: p.slug for p in grown.corpus.papers}.items() - old["papers"].items()
    added_slugs = sorted(slug for _, slug in added)
    assert len(added_slugs) == 3
    for slug in added_slugs:
        assert re.fullmatch(r"[a-z0-9]+(?:-[a-z0-9]+)*", slug) and len(slug) <= 80
    assert any(s.startswith("ulppack-fast-sub-8-bit-matrix-multiply-on-commodity-simd-hardware-")
               for s in added_slugs)                   # readable, but not the old paper's slug
    # two new spellings of existing people are new people with their own pages
    assert "larissa rozales goncalves" in grown.corpus.authors
    assert "jae w lee" in grown.corpus.authors
    assert grown.corpus.authors["larissa rozales goncalves"].slug != \
        atlas.corpus.authors["larissa rozales gonçalves"].slug
    assert grown.corpus.authors["larissa rozales gonçalves"].slug == \
        atlas.corpus.authors["larissa rozales gonçalves"].slug

    if "cite" in old:
        changed = {slug: (key, new["cite"].get(slug)) for slug, key in old["cite"].items()
                   if new["cite"].get(slug) != key}
        assert not changed, f"citation keys that changed: {changed}"
        owner = {key: slug for slug, key in new["cite"].items()}
        assert all(owner.get(key, slug) == slug for slug, key in old["cite"].items()), \
            "an old citation key now names another paper"


# --- (f) layout coordinates -----------------------------------------------------------------------

@pytest.mark.skipif(layout is None, reason="build_graph/layout.py not present")
def test_layout_is_identical_across_runs_and_insertion_order(atlas):
    first = layout.compute_layout(atlas.graph)
    second = layout.compute_layout(atlas.graph)
    assert first == second and len(first) == atlas.graph.number_of_nodes()
    shuffled = nx.DiGraph()
    shuffled.add_nodes_from(reversed(list(atlas.graph.nodes(data=True))))
    shuffled.add_edges_from(reversed(list(atlas.graph.edges(data=True))))
    assert layout.compute_layout(shuffled) == first
    assert all(isinstance(x, float) and isinstance(y, float) for x, y in first.values())
    assert all(str(v) != "-0.0" for xy in first.values() for v in xy)
    if hasattr(layout, "global_layout"):
        from build_graph.caches import BuildCaches
        caches = BuildCaches()
        assert layout.global_layout(atlas.graph) == first
        assert layout.global_layout(atlas.graph, caches) == first           # computed
        assert layout.global_layout(shuffled, caches) is layout.global_layout(atlas.graph, caches)  # reused
