"""The atlas as a MkDocs plugin in somebody else's site.

A user who runs ``pip install`` on this package adds ``mlsys-atlas`` to the
``plugins`` of their own ``mkdocs.yml``; the site holds nothing but that
config, a seeds folder and the (possibly empty) docs folder MkDocs requires.
These tests build exactly that in ``tmp_path`` with ``mkdocs build --strict``,
through the ``mkdocs.plugins`` entry point, as a user would.
"""

from __future__ import annotations

import html
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
HOSTILE_SEEDS = ROOT / "tests" / "fixtures" / "hostile" / "seeds"

pytestmark = pytest.mark.slow

MINIMAL_CONFIG = """\
site_name: My field
theme:
  name: material
plugins:
  - search
  - mlsys-atlas
"""


def mkdocs_build(site: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", *args],
                          cwd=site, capture_output=True, text=True,
                          env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})


def minimal_site(folder: Path, config: str = MINIMAL_CONFIG, seeds: Path = HOSTILE_SEEDS) -> Path:
    folder.mkdir(parents=True)
    (folder / "mkdocs.yml").write_text(config, encoding="utf-8")
    shutil.copytree(seeds, folder / "seeds")
    (folder / "docs").mkdir()                   # MkDocs refuses a site without one; it stays empty
    return folder


@pytest.fixture(scope="module")
def external(tmp_path_factory):
    site = minimal_site(tmp_path_factory.mktemp("external") / "site")
    result = mkdocs_build(site)
    assert result.returncode == 0, result.stdout + result.stderr
    return site


def test_minimal_site_gets_every_page(external):
    built = external / "site"
    for page in ("index.html", "papers/index.html", "authors/index.html", "venues/index.html",
                 "techniques/index.html", "graph/index.html", "quality/index.html"):
        assert (built / page).is_file(), page
    from build_graph.pipeline import build_atlas
    expected = {p.slug for p in build_atlas(HOSTILE_SEEDS).corpus.papers}
    assert {p.name for p in (built / "papers").iterdir() if p.is_dir()} == expected
    assert (built / "assets" / "atlas.json.gz").is_file() and (built / "assets" / "atlas.bib").is_file()


def test_minimal_site_brings_its_own_assets_and_templates(external):
    built = external / "site"
    home = (built / "index.html").read_text("utf-8")
    for asset in ("assets/atlas.css", "assets/atlas-graph.css", "assets/atlas.js", "assets/atlas-graph.js"):
        assert (built / asset).is_file(), asset
        assert asset in home, asset
    assert (built / "assets" / "vendor" / "vis-network.min.js").is_file()
    # Nothing generated is written into the user's folders.
    assert sorted(p.name for p in external.iterdir()) == ["docs", "mkdocs.yml", "seeds", "site"]
    assert not any((external / "docs").iterdir())


def test_minimal_site_makes_no_request_to_another_host(external):
    """Not even mkdocs-material's Google Fonts, which a plain Material site loads."""
    outside = re.compile(r"""<(?:link|script|img|iframe)\b[^>]*\b(?:src|href)=["'](?:https?:)?//""")
    for page in (external / "site").rglob("*.html"):
        assert not outside.search(page.read_text("utf-8")), page


@pytest.mark.parametrize("fails", [False, True], ids=["built", "failed"])
def test_a_build_leaves_nothing_frozen_for_the_garbage_collector(tmp_path, monkeypatch, fails):
    """The plugin freezes the atlas while MkDocs writes the pages, and thaws
    it when the build ends, however it ends: the process goes on (``mkdocs
    serve``), and a frozen heap is never collected."""
    import gc

    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    from build_graph import plugin as plugin_module

    site = minimal_site(tmp_path / "site")
    monkeypatch.setenv("NO_MKDOCS_2_WARNING", "1")
    monkeypatch.chdir(site)
    frozen_when_thawed = []

    def thaw():
        frozen_when_thawed.append(gc.get_freeze_count())
        gc.unfreeze()

    monkeypatch.setattr(plugin_module, "thaw_heap", thaw)
    if fails:                   # a page that cannot be written, half-way through the pages
        def broken(html):
            raise RuntimeError("a page could not be written")
        monkeypatch.setattr(plugin_module, "compact_html", broken)
    config = load_config(str(site / "mkdocs.yml"), site_dir=str(tmp_path / "out"))
    if fails:
        with pytest.raises(RuntimeError, match="could not be written"):
            build(config)
    else:
        build(config)
    assert frozen_when_thawed and frozen_when_thawed[0] > 0     # frozen while the pages were written ...
    assert gc.get_freeze_count() == 0                           # ... and not any more


def test_web_fonts_stay_when_a_site_asks_for_them(tmp_path):
    from mkdocs.config import load_config

    from build_graph.plugin import AtlasPlugin
    for option, expected in (("", False), ("\n      web_fonts: true", {"text": "Roboto", "code": "Roboto Mono"})):
        config_text = MINIMAL_CONFIG.replace("  - mlsys-atlas\n", f"  - mlsys-atlas:{option or ' {}'}\n")
        site = minimal_site(tmp_path / f"site{bool(option)}", config_text)
        config = load_config(str(site / "mkdocs.yml"))
        plugin = config.plugins["mlsys-atlas"]
        assert isinstance(plugin, AtlasPlugin)
        plugin.on_config(config)
        assert config.theme["font"] == expected


