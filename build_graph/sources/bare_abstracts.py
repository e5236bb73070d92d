"""Bare abstracts: one entry per ``Abstract:`` line, nothing else.

Sample input (``seeds/000_...txt``)::

    Abstract:Large ML models and datasets have necessitated the use of multi-GPU
    systems for distributed model training. ... we present TACCL, a synthesizer ...
    Abstract:As autonomous driving and augmented reality evolve, ...

There is no title, author, venue or date. The papers become *untitled*
papers whose label is taken from the text later (see ``normalize.labels``);
a line that does not start with ``Abstract:`` continues the previous entry,
because copy-paste sometimes wraps long abstracts.
"""

from __future__ import annotations

import re

from ..errors import Finding
from ..model import ParsedListing, Provenance, RawEntry, Skip
from .text import lines_of, urls_in

NAME = "bare-abstracts"
SUMMARY = "lines starting 'Abstract:', one paper each, no title or authors"

_START = re.compile(r"^Abstract\s*:\s*", re.IGNORECASE)


def sniff(text: str) -> float:
    content = [line.text for line in lines_of(text) if line.text]
    if not content or not _START.match(content[0]):
        return 0.0
    starts = sum(1 for line in content if _START.match(line))
    return 1.0 if starts == len(content) else 0.6


def parse(text: str, file: str) -> ParsedListing:
    listing = ParsedListing(file=file, format=NAME, entries=[])
    blocks: list[tuple[int, list[str]]] = []
    for line in lines_of(text):
        if not line.text:
            continue
        match = _START.match(line.text)
        if match:
            blocks.append((line.number, [line.text[match.end():]]))
        elif blocks:
            blocks[-1][1].append(line.text)
        else:
            listing.findings.append(Finding(file, line.number, "stray-text",
                                            "text before the first 'Abstract:' line is ignored"))
    for number, (line_no, parts) in enumerate(blocks, start=1):
        source = Provenance(file, number, line_no)
        abstract = " ".join(part for part in parts if part).strip()
        if not abstract:
            listing.skipped.append(Skip(source, "'Abstract:' line with no text"))
            continue
        listing.entries.append(RawEntry(source=source, abstract=abstract, urls=urls_in(abstract)))
    return listing
