"""papers.cool conference listing: ``VENUE.YEAR`` header, ``#N Title [buttons]``.

Sample input (``seeds/003_...txt``)::

    MLSYS.2023

    | Total: 46

    #1 XRBench: An Extended Reality (XR) Machine Learning Benchmark Suite ... [PDF3] [Copy] [Kimi9] [REL]

    Authors: Hyoukjun Kwon, Krishnakumar Nair, ..., Vijay Janapa Reddi

    Real-time multi-task multi-model (MTMM) workloads, ...

The header gives venue and year for every entry. ``| Total: N`` is what the
site says it lists; a copy often holds fewer entries, and the difference is
reported (``declared-total``), never hidden. The trailing button labels
(``[PDF3] [Copy] [Kimi9] [REL]``) are page chrome, not part of the title.
"""

from __future__ import annotations

import re

from ..errors import Finding
from ..model import ParsedListing, Provenance, RawEntry, Skip
from .text import Line, lines_of, urls_in

NAME = "papers-cool"
SUMMARY = "'VENUE.YEAR' header, '| Total: N', entries '#N Title [PDF] [Copy] [Kimi] [REL]' and 'Authors: ...'"

_HEADER = re.compile(r"^([A-Za-z][A-Za-z0-9\-]*)\.(\d{4})$")
_TOTAL = re.compile(r"^\|\s*Total:\s*(\d{1,9})$")     # bounded: int() refuses > 4300 digits
_ENTRY = re.compile(r"^#(\d{1,9})\s+(.+)$")
_BUTTON = re.compile(r"\s*\[(?:PDF|Copy|Kimi|REL|HTML|Code|Bib|Abs)\d*\]\s*$", re.IGNORECASE)
_AUTHORS = re.compile(r"^Authors?\s*:\s*(.*)$")


def sniff(text: str) -> float:
    lines = [line.text for line in lines_of(text) if line.text]
    entries = [t for t in lines if _ENTRY.match(t) and _BUTTON.search(t)]
    if not entries:
        return 0.0
    authors = sum(1 for t in lines if _AUTHORS.match(t))
    header = bool(lines and _HEADER.match(lines[0]))
    return 1.0 if authors and header else 0.8 if authors else 0.5


def _strip_buttons(title: str) -> str:
    while True:
        stripped = _BUTTON.sub("", title)
        if stripped == title:
            return title.strip()
        title = stripped


def parse(text: str, file: str) -> ParsedListing:
    listing = ParsedListing(file=file, format=NAME, entries=[])
    venue = year = None
    blocks: list[list[Line]] = []
    for line in lines_of(text):
        if not blocks:
            if _HEADER.match(line.text) and venue is None:
                venue, year = _HEADER.match(line.text).groups()
                continue
            total = _TOTAL.match(line.text)
            if total:
                listing.declared_total = int(total.group(1))
                continue
        if _ENTRY.match(line.text) and _BUTTON.search(line.text):
            blocks.append([line])
        elif blocks:
            blocks[-1].append(line)
        elif line.text:
            listing.findings.append(Finding(file, line.number, "stray-text",
                                            "text before the first '#N' entry is ignored"))
    previous = 0
    for number, block in enumerate(blocks, start=1):
        head = block[0]
        shown = int(_ENTRY.match(head.text).group(1))
        if shown != previous + 1:
            listing.findings.append(Finding(
                file, head.number, "numbering-gap",
                f"entry #{shown} follows #{previous}: entries may be missing from the copy"))
        previous = shown
        _add_entry(listing, number, block, venue, year)
    if listing.declared_total is not None and listing.declared_total != len(blocks):
        listing.findings.append(Finding(
            file, None, "declared-total",
            f"listing declares {listing.declared_total} entries but holds {len(blocks)}"))
    return listing


def _add_entry(listing: ParsedListing, number: int, block: list[Line],
               venue: str | None, year: str | None) -> None:
    head = block[0]
    source = Provenance(listing.file, number, head.number)
    title = _strip_buttons(_ENTRY.match(head.text).group(2))
    entry = RawEntry(source=source, title=title or None, venue=venue,
                     year=int(year) if year else None)
    abstract: list[str] = []
    for line in block[1:]:
        authors = _AUTHORS.match(line.text)
        if authors and not entry.authors and not abstract:
            entry.authors = [a.strip() for a in authors.group(1).split(",") if a.strip()]
        elif line.text:
            abstract.append(line.text)
    entry.abstract = " ".join(abstract)
    entry.urls = urls_in(entry.abstract)
    if not entry.title and not entry.abstract:
        listing.skipped.append(Skip(source, "entry has neither a title nor an abstract"))
        return
    if not entry.authors:
        listing.findings.append(Finding(listing.file, head.number, "missing-authors",
                                        f"entry #{number} has no 'Authors:' line"))
    listing.entries.append(entry)
