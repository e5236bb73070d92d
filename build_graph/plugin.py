"""The MkDocs plugin: adds the atlas's generated pages to a site, in memory.

Registered under the ``mkdocs.plugins`` entry point as ``mlsys-atlas``, so
any MkDocs site that installs this package can use it::

    site_name: My field
    theme: material
    plugins:
      - search
      - mlsys-atlas:
          seeds: seeds          # listings, sidecars, structured entries, .bib ...

Kept thin on purpose: all logic lives in the ``build_graph`` package (shared
with the CLI and the tests). ``on_files`` builds the atlas from the seeds
folder and adds every page with ``File.generated``, so nothing generated is
ever written into ``docs/`` or committed, and ``mkdocs serve`` always shows
the current listings. Generated pages are HTML already (``render/``: Jinja
templates): each gets an ``AtlasPage``, a ``Page`` whose ``read_source`` and
``render`` take that HTML, its title and table of contents as they are, the
way mkdocs-material's blog plugin gives its views their own ``Page``
subclasses. No Markdown runs over them. Generated entity pages are
``NOT_IN_NAV``: a full nav on every page would make the build quadratic in
the number of pages.

What the atlas needs from the site it brings itself: its stylesheets and
scripts (``assets/``), its theme templates (``theme/``: the escaped
``<title>`` and a repository link that makes no request to another host);
and it turns off the theme's web fonts, so the site makes no request to
another host. So a site needs only this plugin and a seeds folder.

Any input error fails the build: a published site must not silently miss a
listing.
"""

from __future__ import annotations

import logging
from pathlib import Path

from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, event_priority
from mkdocs.structure.files import File, InclusionLevel
from mkdocs.structure.pages import Page
from mkdocs.structure.toc import get_toc

from .errors import AtlasError
from .render.compact import compact_html, compact_part, drop_lunr_translations
from .render.context import AUTHOR_PAGE_MIN_PAPERS, HOME_PAGE
from .render.icons import SPRITE, IconSprite
from .render.explorer import vendor_files
from .render.html import Html
from .parallel import Background, can_fork
from .shared_parts import SharedParts
from .search import HAND_WRITTEN_WEIGHT, SearchIndexer, hand_written_document
from .site_build import SiteBuilder, freeze_heap, thaw_heap

log = logging.getLogger("mkdocs.plugins.mlsys-atlas")

PACKAGE = Path(__file__).resolve().parent
ASSETS = PACKAGE / "assets"
THEME = PACKAGE / "theme"
STYLESHEETS = ("assets/atlas.css", "assets/atlas-graph.css", "assets/atlas-charts.css")
SCRIPTS = ("assets/atlas.js", "assets/atlas-graph.js", "assets/atlas-search.js")
IN_NAV = {"papers/index.md", "authors/index.md", "venues/index.md", "techniques/index.md",
          "graph/index.md", "quality.md", "trends.md"}


class AtlasConfig(base.Config):
    """``plugins: - mlsys-atlas: {...}`` in mkdocs.yml; paths are relative to it."""

    seeds = c.Dir(exists=True, default="seeds")
    """Listings, sidecars and structured entries (required)."""
    curation = c.Dir(exists=False, default="data")
    """(Not ``data``: a config's own mapping is called that.) The site's curated data: authors.yaml, corrections.yaml, and optionally its
    own taxonomy.yaml / venues.yaml / non_names.yaml in place of the packaged ones."""
    notes = c.Dir(exists=False, default="notes")
    """Hand-written notes: ``notes/<papers|authors|venues|techniques>/<id>.md``."""
    edit_branch = c.Type(str, default="main")
    """The branch "Edit this page" links open, when ``repo_url`` is set."""
    author_page_from = c.Type(int, default=AUTHOR_PAGE_MIN_PAPERS)
    """A person gets a page of their own from this many papers (or with a note);
    one with fewer is described on their paper's page. 1 gives everyone a page."""
    web_fonts = c.Type(bool, default=False)
    """mkdocs-material loads its fonts from Google; the atlas makes no request to
    another host, so it turns them off (the system's fonts are used) unless this is true."""


