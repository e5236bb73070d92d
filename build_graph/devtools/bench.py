"""``python -m build_graph bench``: how long the site takes to build at N papers, and why.

One run, in a temporary folder (``--keep DIR`` to keep it); docs/performance.md
has the results and the exact commands.

1. **Input.** ``--papers N`` synthetic papers from ``synth.write_synthetic_seeds``
   (real listing formats, material recombined from ``seeds/``), or the first N
   entries of a JSON Lines corpus (``--corpus FILE.jsonl``, copied into the
   temporary seeds folder in files of ``CORPUS_CHUNK`` lines; ``--papers 0``
   for all), or an existing seeds folder as it is (``--seeds DIR``).
2. **Our stages**, measured alone: one ``SiteBuilder().build``, exactly what
   the MkDocs hook runs, with the functions it calls wrapped in timers (load
   data, parse, normalize, tag, graph, related, layout, trends, charts, render; a stage's time
   excludes the stages it calls). Caches are emptied first: a cold build.
   Times are wall clock (``time.perf_counter``) from a first pass; peak memory
   per stage comes from a second pass under ``tracemalloc`` (Python
   allocations during the stage above what was live when it started), because
   tracing slows Python down and must not distort the times.
3. **The MkDocs build**: ``mkdocs build`` of the full site (a config that
   ``INHERIT``s the project's ``mkdocs.yml``, with the atlas plugin's ``seeds``
   pointing at the temporary seeds) in a fresh interpreter, as a user runs it.
   Time is the child's wall clock, start-up included, and its CPU time; memory
   its peak resident set size (``resource.getrusage``). Inside that same build
   the child also times the hook (our stages, templates included), which
   gives the "our share" ratios.
4. **The floor**, measured the same way in the same run: the same
   configuration (theme, plugins, Markdown extensions, nav and hand-written
   pages) without the hook, filled up to the same number of pages with
   minimal Markdown pages kept out of the nav. ``--repeat N`` builds the atlas
   and the floor N times each, alternately, and keeps each one's fastest run:
   the machine may be shared, and alternating exposes both to the same load.
5. **The site**: page count, size on disk, the largest page, the largest paper
   page, the search index, and the graph page with the JSON files it loads.
6. ``--rebuild``: what ``mkdocs serve`` does after one listing is edited. One
   long-lived child builds the site, builds again unchanged, appends a
   sentence to one abstract in one listing and builds again, reloading the
   config each time as ``serve`` does; the hook's ``SiteBuilder`` and its
   caches live across builds.

Output: a Markdown table on standard output, and ``--json FILE``.
"""

from __future__ import annotations

import contextlib
import cProfile
import gc
import io
import json
import os
import platform
import pstats
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROJECT_CONFIG = ROOT / "mkdocs.yml"
PLUGIN = "mlsys-atlas"
CORPUS_CHUNK = 500          # lines per listing file when a JSON Lines corpus is copied in
STAGES = ("load data", "parse", "normalize", "tag", "graph", "related", "layout", "trends", "charts",
          "render", "data files")
# Names ``pipeline.build_atlas`` looks up at call time, and the stage each belongs to.
PIPELINE_FUNCTIONS = {
    "load_curation": "load data", "load_tagging": "load data", "load_taxonomy": "load data",
    "read_sources": "parse",
    "normalize": "normalize", "Tagger": "tag", "tag_papers": "tag", "build_graph": "graph",
    "related_papers": "related",
}
TARGETS = {
    "total_vs_floor": 1.5,          # total build / floor, at 1,000 and 5,000 papers
    "own_share": 0.20,              # our stages / total build
    "scaling_10k_over_1k": 12.0,    # time at 10,000 / time at 1,000
    "seed_build_seconds": 5.0,      # the 51-paper seed site, full mkdocs build
    "paper_page_bytes": 60 * 1024,
    "site_bytes_per_paper": 50 * 1024,
    "files_per_paper": 8,
}

