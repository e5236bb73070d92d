"""JSON Lines corpus: one JSON object per line, with at least ``title`` and ``abstract``.

Sample input (one line of ``../shared/corpora/systems-conferences.jsonl``,
wrapped here)::

    {"title": "Energy-aware Scheduling and Input Buffer Overflow Prevention for
     Energy-harvesting Systems", "authors": ["Harsh Desai", "Xinye Wang",
     "Brandon Lucia"], "abstract": "Modern energy-harvesting devices ...",
     "venue": "ASPLOS", "year": 2025, "date": "2025-03-31",
     "session": "Session 1A: Energy", "link": "https://doi.org/10.1145/..."}

Keys: ``title`` (text), ``abstract`` (text), ``authors`` (a list of names;
a single string is split at commas), ``venue``, ``year`` (number), ``date``
(``YYYY-MM-DD``), ``session`` and ``link`` (a URL, kept as the paper's link).
Other keys are ignored. A line that is not a JSON object, or whose fields
have the wrong type, is skipped or corrected with a finding that names the
line; it never stops the other lines.

Recognised from content only: every non-blank line is a JSON object with
``"title"`` and ``"abstract"`` keys.
"""

from __future__ import annotations

import datetime as dt
import json

from ..errors import Finding
from ..model import ParsedListing, Provenance, RawEntry, Skip
from .text import tidy, urls_in

NAME = "jsonl-corpus"
SUMMARY = "JSON Lines, one object per line with 'title', 'abstract', 'authors', 'venue', 'year', 'date', 'link'"

_REQUIRED = ("title", "abstract")


def _objects(text: str):
    """(line number, decoded value or None) for every non-blank line."""
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            yield number, json.loads(line)
        except (ValueError, RecursionError):      # RecursionError: absurdly deep nesting
            yield number, None


def sniff(text: str) -> float:
    seen = False
    for _, value in _objects(text):
        if not isinstance(value, dict) or not all(key in value for key in _REQUIRED):
            return 0.0
        seen = True
    return 1.0 if seen else 0.0


def _text(value) -> str | None:
    return tidy(value) if isinstance(value, str) and value.strip() else None


def parse(text: str, file: str) -> ParsedListing:
    listing = ParsedListing(file=file, format=NAME, entries=[])
    for entry_number, (line, value) in enumerate(_objects(text), start=1):
        source = Provenance(file, entry_number, line)
        if not isinstance(value, dict):
            listing.skipped.append(Skip(source, "line is not a JSON object"))
            continue
        _add_entry(listing, source, value)
    return listing


def _add_entry(listing: ParsedListing, source: Provenance, value: dict) -> None:
    file, line = listing.file, source.line

    def warn(code: str, message: str) -> None:
        listing.findings.append(Finding(file, line, code, message))

    entry = RawEntry(source=source, title=_text(value.get("title")),
                     abstract=value["abstract"].strip() if isinstance(value.get("abstract"), str) else "",
                     venue=_text(value.get("venue")), session=_text(value.get("session")))
    authors = value.get("authors")
    if isinstance(authors, str):
        warn("authors-not-a-list", "'authors' is a string; split at commas")
        authors = authors.split(",")
    if isinstance(authors, list):
        entry.authors = [tidy(a) for a in authors if isinstance(a, str) and a.strip()]
        if len(entry.authors) != len([a for a in authors if a]):
            warn("bad-author", "'authors' holds values that are not names; they are left out")
    elif authors is not None:
        warn("bad-author", "'authors' must be a list of names")
    year = value.get("year")
    if isinstance(year, str) and year.strip().isascii() and year.strip().isdigit() and len(year.strip()) <= 4:
        year = int(year)
    if isinstance(year, int) and not isinstance(year, bool) and 1900 <= year <= 2100:
        entry.year = year
    elif year is not None:
        warn("bad-year", f"'year' {year!r} is not a four-digit year; ignored")
    date = value.get("date")
    if isinstance(date, str) and date.strip():
        try:
            parsed = dt.date.fromisoformat(date.strip())
        except ValueError:
            warn("bad-date", f"'date' {date!r} is not YYYY-MM-DD; ignored")
        else:
            if entry.year is not None and parsed.year != entry.year:
                warn("bad-date", f"'date' {date!r} disagrees with 'year' {entry.year}; date ignored")
            else:
                entry.date = parsed.isoformat()
                entry.year = entry.year or parsed.year
    link = value.get("link")
    links = [link.strip()] if isinstance(link, str) and link.strip().startswith(("http://", "https://")) else []
    entry.urls = list(dict.fromkeys(links + urls_in(entry.abstract)))
    if not entry.title and not entry.abstract:
        listing.skipped.append(Skip(source, "entry has neither a title nor an abstract"))
        return
    if not entry.authors:
        warn("missing-authors", f"entry {source.entry} has no authors")
    listing.entries.append(entry)
