"""The "Data quality" page: the ledger and every warning, grouped for curators."""

from __future__ import annotations

from ..report import CODES, build_report
from .context import QUALITY_PAGE
from .markup import md_text


def quality_page(ctx) -> str:
    report = build_report(ctx.atlas)
    out = ["# Data quality", "",
           "Every entry of every listing becomes a paper, is merged into a paper another listing "
           "already made, or is skipped with a reason. This page is rebuilt from the listings on "
           "every build; `python -m build_graph check` prints the same report.", "",
           "## Ledger", "",
           "| Listing | Format | Detected | Made | Merged | Skipped | Declared total |",
           "| --- | --- | ---: | ---: | ---: | ---: | ---: |"]
    for row in report.ledger:
        out.append(f"| `{row.file}` | {row.format} | {row.detected} | {row.made} | {row.merged} | "
                   f"{len(row.skipped)} | {row.declared_total if row.declared_total is not None else ''} |")
    skipped = [(row.file, s) for row in report.ledger for s in row.skipped]
    if skipped:
        out += ["", "Skipped entries:", ""]
        out += [f"- `{file}` entry {s.source.entry} (line {s.source.line}): {md_text(s.reason)}"
                for file, s in skipped]
    out.append("")
    groups = report.by_code()
    out += ["## Warnings", ""]
    if not groups:
        out += ["None.", ""]
    for code, findings in groups.items():
        out += [f"### {md_text(CODES.get(code, code))} ({len(findings)})", ""]
        for f in findings:
            where = f"`{f.file}" + (f":{f.line}" if f.line else "") + "`"
            out.append(f"- {where} {md_text(f.message)}")
        out.append("")
    return "\n".join(out)


__all__ = ["quality_page", "QUALITY_PAGE"]