_CHILD_BUILD = textwrap.dedent("""
    import json, resource, sys, time
    start = time.perf_counter()
    sys.path.insert(0, {root!r})
    from mkdocs.config import load_config
    from mkdocs.commands.build import build
    own = {{"hook": 0.0, "hook_cpu": 0.0}}
    try:                                    # time our code inside this very build
        import build_graph.site_build as site_build
        original = site_build.SiteBuilder.build
        def timed(self, *args, **kwargs):
            begin, cpu = time.perf_counter(), time.process_time()
            try:
                return original(self, *args, **kwargs)
            finally:
                own["hook"] += time.perf_counter() - begin
                own["hook_cpu"] += time.process_time() - cpu
        site_build.SiteBuilder.build = timed
    except ImportError:
        pass
    build(load_config({config!r}))
    seconds = time.perf_counter() - start
    usage = resource.getrusage(resource.RUSAGE_SELF)
    with open({out!r}, "w") as f:
        json.dump({{"in_process_seconds": seconds, "peak_rss_kb": usage.ru_maxrss,
                   "cpu_seconds": usage.ru_utime + usage.ru_stime, "own": own}}, f)
""")

_CHILD_REBUILD = textwrap.dedent("""
    import json, resource, sys, time
    from pathlib import Path
    sys.path.insert(0, {root!r})
    from mkdocs.config import load_config
    from mkdocs.commands.build import build
    import build_graph.site_build as site_build

    own = []
    original = site_build.SiteBuilder.build
    def timed(self, *args, **kwargs):
        start = time.perf_counter()
        try:
            return original(self, *args, **kwargs)
        finally:
            own.append(time.perf_counter() - start)
    site_build.SiteBuilder.build = timed

    def run():
        start = time.perf_counter()
        build(load_config({config!r}), dirty={dirty!r})     # serve reloads the config every time
        return time.perf_counter() - start

    load_config({config!r}).plugins.on_startup(command="serve", dirty={dirty!r})   # as serve does, once
    result = {{"cold_seconds": run(), "cold_own_seconds": own[-1]}}
    result["unchanged_seconds"] = run()
    result["unchanged_own_seconds"] = own[-1]
    listing = Path({listing!r})
    text = listing.read_text(encoding="utf-8")
    marker = {marker!r}
    at = text.index(marker) + len(marker)
    listing.write_text(text[:at] + " We also evaluate it on a new workload." + text[at:],
                       encoding="utf-8")
    result["edited"] = listing.name
    result["edited_seconds"] = run()
    result["edited_own_seconds"] = own[-1]
    result["peak_rss_kb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    with open({out!r}, "w") as f:
        json.dump(result, f)
""")


# --------------------------------------------------------------------- input

def prepare_seeds(seeds: Path, papers: int, *, corpus: Path | None = None, seed: int = 0,
                  source: Path | None = None) -> int:
    """Fill ``seeds`` with the benchmark's input; return the number of entries written."""
    seeds.mkdir(parents=True, exist_ok=True)
    if source is not None:
        shutil.copytree(source, seeds, dirs_exist_ok=True)
        return -1
    if corpus is None:
        from .synth import write_synthetic_seeds
        write_synthetic_seeds(seeds, papers, seed)
        return papers
    lines = [line for line in Path(corpus).read_text(encoding="utf-8").splitlines() if line.strip()]
    lines = lines[:papers] if papers else lines
    for i in range(0, len(lines), CORPUS_CHUNK):
        chunk = lines[i:i + CORPUS_CHUNK]
        (seeds / f"corpus_{i // CORPUS_CHUNK:03d}.jsonl").write_text(
            "\n".join(chunk) + "\n", encoding="utf-8")
    return len(lines)


# ---------------------------------------------------------------- our stages

class _Meter:
    """Exclusive time (and, when tracing, peak traced memory) per stage.

    Stages nest (layout runs inside render, everything inside "total"): a
    stage's time excludes the stages called inside it, and its peak memory is
    the highest traced allocation above what was live when it started.
    """

    def __init__(self, trace: bool):
        self.trace = trace
        self.seconds: dict[str, float] = {}
        self.peak: dict[str, int] = {}
        self._stack: list[dict] = []

    def _traced(self) -> tuple[int, int]:
        return tracemalloc.get_traced_memory() if self.trace else (0, 0)

    def _note_peak(self, frame: dict) -> None:
        if self.trace:
            peak = self._traced()[1] - frame["base"]
            self.peak[frame["name"]] = max(self.peak.get(frame["name"], 0), peak)

    @contextlib.contextmanager
    def stage(self, name: str):
        if self._stack and self._stack[-1]["name"] == name:    # re-entered: one stage
            yield
            return
        now = time.perf_counter()
        if self._stack:
            parent = self._stack[-1]
            self.seconds[parent["name"]] = self.seconds.get(parent["name"], 0.0) + now - parent["start"]
            self._note_peak(parent)
        if self.trace:
            tracemalloc.reset_peak()
        frame = {"name": name, "start": time.perf_counter(), "base": self._traced()[0]}
        self._stack.append(frame)
        try:
            yield
        finally:
            now = time.perf_counter()
            self._stack.pop()
            self.seconds[name] = self.seconds.get(name, 0.0) + now - frame["start"]
            self._note_peak(frame)
            if self._stack:
                parent = self._stack[-1]
                self._note_peak(parent)
                if self.trace:
                    tracemalloc.reset_peak()
                parent["start"] = time.perf_counter()

    def wrap(self, name: str, fn):
        def wrapped(*args, **kwargs):
            with self.stage(name):
                return fn(*args, **kwargs)
        return wrapped


