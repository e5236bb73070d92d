"""Lighthouse scores of a built site's pages, served as a static host would.

    python -m build_graph.devtools.lighthouse SITE_DIR --lighthouse PATH/TO/lighthouse

Serves ``SITE_DIR`` on 127.0.0.1 with gzip (``localserver.GzipHandler``, as
GitHub Pages does), runs the Lighthouse CLI (``npm install lighthouse`` in a
folder of your choice; it needs Node) with its mobile defaults against each
page in headless Chromium, and prints performance, accessibility, best
practices and SEO per page, the median of ``--runs`` runs. Lighthouse's
mobile preset simulates a slow phone and network from a trace of the real
load, so a busy machine still lowers the performance score: run it on a
quiet one.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import tempfile
from pathlib import Path

from .localserver import LocalServer

CATEGORIES = ("performance", "accessibility", "best-practices", "seo")


def score(lighthouse: str, url: str, chrome: str) -> dict[str, int]:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "report.json"
        subprocess.run([lighthouse, url, "--quiet", "--output=json", f"--output-path={out}",
                        "--chrome-flags=--headless=new --no-sandbox"],
                       check=True, env={"CHROME_PATH": chrome, "PATH": "/usr/bin:/bin"},
                       stdout=subprocess.DEVNULL)
        report = json.loads(out.read_text("utf-8"))
    return {name: round(report["categories"][name]["score"] * 100) for name in CATEGORIES}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m build_graph.devtools.lighthouse", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("site", type=Path, help="a built site (mkdocs build -d SITE)")
    parser.add_argument("pages", nargs="*", help="paths below the site's root (default: the home page)")
    parser.add_argument("--lighthouse", required=True, help="the Lighthouse CLI (node_modules/.bin/lighthouse)")
    parser.add_argument("--chrome", default="/usr/bin/chromium")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json", type=Path, help="also write every run's scores here")
    args = parser.parse_args(argv)
    pages = args.pages or [""]
    results = {}
    with LocalServer(args.site, gzip=True) as server:
        for page in pages:
            runs = [score(args.lighthouse, server.url + page.lstrip("/"), args.chrome) for _ in range(args.runs)]
            results[page or "/"] = runs
            median = {name: statistics.median_low(run[name] for run in runs) for name in CATEGORIES}
            print(f"{page or '/':60s} " + " ".join(f"{median[name]:4d}" for name in CATEGORIES)
                  + f"   (performance runs: {', '.join(str(run['performance']) for run in runs)})", flush=True)
    if args.json:
        args.json.write_text(json.dumps(results, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
