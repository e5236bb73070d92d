"""CSL-JSON: the citation format Zotero, Pandoc and citeproc read and write.

Sample input (a Zotero "Export Collection > CSL JSON", shortened)::

    [
      {
        "id": "http://zotero.org/users/1/items/ABCD1234",
        "type": "paper-conference",
        "title": "Orca: A Distributed Serving System for Transformer-Based Generative Models",
        "container-title": "16th USENIX Symposium on Operating Systems Design and Implementation (OSDI 22)",
        "author": [{"family": "Yu", "given": "Gyeong-In"}, {"literal": "The Orca Team"}],
        "issued": {"date-parts": [[2022, 7, 11]]},
        "DOI": "10.1145/...", "URL": "https://www.usenix.org/...", "abstract": "..."
      }
    ]

Read: ``title``; ``author`` (``family``/``given``, optionally
``non-dropping-particle``/``suffix``, or ``literal``); ``issued`` as
``date-parts`` (a full date gives the date, a year alone the year) or ``raw``;
``container-title`` (else ``event-title``/``event``) as the venue, resolved like a
BibTeX booktitle; ``DOI``, ``URL`` (arXiv and DOI links give the ids) and
``abstract``. Zotero's arXiv items (``"publisher": "arXiv"``, ``"number":
"arXiv:2305.14314"``, DOI ``10.48550/arXiv...``) give the arXiv id. An item
that is not an object, or has no title, is skipped with its reason; a field
of the wrong type is a warning naming the item's line.

Recognised from content only: the text is one JSON array whose items are
objects with CSL's keys (``type``, ``title``, ``issued``, ``container-title``,
``author``). The JSON Lines corpus format is one object per line, never an
array, so the two never both apply.
"""

from __future__ import annotations

import json

from ..errors import Finding, ParseError
from ..model import ParsedListing, Provenance, RawEntry, Skip
from .links import arxiv_id, doi_of, is_preprint_server
from .text import tidy

NAME = "csl-json"
SUMMARY = "CSL-JSON (Zotero/Pandoc): a JSON array of items with title, author, issued, container-title"

_CSL_KEYS = frozenset({"type", "issued", "container-title", "author", "DOI", "URL", "id",
                       "event-title", "publisher", "page", "volume"})


def _items(text: str):
    """(line, value) for each item of a top-level JSON array; line numbers from offsets."""
    decoder = json.JSONDecoder()
    start = len(text) - len(text.lstrip())
    if not text.startswith("[", start):
        raise ValueError("not an array")
    i, n = start + 1, len(text)
    while True:
        while i < n and text[i] in " \t\r\n,":
            i += 1
        if i >= n:
            raise ValueError("unterminated array")
        if text[i] == "]":
            if text[i + 1:].strip():
                raise ValueError("text after the array")
            return
        value, end = decoder.raw_decode(text, i)
        yield text.count("\n", 0, i) + 1, value
        i = end


def _leading_items(text: str, limit: int = 50) -> list:
    """Up to ``limit`` items from the start of the array; stops quietly at broken JSON,
    so a file with a typo far down is still recognised (and ``parse`` names the line)."""
    values = []
    try:
        for _, value in _items(text):
            values.append(value)
            if len(values) >= limit:
                break
    except (ValueError, RecursionError):
        pass
    return values


def sniff(text: str) -> float:
    if not text.lstrip().startswith("["):
        return 0.0
    items = _leading_items(text)
    objects = [v for v in items if isinstance(v, dict)]
    if not objects:
        return 0.0
    csl = sum(1 for v in objects if "title" in v and _CSL_KEYS & set(v))
    return 0.95 if csl * 2 >= len(items) else 0.0