def _patch_everywhere(original, replacement, patched: list) -> None:
    """Point every ``build_graph`` module's reference to ``original`` at ``replacement``."""
    for name, module in list(sys.modules.items()):
        if module is None or not (name == "build_graph" or name.startswith("build_graph.")):
            continue
        for attr, value in list(vars(module).items()):
            if value is original:
                setattr(module, attr, replacement)
                patched.append((module, attr, original))


def _notes_dir() -> Path | None:
    options = ((_project_config().get("plugins") or {}).get(PLUGIN) or {})
    notes = ROOT / options.get("notes", "notes")
    return notes if notes.is_dir() else None


def _run_stages(seeds: Path, data: Path | None, meter: _Meter) -> tuple[dict, object]:
    """One build of the generated pages exactly as the MkDocs hook asks for it
    (``SiteBuilder().build``), with the functions it calls wrapped in timers."""
    import inspect

    from .. import pipeline, site_build
    from ..render import site as render_site_module
    try:
        from .. import layout
    except ImportError:                     # no graph page yet
        layout = None
    patched: list = []
    try:
        for attr, name in PIPELINE_FUNCTIONS.items():
            if hasattr(pipeline, attr):
                original = getattr(pipeline, attr)
                if inspect.isfunction(original):
                    _patch_everywhere(original, meter.wrap(name, original), patched)
                else:                           # a class (Tagger): only where the pipeline calls it
                    setattr(pipeline, attr, meter.wrap(name, original))
                    patched.append((pipeline, attr, original))
        if layout is not None:
            for attr in ("global_layout", "compute_layout"):
                if hasattr(layout, attr):
                    original = getattr(layout, attr)
                    _patch_everywhere(original, meter.wrap("layout", original), patched)
        # The charts' counts (one pass over the papers) and drawing them, both inside render.
        from .. import trends
        from ..render import dashboard, page_charts
        for original in (trends.compute_trends,):
            _patch_everywhere(original, meter.wrap("trends", original), patched)
        for original in (page_charts.technique_charts, page_charts.venue_charts, page_charts.author_timeline,
                         dashboard.trends_page, dashboard.dashboard):
            _patch_everywhere(original, meter.wrap("charts", original), patched)
        for name in ("render_site", "render_parts"):
            if hasattr(render_site_module, name):
                original = getattr(render_site_module, name)
                _patch_everywhere(original, meter.wrap("render", original), patched)
        builder = site_build.SiteBuilder()      # new caches: a cold build, like `mkdocs build`
        folders = [seeds, Path(data) if data else ROOT / "data", _notes_dir()]
        arity = len(inspect.signature(builder.build).parameters)
        with meter.stage("total"):
            pages = builder.build(*folders[:max(2, arity)])
            if hasattr(builder, "data_files"):    # the data files the plugin writes while MkDocs writes pages
                with meter.stage("data files"):
                    pages = {**pages, **builder.data_files()}
    finally:
        for module, attr, original in reversed(patched):
            setattr(module, attr, original)
    meter.seconds["other"] = meter.seconds.pop("total")     # the hook's own work, uncounted
    meter.peak["all stages"] = meter.peak.pop("total", 0)
    return pages, builder.atlas


