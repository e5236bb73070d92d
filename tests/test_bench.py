"""The benchmark's pieces at tiny sizes: generator, fast page path, and one smoke run.

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


# --- the fast path for generated pages -----------------------------------------------------

def _mkdocs_config(tmp_path, seeds: Path):
    from mkdocs.config import load_config

    from build_graph.devtools.bench import write_atlas_config
    return load_config(str(write_atlas_config(tmp_path, seeds, None)))


class _Canon:
    """HTML as a list of (start tag + sorted attributes | end tag | collapsed text)."""

    @staticmethod
    def of(markup: str) -> list:
        from html.parser import HTMLParser
        out: list = []

        class P(HTMLParser):
            def handle_starttag(self, tag, attrs):
                out.append(("<", tag, tuple(sorted((k, v or "") for k, v in attrs))))

            def handle_endtag(self, tag):
                out.append((">", tag))

            def handle_data(self, data):
                if data.split():
                    out.append(("t", " ".join(data.split())))

        parser = P(convert_charrefs=True)
        parser.feed(markup)
        parser.close()
        return out


def _flat(toc) -> list:
    out = []
    for item in toc:
        out.append((item.id, item.title, item.level))
        out += _flat(item.children)
    return out


def test_fast_pages_match_python_markdown(tmp_path, monkeypatch):
    """Every generated page the fast path takes gives the HTML, table of contents,
    title, anchors and anchor links that MkDocs' own Markdown gives (the real
    seeds plus a few synthetic papers; pages are rendered, not templated)."""
    import shutil

    from mkdocs.commands.build import _populate_page, get_navigation
    from mkdocs.structure.files import get_files
    from mkdocs.structure.toc import get_toc

    from build_graph import fastpages

    seeds = tmp_path / "seeds"
    shutil.copytree(ROOT / "seeds", seeds)
    write_synthetic_seeds(seeds / "synthetic", 8, seed=5)
    monkeypatch.setenv("ATLAS_FAST_PAGES", "0")         # MkDocs renders; we compare beside it
    config = _mkdocs_config(tmp_path / "work", seeds)
    config.plugins.on_startup(command="build", dirty=False)
    config = config.plugins.on_config(config)
    files = config.plugins.on_files(get_files(config), config=config)
    get_navigation(files, config)
    options = fastpages.fast_path_options(config)
    assert options is not None, "the project's Markdown config left the fast path's subset"
    seen = Counter()
    problems = []
    fast = fastpages.FastPages()                        # shares its link cache across pages
    for file in files.documentation_pages():
        page = file.page
        if file.generated_by is None or page is None:
            continue
        _populate_page(page, config, files)
        result = fast.convert_page(page.markdown, page, config, files)
        if result is None:
            seen["fallback"] += 1
            continue
        seen["fast"] += 1
        anchors = result.links_to_anchors
        checks = {
            "html": _Canon.of(page.content) == _Canon.of(result.html),
            "toc": _flat(page.toc) == _flat(get_toc(result.toc_tokens)),
            "title": page._title_from_render == result.title,
            "anchors": page.present_anchor_ids == result.anchors,
            "links": {f.src_uri: v for f, v in (page.links_to_anchors or {}).items()}
                     == {f.src_uri: v for f, v in anchors.items()},
        }
        if result.search_html is not None:
            seen["search view"] += 1
            checks["search"] = _indexed(page.content) == _indexed(result.search_html)
        if not all(checks.values()):
            problems.append((page.file.src_uri, [k for k, ok in checks.items() if not ok]))
    assert not problems, problems[:5]
    assert seen["fast"] > 10 * max(1, seen["fallback"]), seen
    assert seen["search view"] >= 50, seen             # every paper page has excluded sections


def _indexed(content: str) -> list[tuple]:
    """What mkdocs-material's search indexer keeps of a page's HTML."""
    from material.plugins.search.plugin import Parser
    parser = Parser()
    parser.feed(content)
    parser.close()
    return [(s.id, "".join(s.title).strip(), "".join(s.text).strip())
            for s in parser.data if not s.is_excluded()]


def test_search_view_drops_exactly_the_excluded_sections():
    from build_graph.fastpages import convert
    page = ("# T\n\nIntro **text**.\n\n## Kept\n\n- a\n\n## Gone { data-search-exclude }\n\n"
            "- b\n\n<div class=\"x\">raw</div>\n\n## Back\n\nc\n")
    done = convert(page)
    assert "Gone" not in done.search_html and "raw" not in done.search_html and "<li>b" not in done.search_html
    assert "Intro" in done.search_html and "<li>a</li>" in done.search_html and "Back" in done.search_html
    assert _indexed(done.html) == _indexed(done.search_html)
    assert convert("# T\n\n## A\n\nx\n").search_html is None          # nothing to drop
    # A heading inside a dropped raw block would open a section of its own: no view.
    assert convert('# T\n\n## A { data-search-exclude }\n\n<div><h3 id="in">I</h3></div>\n').search_html is None


def test_fast_path_refuses_what_it_does_not_know():
    from build_graph.fastpages import convert
    assert convert("# T\n\n```\ncode\n```\n") is None
    assert convert("# T\n\n1. one\n2. two\n") is None
    assert convert("# T\n\n- a\n\n- b\n") is None                       # loose list
    assert convert("# T\n\n![img](x.png)\n") is None
    assert convert("# T\n\nan *unpaired emphasis\n") is None
    assert convert("# T\n\n[x](missing.md)\n", resolve=lambda url: None) is None
    assert convert('# T\n\n<div class="x" markdown="1">\n\n*a*\n\n</div>\n') is None
    # "markdown" inside an attribute value (an untrusted label) is not the attribute.
    kept = "<div class=\"x\" data-graph='[\"a markdown label\"]'></div>"
    assert kept in convert(f"# T\n\n{kept}\n").html
    done = convert("# T &amp; U\n\n- **A:** [x\\-y](a.md) · `c<d`\n", resolve=lambda u: u[:-3] + "/")
    assert done.title == "T &amp; U"
    assert '<a href="a/">x-y</a>' in done.html and "<code>c&lt;d</code>" in done.html


def _small_config(tmp_path):
    """This project's MkDocs config (theme, Markdown) over a one-page docs folder, no hook."""
    from mkdocs.config import load_config
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text("# Home\n", encoding="utf-8")
    overrides = {"INHERIT": str(ROOT / "mkdocs.yml"), "docs_dir": "docs", "watch": [],
                 "nav": ["index.md"], "plugins": ["search"]}
    (tmp_path / "mkdocs.yml").write_text(json.dumps(overrides), encoding="utf-8")
    config = load_config(str(tmp_path / "mkdocs.yml"))
    config.plugins._current_plugin = "atlas"   # what MkDocs sets while a hook runs
    return config


