"""Structured entries: papers written by hand as YAML, one per file or a list.

Sample input (``seeds/taccl.yaml``)::

    title: "TACCL: Guiding Collective Algorithm Synthesis using Communication Sketches"
    authors: [Aashaka Shah, Vijay Chidambaram, Meghan Cowan]
    venue: NSDI
    year: 2023
    arxiv: "2111.04867"
    urls: [https://github.com/microsoft/taccl]
    abstract: >-
      Large ML models and datasets have necessitated ...
    techniques:
      add:
        - {id: collective-communication, reason: "synthesises collective algorithms"}
      remove:
        - {id: mixture-of-experts, reason: "MoE is only the workload used in the evaluation"}

or ``papers: [ {...}, {...} ]`` for several. These are listings too: they go
through the same normalisation and merge with other listings by arXiv id, DOI
or title, and the ledger counts them. Unlike raw listings they are read by
file extension (``.yaml``/``.yml``), because a contributor chose the format on
purpose; every key and type is validated with file and line.
"""

from __future__ import annotations

import datetime as dt

from ..errors import CurationError
from ..model import ParsedListing, Provenance, RawEntry, TechniqueOverride
from ..yamlio import LineDict, LineList, load_yaml_text

NAME = "structured-yaml"
SUMMARY = "a YAML mapping with title, authors, venue, year, ... or a 'papers:' list of them"

TEXT_KEYS = ("title", "venue", "date", "arxiv", "doi", "abstract")
ALLOWED = {*TEXT_KEYS, "authors", "year", "urls", "techniques"}


def _fail(message: str, file: str, line: int, **kw) -> CurationError:
    return CurationError(message, file=file, line=line, **kw)


def _text_list(value, key: str, file: str, line: int) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise _fail(f"'{key}' must be a list of non-empty strings", file, line)
    return [v.strip() for v in value]


def _overrides(value, file: str, line: int) -> list[TechniqueOverride]:
    if not isinstance(value, LineDict) or not set(value) <= {"add", "remove"}:
        raise _fail("'techniques' must be a mapping with 'add' and/or 'remove' lists", file, line)
    result = []
    for action in ("add", "remove"):
        if value.get(action) is None:
            continue
        items = value[action]
        if not isinstance(items, LineList):
            raise _fail(f"'techniques.{action}' must be a list", file, value.line_of(action))
        for item, item_line in zip(items, items.item_lines):
            if not isinstance(item, LineDict) or set(item) != {"id", "reason"} or not all(
                    isinstance(item[k], str) and item[k].strip() for k in ("id", "reason")):
                raise _fail(f"each 'techniques.{action}' item needs exactly 'id' and a non-empty "
                            "'reason'", file, item_line)
            result.append(TechniqueOverride(item["id"].strip(), action, item["reason"].strip(),
                                            file, item_line))
    return result


def _entry(item, number: int, file: str, line: int) -> RawEntry:
    if not isinstance(item, LineDict):
        raise _fail("a paper must be a mapping of keys to values", file, line)
    for key in item:
        if key not in ALLOWED:
            raise _fail(f"unknown key {key!r}", file, item.line_of(key),
                        expected="one of " + ", ".join(sorted(ALLOWED)))
    entry = RawEntry(source=Provenance(file, number, item.line))
    for key in TEXT_KEYS:
        value = item.get(key)
        if isinstance(value, dt.date) and key == "date":
            value = value.isoformat()
        if isinstance(value, (int, float)) and key == "arxiv":
            raise _fail("quote the arXiv id (\"2301.00001\"): as a number it loses zeros",
                        file, item.line_of(key))
        if value is not None and not isinstance(value, str):
            raise _fail(f"'{key}' must be text", file, item.line_of(key), found=str(value)[:60])
        setattr(entry, key, value.strip() if isinstance(value, str) and value.strip() else None)
    entry.abstract = entry.abstract or ""
    if entry.date:
        try:
            dt.date.fromisoformat(entry.date)
        except ValueError:
            raise _fail("'date' must be YYYY-MM-DD", file, item.line_of("date"), found=entry.date) from None
    year = item.get("year")
    if year is not None:
        if not isinstance(year, int) or isinstance(year, bool) or not 1900 <= year <= 2100:
            raise _fail("'year' must be a four-digit number", file, item.line_of("year"), found=str(year))
        entry.year = year
    elif entry.date:
        entry.year = int(entry.date[:4])
    if "authors" in item:
        entry.authors = _text_list(item["authors"], "authors", file, item.line_of("authors"))
    if "urls" in item:
        entry.urls = _text_list(item["urls"], "urls", file, item.line_of("urls"))
    if "techniques" in item:
        entry.technique_overrides = _overrides(item["techniques"], file, item.line_of("techniques"))
    if not entry.title and not entry.abstract:
        raise _fail("a paper needs a 'title' or an 'abstract'", file, item.line)
    return entry


def parse(text: str, file: str) -> ParsedListing:
    data = load_yaml_text(text, file)
    if isinstance(data, LineDict) and set(data) == {"papers"}:
        items = data["papers"]
        if not isinstance(items, LineList):
            raise _fail("'papers' must be a list of papers", file, data.line_of("papers"))
        lines = items.item_lines
    elif isinstance(data, LineDict):
        items, lines = [data], [data.line]
    else:
        raise _fail("expected one paper (a mapping) or 'papers:' with a list", file, 1)
    entries = [_entry(item, number, file, line)
               for number, (item, line) in enumerate(zip(items, lines), start=1)]
    return ParsedListing(file=file, format=NAME, entries=entries)