def measure_stages(seeds: Path, data: Path | None, *, memory: bool = True,
                   profile: Path | None = None) -> dict:
    """Time (and measure) every stage of our own code on ``seeds``."""
    gc.collect()
    meter = _Meter(trace=False)
    profiler = cProfile.Profile() if profile else None
    if profiler:
        profiler.enable()
    pages, atlas = _run_stages(seeds, data, meter)
    if profiler:
        profiler.disable()
        profiler.dump_stats(str(profile))
    counts = {"papers": len(atlas.corpus.papers), "authors": len(atlas.corpus.authors),
              "venues": len(atlas.corpus.venues), "techniques": len(atlas.taxonomy.techniques),
              "generated_files": len(pages),
              "generated_pages": sum(1 for p in pages if p.endswith(".md")),
              "graph_nodes": atlas.graph.number_of_nodes(),
              "graph_edges": atlas.graph.number_of_edges()}
    del pages, atlas
    peaks: dict[str, int] = {}
    if memory:
        gc.collect()
        traced = _Meter(trace=True)
        tracemalloc.start()
        try:
            _run_stages(seeds, data, traced)
        finally:
            tracemalloc.stop()
        peaks = traced.peak
    names = [s for s in STAGES if s in meter.seconds] + ["other"]
    stages = {name: {"seconds": round(meter.seconds.get(name, 0.0), 3),
                     "peak_mb": round(peaks[name] / 2**20, 1) if name in peaks else None}
              for name in names}
    return {"stages": stages, "own_seconds": round(sum(meter.seconds.values()), 3),
            "own_peak_mb": round(peaks["all stages"] / 2**20, 1) if "all stages" in peaks else None,
            **counts}


# ---------------------------------------------------------------- MkDocs runs

def _project_config() -> dict:
    from mkdocs.utils.yaml import yaml_load
    with open(PROJECT_CONFIG, "rb") as f:
        return yaml_load(f) or {}


def _abs(path: str) -> str:
    return str((ROOT / path).resolve())


def write_atlas_config(work: Path, seeds: Path, data: Path | None, site: Path | None = None,
                       name: str = "atlas.mkdocs.yml") -> Path:
    """A mkdocs.yml inheriting the project's, pointed at ``seeds`` and a site in ``work``."""
    parent = _project_config()
    # The hand-written pages are copied next to the config, as in the project
    # (the plugin expects docs_dir inside the config's folder).
    shutil.copytree(ROOT / parent.get("docs_dir", "docs"), work / "docs", dirs_exist_ok=True)
    atlas = {key: _abs(value) if isinstance(value, str) and (ROOT / value).exists() else value
             for key, value in ((parent.get("plugins") or {}).get(PLUGIN) or {}).items()}
    atlas["seeds"] = str(seeds.resolve())
    atlas["curation"] = str(Path(data).resolve()) if data else _abs("data")
    overrides = {
        "INHERIT": str(PROJECT_CONFIG),
        "docs_dir": "docs",
        "site_dir": str(site or work / "site"),
        "watch": [],
        "plugins": {PLUGIN: atlas},
    }
    config = work / name
    config.write_text(json.dumps(overrides, indent=1), encoding="utf-8")   # JSON is YAML
    return config


def _nav_pages(nav) -> list[str]:
    if isinstance(nav, str):
        return [nav] if nav.endswith(".md") else []
    if isinstance(nav, dict):
        return [p for value in nav.values() for p in _nav_pages(value)]
    if isinstance(nav, list):
        return [p for item in nav for p in _nav_pages(item)]
    return []


def write_floor_project(work: Path, pages: int, site: Path | None = None,
                        name: str = "floor.mkdocs.yml", write_docs: bool = True) -> Path:
    """The floor: this site's own configuration (theme, plugins, extensions, nav and
    hand-written pages) with no hook, filled up to ``pages`` pages with minimal
    Markdown pages kept out of the nav. Nav entries that the hook would generate
    (the index pages) become minimal pages too."""
    parent = _project_config()
    docs = work / "floor" / "docs"
    if write_docs:
        _write_floor_docs(parent, docs, pages)
    overrides = {
        "INHERIT": str(PROJECT_CONFIG),
        "docs_dir": str(docs),
        "site_dir": str(site or work / "floor" / "site"),
        "watch": [],
        "not_in_nav": "/p/*.md\n",
        # Every plugin of the site but the atlas (a list replaces the inherited mapping).
        "plugins": [name for name in parent.get("plugins") or {} if name != PLUGIN],
    }
    config = work / name
    config.write_text(json.dumps(overrides, indent=1), encoding="utf-8")
    return config


