"""MkDocs hook: add the atlas's generated pages to the build, in memory.

Kept thin on purpose: all logic lives in the ``build_graph`` package (shared
with the CLI and the tests). ``on_files`` builds the atlas from ``seeds/``
and adds every page with ``File.generated``, so nothing generated is ever
written into ``docs/`` or committed, and ``mkdocs serve`` always shows the
current listings. Generated entity pages are ``NOT_IN_NAV``: a full nav on
every page would make the build quadratic in the number of pages.

Any input error fails the build (``strict=True``): a published site must not
silently miss a listing.
"""

from __future__ import annotations

import logging
import sys
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.plugins import CombinedEvent, event_priority
from mkdocs.structure.files import File, InclusionLevel

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from build_graph.errors import AtlasError  # noqa: E402
from build_graph.fastpages import FastPages  # noqa: E402
from build_graph.render.explorer import vendor_files  # noqa: E402
from build_graph.site_build import SiteBuilder  # noqa: E402

log = logging.getLogger("mkdocs.hooks.atlas")
_builder = SiteBuilder()
_fast = FastPages()
IN_NAV = {"papers/index.md", "authors/index.md", "venues/index.md", "techniques/index.md",
          "graph/index.md", "quality.md"}


def atlas_folders(config) -> tuple[Path, Path, Path]:
    """``extra.atlas.seeds|data|notes`` in mkdocs.yml, relative to it."""
    root = Path(config.config_file_path).resolve().parent
    options = (config.extra or {}).get("atlas") or {}
    return tuple(root / options.get(key, key) for key in ("seeds", "data", "notes"))


_dirty = False


def on_startup(command, dirty):
    """Under ``mkdocs serve`` unchanged pages keep their HTML from one build to the next;
    under ``mkdocs serve --dirty`` MkDocs does not even render them again."""
    global _dirty
    _fast.keep_between_builds = command == "serve"
    _dirty = dirty


def _unchanged() -> bool:
    return False


def on_config(config):
    """Edit links only when the site knows its repository (``ATLAS_REPO_URL``).

    Without a repository URL there is nothing honest to link to, and MkDocs
    would warn about a relative ``edit_uri``; so ``edit_uri`` is derived here
    from ``extra.atlas.edit_branch`` instead of being fixed in mkdocs.yml.
    """
    options = (config.extra or {}).get("atlas") or {}
    if config.repo_url:
        config.edit_uri = f"edit/{options.get('edit_branch', 'main')}/"
    else:
        config.edit_uri = None
    return config


def on_files(files, config):
    seeds, data, notes = atlas_folders(config)
    try:
        generated = _builder.build(seeds, data, notes)
    except AtlasError as err:
        raise PluginError(f"MLSys Atlas: {err.format()}") from None
    root = Path(config.config_file_path).resolve().parent
    docs_prefix = Path(config.docs_dir).resolve().relative_to(root).as_posix()
    for file in files:
        if file.generated_by is None:
            file.edit_uri = f"{docs_prefix}/{file.src_uri}"
    for src_uri, content in generated.items():
        existing = files.get_file_from_path(src_uri)
        if existing is not None:
            files.remove(existing)
        inclusion = InclusionLevel.UNDEFINED if src_uri in IN_NAV else InclusionLevel.NOT_IN_NAV
        if src_uri.endswith(".md"):
            page = File.generated(config, src_uri, content=content, inclusion=inclusion)
            if _dirty and _builder.previous.get(src_uri) == content and Path(page.abs_dest_path).is_file():
                # MkDocs' --dirty rebuilds a file when ``is_modified()``, always
                # true for generated content; this page is the same as last time.
                page.is_modified = _unchanged
            target = _builder.edit_targets.get(src_uri)
            if target:
                page.edit_uri = _repo_path(root, seeds, data, notes, target)
            files.append(page)
        else:
            files.append(File.generated(config, src_uri, content=content))
    for src_uri, path in vendor_files().items():
        if files.get_file_from_path(src_uri) is None:
            files.append(File.generated(config, src_uri, abs_src_path=str(path)))
    log.info("MLSys Atlas: %d generated files", len(generated))
    return files


def on_page_markdown(markdown, page, config, files):
    """Generated pages skip Python-Markdown when they can (``build_graph/fastpages.py``)."""
    return _fast.on_page_markdown(markdown, page, config, files)


@event_priority(100)
def _search_indexes_the_search_view(context, page, config, nav):
    _fast.show_search_view(page)


@event_priority(-100)
def _readers_get_the_whole_page(context, page, config, nav):
    _fast.show_whole_page(page)


# mkdocs-material's search plugin (priority 0) indexes ``page.content`` in this
# event. Generated pages hand it their text without the ``data-search-exclude``
# sections, which it would parse only to drop (docs/performance.md), and get
# their whole HTML back before the page template renders it.
on_page_context = CombinedEvent(_search_indexes_the_search_view, _readers_get_the_whole_page)


def _repo_path(root: Path, seeds: Path, data: Path, notes: Path, target: str) -> str:
    """Map ``seeds/x``, ``data/x``, ``notes/x`` onto the configured folders."""
    head, _, rest = target.partition("/")
    folder = {"data": data, "notes": notes}.get(head, seeds)
    try:
        return (folder / rest).relative_to(root).as_posix()
    except ValueError:
        return target
