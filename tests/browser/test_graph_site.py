"""The built site's graph pages, read as files: sizes, offline assets, search index.

These need the MkDocs build (the session fixture) but no browser.
"""

from __future__ import annotations

import filecmp
import json
import re

from build_graph.render.explorer import vendor_files
from site_pages import search_fragments

PAPER_PAGE_LIMIT = 60 * 1024
EXTERNAL_ASSET = re.compile(
    r"<(?:script|img|iframe|audio|video|source)\b[^>]*\bsrc\s*=\s*[\"']?(?:https?:)?//"
    r"|<link\b[^>]*\bhref\s*=\s*[\"']?(?:https?:)?//[^>]*>", re.IGNORECASE)


def test_paper_pages_stay_small(site_dir):
    sizes = {p.parent.name: p.stat().st_size for p in (site_dir / "papers").glob("*/index.html")}
    assert sizes
    biggest = max(sizes, key=sizes.get)
    assert sizes[biggest] <= PAPER_PAGE_LIMIT, f"papers/{biggest}/ is {sizes[biggest]} bytes"


def test_no_page_loads_an_asset_from_another_host(site_dir):
    offenders = []
    for page in site_dir.rglob("*.html"):
        for match in EXTERNAL_ASSET.finditer(page.read_text(encoding="utf-8")):
            tag = match.group(0)
            if 'rel="canonical"' in tag or "rel=canonical" in tag:
                continue
            offenders.append(f"{page.relative_to(site_dir)}: {tag[:120]}")
    assert offenders == []


def test_vis_network_is_served_by_the_site(site_dir):
    for src_uri, source in vendor_files().items():
        assert filecmp.cmp(site_dir / src_uri, source, shallow=False)
    graph_page = (site_dir / "graph" / "index.html").read_text(encoding="utf-8")
    # The library is never inlined: the page references the shared script only.
    assert "vis-network" not in graph_page
    assert graph_page.count("atlas-graph.js") == 1
    assert len(graph_page.encode()) < 100 * 1024


def test_graph_pages_are_kept_out_of_search(site_dir):
    urls = set(search_fragments(site_dir))
    assert urls and not {u for u in urls if u.startswith("/graph/")}
    # Nor the lists of each map node's papers (they repeat the entity pages), which exist.
    assert list((site_dir / "graph" / "t").glob("*/index.html"))


def test_graph_data_is_not_in_the_page(site_dir):
    data = json.loads((site_dir / "assets" / "graph" / "explorer.json").read_text(encoding="utf-8"))
    page = (site_dir / "graph" / "index.html").read_text(encoding="utf-8")
    assert data["nodes"]
    assert data["nodes"][-1]["url"] not in page
