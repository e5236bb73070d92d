"""What the atlas remembers between builds, held in one object.

``mkdocs serve`` rebuilds the site on every change, in one process. The
expensive parts of a build have inputs that rarely change between two
rebuilds: the listings (most are untouched), the taxonomy (compiling its
~4,000 patterns costs more than parsing every seed listing), the paper
texts the tagger reads, and the graph's structure (the global layout).

``BuildCaches`` holds every result worth keeping across rebuilds.
``SiteBuilder`` owns one (the MkDocs plugin owns the builder, so it lives as
long as ``mkdocs serve``), passes it down explicitly to ``build_atlas``, and
the atlas carries it to the renderer for the layout. ``mkdocs build`` and
the command line start with an empty one; nothing is kept in module globals.

Every entry is keyed by the *content* it was computed from (bytes, a
taxonomy's digest, a paper's title and abstract, the graph's structure),
never by a file name or time, so a hit is always what a cold build would
compute, and two builds stay byte-identical. Each cache keeps only what the
latest build used, so a long session does not grow without bound.

Left in modules, on purpose: ``functools.lru_cache`` on pure functions of
small keys (compiling one term's regex, splitting one text into lines,
repairing one name's case). Those hold no build state: the same key gives
the same value in any build of any site.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import Callable
from typing import Any


class ParseCache:
    """Parsed listings keyed by (file name, sha256 of bytes). Entries the
    latest build did not read are dropped by ``BuildCaches.finish``."""

    def __init__(self):
        self._entries: dict[tuple[str, str], Any] = {}
        self._used: set[tuple[str, str]] = set()

    def get(self, name: str, raw: bytes):
        key = (name, hashlib.sha256(raw).hexdigest())
        self._used.add(key)
        return self._entries.get(key)

    def put(self, name: str, raw: bytes, value) -> None:
        key = (name, hashlib.sha256(raw).hexdigest())
        self._used.add(key)
        self._entries[key] = value

    def __len__(self) -> int:
        return len(self._entries)

    def keep_used(self) -> None:
        self._entries = {k: v for k, v in self._entries.items() if k in self._used}
        self._used = set()


class BuildCaches:
    """Parsed listings, the compiled taxonomy, tags per paper text and global
    layouts, kept between builds of one long-running process."""

    LAYOUTS = 4        # structures kept: switching branches under ``serve`` and back is instant

    def __init__(self):
        self.parses = ParseCache()
        self._tagging: tuple[str, Any] | None = None        # (taxonomy digest, (Taxonomy, Tagger))
        self._tags: tuple[Any, dict] | None = None          # (the Tagger, {(title, abstract): tags})
        self._layouts: OrderedDict[str, Any] = OrderedDict()

    def tagging(self, digest: str, compile: Callable[[], Any]) -> Any:
        """The taxonomy and tagger for a taxonomy file's content, compiled once per content."""
        if self._tagging is None or self._tagging[0] != digest:
            self._tagging = (digest, compile())
        return self._tagging[1]

    def tags(self, tagger) -> dict:
        """Tags by (title, abstract) that ``tagger`` produced in the previous build
        ({} for any other tagger: tags depend on the taxonomy)."""
        if self._tags is not None and self._tags[0] is tagger:
            return self._tags[1]
        return {}

    def keep_tags(self, tagger, tags: dict) -> None:
        """Replace the remembered tags with this build's (papers gone are forgotten)."""
        self._tags = (tagger, tags)

    def layout(self, structure: str, compute: Callable[[], Any]) -> Any:
        """Positions for a graph structure, computed once while it is among the latest few."""
        positions = self._layouts.get(structure)
        if positions is None:
            positions = self._layouts[structure] = compute()
            while len(self._layouts) > self.LAYOUTS:
                self._layouts.popitem(last=False)
        else:
            self._layouts.move_to_end(structure)
        return positions

    def finish_build(self) -> None:
        """Called once a build is complete: drop parses that build did not use."""
        self.parses.keep_used()

    def summary(self) -> dict[str, int]:
        """How much is held, for logs and tests: the whole state in one place."""
        return {"parsed listings": len(self.parses), "taxonomies": int(self._tagging is not None),
                "tagged texts": len(self._tags[1]) if self._tags else 0, "layouts": len(self._layouts)}
