"""Screenshots of chart pages in both palettes, for docs/trends.md.

    python -m build_graph.devtools.screenshots SITE_DIR OUT_DIR [PAGE ...]

``SITE_DIR`` is a built site (``mkdocs build -d SITE_DIR``); it is served
locally and each page (default: the home page, the Trends page and one
technique page) is shot in Chromium at 1000 px wide, light and dark
(``color_scheme``, which the site's palette follows), as
``OUT_DIR/<name>-<light|dark>.png``. Only the top ``HEIGHT`` pixels are
kept (``TALL`` for the Trends page), so the PNGs stay small enough to commit.
"""

from __future__ import annotations

import sys
from pathlib import Path

from .localserver import LocalServer

CHROMIUM = "/usr/bin/chromium"
WIDTH, HEIGHT = 1000, 1100
TALL = {"trends": 1900}
"""Pages shot taller than ``HEIGHT``: the Trends page's area grid sits below its ranking."""
PAGES = {"home": "", "trends": "trends/", "technique": "techniques/large-language-models/"}


def shoot(site: Path, out: Path, pages: dict[str, str]) -> list[Path]:
    from playwright.sync_api import sync_playwright
    out.mkdir(parents=True, exist_ok=True)
    written = []
    with LocalServer(site) as server, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        for scheme in ("light", "dark"):
            context = browser.new_context(viewport={"width": WIDTH, "height": HEIGHT},
                                          color_scheme=scheme, service_workers="block")
            page = context.new_page()
            for name, path in pages.items():
                page.goto(server.url + path, wait_until="networkidle")
                target = out / f"{name}-{scheme}.png"
                page.set_viewport_size({"width": WIDTH, "height": TALL.get(name, HEIGHT)})
                page.screenshot(path=str(target), clip={"x": 0, "y": 0, "width": WIDTH,
                                                        "height": TALL.get(name, HEIGHT)})
                written.append(target)
            context.close()
        browser.close()
    return written


def shot_name(path: str) -> str:
    """``""`` → home, ``trends/`` → trends, ``techniques/<id>/`` → technique."""
    parts = [p for p in path.split("/") if p]
    if not parts:
        return "home"
    return parts[0][:-1] if len(parts) > 1 and parts[0].endswith("s") else parts[0]


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    pages = {shot_name(p): p for p in argv[2:]} or PAGES
    for path in shoot(Path(argv[0]), Path(argv[1]), pages):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
