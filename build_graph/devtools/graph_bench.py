"""``python -m build_graph.devtools.graph_bench --papers 5000``: is the graph explorer usable at N papers?

The budget for the explorer (issue 18): the page and its data on first load
<= 1 MB up to 5,000 papers and <= 2 MB beyond (20,000), first draw <= 1.5 s
in headless Chromium on this machine, and bringing in a technique's first
200 papers <= 0.5 s. This script measures them on a real build, in a real
browser, because none can be predicted from Python:

1. **Input**: ``synth.write_synthetic_seeds`` writes N papers in the
   project's real listing formats (recombined from ``seeds/``), so the graph
   has a realistic mix of techniques, venues, years and authors. With
   ``--corpus FILE.jsonl`` the real papers of that corpus come first (copied
   into the seeds folder, read as a ``jsonl-corpus``) and synthetic ones make
   up the rest of N.
2. **Build**: ``mkdocs build`` with the project's ``mkdocs.yml`` inherited and
   the atlas plugin's ``seeds`` pointing at the synthetic seeds. By default
   ``graph_only_hook.py`` is added as a hook that drops the per-entity pages
   (papers/x.md, authors/y.md, ...) after the atlas plugin has generated them:
   they do not change the graph page, and rendering 25,000 of them takes
   MkDocs many minutes. ``--full`` builds the whole site instead.
3. **Measure**: the site is served on 127.0.0.1 and Debian's Chromium
   (``/usr/bin/chromium``, headless, no network) opens ``graph/`` ``--runs``
   times, each in a fresh browser context (cold cache). *First render* is
   the time from navigation start until vis-network's first ``afterDrawing``
   with the nodes in it (``window.atlasGraphs.explorer.firstDrawMs``, a
   ``performance.now()`` value, so its origin is navigation start). *Page
   weight* is the bytes of the HTML, JSON, scripts and styles the page
   loads (Resource Timing's ``encodedBodySize``; the local server does not
   compress). Material's search index is fetched by every page of the site
   and is reported on its own line, not counted in the graph's budget.
   *Expand* is the time from asking for the biggest technique's papers
   (``explorer.expand``: fetch its first chunk, add its nodes) to the next
   frame drawn with them.

Output: a Markdown table on standard output, and ``--json FILE``. Record the
figures and the command in ``docs/graph-explorer.md``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

from . import graph_only_hook
from .localserver import LocalServer

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
BUDGET = {"first_render_ms": 1500, "expand_ms": 500}


def weight_budget(papers: int) -> int:
    """First-load bytes allowed: 1 MB up to 5,000 papers, 2 MB beyond."""
    return (1 if papers <= 5000 else 2) * 1024 * 1024


EXPAND = """async () => {
  const e = window.atlasGraphs.explorer;
  let best = null;
  for (const n of Object.values(e.info)) {
    if (n.group === 'technique' && !n.area && (!best || n.value > best.value)) best = n;
  }
  const start = performance.now();
  const added = await e.expand(best.id, 1);
  await new Promise((resolve) => { e.network.once('afterDrawing', resolve); e.network.redraw(); });
  return {ms: performance.now() - start, added: added, technique: best.label, papers: best.value,
          drawn: e.drawn()};
}"""

READY = """() => {
  const e = window.atlasGraphs && window.atlasGraphs.explorer;
  return Boolean(e && e.firstDrawMs !== null);
}"""

MEASURE = """() => {
  const e = window.atlasGraphs.explorer;
  const nav = performance.getEntriesByType('navigation')[0];
  const files = [[location.pathname, 'html', nav.encodedBodySize]];
  for (const r of performance.getEntriesByType('resource')) {
    files.push([new URL(r.name).pathname, r.initiatorType, r.encodedBodySize]);
  }
  return {firstDrawMs: e.firstDrawMs, timings: e.timings, drawn: e.drawn(),
          edgesDrawn: e.edgesDrawn, files: files};
}"""


def write_seeds(folder: Path, papers: int, seed: int) -> None:
    from .synth import write_synthetic_seeds
    write_synthetic_seeds(folder, papers, seed)


def build_site(seeds: Path, out: Path, full: bool) -> float:
    config = ROOT / f".graph-bench-{uuid.uuid4().hex[:12]}.yml"
    hooks = [] if full else [graph_only_hook.__file__]
    config.write_text("INHERIT: mkdocs.yml\n"
                      "hooks:\n" + "".join(f"  - {Path(hook).resolve().as_posix()!r}\n" for hook in hooks) +
                      f"plugins:\n  mlsys-atlas:\n    seeds: {seeds.resolve().as_posix()!r}\n",
                      encoding="utf-8")
    start = time.perf_counter()
    try:
        run = subprocess.run([sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(config),
                              "-d", str(out)], cwd=ROOT, capture_output=True, text=True,
                             env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    finally:
        config.unlink(missing_ok=True)
    if run.returncode != 0:
        raise SystemExit(f"mkdocs build failed:\n{run.stdout}\n{run.stderr}")
    return time.perf_counter() - start


def _kind(path: str, initiator: str) -> str:
    if path.endswith("search_index.json") or "/pagefind/" in path:
        return "search index"
    if path.endswith(".json"):
        return "graph data"
    if path.endswith(".js"):
        return "scripts"
    if path.endswith(".css"):
        return "styles"
    if initiator == "html" or path.endswith("/") or path.endswith(".html"):
        return "html"
    return "other"


def measure(site: Path, runs: int) -> dict:
    if not CHROMIUM.exists():
        raise SystemExit(f"Chromium not found at {CHROMIUM}; install it with apt-get install -y chromium")
    from playwright.sync_api import sync_playwright
    server = LocalServer(site)
    server.start()
    url = server.url + "graph/"
    results, external, errors = [], [], []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            version = browser.version
            for _ in range(runs):
                context = browser.new_context(viewport={"width": 1280, "height": 900})
                page = context.new_page()
                page.on("request", lambda r: external.append(r.url)
                        if r.url.startswith(("http:", "https:")) and "//127.0.0.1:" not in r.url else None)
                page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
                page.goto(url)
                page.wait_for_function(READY, timeout=120_000)
                page.wait_for_load_state("networkidle")
                results.append(page.evaluate(MEASURE))
                results[-1]["expand"] = page.evaluate(EXPAND)
                context.close()
            browser.close()
    finally:
        server.stop()
    weights: dict[str, int] = {}
    for path, initiator, size in results[0]["files"]:
        kind = _kind(path, initiator)
        weights[kind] = weights.get(kind, 0) + size
    first = [r["firstDrawMs"] for r in results]
    expand = [r["expand"]["ms"] for r in results]
    return {
        "url": "graph/", "runs": runs, "chromium": version,
        "first_render_ms": {"median": round(statistics.median(first)), "min": round(min(first)),
                            "max": round(max(first)), "all": [round(x) for x in first]},
        "expand_ms": {"median": round(statistics.median(expand)), "all": [round(x) for x in expand]},
        "expanded": {k: v for k, v in results[0]["expand"].items() if k != "ms"},
        "network_created_ms": round(statistics.median(r["timings"]["networkCreated"] for r in results)),
        "nodes_drawn": results[0]["drawn"], "edges_drawn": results[0]["edgesDrawn"],
        "weights": weights,
        "page_weight_bytes": sum(v for k, v in weights.items() if k != "search index"),
        "files": sorted({(p, s) for p, _, s in results[0]["files"]}, key=lambda f: -f[1])[:12],
        "external_requests": sorted(set(external)), "console_errors": errors,
    }


SHOT_SIZE = {"width": 1000, "height": 760}


def _shrink(path: Path) -> None:
    """A 32-colour palette PNG with pngquant (``apt-get install pngquant``), when installed:
    a fifth of the bytes and the same look for a picture of flat colours and text."""
    pngquant = shutil.which("pngquant")
    if not pngquant:
        print(f"pngquant not found: {path} left as Chromium wrote it", file=sys.stderr)
        return
    subprocess.run([pngquant, "--force", "--skip-if-larger", "--strip", "--output", str(path), "32", str(path)],
                   check=False)


def screenshots(site: Path, folder: Path) -> list[Path]:
    """The default view and the biggest technique brought in, in the light and dark palettes.

    Four PNGs of the explorer's canvas, for docs/graph-explorer.md."""
    from playwright.sync_api import sync_playwright
    folder.mkdir(parents=True, exist_ok=True)
    server = LocalServer(site)
    server.start()
    shots = []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            for scheme in ("light", "dark"):
                page = browser.new_page(viewport=SHOT_SIZE, device_scale_factor=1)
                page.emulate_media(reduced_motion="reduce")
                page.goto(server.url + "graph/")
                page.wait_for_function(READY, timeout=120_000)
                if scheme == "dark":
                    page.click('label[for="__palette_1"]')          # Material's palette toggle
                    page.wait_for_function("() => window.atlasGraphs.explorer.scheme === 'slate'")
                canvas = page.locator(".atlas-graph-canvas")
                canvas.scroll_into_view_if_needed()
                page.evaluate("() => window.atlasGraphs.explorer.network.fit({animation: false})")
                page.wait_for_timeout(300)
                shots.append(folder / f"map-{scheme}.png")
                canvas.screenshot(path=str(shots[-1]))
                page.evaluate(EXPAND)
                page.evaluate("""() => {
                  const e = window.atlasGraphs.explorer;
                  const id = Object.keys(e.expanded)[0];
                  const ids = [Number(id)].concat(e.network.body.nodeIndices.filter(n => String(n).startsWith('p:')));
                  e.network.fit({nodes: ids, animation: false});
                  e.network.redraw();
                }""")
                page.wait_for_timeout(300)
                shots.append(folder / f"expanded-{scheme}.png")
                canvas.screenshot(path=str(shots[-1]))
                page.close()
            browser.close()
    finally:
        server.stop()
    for shot in shots:
        _shrink(shot)
    return shots


