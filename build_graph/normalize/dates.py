"""Dates: ISO everywhere, and a year only when the input supports exactly one.

A session page shows ``Tue 30 Aug`` without a year. Thirty August fell on a
Tuesday in 2011, 2016 and 2022, so guessing from the calendar alone would be
inventing a fact. The year is inferred only from years the listing itself
mentions, and only when exactly one of them puts that date on that weekday; a
sidecar can always state it outright.
"""

from __future__ import annotations

import datetime as dt
import re

_DAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
_MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
_PARTIAL = re.compile(r"^([A-Za-z]{3})[a-z]*\.? (\d{1,2}) ([A-Za-z]{3})[a-z]*\.?$")
_YEAR = re.compile(r"(?<!\d)(19[5-9]\d|20\d\d)(?!\d)")


def years_mentioned(text: str) -> list[int]:
    return sorted({int(y) for y in _YEAR.findall(text)})


def candidate_years(date_text: str, years: list[int]) -> list[int]:
    """Which of ``years`` put ``'Tue 30 Aug'`` on its weekday."""
    match = _PARTIAL.match(date_text.strip())
    if not match:
        return []
    weekday = _DAYS.index(match.group(1).lower()) if match.group(1).lower() in _DAYS else None
    month = _MONTHS.index(match.group(3).lower()) + 1 if match.group(3).lower() in _MONTHS else None
    if weekday is None or month is None:
        return []
    day = int(match.group(2))
    found = []
    for year in years:
        try:
            if dt.date(year, month, day).weekday() == weekday:
                found.append(year)
        except ValueError:
            continue
    return found


def complete_date(date_text: str, year: int) -> str | None:
    """``('Tue 30 Aug', 2022)`` -> ``'2022-08-30'``; ``None`` if it does not exist."""
    match = _PARTIAL.match(date_text.strip())
    if not match or match.group(3).lower() not in _MONTHS:
        return None
    try:
        return dt.date(year, _MONTHS.index(match.group(3).lower()) + 1, int(match.group(2))).isoformat()
    except ValueError:
        return None
