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


from ..errors import CurationError
from ..model import ParsedListing, Provenance, RawEntry, TechniqueOverride
from ..yamlio import ANY, DATE, TEXT, TEXTS, YEAR, Fields, LineDict, LineList, load_yaml_text

NAME = "structured-yaml"
SUMMARY = "a YAML mapping with title, authors, venue, year, ... or a 'papers:' list of them"

TEXT_KEYS = ("title", "venue", "arxiv", "doi", "abstract")
FIELDS = Fields({**dict.fromkeys(TEXT_KEYS, TEXT), "date": DATE, "year": YEAR, "authors": TEXTS,
                 "urls": TEXTS, "techniques": ANY})       # techniques: read by _overrides


def _fail(message: str, file: str, line: int, **kw) -> CurationError:
    return CurationError(message, file=file, line=line, **kw)


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
    item = FIELDS.check(item, file, "a paper", line)
    entry = RawEntry(source=Provenance(file, number, item.line))
    if isinstance(item.get("arxiv"), (int, float)):
        raise _fail("quote the arXiv id (\"2301.00001\"): as a number it loses zeros",
                    file, item.line_of("arxiv"))
    for key in TEXT_KEYS:
        setattr(entry, key, FIELDS.get(item, key, file))
    entry.abstract = entry.abstract or ""
    entry.date = FIELDS.get(item, "date", file)
    entry.year = FIELDS.get(item, "year", file)
    if entry.year is None and entry.date:
        entry.year = int(entry.date[:4])
    if "authors" in item:
        entry.authors = FIELDS.get(item, "authors", file) or []
    if "urls" in item:
        entry.urls = FIELDS.get(item, "urls", file) or []
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
