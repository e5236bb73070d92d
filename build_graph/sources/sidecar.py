"""Sidecars: facts a listing's text lacks, kept beside it for review.

``seeds/004_d682a2c69557955b.meta.yaml`` says that the session schedule in
``004_d682a2c69557955b.txt`` is MLSys 2022, 30 August 2022. The listing stays
byte-for-byte what was copied; the sidecar states the extra facts and where
they come from (``source``), so a reviewer can check them.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path

from ..errors import CurationError
from ..yamlio import LineDict, load_yaml_file

ALLOWED_KEYS = {"venue", "year", "date", "session", "source", "note"}


@dataclass(frozen=True)
class Sidecar:
    file: str
    venue: str | None = None
    year: int | None = None
    date: str | None = None
    session: str | None = None
    source: str | None = None


def load_sidecar(path: Path, display: str) -> Sidecar:
    data = load_yaml_file(path, display)
    if not isinstance(data, LineDict):
        raise CurationError("a sidecar must be a mapping of keys to values", file=display,
                            line=getattr(data, "line", 1))
    for key in data:
        if key not in ALLOWED_KEYS:
            raise CurationError(f"unknown key {key!r}", file=display, line=data.line_of(key),
                                expected="one of " + ", ".join(sorted(ALLOWED_KEYS)))
    year = data.get("year")
    if year is not None and (not isinstance(year, int) or isinstance(year, bool)
                             or not 1900 <= year <= 2100):
        raise CurationError("year must be a four-digit number", file=display,
                            line=data.line_of("year"), found=str(year))
    date = data.get("date")
    if isinstance(date, dt.date):
        date = date.isoformat()
    if date is not None:
        try:
            dt.date.fromisoformat(str(date))
        except ValueError:
            raise CurationError("date must be YYYY-MM-DD", file=display,
                                line=data.line_of("date"), found=str(date)) from None
        if year is not None and int(str(date)[:4]) != year:
            raise CurationError("date and year disagree", file=display, line=data.line_of("date"))
    for key in ("venue", "session", "source"):
        if key in data and not isinstance(data[key], str):
            raise CurationError(f"{key} must be text", file=display, line=data.line_of(key))
    return Sidecar(file=display, venue=data.get("venue"), year=year,
                   date=str(date) if date else None, session=data.get("session"),
                   source=data.get("source"))
