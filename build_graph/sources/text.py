"""Turning a listing's bytes into clean lines, the same way for every format.

Listings arrive by copy-paste from web pages and by pull requests from
strangers, so the reader has to accept every harmless variation (BOM, CRLF,
bare CR, decomposed accents) and refuse, with a precise message, everything it
cannot read (binary files, bytes that are not UTF-8, absurd sizes). Parsers
then see one canonical text and never deal with encodings themselves.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from ..errors import EncodingError

MAX_LISTING_BYTES = 8 * 1024 * 1024   # the largest real listing is ~40 KB
_SPACES = re.compile(r"[ \t\u00a0\u2000-\u200a\u202f\u205f\u3000]+")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def decode_listing(raw: bytes, file: str) -> str:
    """Decode listing bytes to canonical text or raise ``EncodingError``.

    Canonical means: UTF-8 without BOM, ``\\n`` line endings, Unicode NFC.
    """
    if len(raw) > MAX_LISTING_BYTES:
        raise EncodingError(
            f"file is {len(raw):,} bytes; listings are limited to {MAX_LISTING_BYTES:,} bytes",
            file=file)
    nul = raw.find(b"\x00")
    if nul != -1:
        raise EncodingError(f"binary file (NUL byte at byte offset {nul}); listings are text",
                            file=file)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        line = raw.count(b"\n", 0, err.start) + 1
        raise EncodingError(
            f"not valid UTF-8 at byte offset {err.start} (byte 0x{raw[err.start]:02x}); "
            "save the listing as UTF-8", file=file, line=line) from None
    if text.startswith("\ufeff"):
        text = text[1:]
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = _CONTROL.sub("", text)
    return unicodedata.normalize("NFC", text)


def read_listing(path: Path, display: str) -> str:
    size = path.stat().st_size
    if size > MAX_LISTING_BYTES:
        raise EncodingError(
            f"file is {size:,} bytes; listings are limited to {MAX_LISTING_BYTES:,} bytes",
            file=display)
    return decode_listing(path.read_bytes(), display)


@dataclass(frozen=True)
class Line:
    number: int        # 1-based
    text: str          # stripped of surrounding whitespace, inner runs collapsed


def lines_of(text: str) -> list[Line]:
    return list(_lines(text))


@lru_cache(maxsize=4)
def _lines(text: str) -> tuple[Line, ...]:
    # Cached: every format's ``sniff`` and then the chosen ``parse`` split the
    # same text, seven passes that were most of the parse stage. A pure function
    # of the text, so not build state (see caches.py); four texts at most.
    return tuple(Line(i, tidy(t)) for i, t in enumerate(text.split("\n"), start=1))


def tidy(text: str) -> str:
    """Collapse runs of spaces (including non-breaking ones) and trim."""
    return _SPACES.sub(" ", text).strip()


def paragraphs(lines: list[Line]) -> list[list[Line]]:
    """Group lines into blank-line separated paragraphs."""
    groups: list[list[Line]] = []
    current: list[Line] = []
    for line in lines:
        if line.text:
            current.append(line)
        elif current:
            groups.append(current)
            current = []
    if current:
        groups.append(current)
    return groups


def join(lines: list[Line]) -> str:
    return " ".join(line.text for line in lines if line.text)


URL = re.compile(
    r"(?:https?://|(?<![\w./])(?:github\.com|gitlab\.com|bitbucket\.org)/)"
    r"[^\s<>\"'()\[\]{}]*[^\s<>\"'()\[\]{}.,;:!?]")


def urls_in(text: str) -> list[str]:
    """Code and project links mentioned in free text, in order, without duplicates."""
    seen: list[str] = []
    for match in URL.finditer(text):
        url = match.group(0)
        if not url.startswith(("http://", "https://")):
            url = "https://" + url
        if url not in seen:
            seen.append(url)
    return seen