class PageFile(File):
    """A generated page's ``File``. Under ``mkdocs serve --dirty`` MkDocs rebuilds
    only files whose ``is_modified()`` is true, which it always is for generated
    content; the plugin marks a page ``unchanged`` when the build before made the
    same page and its output is still on disk. (mkdocs-material's search keeps
    its index right under --dirty only when few pages are rebuilt.)"""

    unchanged = False

    def is_modified(self) -> bool:
        return not self.unchanged and super().is_modified()


class AtlasPage(Page):
    """A generated page: its HTML comes from the atlas's templates, not from Markdown.

    MkDocs calls ``read_source`` and then ``render`` on every page; here they
    take the ``Html`` the atlas rendered. Everything else (the theme, search,
    "Edit this page", the nav, anchor validation) sees an ordinary page.
    """

    def __init__(self, html: Html, file: File, config):
        super().__init__(None, file, config)
        self.html = html

    def read_source(self, config) -> None:
        # No Markdown: plugins' ``on_page_markdown`` see an empty text.
        self.markdown = ""
        self.meta = dict(self.html.meta)

    def render(self, config, files) -> None:
        self.content = self.html.body
        # A page that hides its table of contents (``hide: [toc]``) gets none at all:
        # the theme would still write it into the page, only hidden.
        self.toc = get_toc([] if "toc" in self.meta.get("hide", ()) else list(self.html.toc))
        self.present_anchor_ids = self.html.anchors

    @property
    def title(self) -> str | None:
        """The first heading's text, escaped by its template (HTML text, as MkDocs'
        titles are); the nav's title, when the nav names this page, wins."""
        return self.__dict__.get("_nav_title") or self.html.title

    @title.setter
    def title(self, value: str | None) -> None:
        self.__dict__["_nav_title"] = value