def _write_floor_docs(parent: dict, docs: Path, pages: int) -> None:
    if docs.exists():
        shutil.rmtree(docs)
    shutil.copytree(ROOT / parent.get("docs_dir", "docs"), docs, dirs_exist_ok=True)
    for page in _nav_pages(parent.get("nav")):
        target = docs / page
        if not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(f"# {Path(page).parent.name or Path(page).stem}\n\nA minimal page.\n",
                              encoding="utf-8")
    existing = sum(1 for _ in docs.rglob("*.md"))
    (docs / "p").mkdir(parents=True, exist_ok=True)
    for i in range(1, max(pages - existing, 0) + 1):
        (docs / "p" / f"{i:05d}.md").write_text(f"# Page {i}\n\nA minimal page.\n", encoding="utf-8")


def _child_env() -> dict:
    return {**os.environ, "NO_MKDOCS_2_WARNING": "1", "PYTHONHASHSEED": "0"}


def run_mkdocs_build(config: Path, log: Path) -> dict:
    """``mkdocs build`` in a fresh interpreter; wall time includes start-up, like the CLI."""
    out = log.with_suffix(".json")
    code = _CHILD_BUILD.format(root=str(ROOT), config=str(config), out=str(out))
    start = time.perf_counter()
    with open(log, "w", encoding="utf-8") as f:
        proc = subprocess.run([sys.executable, "-c", code], cwd=config.parent, stdout=f,
                              stderr=subprocess.STDOUT, env=_child_env())
    seconds = time.perf_counter() - start
    text = log.read_text(encoding="utf-8", errors="replace")
    if proc.returncode != 0:
        raise RuntimeError(f"mkdocs build failed ({config}); log {log}:\n{text[-3000:]}")
    child = json.loads(out.read_text(encoding="utf-8"))
    own = child["own"]
    return {"seconds": round(seconds, 3),
            "in_process_seconds": round(child["in_process_seconds"], 3),
            "cpu_seconds": round(child["cpu_seconds"], 3),
            "peak_rss_mb": round(child["peak_rss_kb"] / 1024, 1),
            "hook_seconds": round(own["hook"], 3),
            "hook_cpu_seconds": round(own["hook_cpu"], 3),
            "warnings": len(re.findall(r"^WARNING\b", text, re.MULTILINE))}


def _edit_target(seeds: Path) -> tuple[Path, str]:
    """A listing to edit and a sentence end in it to append to (one abstract changes)."""
    from ..sources import listing_kind, seed_files
    for path in seed_files(seeds):
        if listing_kind(path) != "listing":
            continue
        text = path.read_text(encoding="utf-8")
        for marker in re.findall(r"[a-z]{4,}\.(?=\n)", text):
            if text.count(marker) == 1:
                return path, marker
    raise RuntimeError(f"no listing to edit in {seeds}")


def measure_rebuild(config: Path, seeds: Path, work: Path, dirty: bool = False) -> dict:
    """``mkdocs serve`` (or ``mkdocs serve --dirty``): cold, unchanged and edited builds
    in one long-lived process."""
    listing, marker = _edit_target(seeds)
    name = "rebuild-dirty" if dirty else "rebuild"
    out = work / f"{name}.json"
    code = _CHILD_REBUILD.format(root=str(ROOT), config=str(config), out=str(out),
                                 listing=str(listing), marker=marker, dirty=dirty)
    with open(work / f"{name}.log", "w", encoding="utf-8") as f:
        proc = subprocess.run([sys.executable, "-c", code], cwd=config.parent, stdout=f,
                              stderr=subprocess.STDOUT, env=_child_env())
    if proc.returncode != 0:
        raise RuntimeError(f"rebuild run failed; log {work / (name + '.log')}")
    result = json.loads(out.read_text(encoding="utf-8"))
    result["peak_rss_mb"] = round(result.pop("peak_rss_kb") / 1024, 1)
    return {k: round(v, 3) if isinstance(v, float) else v for k, v in result.items()}


# -------------------------------------------------------------------- the site

def _graph_weight(site: Path) -> dict | None:
    page = site / "graph" / "index.html"
    if not page.is_file():
        return None
    html = page.read_text(encoding="utf-8")
    files = {page}
    for ref in re.findall(r"""(?:src|href|data-[\w-]+)=["']([^"'#?]+\.json)""", html):
        target = (page.parent / ref).resolve()
        if target.is_file() and site.resolve() in target.parents:
            files.add(target)
    files.update(p.resolve() for p in (site / "graph").glob("*.json"))
    sizes = {p.resolve().relative_to(site.resolve()).as_posix(): p.stat().st_size for p in files}
    return {"bytes": sum(sizes.values()), "files": dict(sorted(sizes.items()))}


