"""The "Data quality" page: the ledger and every warning, grouped for curators."""

from __future__ import annotations

from ..report import CODES, build_report
from .context import QUALITY_PAGE
from .html import Html, render


def quality_page(ctx) -> Html:
    report = build_report(ctx.atlas)
    return render("quality.html", QUALITY_PAGE, ledger=report.ledger,
                  skipped=[(row.file, s) for row in report.ledger for s in row.skipped],
                  groups=[(code, CODES.get(code, code), findings)
                          for code, findings in report.by_code().items()])


__all__ = ["quality_page", "QUALITY_PAGE"]