def graph_counts(site: Path) -> dict:
    folder = site / "assets" / "graph"
    data = json.loads((folder / "explorer.json").read_text(encoding="utf-8"))
    kinds: dict[str, int] = {}
    for node in data["nodes"]:
        kind = "area" if node.get("area") else node["group"]
        kinds[kind] = kinds.get(kind, 0) + 1
    chunks = [path.stat().st_size for path in folder.glob("[tv]/*/*.json")]
    return {"nodes": len(data["nodes"]), "edges": len(data["edges"]), "by_type": kinds,
            "chunk_files": len(chunks), "largest_chunk_bytes": max(chunks, default=0),
            "search_json_bytes": (folder / "search.json").stat().st_size}


def machine() -> dict:
    model = ""
    try:
        model = next((line.split(":", 1)[1].strip() for line in
                      Path("/proc/cpuinfo").read_text().splitlines() if line.startswith("model name")), "")
    except OSError:
        pass
    return {"cpus": os.cpu_count(), "cpu": model or platform.processor(),
            "load_average": [round(x, 2) for x in os.getloadavg()], "python": platform.python_version()}


def _mb(n: int) -> str:
    return f"{n / 1024 / 1024:.2f} MB"


def report(result: dict) -> str:
    m = result["measure"]
    g = result["graph"]
    w = m["weights"]
    budget = weight_budget(result["papers"])
    ok_weight = m["page_weight_bytes"] <= budget
    ok_time = m["first_render_ms"]["median"] <= BUDGET["first_render_ms"]
    ok_expand = m["expand_ms"]["median"] <= BUDGET["expand_ms"]
    rows = [
        ("papers", f"{result['papers']:,}"),
        ("nodes drawn (the map)", f"{m['nodes_drawn']:,} of {g['nodes']:,} "
         f"({', '.join(f'{v:,} {k}s' for k, v in sorted(g['by_type'].items()))})"),
        ("links drawn", f"{m['edges_drawn']:,} of {g['edges']:,}"),
        ("papers on demand", f"{g['chunk_files']:,} chunk files, largest {g['largest_chunk_bytes'] / 1024:.0f} KB; "
         f"search index {_mb(g['search_json_bytes'])} (fetched on the first search)"),
        ("first load", f"**{_mb(m['page_weight_bytes'])}** (budget {_mb(budget)}: {'ok' if ok_weight else 'OVER'}): "
         + ", ".join(f"{k} {_mb(v)}" for k, v in sorted(w.items()) if k != "search index")),
        ("search index (loaded by every page; not in the budget)",
         _mb(w.get("search index", 0)) + ("" if result["full"] else
                                          " (entity pages not built: run --full for the real size)")),
        ("first draw, median of " + str(m["runs"]),
         f"**{m['first_render_ms']['median']} ms** (budget 1,500 ms: {'ok' if ok_time else 'OVER'}); "
         f"runs {', '.join(map(str, m['first_render_ms']['all']))} ms"),
        (f"expand \"{m['expanded']['technique']}\" ({m['expanded']['papers']:,} papers; "
         f"{m['expanded']['added']} drawn)",
         f"**{m['expand_ms']['median']} ms** (budget 500 ms: {'ok' if ok_expand else 'OVER'}); "
         f"runs {', '.join(map(str, m['expand_ms']['all']))} ms"),
        ("vis Network created at (median)", f"{m['network_created_ms']} ms"),
        ("requests to other hosts / console errors",
         f"{len(m['external_requests'])} / {len(m['console_errors'])}"),
        ("site build", f"{result['build_seconds']:.0f} s ({'full site' if result['full'] else 'graph and index pages'})"),
        ("machine", f"{result['machine']['cpus']} CPUs ({result['machine']['cpu']}), load average "
         f"{', '.join(map(str, result['machine']['load_average']))}; Chromium {m['chromium']}"),
    ]
    return "\n".join(["| Measure | Value |", "| --- | --- |"] + [f"| {k} | {v} |" for k, v in rows])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m build_graph.devtools.graph_bench",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--papers", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=0, help="synthetic input seed (default 0)")
    parser.add_argument("--corpus", help="a jsonl corpus whose papers come first; synthetic ones fill up to --papers")
    parser.add_argument("--runs", type=int, default=5, help="page loads to measure (default 5)")
    parser.add_argument("--full", action="store_true", help="build every page, not just the graph and index pages")
    parser.add_argument("--site", help="measure this already built site instead of building one")
    parser.add_argument("--keep", help="build into this folder and keep it")
    parser.add_argument("--json", help="also write the results to this file")
    parser.add_argument("--screenshots", help="also save the default view and an expanded technique, "
                                              "light and dark, as PNGs in this folder")
    args = parser.parse_args(argv)

    work = Path(tempfile.mkdtemp(prefix="atlas-graph-bench-"))
    try:
        build_seconds = 0.0
        if args.site:
            site = Path(args.site)
        else:
            seeds = work / "seeds"
            real = 0
            if args.corpus:
                seeds.mkdir(parents=True)
                shutil.copyfile(args.corpus, seeds / Path(args.corpus).name)
                with open(args.corpus, encoding="utf-8") as corpus:
                    real = sum(1 for line in corpus if line.strip())
            print(f"writing {max(0, args.papers - real)} synthetic papers ...", file=sys.stderr)
            write_seeds(seeds, max(0, args.papers - real), args.seed)
            site = Path(args.keep) if args.keep else work / "site"
            print(f"building the site ({'full' if args.full else 'graph and index pages'}) ...", file=sys.stderr)
            build_seconds = build_site(seeds, site, args.full)
        print(f"measuring {args.runs} page loads in Chromium ...", file=sys.stderr)
        result = {"papers": args.papers, "seed": args.seed, "full": args.full,
                  "build_seconds": build_seconds, "graph": graph_counts(site),
                  "measure": measure(site, args.runs), "machine": machine(),
                  "command": "python -m build_graph.devtools.graph_bench " + " ".join(argv or sys.argv[1:])}
        if args.screenshots:
            for shot in screenshots(site, Path(args.screenshots)):
                print(f"saved {shot} ({shot.stat().st_size / 1024:.0f} KB)", file=sys.stderr)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(report(result))
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    within = (result["measure"]["page_weight_bytes"] <= weight_budget(args.papers)
              and result["measure"]["first_render_ms"]["median"] <= BUDGET["first_render_ms"]
              and result["measure"]["expand_ms"]["median"] <= BUDGET["expand_ms"])
    return 0 if within else 1


if __name__ == "__main__":
    sys.exit(main())