def test_minimal_site_home_page_counts_and_links(external):
    home = (external / "site" / "index.html").read_text("utf-8")
    papers = sum(1 for p in (external / "site" / "papers").iterdir() if p.is_dir())
    assert f"{papers} papers by" in home
    for target in ("papers/", "techniques/", "trends/", "authors/", "venues/", "graph/", "quality/"):
        assert f'href="{target}"' in home, target
    assert home.count('<div class="atlas-dashboard"') == 1 and 'class="atlas-chart atlas-thumb"' in home


HOME_PAGES = [
    # (the site's own docs/index.md, where the dashboard must land)
    ("# Welcome\n\nIntro prose.\n\n<!-- atlas:dashboard -->\n\n## After\n\nMore prose.\n", "between"),
    ("# Welcome\n\nIntro prose only.\n", "after"),
]


@pytest.mark.parametrize("markdown, where", HOME_PAGES)
def test_a_hand_written_home_page_keeps_its_prose_and_gets_the_dashboard(tmp_path, markdown, where):
    site = minimal_site(tmp_path / "site")
    (site / "docs" / "index.md").write_text(markdown, encoding="utf-8")
    result = mkdocs_build(site)
    assert result.returncode == 0, result.stdout + result.stderr
    home = (site / "site" / "index.html").read_text("utf-8")
    assert home.count('<div class="atlas-dashboard"') == 1 and "atlas:dashboard" not in home
    intro, dashboard = home.index("Intro prose"), home.index('<div class="atlas-dashboard"')
    assert intro < dashboard
    if where == "between":
        assert dashboard < home.index('id="after"')
    assert 'href="graph/"' in home[dashboard:] and 'id="atlas-home-q"' in home


def test_minimal_site_escapes_hostile_titles_in_the_html_title(external):
    """The packaged theme template escapes ``<title>``: a listing's markup stays text."""
    titles = []
    for page in (external / "site" / "papers").glob("*/index.html"):
        text = page.read_text("utf-8")
        title = re.search(r"<title>(.*?)</title>", text, re.S).group(1)
        assert "<" not in title and ">" not in title, page
        titles.append(html.unescape(title))
    assert any("<script>" in t or "<img" in t for t in titles), titles


def test_the_project_site_uses_the_plugin_not_a_hook():
    config = (ROOT / "mkdocs.yml").read_text("utf-8")
    assert "hooks:" not in config and "mlsys-atlas:" in config
    assert "sys.path" not in (ROOT / "build_graph" / "plugin.py").read_text("utf-8")


@pytest.mark.parametrize("options, message", [
    ("  - mlsys-atlas:\n      sedes: seeds\n", "option 'sedes': Unrecognised configuration name: sedes"),
    ("  - mlsys-atlas:\n      seeds: nowhere\n", "option 'seeds': The path"),
    ("  - mlsys-atlas:\n      edit_branch: [main]\n", "option 'edit_branch'"),
    ("  - mlsys-atlas:\n      author_page_from: two\n", "option 'author_page_from'"),
    ("  - mlsys-atlas:\n      author_page_from: 0\n", "option 'author_page_from': expected 1 or more, got 0"),
])
def test_a_wrong_option_is_reported_by_name(tmp_path, options, message):
    config = MINIMAL_CONFIG.replace("  - mlsys-atlas\n", options)
    site = minimal_site(tmp_path / "site", config)
    result = mkdocs_build(site)
    assert result.returncode != 0
    assert message in result.stderr, result.stderr


def test_an_unreadable_listing_fails_the_build_with_its_name(tmp_path):
    site = minimal_site(tmp_path / "site")
    (site / "seeds" / "999_mystery.txt").write_text("no format looks like this\n", encoding="utf-8")
    result = mkdocs_build(site)
    assert result.returncode != 0
    assert "999_mystery.txt" in result.stderr and "no parser recognises" in result.stderr


def test_a_site_curation_folder_is_used(tmp_path):
    """``curation:`` points at the site's own data; a correction there changes the page."""
    from build_graph.pipeline import build_atlas
    paper = build_atlas(HOSTILE_SEEDS).corpus.papers[0]
    config = MINIMAL_CONFIG.replace("  - mlsys-atlas\n", "  - mlsys-atlas:\n      curation: curated\n")
    site = minimal_site(tmp_path / "site", config)
    (site / "curated").mkdir()
    (site / "curated" / "corrections.yaml").write_text(
        f"corrections:\n  - paper: {paper.slug}\n    year: 1999\n    source: https://example.org/proof\n",
        encoding="utf-8")
    result = mkdocs_build(site)
    assert result.returncode == 0, result.stderr
    page = (site / "site" / "papers" / paper.slug / "index.html").read_text("utf-8")
    assert "1999" in page


@pytest.mark.parametrize("author_page_from", [1, 2, 3])
def test_author_page_from_decides_who_has_a_page(tmp_path, author_page_from):
    from collections import Counter
    from build_graph.pipeline import build_atlas
    seeds = ROOT / "seeds"
    atlas = build_atlas(seeds)
    counts = Counter(a for p in atlas.corpus.papers for a in dict.fromkeys(p.authors))
    config = MINIMAL_CONFIG.replace(
        "  - mlsys-atlas\n", f"  - mlsys-atlas:\n      author_page_from: {author_page_from}\n")
    site = minimal_site(tmp_path / "site", config, seeds)
    result = mkdocs_build(site)
    assert result.returncode == 0, result.stderr
    pages = {p.name for p in (site / "site" / "authors").iterdir() if (p / "index.html").is_file()}
    expected = {atlas.corpus.authors[k].slug for k, n in counts.items() if n >= author_page_from}
    assert pages == expected and 0 < len(expected) <= len(counts)
    assert (len(expected) == len(counts)) == (author_page_from == 1)
