"""Builds the generated part of the site, remembering work between builds.

``mkdocs serve`` rebuilds on every change. ``SiteBuilder`` keeps a parse
cache keyed by file content and reuses the whole rendered result when no
input file changed, so editing one listing re-parses one listing.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from .pipeline import ParseCache, build_atlas
from .render.site import render_site
from .sources import seed_files


def inputs_fingerprint(*folders: Path) -> str:
    digest = hashlib.sha256()
    for folder in folders:
        if not folder.is_dir():
            continue
        for path in seed_files(folder):
            digest.update(path.relative_to(folder).as_posix().encode())
            digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


class SiteBuilder:
    def __init__(self):
        self.cache = ParseCache()
        self._last: tuple[str, dict[str, str]] | None = None
        self.atlas = None

    def build(self, seeds_dir: Path, data_dir: Path) -> dict[str, str]:
        fingerprint = inputs_fingerprint(seeds_dir, data_dir)
        if self._last and self._last[0] == fingerprint:
            return self._last[1]
        self.atlas = build_atlas(seeds_dir, data_dir, strict=True, cache=self.cache)
        pages = render_site(self.atlas)
        self._last = (fingerprint, pages)
        return pages