class AtlasPlugin(BasePlugin[AtlasConfig]):
    """One instance lives as long as ``mkdocs serve`` does; so does its state:
    the parse and tag caches (``builder``)."""

    def __init__(self):
        self.builder = SiteBuilder()
        self.icons = IconSprite()
        self.search = SearchIndexer()
        self.data_writer: Background | None = None
        self.nav = None
        self.page_configs: dict[str, str | None] = {}   # the theme's page config, without lunr's texts
        self.shared: SharedParts | None = None
        self.share_parts = True             # False renders every page's frame whole (tests compare both)
        self.dirty = False
        self.dashboard: str | None = None

    def on_startup(self, *, command, dirty):
        self.dirty = dirty

    def on_config(self, config):
        """Edit links only when the site knows its repository; the atlas's own
        assets and templates; and the input folders watched under ``mkdocs serve``."""
        if self.config.author_page_from < 1:
            raise PluginError("MLSys Atlas: option 'author_page_from': expected 1 or more, "
                              f"got {self.config.author_page_from}")
        # Without a repository URL there is nothing honest to link to, and
        # MkDocs would warn about a relative ``edit_uri``.
        config.edit_uri = f"edit/{self.config.edit_branch}/" if config.repo_url else None
        for uri in STYLESHEETS:
            if uri not in config.extra_css:
                config.extra_css.append(uri)
        scripts = {str(script) for script in config.extra_javascript}
        config.extra_javascript.extend(uri for uri in SCRIPTS if uri not in scripts)
        if not self.config.web_fonts and "font" in config.theme:
            config.theme["font"] = False
        # After the site's own custom_dir (which may override anything), before the theme.
        config.theme.dirs.insert(1 if config.theme.custom_dir else 0, str(THEME))
        for folder in (self.config.seeds, self.config.curation, self.config.notes):
            if Path(folder).is_dir() and folder not in config.watch:
                config.watch.append(folder)
        return config

    def on_files(self, files, config):
        seeds, data, notes = (Path(folder) for folder in
                              (self.config.seeds, self.config.curation, self.config.notes))
        try:
            generated = self.builder.build(seeds, data if data.is_dir() else None,
                                           notes if notes.is_dir() else None, self.config.author_page_from)
        except AtlasError as err:
            raise PluginError(f"MLSys Atlas: {err.format()}") from None
        freeze_heap()                  # until on_post_build: MkDocs's page writing leaves the atlas unscanned
        root = Path(config.config_file_path).resolve().parent
        docs_prefix = _inside(Path(config.docs_dir), root)
        for file in files:
            if file.generated_by is None and docs_prefix is not None:
                file.edit_uri = f"{docs_prefix}/{file.src_uri}"
        home = generated.get(HOME_PAGE)
        self.dashboard = home.parts.get("dashboard") if isinstance(home, Html) else None
        for src_uri, content in generated.items():
            if src_uri == HOME_PAGE and files.get_file_from_path(src_uri) is not None:
                continue                       # the site's own home page wins; it gets the dashboard
            existing = files.get_file_from_path(src_uri)
            if existing is not None:
                files.remove(existing)
            if not isinstance(content, Html):
                files.append(File.generated(config, src_uri, content=content))
                continue
            inclusion = InclusionLevel.UNDEFINED if src_uri in IN_NAV | {HOME_PAGE} else InclusionLevel.NOT_IN_NAV
            # The File's content is the page's HTML: MkDocs never reads it as
            # Markdown (``AtlasPage.read_source``), but it is what the file holds.
            file = PageFile.generated(config, src_uri, content=content.body, inclusion=inclusion)
            file.unchanged = (self.dirty and self.builder.previous.get(src_uri) == content
                              and Path(file.abs_dest_path).is_file())
            target = self.builder.edit_targets.get(src_uri)
            file.edit_uri = _inside(target, root) if target else None
            AtlasPage(content, file, config)            # sets ``file.page``
            files.append(file)
        self._data_files(files, config)
        for src_uri, path in {**vendor_files(), **_own_assets()}.items():
            if files.get_file_from_path(src_uri) is None:
                files.append(File.generated(config, src_uri, abs_src_path=str(path)))
        log.info("MLSys Atlas: %d generated files", len(generated))
        return files

    def _data_files(self, files, config) -> None:
        """The files only the pages' scripts fetch (the explorer's data, the papers
        table's rows): written by a forked process while MkDocs writes the pages
        (``on_post_build`` waits for it), or, where no fork is safe (``mkdocs
        serve``) or they are known already, handed to MkDocs with the pages."""
        if self.builder.data_ready or not can_fork():
            for src_uri, content in self.builder.data_files().items():
                existing = files.get_file_from_path(src_uri)
                if existing is not None:
                    files.remove(existing)
                files.append(File.generated(config, src_uri, content=content))
        else:
            self.data_writer = Background(self.builder.data_jobs, Path(config.site_dir))

    def on_page_content(self, html, *, page, config, files):
        """The site's own home page (hand-written Markdown) gets the generated dashboard."""
        if page.is_homepage and not isinstance(page, AtlasPage) and self.dashboard:
            return insert_dashboard(html, self.dashboard)
        return html

    def on_nav(self, nav, *, config, files):
        """A generated page the site's ``nav`` names (``Graph: graph/index.md``) takes
        the nav's title, as a hand-written page does: MkDocs gives the nav's title
        only to pages it creates itself, and the plugin created these already."""
        for title, src_uri in _nav_titles(config.nav or []):
            file = files.get_file_from_path(src_uri)
            if file is not None and isinstance(file.page, AtlasPage):
                file.page.title = title
        self.nav = nav
        return nav

    @event_priority(-100)          # last: every page's content is final
    def on_env(self, env, *, config, files):
        """Start the search index (``search.py``) on the other core while MkDocs
        writes the pages: everything it indexes is known now."""
        env.globals["atlas_search_weight"] = HAND_WRITTEN_WEIGHT
        self.page_configs = {}
        self.shared = SharedParts(self.nav, self.share_parts, finish=self._finish_part)
        env.globals["atlas_shared"] = self.shared
        if _material_search(config):
            self.search.start(_search_documents(files), Path(config.site_dir),
                              str(config.theme.get("language") or "en"))
        return env

    # Search is Pagefind's (``search.py``), indexed while the pages are written; mkdocs-material's
    # search plugin stays in the config for its place in the header, but every
    # page is excluded from its lunr index (Material's documented ``search:
    # exclude`` meta, read in its ``on_page_context`` at priority 0), and
    # theme/partials/search.html keeps its browser code from fetching one.
    @event_priority(100)
    def on_page_context(self, context, *, page, config, nav):
        if _material_search(config):
            page.meta["search"] = {"exclude": True}

    def _finish_part(self, html: str, page) -> str:
        """A shared part of the theme's frame as ``on_post_page`` leaves it, done once."""
        return self.icons.replace(compact_part(html), page.url)

    @event_priority(-100)          # last: after every other plugin has changed the page
    def on_post_page(self, output, *, page, config):
        """Every page, without the theme's indentation and its lunr search's texts
        (``render/compact.py``), its theme icons drawn from one shared file
        (``render/icons.py``)."""
        output = compact_html(output)
        if _material_search(config):
            output = drop_lunr_translations(output, self.page_configs)
        return self.icons.replace(output, page.url)

    @event_priority(-100)          # after Material's search plugin has written its (empty) index
    def on_post_build(self, *, config):
        try:
            self._finish_build(config)
        finally:
            thaw_heap()

    def _finish_build(self, config) -> None:
        sprite = Path(config.site_dir, SPRITE)
        sprite.parent.mkdir(parents=True, exist_ok=True)
        sprite.write_text(self.icons.sprite(), encoding="utf-8")
        try:
            self._wait_for_data()
        except AtlasError as err:
            raise PluginError(f"MLSys Atlas: {err.format()}") from None
        if not _material_search(config):
            return
        lunr = Path(config.site_dir, "search")
        (lunr / "search_index.json").unlink(missing_ok=True)
        if lunr.is_dir() and not any(lunr.iterdir()):
            lunr.rmdir()
        try:
            self.search.finish()
        except AtlasError as err:
            raise PluginError(f"MLSys Atlas: {err.format()}") from None

    def _wait_for_data(self) -> None:
        writer, self.data_writer = self.data_writer, None
        if writer is not None:
            writer.wait()

    def on_build_error(self, *, error):
        thaw_heap()
        writer, self.data_writer = self.data_writer, None
        if writer is not None:
            writer.cancel()
        self.search.cancel()

    def on_shutdown(self):
        self.search.cancel()


