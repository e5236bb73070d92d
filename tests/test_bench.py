"""The benchmark's pieces at tiny sizes: generator and one smoke run.

The benchmark itself (``python -m build_graph bench``) is not part of the test
run; ``test_bench_smoke`` runs it once at 10 papers without the floor build.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections import Counter
from pathlib import Path

import pytest

from build_graph.devtools.synth import write_synthetic_seeds
from site_pages import search_fragments

ROOT = Path(__file__).resolve().parent.parent


def _digest(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())}


def test_synth_is_deterministic(tmp_path):
    write_synthetic_seeds(tmp_path / "a", 150, seed=3)
    write_synthetic_seeds(tmp_path / "b", 150, seed=3)
    write_synthetic_seeds(tmp_path / "c", 150, seed=4)
    assert _digest(tmp_path / "a") == _digest(tmp_path / "b")
    assert _digest(tmp_path / "a") != _digest(tmp_path / "c")


def test_synth_parses_into_exactly_that_many_papers(tmp_path):
    from build_graph.pipeline import build_atlas
    write_synthetic_seeds(tmp_path, 250, seed=0)
    atlas = build_atlas(tmp_path, strict=True)
    assert len(atlas.corpus.papers) == 250
    formats = Counter(row.format for row in atlas.corpus.ledger)
    assert formats["papers-cool"] >= 1 and formats["arxiv-listing"] >= 1
    assert formats["session-schedule"] >= 1
    assert any(p.name.endswith(".meta.yaml") for p in tmp_path.iterdir())
    for row in atlas.corpus.ledger:
        assert row.detected == row.made and row.merged == 0 and not row.skipped, row
    assert not [f for f in atlas.findings if f.code in ("ambiguous-date", "weekday-mismatch",
                                                          "unknown-venue", "missing-authors")]
    # Realistic shape: some prolific authors, most people on one paper, techniques tagged.
    per_author = Counter(a for p in atlas.corpus.papers for a in p.authors)
    assert max(per_author.values()) >= 8
    assert sum(1 for n in per_author.values() if n == 1) > len(per_author) / 2
    tagged = sum(1 for p in atlas.corpus.papers if p.techniques)
    assert tagged > 0.6 * len(atlas.corpus.papers)
    assert sum(1 for p in atlas.corpus.papers if p.untitled) == round(250 * 0.08)


def test_synth_uses_real_listing_formats(tmp_path):
    from build_graph.sources import detect
    from build_graph.sources.text import read_listing
    write_synthetic_seeds(tmp_path, 120, seed=1)
    names = {detect(read_listing(p, p.name), p.name).NAME
             for p in tmp_path.iterdir() if p.suffix == ".txt"}
    assert names == {"papers-cool", "arxiv-listing", "session-schedule"}


# --- the benchmark, once, tiny ---------------------------------------------------------------

def test_bench_smoke(tmp_path):
    from build_graph.devtools.bench import STAGES, format_table, run_bench
    report = run_bench(10, seed=1, keep=tmp_path / "work", floor=False, rebuild=False)
    assert report["papers"] == 10
    for stage in STAGES:
        if stage == "layout" and "layout" not in report["stages"]:
            continue
        assert report["stages"][stage]["seconds"] >= 0
        assert report["stages"][stage]["peak_mb"] is not None
    build = report["mkdocs_build"]
    assert 0 < report["own_seconds"] < build["seconds"] < 120
    assert build["peak_rss_mb"] > 10
    assert 0 < build["hook_seconds"] < build["seconds"]
    assert 0 < report["ratios"]["own_share_cpu"] < 1
    site = report["site"]
    assert site["pages"] >= report["generated_pages"] > 10
    assert 0 < site["paper_page_max"]["bytes"] < 60 * 1024
    assert site["search_index_bytes"] > 0
    assert site["largest_page"]["bytes"] >= site["paper_page_max"]["bytes"]
    json.dumps(report)                                       # the --json output
    table = format_table(report)
    assert "| parse" in table and "mkdocs build, total" in table and "search index" in table
    assert os.path.isdir(tmp_path / "work" / "site")


def test_serve_rebuilds_only_what_an_edit_changed(tmp_path):
    """``mkdocs serve`` and ``mkdocs serve --dirty`` after editing one abstract, as
    the benchmark runs them (one long-lived process, config reloaded per build):
    an unchanged rebuild reuses the parsed atlas, and the site still holds
    every page, the new text, and a search index with every paper once."""
    from build_graph.devtools.bench import format_table, run_bench
    work = tmp_path / "work"
    report = run_bench(6, seed=2, keep=work, floor=False, memory=False, rebuild=True)
    for kind in ("rebuild", "rebuild_dirty"):
        r = report[kind]
        assert r["unchanged_own_seconds"] < r["cold_own_seconds"], kind
    assert "serve --dirty" in format_table(report)
    site = work / "site"
    papers = sorted(p.parent.name for p in (site / "papers").glob("*/index.html"))
    located = [url for url in search_fragments(site) if url.startswith("/papers/") and url.count("/") == 3]
    assert sorted(url.split("/")[2] for url in located) == papers     # each paper, once
    edited = [p for p in (site / "papers").glob("*/index.html")
              if "We also evaluate it on a new workload." in p.read_text(encoding="utf-8")]
    assert len(edited) == 1