PAGE_KINDS = (("paper", r"papers/[^/]+/index\.html"), ("author", r"authors/(?!index/)[^/]+/index\.html"),
              ("venue", r"venues/[^/]+/index\.html"), ("technique", r"techniques/[^/]+/index\.html"),
              ("list part", r"[^/]+/[^/]+/page-\d+/index\.html"), ("authors A–Z", r"authors/index/.+"),
              ("graph", r"graph/.+"))
"""Page kinds the benchmark weighs separately (first match wins; the rest is "other")."""


def _page_kind(path: str) -> str:
    return next((kind for kind, pattern in PAGE_KINDS if re.fullmatch(pattern, path)), "other")


def site_stats(site: Path) -> dict:
    """Size and files of the built site; HTML bytes per page kind; the search index."""
    from ..render.paging import MAX_PAGE_BYTES
    total = files = 0
    pages = []
    kinds: dict[str, dict] = {}
    for path in site.rglob("*"):
        if path.is_file():
            size = path.stat().st_size
            total += size
            files += 1
            if path.suffix == ".html" and path.name != "404.html":
                rel = path.relative_to(site).as_posix()
                pages.append((size, rel))
                kind = kinds.setdefault(_page_kind(rel), {"pages": 0, "bytes": 0})
                kind["pages"] += 1
                kind["bytes"] += size
    pages.sort(reverse=True)
    papers = [(s, p) for s, p in pages if re.fullmatch(r"papers/[^/]+/index\.html", p)]
    search = site / "pagefind"
    search_files = [p for p in search.rglob("*") if p.is_file()] if search.is_dir() else []
    return {
        "pages": len(pages),
        "files": files,
        "site_bytes": total,
        "largest_page": {"path": pages[0][1], "bytes": pages[0][0]} if pages else None,
        "pages_over_bound": [p for s, p in pages if s > MAX_PAGE_BYTES],
        "paper_page_max": {"path": papers[0][1], "bytes": papers[0][0]} if papers else None,
        "paper_page_mean_bytes": round(sum(s for s, _ in papers) / len(papers)) if papers else None,
        "page_kinds": dict(sorted(kinds.items())),
        "search_index_bytes": sum(p.stat().st_size for p in search_files) if search_files else None,
        "search_index_files": len(search_files),
        "graph_page": _graph_weight(site),
    }


# ------------------------------------------------------------------------ run

