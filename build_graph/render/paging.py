"""Bounded pages: long lists are cut into numbered parts.

An entity page lists its papers, and a technique or venue in a field-wide
atlas has hundreds or thousands of them (at 4,300 papers one technique had
1,900). Every HTML page stays under ``MAX_PAGE_BYTES`` at any atlas size, so
a list longer than ``PER_PAGE`` shows its first part on the entity's own page
and the rest on numbered sub-pages below it (``techniques/x/page-2/``), each
linked from a pager on every part. Sub-pages live *inside* the entity's own
URL, so they cannot meet another entity's slug.
"""

from __future__ import annotations

from dataclasses import dataclass

from .html import href

PER_PAGE = 100
"""Papers per page of a list: a paper line is 300-500 bytes, so a part stays
near 50 KB, and 100 lines is still one screenful to scan."""

MAX_PAGE_BYTES = 500_000
"""No generated HTML page (with the theme around it) may be larger: a phone on a
slow connection still opens it, and tests check every renderer against it."""


def chunks(items: list, size: int = PER_PAGE) -> list[list]:
    """``items`` in parts of ``size``; an empty list is one empty part (the page exists)."""
    return [items[i:i + size] for i in range(0, len(items), size)] or [[]]


def part_path(page: str, number: int) -> str:
    """Source path of part ``number`` (1-based) of the list on ``page``:
    part 1 is the page itself, ``techniques/x.md`` -> ``techniques/x/page-2.md``."""
    if number == 1:
        return page
    return f"{page[:-len('.md')]}/page-{number}.md"


@dataclass(frozen=True)
class Pager:
    """Links between the parts of one list, as seen from part ``current``."""

    links: tuple[tuple[int, str | None], ...]
    """``(number, relative link)`` per part; the current part has no link."""
    current: int
    first: int
    """1-based position of the part's first item in the whole list."""
    last: int
    total: int

    @property
    def paged(self) -> bool:
        return len(self.links) > 1


def pager(page: str, here: str, number: int, parts: int, total: int, size: int = PER_PAGE) -> Pager:
    """The pager of part ``number`` of ``parts`` (the part's page is ``here``)."""
    links = tuple((n, None if n == number else href(here, part_path(page, n))) for n in range(1, parts + 1))
    first = (number - 1) * size + 1 if total else 0
    return Pager(links=links, current=number, first=first, last=min(number * size, total), total=total)
