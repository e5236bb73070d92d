"""The data-quality report: per-file ledger and warnings, for people and for ``check``.

The same ``Report`` object feeds the CLI's text output and the site's
"Data quality" page, so curators see one truth in both places.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from .duplicates import likely_duplicates
from .errors import AtlasError, Finding
from .normalize import LedgerRow

CODES = {
    "declared-total": "Listings whose entry count differs from their declared total",
    "truncated-authors": "Truncated author lists (et al.)",
    "untitled": "Untitled papers, and why they are still untitled",
    "no-authors": "Papers without authors",
    "merged-by-correction": "Papers merged because a correction showed they are one",
    "unknown-paper-id": "Curation entries naming no paper of these seeds (not applied)",
    "non-name": "Suspected non-names removed from author lists",
    "duplicate-author": "Names repeated within one author list",
    "likely-duplicate": "Likely duplicate people (paste the alias line into data/authors.yaml if right)",
    "no-technique": "Papers without techniques",
    "unknown-venue": "Venues not in venues.yaml",
    "ambiguous-date": "Dates whose year cannot be settled",
    "bad-date": "Dates that do not exist (kept only the year)",
    "unassigned-split": "Papers by a split name assigned to none of its people",
    "weekday-mismatch": "Sidecar years that put a date on another weekday",
    "numbering-gap": "Gaps in a listing's numbering",
    "missing-authors": "Entries without authors",
    "missing-arxiv-id": "arXiv entries without an id",
    "unsplittable-title": "Title and authors that could not be told apart",
    "conflicting-year": "Sources that disagree on a paper's year",
    "conflicting-venue": "Sources that disagree on a paper's venue",
    "conflicting-author": "Sources that spell an author differently",
    "unmapped-heading": "List headings no entry of headings.yaml covers (paste the line there)",
    "undefined-macro": "BibTeX macros used but never defined",
    "missing-crossref": "BibTeX crossrefs to entries in no .bib file",
    "duplicate-key": "BibTeX entries with a repeated key or field",
    "unread-tag": "Awesome-list tags without a year, not read as venues",
    "table-not-read": "Markdown tables not read as papers",
    "empty-file": "Empty files",
}


@dataclass
class Report:
    ledger: list[LedgerRow]
    findings: list[Finding]
    errors: list[AtlasError]

    def by_file(self) -> dict[str, list[Finding]]:
        out: dict[str, list[Finding]] = defaultdict(list)
        for finding in self.findings:
            out[finding.file].append(finding)
        return out

    def by_code(self) -> dict[str, list[Finding]]:
        out: dict[str, list[Finding]] = defaultdict(list)
        for finding in sorted(self.findings, key=Finding.sort_key):
            out[finding.code].append(finding)
        return dict(sorted(out.items(), key=lambda kv: (list(CODES).index(kv[0])
                                                        if kv[0] in CODES else 99, kv[0])))


def paper_findings(atlas) -> list[Finding]:
    """Warnings about whole papers (derived after merging), not single entries."""
    found = []
    for paper in atlas.corpus.papers:
        first = paper.sources[0]
        if paper.untitled:
            found.append(Finding(first.file, first.line or None, "untitled",
                                 f"no title; shown as {paper.label!r} (paper {paper.slug!r}): "
                                 + untitled_reason(paper)))
        if not paper.authors and not paper.authors_truncated:
            found.append(Finding(first.file, first.line or None, "no-authors",
                                 f"{paper.label!r} has no authors: its listing names none"
                                 + ("" if paper.untitled else " and no correction adds them")))
        if paper.authors_truncated:
            found.append(Finding(first.file, first.line or None, "truncated-authors",
                                 f"{paper.label!r}: author list ends in 'et al.' "
                                 f"({len(paper.authors)} names given)"))
    return found


def untitled_reason(paper) -> str:
    """Why a paper is still untitled: the curator's recorded reason, or that
    nobody has looked it up yet."""
    if paper.unidentified_reason:
        return "not identified: " + paper.unidentified_reason
    return ("not looked up yet: the listing gives no title and data/corrections.yaml has "
            "neither a title nor an 'unidentified' entry for it")


def duplicate_findings(atlas) -> list[Finding]:
    counts: dict[str, int] = {}
    for paper in atlas.corpus.papers:
        for key in dict.fromkeys(paper.authors):
            name = atlas.corpus.authors[key].name
            counts[name] = counts.get(name, 0) + 1
    return [Finding("data/authors.yaml", None, "likely-duplicate",
                    f"{d.other!r} may be {d.keep!r}: {d.reason}. Alias line: {d.alias_line()}")
            for d in likely_duplicates(counts)]


def build_report(atlas) -> Report:
    findings = sorted(set(atlas.corpus.findings) | set(paper_findings(atlas))
                      | set(duplicate_findings(atlas)), key=Finding.sort_key)
    return Report(ledger=atlas.corpus.ledger, findings=findings, errors=list(atlas.errors))


def format_text(report: Report) -> str:
    lines = []
    per_file = report.by_file()
    for row in report.ledger:
        status = "ok" if row.balanced else "UNBALANCED"
        lines.append(f"{row.file}: {row.format}; entries detected {row.detected} = papers made "
                     f"{row.made} + merged {row.merged} + skipped {len(row.skipped)} [{status}]"
                     + (f"; declared total {row.declared_total}" if row.declared_total is not None else ""))
        for skip in row.skipped:
            lines.append(f"  skipped entry {skip.source.entry} (line {skip.source.line}): {skip.reason}")
        for finding in sorted(per_file.get(row.file, []), key=Finding.sort_key):
            lines.append("  warning: " + finding.format())
    listed = {r.file for r in report.ledger}
    other = sorted((f for name, fs in per_file.items() if name not in listed for f in fs),
                   key=Finding.sort_key)
    for finding in other:
        lines.append("warning: " + finding.format())
    for error in report.errors:
        lines.append("error: " + error.format())
    papers = sum(r.made for r in report.ledger)
    lines.append(f"{len(report.ledger)} listings, {papers} papers, {len(report.findings)} warnings, "
                 f"{len(report.errors)} errors")
    return "\n".join(lines)
