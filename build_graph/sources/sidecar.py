"""Sidecars: facts a listing's text lacks, kept beside it for review.

``seeds/004_d682a2c69557955b.meta.yaml`` says that the session schedule in
``004_d682a2c69557955b.txt`` is MLSys 2022, 30 August 2022. The listing stays
byte-for-byte what was copied; the sidecar states the extra facts and where
they come from (``source``), so a reviewer can check them.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..errors import CurationError
from ..yamlio import DATE, TEXT, YEAR, Fields, load_yaml_file

FIELDS = Fields({"venue": TEXT, "year": YEAR, "date": DATE, "session": TEXT, "source": TEXT, "note": TEXT})


@dataclass(frozen=True)
class Sidecar:
    file: str
    venue: str | None = None
    year: int | None = None
    date: str | None = None
    session: str | None = None
    source: str | None = None


def load_sidecar(path: Path, display: str) -> Sidecar:
    data = FIELDS.check(load_yaml_file(path, display), display, "a sidecar")
    year = FIELDS.get(data, "year", display)
    date = FIELDS.get(data, "date", display)
    if date is not None and year is not None and int(date[:4]) != year:
        raise CurationError("date and year disagree", file=display, line=data.line_of("date"))
    venue, session, source = (FIELDS.get(data, key, display) for key in ("venue", "session", "source"))
    FIELDS.get(data, "note", display)           # for reviewers only; checked, not used
    return Sidecar(file=display, venue=venue, year=year, date=date, session=session, source=source)
