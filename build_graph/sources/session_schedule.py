"""Conference session schedule: session header, then talks by time slot.

Sample input (``seeds/004_...txt``)::

    Hardware Efficient ML

    Exhibit Hall A

    Moderator: Yingyan Lin

    Tue 30 Aug 2:15 p.m. PDT — 3:30 p.m. PDT

    Chat is not available.

    Tue 30 Aug. 14:15 - 14:33 PDT

    ULPPACK: Fast Sub-8-bit Matrix Multiply on Commodity SIMD Hardware

    Jaeyeon Won · Jeyeon Si · Sam Son · Tae Jun Ham · Jae W. Lee

    Recent progress in quantization techniques ...

Each talk is a time slot, a title, authors separated by `` · ``, then the
abstract. The page shows weekday, day and month but no year and no venue:
the year is inferred only when unambiguous (``normalize.dates``), and the
venue comes from the listing's sidecar (``<name>.meta.yaml``).
"""

from __future__ import annotations

import re

from ..errors import Finding
from ..model import ParsedListing, Provenance, RawEntry, Skip
from .text import Line, lines_of, paragraphs, urls_in

NAME = "session-schedule"
SUMMARY = "session header, time slots 'Tue 30 Aug. 14:15 - 14:33 PDT', title, 'A · B · C', abstract"

_DAYS = "Mon|Tue|Wed|Thu|Fri|Sat|Sun"
_MONTHS = "Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec"
_SLOT = re.compile(
    rf"^((?:{_DAYS})[a-z]*\.? \d{{1,2}} (?:{_MONTHS})[a-z]*)\.?,? "
    r"\d{1,2}:\d{2}(?:\s*[ap]\.?m\.?)?\s*[-–—]\s*\d{1,2}:\d{2}(?:\s*[ap]\.?m\.?)?(?: [A-Z]{2,5})?$",
    re.IGNORECASE)
_AUTHOR_SEPARATOR = " · "
_NOISE = re.compile(r"^(Chat is not available\.?|Moderators?:.*|Session chairs?:.*)$", re.IGNORECASE)


def sniff(text: str) -> float:
    lines = [line.text for line in lines_of(text) if line.text]
    slots = sum(1 for t in lines if _SLOT.match(t))
    if not slots:
        return 0.0
    separated = sum(1 for t in lines if _AUTHOR_SEPARATOR in t)
    return 1.0 if separated else 0.6


def parse(text: str, file: str) -> ParsedListing:
    listing = ParsedListing(file=file, format=NAME, entries=[])
    header: list[Line] = []
    blocks: list[list[Line]] = []
    for line in lines_of(text):
        if _SLOT.match(line.text):
            blocks.append([line])
        elif blocks:
            blocks[-1].append(line)
        else:
            header.append(line)
    session = next((line.text for line in header if line.text and not _NOISE.match(line.text)), None)
    for number, block in enumerate(blocks, start=1):
        _add_entry(listing, number, block, session)
    return listing


def _add_entry(listing: ParsedListing, number: int, block: list[Line], session: str | None) -> None:
    file = listing.file
    slot = block[0]
    source = Provenance(file, number, slot.number)
    date_text = re.sub(r"\.$", "", _SLOT.match(slot.text).group(1))
    parts = [p for p in paragraphs(block[1:]) if not _NOISE.match(" ".join(x.text for x in p))]
    if not parts:
        listing.skipped.append(Skip(source, "time slot with no talk under it"))
        return
    entry = RawEntry(source=source, session=session, date_text=date_text)
    entry.title = " ".join(line.text for line in parts[0])
    rest = parts[1:]
    if rest and _looks_like_authors(rest[0]):
        names = " ".join(line.text for line in rest[0])
        entry.authors = [n.strip() for n in names.split("·") if n.strip()]
        rest = rest[1:]
    else:
        listing.findings.append(Finding(file, slot.number, "missing-authors",
                                        f"talk {number} has no author line"))
    entry.abstract = "\n\n".join(" ".join(line.text for line in p) for p in rest)
    entry.urls = urls_in(entry.abstract)
    listing.entries.append(entry)


def _looks_like_authors(paragraph: list[Line]) -> bool:
    text = " ".join(line.text for line in paragraph)
    if "·" in text:
        return True
    words = text.split()
    return 1 < len(words) <= 5 and not text.endswith(".") and all(w[:1].isupper() for w in words)
