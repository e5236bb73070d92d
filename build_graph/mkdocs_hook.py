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
from mkdocs.structure.files import File, InclusionLevel

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from build_graph.errors import AtlasError  # noqa: E402
from build_graph.site_build import SiteBuilder  # noqa: E402

log = logging.getLogger("mkdocs.hooks.atlas")
_builder = SiteBuilder()
IN_NAV = {"papers/index.md", "authors/index.md", "venues/index.md", "techniques/index.md",
          "graph/index.md", "quality.md"}


def atlas_folders(config) -> tuple[Path, Path]:
    """``extra.atlas.seeds`` / ``extra.atlas.data`` in mkdocs.yml, relative to it."""
    root = Path(config.config_file_path).resolve().parent
    options = (config.extra or {}).get("atlas") or {}
    return root / options.get("seeds", "seeds"), root / options.get("data", "data")


def on_files(files, config):
    seeds, data = atlas_folders(config)
    try:
        generated = _builder.build(seeds, data)
    except AtlasError as err:
        raise PluginError(f"MLSys Atlas: {err.format()}") from None
    for src_uri, content in generated.items():
        existing = files.get_file_from_path(src_uri)
        if existing is not None:
            files.remove(existing)
        inclusion = InclusionLevel.UNDEFINED if src_uri in IN_NAV else InclusionLevel.NOT_IN_NAV
        if src_uri.endswith(".md"):
            files.append(File.generated(config, src_uri, content=content, inclusion=inclusion))
        else:
            files.append(File.generated(config, src_uri, content=content))
    log.info("MLSys Atlas: %d generated files", len(generated))
    return files