def parse(text: str, file: str) -> ParsedListing:
    try:
        items = list(_items(text))
    except (ValueError, RecursionError) as err:
        line = text.count("\n", 0, getattr(err, "pos", 0) or 0) + 1
        raise ParseError("not a CSL-JSON array", file=file, line=line,
                         expected="a JSON array of items", found=str(err)[:80]) from None
    listing = ParsedListing(file=file, format=NAME, entries=[])
    for number, (line, value) in enumerate(items, start=1):
        source = Provenance(file, number, line)
        if not isinstance(value, dict):
            listing.skipped.append(Skip(source, "item is not a JSON object"))
            continue
        entry = _entry(value, source, listing.findings)
        if entry.title is None:
            listing.skipped.append(Skip(source, "item has no title"))
            continue
        listing.entries.append(entry)
    return listing


def _text(value) -> str | None:
    if isinstance(value, list) and value and isinstance(value[0], str):   # CSL allows lists
        value = value[0]
    return tidy(value) if isinstance(value, str) and value.strip() else None


def _person(value) -> str | None:
    if not isinstance(value, dict):
        return None
    literal = _text(value.get("literal"))
    if literal:
        return literal
    parts = [_text(value.get(k)) for k in ("given", "dropping-particle", "non-dropping-particle",
                                           "family")]
    name = " ".join(p for p in parts if p)
    suffix = _text(value.get("suffix"))
    return (name + (" " + suffix if suffix else "")) or None


def _date(value) -> tuple[int | None, str | None]:
    if not isinstance(value, dict):
        return None, None
    parts = value.get("date-parts")
    if isinstance(parts, list) and parts and isinstance(parts[0], list) and parts[0]:
        try:
            numbers = [int(p) for p in parts[0][:3]]
        except (TypeError, ValueError):
            numbers = []
        if numbers and 1900 <= numbers[0] <= 2100:
            if len(numbers) == 3 and 1 <= numbers[1] <= 12 and 1 <= numbers[2] <= 31:
                return numbers[0], f"{numbers[0]:04d}-{numbers[1]:02d}-{numbers[2]:02d}"
            return numbers[0], None
    raw = value.get("raw") or value.get("literal")
    if isinstance(raw, str):
        digits = raw.strip()[:4]
        if digits.isdigit() and 1900 <= int(digits) <= 2100:
            return int(digits), None
    return None, None


def _entry(item: dict, source: Provenance, findings: list[Finding]) -> RawEntry:
    def warn(code: str, message: str) -> None:
        findings.append(Finding(source.file, source.line, code, message))

    entry = RawEntry(source=source, title=_text(item.get("title")))
    abstract = item.get("abstract")
    entry.abstract = abstract.strip() if isinstance(abstract, str) else ""
    authors = item.get("author")
    if isinstance(authors, list):
        names = [_person(a) for a in authors]
        entry.authors = [n for n in names if n]
        if len(entry.authors) != len(names):
            warn("bad-author", f"item {source.entry}: an 'author' has neither family/given "
                               "nor literal; left out")
    elif authors is not None:
        warn("bad-author", f"item {source.entry}: 'author' must be a list of names")
    entry.year, entry.date = _date(item.get("issued"))
    if item.get("issued") is not None and entry.year is None:
        warn("bad-date", f"item {source.entry}: 'issued' has no readable year; ignored")
    entry.container = (_text(item.get("container-title")) or _text(item.get("event-title"))
                       or _text(item.get("event")))
    entry.doi = doi_of(_text(item.get("DOI")))
    url = _text(item.get("URL"))
    number = _text(item.get("number"))
    entry.arxiv = (arxiv_id(entry.doi) or arxiv_id(url)
                   or (arxiv_id(number) if (_text(item.get("publisher")) or "").lower() == "arxiv"
                       else None))
    if url and not (arxiv_id(url) or doi_of(url)):
        entry.urls = [url]
    entry.doi = entry.doi or doi_of(url)
    if is_preprint_server(entry.container):
        entry.container = None                 # "arXiv", "arXiv preprint arXiv:...": not a venue
    return entry
