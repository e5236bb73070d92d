"""Builds the generated part of the site, remembering work between builds.

``mkdocs serve`` rebuilds on every change. ``SiteBuilder`` lives as long as
the MkDocs plugin does, so it owns the process's one ``BuildCaches`` (parsed
listings, compiled taxonomy, tags, layouts; see ``caches.py``) and hands it
to every build; it also reuses the whole rendered result when no input file
changed. Editing one listing re-parses one listing.
"""

from __future__ import annotations

import gc
import hashlib
from contextlib import contextmanager
from pathlib import Path

from .curation import REFERENCE_DIR
from .caches import BuildCaches
from .pipeline import build_atlas
from .render.context import AUTHOR_PAGE_MIN_PAPERS
from .render.notes import edit_targets, load_notes
from .parallel import run_jobs
from .render.site import render_parts
from .sources import seed_files
from .sources.text import MAX_LISTING_BYTES


def inputs_fingerprint(*folders: Path) -> str:
    digest = hashlib.sha256()
    for folder in folders:
        if not folder.is_dir():
            continue
        for path in seed_files(folder):
            digest.update(path.relative_to(folder).as_posix().encode())
            size = path.stat().st_size
            if size > MAX_LISTING_BYTES:          # refused by the pipeline; never read it
                digest.update(f"oversized:{size}:{path.stat().st_mtime_ns}".encode())
            else:
                digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


@contextmanager
def collector_paused():
    """Python's cyclic garbage collector off for the length of a build.

    The pipeline allocates millions of small containers that stay alive (the
    atlas, its graph, every page), and almost no reference cycles; each
    allocation burst made the collector rescan the growing live heap, which
    was 30% of the render stage at 1,000 papers. Reference counting still
    frees everything else at once; cycles, if any, wait for the next
    collection after the build.

    The heap this leaves is not frozen here: the plugin freezes it for the
    one stretch where that pays (``heap_frozen``) and thaws it after.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def freeze_heap() -> None:
    """Keep the collector off everything alive now (``gc.freeze``).

    What a build made lives on (the plugin keeps it), and MkDocs then writes
    the pages with the collector on: its passes would otherwise scan all of it
    again, over and over (2.4 s of a 4,300-paper build). ``thaw_heap`` must
    follow once the pages are written: a frozen heap is never collected, and
    the process (``mkdocs serve``, a test run) goes on after the build.
    """
    gc.freeze()


def thaw_heap() -> None:
    """Undo ``freeze_heap``: what the last build no longer uses can be collected again."""
    gc.unfreeze()


class SiteBuilder:
    def __init__(self):
        self.caches = BuildCaches()
        self._last: tuple[str, dict[str, str]] | None = None
        self.previous: dict[str, str] = {}      # the files of the build before the last one
        self.atlas = None
        self.edit_targets: dict[str, Path] = {}
        self.data_jobs: list = []               # the last build's data files, as jobs (render.site.Rendered)
        self._data: dict | None = None          # ... and their files, once computed here

    @property
    def data_ready(self) -> bool:
        return self._data is not None

    def data_files(self) -> dict[str, str | bytes]:
        """The last build's data files (the explorer's data, the papers table's
        rows): computed here the first time, then kept."""
        if self._data is None:
            with collector_paused():
                self._data = run_jobs(self.data_jobs)
        return self._data

    def build(self, seeds_dir: Path, data_dir: Path | None, notes_dir: Path | None = None,
              author_page_from: int = AUTHOR_PAGE_MIN_PAPERS) -> dict[str, str]:
        # The packaged reference data too: editing the taxonomy under ``mkdocs serve`` rebuilds.
        fingerprint = inputs_fingerprint(seeds_dir, REFERENCE_DIR, *[d for d in (data_dir, notes_dir) if d])
        fingerprint += f"|authors from {author_page_from}"
        self.previous = self._last[1] if self._last else {}
        if self._last and self._last[0] == fingerprint:
            return self._last[1]
        with collector_paused():
            return self._build(fingerprint, seeds_dir, data_dir, notes_dir, author_page_from)

    def _build(self, fingerprint: str, seeds_dir: Path, data_dir: Path | None, notes_dir: Path | None,
               author_page_from: int) -> dict[str, str]:
        self.atlas = build_atlas(seeds_dir, data_dir, strict=True, caches=self.caches)
        valid = {
            "papers": {p.slug for p in self.atlas.corpus.papers},
            "authors": {a.slug for a in self.atlas.corpus.authors.values()},
            "venues": {v.slug for v in self.atlas.corpus.venues.values()},
            "techniques": set(self.atlas.taxonomy.techniques),
        }
        notes = load_notes(notes_dir, valid)
        rendered = render_parts(self.atlas, notes, author_page_from)
        pages, self.data_jobs, self._data = rendered.pages, rendered.data, None
        self.edit_targets = edit_targets(self.atlas, notes)
        self.caches.finish_build()
        self._last = (fingerprint, pages)
        return pages