def run_bench(papers: int = 1000, *, corpus: Path | None = None, seeds_dir: Path | None = None,
              seed: int = 0, data: Path | None = None, keep: Path | None = None,
              rebuild: bool = False, floor: bool = True, memory: bool = True,
              profile: Path | None = None, repeat: int = 1, log=None) -> dict:
    """Run the benchmark; ``repeat`` builds the atlas and the floor that many times,
    alternately, and keeps each one's fastest run (the machine may be shared)."""
    say = log or (lambda message: None)
    repeat = max(1, repeat)
    work = Path(keep) if keep else Path(tempfile.mkdtemp(prefix="atlas-bench-"))
    if keep and work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True, exist_ok=True)
    try:
        seeds = work / "seeds"
        start = time.perf_counter()
        written = prepare_seeds(seeds, papers, corpus=corpus, seed=seed, source=seeds_dir)
        input_seconds = time.perf_counter() - start
        say(f"input ready in {input_seconds:.1f} s; timing our stages")
        own = measure_stages(seeds, data, memory=memory, profile=profile)
        say(f"our stages: {own['own_seconds']:.1f} s; mkdocs build of the atlas")
        config = write_atlas_config(work, seeds, data)
        build = run_mkdocs_build(config, work / "atlas-build.log")
        stats = site_stats(work / "site")
        builds, floors = [build], []
        for run in range(repeat):
            if floor:
                say(f"floor: {stats['pages']:,} pages (run {run + 1} of {repeat})")
                site = work / "floor" / f"site-{run}"
                floors.append(run_mkdocs_build(
                    write_floor_project(work, stats["pages"], site, f"floor-{run}.mkdocs.yml",
                                        write_docs=run == 0),
                    work / f"floor-build-{run}.log"))
                floors[-1]["pages"] = site_stats(site)["pages"]
                shutil.rmtree(site, ignore_errors=True)
            if run + 1 < repeat:                # builds alternate, so load affects both alike
                say(f"mkdocs build of the atlas (run {run + 2} of {repeat})")
                site = work / f"site-{run + 1}"
                builds.append(run_mkdocs_build(
                    write_atlas_config(work, seeds, data, site, f"atlas-{run + 1}.mkdocs.yml"),
                    work / f"atlas-build-{run + 1}.log"))
                shutil.rmtree(site, ignore_errors=True)
        build = min(builds, key=lambda b: b["seconds"])
        report = {
            "input": {"kind": "seeds" if seeds_dir else "corpus" if corpus else "synthetic",
                      "source": str(seeds_dir or corpus or f"synth seed={seed}"),
                      "entries": written if written >= 0 else None,
                      "listing_files": sum(1 for p in seeds.rglob("*") if p.is_file()),
                      "seconds": round(input_seconds, 3)},
            "machine": {"python": platform.python_version(), "cpus": os.cpu_count(),
                        "platform": platform.platform()},
            **{k: v for k, v in own.items() if k not in ("stages", "own_seconds", "own_peak_mb")},
            "stages": own["stages"],
            "own_seconds": own["own_seconds"],
            "own_peak_mb": own["own_peak_mb"],
            "mkdocs_build": build,
            "mkdocs_build_runs": [b["seconds"] for b in builds],
            "site": stats,
        }
        if floors:
            report["floor"] = min(floors, key=lambda b: b["seconds"])
            report["floor_runs"] = [b["seconds"] for b in floors]
        if rebuild:
            say("rebuild after editing one listing")
            report["rebuild"] = measure_rebuild(config, seeds, work)
            say("the same with mkdocs serve --dirty")
            report["rebuild_dirty"] = measure_rebuild(config, seeds, work, dirty=True)
        report["ratios"] = _ratios(report)
        report["work_dir"] = str(work) if keep else None
        return report
    finally:
        if not keep:
            shutil.rmtree(work, ignore_errors=True)


def _ratios(report: dict) -> dict:
    build = report["mkdocs_build"]
    out = {
        # the pipeline stages (the hook), as a share of the build they ran in
        "own_share": round(build["hook_seconds"] / build["seconds"], 3),
        "own_share_cpu": round(build["hook_cpu_seconds"] / build["cpu_seconds"], 3),
    }
    total = build["seconds"]
    if "floor" in report and report["floor"]["seconds"]:
        out["total_vs_floor"] = round(total / report["floor"]["seconds"], 3)
        out["total_vs_floor_cpu"] = round(build["cpu_seconds"] / report["floor"]["cpu_seconds"], 3)
    return out


# --------------------------------------------------------------------- output

def _mb(value) -> str:
    return "" if value is None else f"{value / 2**20:.2f} MB"


def _kb(value) -> str:
    return "" if value is None else f"{value / 1024:.1f} KB"