DASHBOARD_MARKER = "<!-- atlas:dashboard -->"
"""Where a hand-written home page wants the dashboard; without it, it goes after the page's text."""


def insert_dashboard(html: str, dashboard: str) -> str:
    """The home page's HTML with the dashboard at the first marker (or at the end)."""
    if DASHBOARD_MARKER in html:
        return html.replace(DASHBOARD_MARKER, dashboard, 1)
    return html + "\n" + dashboard


def _material_search(config) -> bool:
    """Whether the site has mkdocs-material's search (the header's search box)."""
    search = config.plugins.get("material/search") or config.plugins.get("search")
    return bool(search is not None and getattr(search, "config", {}).get("enabled", True))


def _search_documents(files):
    """``(dest_uri, html)`` of every page the search indexes: a generated page's
    part its template marked for search (``Html.search``); a hand-written page's
    content (under ``--dirty``, one MkDocs did not read again: its page as built)."""
    for file in files.documentation_pages():
        page = file.page
        if isinstance(page, AtlasPage):
            if page.html.search:
                yield file.dest_uri, page.html.search
        elif page is not None and page.content is not None:
            yield file.dest_uri, hand_written_document(page.content, page.title)
        elif Path(file.abs_dest_path).is_file():
            yield file.dest_uri, Path(file.abs_dest_path).read_text(encoding="utf-8")


def _nav_titles(items):
    """``(title, path)`` for every ``Title: path.md`` entry of a ``nav`` config, nested ones too."""
    for item in items:
        if isinstance(item, dict):
            for title, value in item.items():
                if isinstance(value, str):
                    yield title, value
                elif isinstance(value, list):
                    yield from _nav_titles(value)
        elif isinstance(item, list):
            yield from _nav_titles(item)


def _own_assets() -> dict[str, Path]:
    """The atlas's stylesheets and scripts, served from the installed package."""
    return {f"assets/{path.name}": path for path in sorted(ASSETS.iterdir()) if path.is_file()}


def _inside(path: Path, root: Path) -> str | None:
    """``path`` relative to the site's folder, or None when it lies outside it
    (then it is no file of the site's repository to link to)."""
    try:
        return Path(path).resolve().relative_to(root).as_posix()
    except ValueError:
        return None
