"""The "Data quality" page: the ledger and every warning, grouped for curators.

Its lists grow with the atlas: a 20,000-paper atlas had 5,700 warnings, and
the page was 1.3 MB. So the page shows each group's first ``SHOWN`` entries
and links the whole group on pages of its own (``quality/<group>/``, in
parts of ``PER_PART``), as entity pages do with their papers
(``render/paging.py``); every page stays under ``MAX_PAGE_BYTES``.
"""

from __future__ import annotations

from ..report import CODES, build_report
from .context import QUALITY_PAGE
from .html import EXCLUDED, Html, href, render
from .paging import chunks, pager, part_path

SHOWN = 50
"""Entries of a group shown on the quality page itself."""
PER_PART = 500
"""Entries per page of a group's own list (a warning is 150-300 bytes)."""
SKIPPED = "skipped"


def group_page(code: str) -> str:
    # A group's code is a report code (report.CODES, kebab-case) or "skipped".
    return f"quality/{code}.md"


def quality_page(ctx) -> dict[str, Html]:
    report = build_report(ctx.atlas)
    skipped = [(row.file, s) for row in report.ledger for s in row.skipped]
    groups = [(code, CODES.get(code, code), findings) for code, findings in report.by_code().items()]
    pages = {}
    for code, name, items in [(SKIPPED, "Skipped entries", skipped), *groups]:
        if len(items) > SHOWN:
            pages.update(_group_pages(code, name, items))
    pages[QUALITY_PAGE] = render(
        "quality.html", QUALITY_PAGE, ledger=report.ledger,
        skipped=skipped[:SHOWN], skipped_all=_whole(SKIPPED, skipped),
        groups=[(code, name, findings[:SHOWN], len(findings), _whole(code, findings))
                for code, name, findings in groups])
    return pages


def _whole(code: str, items: list) -> str | None:
    """The link to a group's own pages, when the quality page shows only its start."""
    return href(QUALITY_PAGE, group_page(code)) if len(items) > SHOWN else None


def _group_pages(code: str, name: str, items: list) -> dict[str, Html]:
    page = group_page(code)
    parts = chunks(items, PER_PART)
    return {part_path(page, number): render(
                "quality_group.html", part_path(page, number), EXCLUDED,
                name=name, code=code, skipped=code == SKIPPED, items=part, quality=QUALITY_PAGE,
                pager=pager(page, part_path(page, number), number, len(parts), len(items), PER_PART))
            for number, part in enumerate(parts, start=1)}


__all__ = ["quality_page", "QUALITY_PAGE"]