def format_table(report: dict) -> str:
    rows = [("Stage", "Time (s)", "Peak memory")]
    for name, stage in report["stages"].items():
        peak = stage["peak_mb"]
        rows.append((name, f"{stage['seconds']:.2f}", "" if peak is None else f"{peak:.1f} MB traced"))
    own_peak = report.get("own_peak_mb")
    rows.append(("**our stages** (measured alone)", f"**{report['own_seconds']:.2f}**",
                 "" if own_peak is None else f"{own_peak:.1f} MB traced"))
    build = report["mkdocs_build"]
    rows.append(("**mkdocs build, total**", f"**{build['seconds']:.2f}** (CPU {build['cpu_seconds']:.1f})",
                 f"{build['peak_rss_mb']:.0f} MB RSS"))
    rows.append(("of which: the hook (all stages above)",
                 f"{build['hook_seconds']:.2f} (CPU {build['hook_cpu_seconds']:.1f})", ""))
    if "floor" in report:
        floor = report["floor"]
        rows.append((f"floor: plain mkdocs-material, {floor['pages']:,} pages",
                     f"{floor['seconds']:.2f} (CPU {floor['cpu_seconds']:.1f})",
                     f"{floor['peak_rss_mb']:.0f} MB RSS"))
    if "rebuild" in report:
        r = report["rebuild"]
        rows.append(("rebuild after editing one listing", f"{r['edited_seconds']:.2f}",
                     f"our part {r['edited_own_seconds']:.2f} s"))
    if "rebuild_dirty" in report:
        r = report["rebuild_dirty"]
        rows.append(("the same, `mkdocs serve --dirty`", f"{r['edited_seconds']:.2f}",
                     f"our part {r['edited_own_seconds']:.2f} s"))
    width = [max(len(r[i]) for r in rows) for i in range(3)]
    lines = [f"Benchmark: {report['papers']:,} papers, {report['authors']:,} authors "
             f"({report['input']['kind']}: {report['input']['source']})", ""]
    for i, row in enumerate(rows):
        lines.append("| " + " | ".join(c.ljust(width[j]) for j, c in enumerate(row)) + " |")
        if i == 0:
            lines.append("| " + " | ".join("-" * w for w in width) + " |")
    site = report["site"]
    ratios = report["ratios"]
    graph = site["graph_page"]
    facts = [("pages", f"{site['pages']:,}"),
             ("site size", _mb(site["site_bytes"])),
             ("largest page", f"{site['largest_page']['path']} ({_kb(site['largest_page']['bytes'])})"
              if site["largest_page"] else ""),
             ("largest paper page", f"{site['paper_page_max']['path']} "
              f"({_kb(site['paper_page_max']['bytes'])}; mean {_kb(site['paper_page_mean_bytes'])})"
              if site["paper_page_max"] else "none"),
             ("search index (Pagefind, fetched in pieces)",
              f"{_mb(site['search_index_bytes'])} in {site['search_index_files']:,} files"),
             ("site files", f"{site['files']:,} ({site['files'] / max(report['papers'], 1):.1f} per paper; "
              f"{_kb(site['site_bytes'] / max(report['papers'], 1))} per paper)"),
             ("HTML per paper, by page kind", "; ".join(
                 f"{kind} {_kb(k['bytes'] / max(report['papers'], 1))} ({k['pages']:,} pages)"
                 for kind, k in site["page_kinds"].items())),
             ("pages over 500 KB", ", ".join(site["pages_over_bound"]) or "none"),
             ("graph page", f"{_mb(graph['bytes'])} ({', '.join(graph['files'])})" if graph
              else "no graph page"),
             ("our stages / total build", f"{ratios['own_share']:.1%} wall, {ratios['own_share_cpu']:.1%} CPU "
              f"(target ≤ {TARGETS['own_share']:.0%})")]
    if "total_vs_floor" in ratios:
        facts.append(("total / floor", f"{ratios['total_vs_floor']:.2f}× wall, "
                      f"{ratios['total_vs_floor_cpu']:.2f}× CPU (target ≤ {TARGETS['total_vs_floor']}×)"))
    for key, name in (("rebuild", "serve-style rebuilds"), ("rebuild_dirty", "serve --dirty rebuilds")):
        if key in report:
            r = report[key]
            facts.append((name, f"cold {r['cold_seconds']:.2f} s, unchanged "
                          f"{r['unchanged_seconds']:.2f} s (our part {r['unchanged_own_seconds']:.2f} s), "
                          f"after editing {r['edited']} {r['edited_seconds']:.2f} s "
                          f"(our part {r['edited_own_seconds']:.2f} s)"))
    lines += [""] + [f"- {k}: {v}" for k, v in facts]
    return "\n".join(lines)


def top_functions(profile: Path, limit: int = 25) -> str:
    out = io.StringIO()
    pstats.Stats(str(profile), stream=out).sort_stats("cumulative").print_stats(limit)
    return out.getvalue()


def main(args) -> int:
    def say(message: str) -> None:
        print(f"[bench] {message}", file=sys.stderr, flush=True)

    report = run_bench(args.papers, corpus=Path(args.corpus) if args.corpus else None,
                       seeds_dir=Path(args.seeds_dir) if args.seeds_dir else None, seed=args.seed,
                       data=Path(args.data) if args.data else None,
                       keep=Path(args.keep) if args.keep else None, rebuild=args.rebuild,
                       floor=not args.no_floor, memory=not args.no_memory,
                       profile=Path(args.profile) if args.profile else None,
                       repeat=args.repeat, log=say)
    print(format_table(report))
    if args.profile:
        print("\n```\n" + top_functions(Path(args.profile)) + "```")
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    say(f"bench process peak RSS {peak / 1024:.0f} MB")
    return 0
