"""arXiv listing: abstract, optional comment lines, ``arXiv:ID``, ``Created:``.

Sample input (``seeds/001_...txt``)::

    Training deep learning models can be computationally expensive. ...

    Accepted to NeurIPS 2022

    arXiv:2210.10246
    Created: 2022-10-18

    Stream processing engines (SPEs) are widely used ...

    arXiv:2301.12030 - doi: 10.1145/3575693.3575704 Proceedings of the 28th ACM
    International Conference on Architectural Support for Programming Languages
    and Operating Systems, Volume 2, 2023
    Created: 2023-01-27

An entry ends at its ``Created:`` line. The first paragraph is the abstract;
further short paragraphs before the ``arXiv:`` line are comments, which often
name the venue ("Accepted to NeurIPS 2022"). The listing has no titles and no
authors: those papers stay untitled unless another listing or a curated
correction supplies a title.
"""

from __future__ import annotations

import datetime as dt
import re

from ..errors import Finding
from ..model import ParsedListing, Provenance, RawEntry, Skip
from .text import Line, join, lines_of, paragraphs, urls_in

NAME = "arxiv-listing"
SUMMARY = "abstract, comments, 'arXiv:ID [- doi: DOI proceedings]', 'Created: YYYY-MM-DD'"

ARXIV_ID = r"(?:\d{4}\.\d{4,5}|[a-z][a-z.\-]*/\d{7})(?:v\d+)?"
_ARXIV_LINE = re.compile(rf"^arXiv:\s*({ARXIV_ID})(?:\s*-\s*doi:\s*(\S+)\s*(.*))?$", re.IGNORECASE)
_CREATED = re.compile(r"^Created:\s*([0-9]{4}-[0-9]{2}-[0-9]{2})$")
_COMMENT_MAX = 300


def sniff(text: str) -> float:
    lines = [line.text for line in lines_of(text)]
    ids = sum(1 for t in lines if _ARXIV_LINE.match(t))
    created = sum(1 for t in lines if _CREATED.match(t))
    if ids and created:
        return 1.0 if ids == created else 0.8
    return 0.5 if ids else 0.0


def parse(text: str, file: str) -> ParsedListing:
    listing = ParsedListing(file=file, format=NAME, entries=[])
    block: list[Line] = []
    number = 0
    for line in lines_of(text):
        block.append(line)
        if _CREATED.match(line.text):
            number += 1
            _add_entry(listing, block, number)
            block = []
    if any(line.text for line in block):
        number += 1
        first = next(line for line in block if line.text)
        listing.findings.append(Finding(file, first.number, "unterminated-entry",
                                        "last entry has no 'Created:' line"))
        _add_entry(listing, block, number)
    return listing


def _add_entry(listing: ParsedListing, block: list[Line], number: int) -> None:
    file = listing.file
    content = [line for line in block if line.text]
    if not content:
        return
    source = Provenance(file, number, content[0].number)
    entry = RawEntry(source=source)
    body: list[Line] = []
    for line in block:
        arxiv = _ARXIV_LINE.match(line.text)
        created = _CREATED.match(line.text)
        if arxiv and entry.arxiv is None:
            entry.arxiv = re.sub(r"v\d+$", "", arxiv.group(1))
            entry.doi = arxiv.group(2).rstrip(".,;") if arxiv.group(2) else None
            proceedings = (arxiv.group(3) or "").strip()
            entry.proceedings = proceedings or None
        elif created:
            try:
                entry.date = dt.date.fromisoformat(created.group(1)).isoformat()
                entry.year = int(entry.date[:4])
            except ValueError:
                listing.findings.append(Finding(file, line.number, "bad-date",
                                                f"'Created: {created.group(1)}' is not a real date; ignored"))
        elif entry.arxiv and entry.proceedings and line.text and not entry.date:
            entry.proceedings += " " + line.text      # proceedings name wrapped over lines
        elif entry.arxiv is None:
            body.append(line)
        elif line.text:
            listing.findings.append(Finding(file, line.number, "stray-text",
                                            "text between 'arXiv:' and 'Created:' is ignored"))
    parts = paragraphs(body)
    if parts:
        abstract = [parts[0]]
        for part in parts[1:]:
            text = join(part)
            if len(text) <= _COMMENT_MAX:
                entry.comments.append(text)
            else:
                abstract.append(part)
        entry.abstract = "\n\n".join(join(p) for p in abstract)
    if entry.arxiv is None:
        listing.findings.append(Finding(file, source.line, "missing-arxiv-id",
                                        f"entry {number} has no 'arXiv:' line"))
    if not entry.abstract and entry.arxiv is None:
        listing.skipped.append(Skip(source, "entry has neither an abstract nor an arXiv id"))
        return
    entry.urls = urls_in(entry.abstract)
    listing.entries.append(entry)
