"""Listings in, ``ParsedListing`` out: one module per format, chosen by content.

The table ``FORMATS`` is the only place a format is registered. Each module
has ``NAME``, ``SUMMARY``, ``sniff(text) -> float`` (confidence 0..1, from
content only, never the file name) and a pure ``parse(text, file)``.

A seeds folder holds three kinds of file:

* ``*.meta.yaml`` - a *sidecar*: facts about the listing of the same stem
  that its text lacks (venue, year, session date). See ``sidecar.py``.
* other ``*.yaml`` / ``*.yml`` - structured paper entries written by hand.
* anything else (``.txt`` by convention) - a listing, sniffed by content.
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

from ..errors import Finding, UnknownFormatError
from ..model import ParsedListing
from . import (arxiv_listing, author_profile, awesome_list, bare_abstracts, bib, csl_json,
               jsonl_corpus, papers_cool, session_schedule)
from .text import read_listing

FORMATS: tuple[ModuleType, ...] = (
    bare_abstracts,
    arxiv_listing,
    author_profile,
    papers_cool,
    session_schedule,
    jsonl_corpus,
    bib,
    csl_json,
    awesome_list,
)

MIN_CONFIDENCE = 0.5
SIDECAR_SUFFIX = ".meta.yaml"
STRUCTURED_SUFFIXES = (".yaml", ".yml")


def known_formats() -> str:
    return "; ".join(f"{fmt.NAME} ({fmt.SUMMARY})" for fmt in FORMATS)


def detect(text: str, file: str) -> ModuleType:
    """Pick the format whose sniffer is most confident; refuse ties and silence."""
    scores = sorted(((fmt.sniff(text), i) for i, fmt in enumerate(FORMATS)), reverse=True)
    best, index = scores[0]
    if best < MIN_CONFIDENCE:
        raise UnknownFormatError(
            "no parser recognises this listing. Known formats: " + known_formats(), file=file)
    if len(scores) > 1 and scores[1][0] == best:
        other = FORMATS[scores[1][1]].NAME
        raise UnknownFormatError(
            f"listing is ambiguous: it reads as both {FORMATS[index].NAME} and {other}", file=file)
    return FORMATS[index]


def parse_text(text: str, file: str) -> ParsedListing:
    if not text.strip():
        return ParsedListing(file=file, format="empty", entries=[],
                             findings=[Finding(file, None, "empty-file", "file is empty")])
    return detect(text, file).parse(text, file)


def parse_listing(path: Path, file: str) -> ParsedListing:
    return parse_text(read_listing(path, file), file)


def listing_kind(path: Path) -> str:
    """``listing``, ``sidecar``, ``structured`` or ``ignored`` (hidden files)."""
    name = path.name
    if name.startswith("."):
        return "ignored"
    if name.endswith(SIDECAR_SUFFIX):
        return "sidecar"
    if name.endswith(STRUCTURED_SUFFIXES):
        return "structured"
    return "listing"


def seed_files(folder: Path) -> list[Path]:
    """Every input file below ``folder``, sorted by relative path so the build
    never depends on the order the filesystem lists them in."""
    return sorted((p for p in folder.rglob("*") if p.is_file()
                   and not any(part.startswith(".") for part in p.relative_to(folder).parts)),
                  key=lambda p: p.relative_to(folder).as_posix())
