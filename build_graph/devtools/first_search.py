"""What one search costs a visitor: ``python -m build_graph.devtools.first_search SITE QUERY``.

Loads a built site's home page in Chromium from a local server (no
compression: the worst case), opens the header's search, types ``QUERY`` and
reports the bytes of every response until the network is idle (the home page
plus the search's pieces of the Pagefind index) and the time from the last
keystroke to the first result shown (it includes the search's 150 ms
debounce). The figures in docs/performance.md ("Field scale") come from here.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from .localserver import LocalServer

CHROMIUM = "/usr/bin/chromium"


def measure(site: Path, query: str) -> dict:
    from playwright.sync_api import sync_playwright
    server = LocalServer(site)
    server.start()
    sizes: dict[str, int] = {}
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            page = browser.new_page(viewport={"width": 1280, "height": 800})

            def finished(request):
                size = request.sizes()
                sizes[request.url] = size["responseBodySize"] + size["responseHeadersSize"]

            page.on("requestfinished", finished)
            page.goto(server.url)
            page.wait_for_load_state("networkidle")
            home = sum(sizes.values())
            page.locator(".md-search__input").first.click()
            page.keyboard.type(query)
            start = time.perf_counter()
            page.wait_for_selector(".atlas-search .md-search-result__item")
            first = time.perf_counter() - start
            page.wait_for_load_state("networkidle")
            count = page.locator(".atlas-search .md-search-result__meta").inner_text()
            browser.close()
    finally:
        server.stop()
    largest = sorted(sizes.items(), key=lambda kv: -kv[1])[:8]
    return {"home_bytes": home, "total_bytes": sum(sizes.values()), "requests": len(sizes),
            "first_result_seconds": round(first, 2), "results": count,
            "largest": [(url[len(server.url):], size) for url, size in largest]}


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__.splitlines()[0], file=sys.stderr)
        return 2
    report = measure(Path(argv[0]), argv[1])
    print(f"home {report['home_bytes'] / 1024:.1f} KB; home + first search {report['total_bytes'] / 1024:.1f} KB "
          f"in {report['requests']} requests; first result {report['first_result_seconds']:.2f} s "
          f"({report['results']})")
    for url, size in report["largest"]:
        print(f"  {size / 1024:8.1f} KB  {url}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
