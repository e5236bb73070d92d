"""Venue names: one canonical key per conference, read from ``venues.yaml`` (``build_graph/data/``).

A venue can arrive as a listing header (``MLSYS``), a sidecar value, an arXiv
comment (``Accepted to NeurIPS 2022``) or a DOI proceedings name (``Proceedings
of the 28th ACM International Conference on Architectural Support for
Programming Languages and Operating Systems, Volume 2, 2023``). Only venues in
the curated table are recognised inside free text, so a random capitalised word
in a comment never becomes a venue. A header or sidecar naming an unknown venue
is kept as written and reported, because the listing does state it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import CurationError
from ..yamlio import LIST, NONEMPTY_TEXT, TEXTS, Fields, load_yaml_file

_YEAR = re.compile(r"\b(19[5-9]\d|20\d\d)\b")
_WORKSHOP = re.compile(r"\bworkshops?\b", re.IGNORECASE)
_AT_HOST = re.compile(r"^(.+?)\s*@\s*(.+)$")
FIELDS = Fields({"key": NONEMPTY_TEXT, "full_name": NONEMPTY_TEXT, "aliases": TEXTS, "patterns": TEXTS},
                required=("key", "full_name"))
FILE = Fields({"venues": LIST}, required=("venues",))


@dataclass
class VenueInfo:
    key: str
    full_name: str
    aliases: list[str] = field(default_factory=list)
    patterns: list[str] = field(default_factory=list)


class VenueTable:
    def __init__(self, venues: list[VenueInfo]):
        self.venues = {v.key: v for v in venues}
        self._alias = {}
        for venue in venues:
            for alias in [venue.key, *venue.aliases]:
                self._alias[alias.casefold()] = venue.key
        self._found: dict[str, tuple[str, int | None] | None] = {}
        self._patterns = [
            (re.compile(r"(?<![\w-])" + re.escape(p) + r"(?![\w-])",
                        0 if _is_acronym(p) else re.IGNORECASE), venue.key)
            for venue in venues for p in venue.patterns]

    def canonical(self, name: str) -> str | None:
        """The key for a whole venue string (``MLSYS`` -> ``MLSys``), if known."""
        return self._alias.get(" ".join(name.split()).casefold())

    def find_in_text(self, text: str) -> tuple[str, int | None] | None:
        """A known venue (and year) named inside free text, or ``None``.

        Workshops are not their host conference, so a comment that mentions
        a workshop yields nothing rather than a wrong venue. Memoised: a
        BibTeX database repeats the same proceedings name for every paper.
        """
        if text not in self._found:
            if len(self._found) > 100_000:
                self._found.clear()
            self._found[text] = self._find_in_text(text)
        return self._found[text]

    def _find_in_text(self, text: str) -> tuple[str, int | None] | None:
        if _WORKSHOP.search(text):
            return None
        hits = sorted((m.start(), key) for pattern, key in self._patterns
                      for m in [pattern.search(text)] if m)
        if not hits:
            return None
        years = _YEAR.findall(text)
        return hits[0][1], int(years[-1]) if years else None

    def workshop(self, name: str) -> str | None:
        """``ES-FoMo @ ICML`` -> ``ES-FoMo @ ICML`` when the host is a known venue.

        A workshop is its own venue, not its host conference, so the key keeps
        the workshop's name; the host is written in its canonical spelling.
        """
        match = _AT_HOST.match(" ".join(name.split()))
        host = self.canonical(match.group(2)) if match else None
        return f"{match.group(1)} @ {host}" if host else None

    def full_name(self, key: str) -> str:
        info = self.venues.get(key)
        if info is None and self.workshop(key):
            workshop, host = key.split(" @ ", 1)
            return f"{workshop} workshop at {self.venues[host].full_name}"
        return info.full_name if info else key


def _is_acronym(pattern: str) -> bool:
    return " " not in pattern and any(c.isupper() for c in pattern[1:])


def load_venues(path: Path, display: str) -> VenueTable:
    data = FILE.check(load_yaml_file(path, display), display, "venues.yaml", line=1)
    items = FILE.get(data, "venues", display)
    venues, seen = [], {}
    for item, line in zip(items, items.item_lines):
        item = FIELDS.check(item, display, "each venue", line)
        key, full_name = FIELDS.get(item, "key", display), FIELDS.get(item, "full_name", display)
        aliases, patterns = FIELDS.get(item, "aliases", display) or [], FIELDS.get(item, "patterns", display) or []
        for alias in [key, *aliases]:
            if alias.casefold() in seen and seen[alias.casefold()] != key:
                raise CurationError(f"alias {alias!r} already belongs to {seen[alias.casefold()]}",
                                    file=display, line=line)
            seen[alias.casefold()] = key
        venues.append(VenueInfo(key, full_name, aliases, patterns))
    return VenueTable(venues)
