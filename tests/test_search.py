"""The search index (``build_graph/search.py``): Pagefind over the pages' searchable
HTML, run in the background while MkDocs writes the site.

The promise: the bundle the plugin publishes is the one Pagefind gives when it
crawls the finished site, page for page; a hand-written page is indexed under
``mkdocs build --dirty`` even when MkDocs does not read it again; a Pagefind
failure stops the build with a typed error; a cancelled run leaves nothing
running and no scratch folder behind.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from build_graph.errors import SearchIndexError
from build_graph.search import SearchIndexer, hand_written_document
from site_pages import search_fragments

ROOT = Path(__file__).resolve().parent.parent
HOSTILE_SEEDS = ROOT / "tests" / "fixtures" / "hostile" / "seeds"

CONFIG = """\
site_name: My field
theme:
  name: material
plugins:
  - search
  - mlsys-atlas
"""

NOTE = "# Reading group\n\nWe meet on Fridays to read about <b>pipeline</b> parallelism.\n"


def _mkdocs(site: Path, *args: str) -> None:
    result = subprocess.run([sys.executable, "-m", "mkdocs", "build", *args], cwd=site,
                            capture_output=True, text=True, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    site = tmp_path_factory.mktemp("search") / "site"
    site.mkdir()
    (site / "mkdocs.yml").write_text(CONFIG, encoding="utf-8")
    shutil.copytree(HOSTILE_SEEDS, site / "seeds")
    (site / "docs").mkdir()
    (site / "docs" / "reading-group.md").write_text(NOTE, encoding="utf-8")
    _mkdocs(site, "--strict")
    return site


@pytest.mark.slow
def test_the_bundle_is_what_a_crawl_of_the_built_site_gives(built, tmp_path):
    subprocess.run([sys.executable, "-m", "pagefind", "--site", str(built / "site"),
                    "--output-path", str(tmp_path / "pagefind")], check=True, capture_output=True)
    ours, theirs = search_fragments(built / "site"), search_fragments(tmp_path)
    assert ours == theirs
    assert "/reading-group/" in ours and ours["/reading-group/"]["meta"]["title"] == "Reading group"
    assert "<b>pipeline</b>" not in ours["/reading-group/"]["content"]
    assert any(url.startswith("/papers/") for url in ours)


@pytest.mark.slow
def test_a_dirty_build_still_indexes_the_hand_written_pages_it_does_not_read(built):
    _mkdocs(built, "--dirty")                      # (warns that it is dirty, so not --strict)
    fragments = search_fragments(built / "site")
    assert "/reading-group/" in fragments
    assert "Fridays" in fragments["/reading-group/"]["content"]


@pytest.mark.parametrize("content, title, heading", [
    ("<h1 id='x'>Own heading</h1><p>text</p>", "Ignored", ""),
    ("<p>text</p>", "Notes &amp; <em>drafts</em>", "<h1>Notes &amp; drafts</h1>"),
    ("<p>text</p>", None, "<h1></h1>"),
])
def test_a_hand_written_document_has_a_heading_for_its_result_title(content, title, heading):
    document = hand_written_document(content, title)
    assert document.startswith('<div data-pagefind-body data-pagefind-weight="0.5">' + heading)
    assert document.endswith(content + "</div>")


def test_a_pagefind_failure_is_a_typed_error(tmp_path):
    blocker = tmp_path / "site"
    blocker.write_text("a file where the site's folder should be", encoding="utf-8")
    indexer = SearchIndexer()
    indexer.start([("a/index.html", "<div data-pagefind-body><h1>A</h1></div>")], blocker)
    with pytest.raises(SearchIndexError, match="Pagefind could not"):
        indexer.finish()
    assert not indexer.running


def test_a_cancelled_run_leaves_nothing_behind(tmp_path, monkeypatch):
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    indexer = SearchIndexer()
    pages = [(f"p{i}/index.html", f"<div data-pagefind-body><h1>Paper {i}</h1></div>") for i in range(200)]
    indexer.start(pages, tmp_path / "site")
    assert indexer.running and any(scratch.iterdir())
    indexer.cancel()
    assert not indexer.running and not any(scratch.iterdir())
    indexer.finish()                               # nothing to wait for


def test_a_finished_run_publishes_only_what_the_site_uses(tmp_path):
    indexer = SearchIndexer()
    indexer.start([("p/index.html", '<div data-pagefind-body><h1>Paper</h1><p>words</p></div>')], tmp_path)
    indexer.finish()
    bundle = tmp_path / "pagefind"
    assert (bundle / "pagefind.js").is_file() and not (bundle / "pagefind-ui.js").exists()
    assert search_fragments(tmp_path)["/p/"]["meta"]["title"] == "Paper"


def _bundle(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_the_same_pages_give_the_same_bundle_byte_for_byte(tmp_path):
    """Pagefind lists a filter's values in hash-map order, new on every run;
    the bundle is rewritten in one order (``search_bundle.py``)."""
    venues = [f"Venue {chr(65 + i)}" for i in range(20)]
    pages = [(f"p{i}/index.html",
              f'<div data-pagefind-body><span data-pagefind-filter="venue">{venues[i % 20]}</span>'
              f'<span data-pagefind-filter="year">{2000 + i % 13}</span><h1>Paper {i}</h1><p>words {i}</p></div>')
             for i in range(60)]
    bundles = []
    for run in range(3):
        indexer = SearchIndexer()
        indexer.start(pages, tmp_path / f"site{run}")
        indexer.finish()
        bundles.append(_bundle(tmp_path / f"site{run}" / "pagefind"))
    assert bundles[0] == bundles[1] == bundles[2]
    filters = search_fragments(tmp_path / "site0")["/p7/"]["filters"]
    assert filters == {"venue": ["Venue H"], "year": ["2007"]}


def test_a_bundle_it_cannot_read_is_left_as_pagefind_wrote_it(tmp_path):
    from build_graph.search_bundle import stable_filters
    bundle = tmp_path / "pagefind"
    bundle.mkdir()
    (bundle / "pagefind-entry.json").write_text('{"version": "9", "languages": {}}', encoding="utf-8")
    assert stable_filters(bundle) is False
    assert (bundle / "pagefind-entry.json").read_text(encoding="utf-8") == '{"version": "9", "languages": {}}'
