"""The theme's frame rendered once per folder (``build_graph/shared_parts.py``)
gives exactly the pages that rendering it on every page gives: with directory URLs and
without, with a hand-written page inside a generated folder (whose relative
links differ), and with a site nav that lists generated pages."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from mkdocs.commands.build import build
from mkdocs.config import load_config

from build_graph.shared_parts import SharedParts

ROOT = Path(__file__).resolve().parent.parent
HOSTILE_SEEDS = ROOT / "tests" / "fixtures" / "hostile" / "seeds"

pytestmark = pytest.mark.slow

CONFIG = """\
site_name: My field
use_directory_urls: {directory_urls}
theme:
  name: material
  features: [navigation.prune]
plugins:
  - search
  - mlsys-atlas:
      author_page_from: 1
nav:
  - Home: index.md
  - About: papers/about.md
  - Papers: papers/index.md
  - Techniques: techniques/index.md
"""


def _site(folder: Path, directory_urls: bool) -> Path:
    folder.mkdir(parents=True)
    (folder / "mkdocs.yml").write_text(CONFIG.format(directory_urls=str(directory_urls).lower()), encoding="utf-8")
    shutil.copytree(HOSTILE_SEEDS, folder / "seeds")
    (folder / "docs" / "papers").mkdir(parents=True)
    (folder / "docs" / "index.md").write_text("# My field\n\nA map.\n", encoding="utf-8")
    (folder / "docs" / "papers" / "about.md").write_text("# About the papers\n\nWhere they come from.\n",
                                                         encoding="utf-8")
    return folder


def _build(site: Path, share: bool, out: Path, reused: dict | None = None) -> dict[str, bytes]:
    os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
    cwd = os.getcwd()
    os.chdir(site)
    try:
        config = load_config(str(site / "mkdocs.yml"), site_dir=str(out))
        plugin = config.plugins["mlsys-atlas"]
        plugin.share_parts = share
        build(config)
        if reused is not None and plugin.shared is not None:
            reused.update(plugin.shared.reused)
    finally:
        os.chdir(cwd)
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*.html"))}


@pytest.mark.parametrize("directory_urls", [True, False])
def test_shared_parts_change_no_byte(tmp_path, directory_urls):
    site = _site(tmp_path / "site", directory_urls)
    reused = {}
    shared = _build(site, True, tmp_path / "shared", reused)
    own = _build(site, False, tmp_path / "own")
    assert shared.keys() == own.keys() and len(shared) > 50
    assert [page for page in shared if shared[page] != own[page]] == []
    assert min(reused.values()) > 10, reused          # and sharing did happen, for every part


class _File:
    def __init__(self, generated=True, in_nav=False):
        self.generated_by = "mlsys-atlas" if generated else None
        self._in_nav = in_nav

    @property
    def inclusion(self):
        return self

    def is_not_in_nav(self):
        return not self._in_nav


class _Heading:
    def __init__(self, level, children=()):
        self.level, self.children = level, list(children)


class _Page:
    def __init__(self, url, file=None, toc=(), hide=()):
        self.url, self.file, self.toc = url, file or _File(), list(toc)
        self.meta = {"hide": list(hide)} if hide else {}


class _Nav:
    def __init__(self, *urls):
        self.pages = [_Page(url) for url in urls]


NAV = _Nav("", "papers/", "techniques/", "papers/about/")


@pytest.mark.parametrize("page, shared_with, expected", [
    (_Page("papers/a/"), _Page("papers/b/"), True),                      # same folder, same depth
    (_Page("papers/a/"), _Page("authors/b/"), False),                     # another folder
    (_Page("papers/a/", hide=["toc"]), _Page("papers/b/"), False),         # hidden sidebars differ
    (_Page("authors/a/"), _Page("authors/b/", toc=[_Heading(1)]), True),   # a lone h1 lists nothing
])
def test_pages_share_a_key_only_when_their_sidebars_are_the_same(page, shared_with, expected):
    sidebars = SharedParts(NAV)
    assert (sidebars.key(page) == sidebars.key(shared_with)) is expected
    assert sidebars.key(page) is not None


@pytest.mark.parametrize("page", [
    _Page("papers/"),                                          # nav pages lie inside its folder
    _Page("papers/a/", file=_File(generated=False)),          # hand-written
    _Page("papers/", file=_File(in_nav=True)),                 # in the nav: an item is active
    _Page("papers/a/", toc=[_Heading(2)]),                     # lists contents of its own
    _Page("papers/a/", toc=[_Heading(1, [_Heading(2)])]),
])
def test_pages_whose_sidebars_are_their_own_get_no_key(page):
    assert SharedParts(NAV).key(page) is None


@pytest.mark.parametrize("title", ["Tutel", "span", "md-ellipsis", "<b>x</b> &amp; y", "header-topic"])
def test_the_header_is_kept_around_the_title_and_filled_per_page(title):
    header = ('<header><a title="My field">x</a><div class="md-header__topic" data-md-component="header-topic">'
              '\n  <span class="md-ellipsis">\n    {}\n  </span>\n</div></header>')
    parts = SharedParts(NAV)
    first, second = _Page("papers/a/"), _Page("papers/b/")
    first.title, second.title = title, "Another <i>paper</i>"
    assert not parts.has("header", first)
    assert parts.put("header", first, header.format(title)) == header.format(title)
    assert parts.has("header", second)
    assert parts.get("header", second) == header.format("Another <i>paper</i>")
    assert parts.reused["header"] == 1


def test_a_header_laid_out_otherwise_is_not_shared():
    parts = SharedParts(NAV)
    page = _Page("papers/a/")
    page.title = "Tutel"
    parts.put("header", page, "<header><h1>Tutel</h1></header>")
    assert not parts.has("header", page) and parts.get("header", page) is None


def test_a_part_is_kept_as_it_leaves_the_page_and_handed_out_unchanged_the_first_time():
    finished = []
    parts = SharedParts(NAV, finish=lambda html, page: finished.append(page.url) or html.upper())
    first, second = _Page("papers/a/"), _Page("papers/b/")
    assert parts.put("footer", first, "<footer>x</footer>") == "<footer>x</footer>"
    assert parts.get("footer", second) == "<FOOTER>X</FOOTER>" and finished == ["papers/a/"]


def test_sharing_turned_off_shares_nothing():
    parts = SharedParts(NAV, enabled=False)
    page = _Page("papers/a/")
    parts.put("footer", page, "<footer>x</footer>")
    assert not parts.has("footer", page)