def test_fast_path_caches_never_reuse_a_link_to_the_page_itself(tmp_path):
    """Pages in one folder share cached link HTML; a page linking to itself ("./")
    must neither reuse another page's HTML for that link nor leave its own behind."""
    from mkdocs.structure.files import File, Files
    from mkdocs.structure.pages import Page

    from build_graph.fastpages import FastPages
    config = _small_config(tmp_path)
    line = "- [Venue A](a.md) · [Venue B](b.md) 2023\n- [Venue A](a.md)\n"
    files = Files([File.generated(config, f"venues/{name}.md", content=f"# {name}\n\n{line}")
                   for name in "abc"])
    fast = FastPages()
    html = {}
    for name in "cabc":                     # c fills the caches, a links to itself, b to a
        page = Page(None, files.get_file_from_path(f"venues/{name}.md"), config)
        page.read_source(config)
        html[name] = fast.convert_page(page.markdown, page, config, files).html
    assert html["a"].count('href="./"') == 2 and 'href="../b/"' in html["a"]
    assert html["b"].count('href="../a/"') == 2 and 'href="./"' in html["b"]
    assert html["c"].count('href="../a/"') == 2 and 'href="./"' not in html["c"]


def test_fast_path_reuses_unchanged_pages_across_builds(tmp_path):
    """``mkdocs serve``: a rebuild converts only pages whose Markdown changed, and
    reuses nothing once the set of pages changes (links resolve against it)."""
    from mkdocs.structure.files import File, Files
    from mkdocs.structure.pages import Page

    from build_graph.fastpages import FastPages
    config = _small_config(tmp_path)
    fast = FastPages()
    fast.keep_between_builds = True                 # what the hook sets under ``mkdocs serve``

    def build(texts: dict[str, str]) -> dict[str, object]:
        files = Files([File.generated(config, f"venues/{name}.md", content=text) for name, text in texts.items()])
        out = {}
        for name in texts:
            page = Page(None, files.get_file_from_path(f"venues/{name}.md"), config)
            page.read_source(config)
            out[name] = fast.convert_page(page.markdown, page, config, files)
            assert all(files.get_file_from_path(t.src_uri) is t for t in out[name].links_to_anchors)
        return out

    texts = {name: f"# {name}\n\n## Part\n\n- [a](a.md#part) · [c](c.md)\n" for name in "abc"}
    first = build(texts)
    assert fast.reused == 0
    texts["b"] = texts["b"].replace("[c]", "[see c]")
    second = build(texts)
    assert fast.reused == 2                                       # a and c; b changed
    assert "see c" in second["b"].html and second["a"].html == first["a"].html
    assert {f.src_uri for f in second["a"].links_to_anchors} == {"venues/a.md"}
    third = build({**texts, "d": "# d\n"})                      # a new page: links may resolve differently
    assert fast.reused == 2 and third["a"].html == first["a"].html


def test_plugin_keeps_pages_between_builds_only_under_serve():
    from build_graph.plugin import AtlasPlugin
    plugin = AtlasPlugin()
    plugin.on_startup(command="serve", dirty=False)
    assert plugin.fast.keep_between_builds
    plugin.on_startup(command="build", dirty=False)
    assert not plugin.fast.keep_between_builds


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
    assert build["fast_pages"] > 0 and build["peak_rss_mb"] > 10
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
    one page's HTML is converted again; with --dirty, MkDocs renders only the
    pages whose content changed, and the site still holds every page, the new
    text, and a search index with every paper once."""
    from build_graph.devtools.bench import format_table, run_bench
    work = tmp_path / "work"
    report = run_bench(6, seed=2, keep=work, floor=False, memory=False, rebuild=True)
    for kind in ("rebuild", "rebuild_dirty"):
        r = report[kind]
        assert r["unchanged_own_seconds"] < r["cold_own_seconds"], kind
        assert 1 <= r["edited_pages_converted"] <= 3, (kind, r)
    assert report["rebuild"]["edited_pages_reused"] > 20           # every other page, from the last build
    assert report["rebuild_dirty"]["edited_pages_reused"] == 0     # --dirty: MkDocs skips them entirely
    assert "serve --dirty" in format_table(report)
    site = work / "site"
    papers = sorted(p.parent.name for p in (site / "papers").glob("*/index.html"))
    index = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))
    located = [d["location"] for d in index["docs"] if d["location"].startswith("papers/")
               and d["location"].count("/") == 2 and "#" not in d["location"]]
    assert sorted(loc.split("/")[1] for loc in located) == papers     # each paper, once
    edited = [p for p in (site / "papers").glob("*/index.html")
              if "We also evaluate it on a new workload." in p.read_text(encoding="utf-8")]
    assert len(edited) == 1
