"""Curated list headings as technique evidence (``build_graph/data/headings.yaml``).

An awesome list's curator filed each paper under headings (``Training
System`` > ``GPU sharing``). That is a person's classification, often the
only evidence an entry without abstract has, so a reviewed mapping turns
heading text into taxonomy techniques::

    headings:
      - heading: GPU sharing
        techniques: [gpu-sharing]
        source: "awesome-system-for-ml: papers on sharing one GPU between jobs"
      - heading: Surveys
        techniques: []            # reviewed: a kind of paper, not a technique
        source: "reviewed"

Headings match whole, after dropping numbering (``2.3``), surrounding
punctuation and case. Every heading in a paper's path counts, so ``Training
System`` and ``GPU sharing`` may both add techniques. The tag's evidence reads
``listed under Training System › GPU sharing in FILE``. A heading that has
papers under it and no mapping is an ``unmapped-heading`` finding with a line
ready to paste here, its techniques suggested by the tagger from the heading
text (to be reviewed, like everything in ``data/``).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from .errors import CurationError, Finding
from .model import TechniqueTag
from .normalize.papers import HEADING_SEPARATOR
from .yamlio import LIST, NONEMPTY_TEXT, TEXTS, Fields, load_yaml_file

FILE_NAME = "headings.yaml"
# techniques may be empty: a heading that names no technique is still worth mapping (to nothing).
FIELDS = Fields({"heading": NONEMPTY_TEXT, "techniques": TEXTS, "source": NONEMPTY_TEXT},
                required=("heading", "techniques", "source"))
FILE = Fields({"headings": LIST}, required=("headings",))
_NUMBERING = re.compile(r"^\s*(?:\d+(?:\.\d+)*\.?|[IVX]+\.|[A-Z]\.)\s+")


def heading_key(text: str) -> str:
    text = _NUMBERING.sub("", text)
    text = re.sub(r"^[\W_]+|[\W_]+$", "", text)
    return " ".join(text.split()).casefold()


@dataclass(frozen=True)
class HeadingRule:
    heading: str
    techniques: tuple[str, ...]
    source: str
    line: int


class HeadingMap:
    def __init__(self, rules: list[HeadingRule], file: str = "headings.yaml"):
        self.file = file
        self.rules = {heading_key(r.heading): r for r in rules}

    def get(self, heading: str) -> HeadingRule | None:
        return self.rules.get(heading_key(heading))

    def check(self, taxonomy) -> None:
        for rule in self.rules.values():
            for tid in rule.techniques:
                technique = taxonomy.techniques.get(tid)
                if technique is None or technique.is_area:
                    raise CurationError(f"heading {rule.heading!r} names unknown technique {tid!r}",
                                        file=self.file, line=rule.line,
                                        expected="a technique id from taxonomy.yaml")


def load_headings(path: Path, display: str) -> HeadingMap:
    if not path.exists():
        return HeadingMap([], display)
    data = FILE.check(load_yaml_file(path, display), display, "headings.yaml", line=1)
    items = FILE.get(data, "headings", display)
    rules, seen = [], {}
    for item, line in zip(items, items.item_lines):
        item = FIELDS.check(item, display, "each heading", line)
        heading, techniques, source = (FIELDS.get(item, key, display) for key in ("heading", "techniques", "source"))
        if not heading_key(heading):
            raise CurationError("the heading has no words once numbering and punctuation are removed",
                                file=display, line=item.line_of("heading"), found=heading)
        key = heading_key(heading)
        if key in seen:
            raise CurationError(f"heading {heading!r} is already mapped on line {seen[key]}",
                                file=display, line=line)
        seen[key] = line
        rules.append(HeadingRule(heading.strip(), tuple(techniques), source.strip(), line))
    return HeadingMap(rules, display)


def heading_tags(paper, headings: HeadingMap) -> list[TechniqueTag]:
    """Technique tags from the headings a paper is listed under, with their evidence."""
    tags: dict[str, TechniqueTag] = {}
    for path, file in paper.listed_under:
        for heading in path.split(HEADING_SEPARATOR):
            rule = headings.get(heading)
            for tid in rule.techniques if rule else ():
                tags.setdefault(tid, TechniqueTag(tid, f"listed under {path} in {file}",
                                                  "heading", heading))
    return list(tags.values())


def unmapped_headings(papers, headings: HeadingMap, tagger) -> list[Finding]:
    """One finding per heading (per file) with papers under it and no mapping."""
    found: dict[tuple[str, str], tuple[int, str]] = {}
    for paper in papers:
        for path, file in paper.listed_under:
            for heading in path.split(HEADING_SEPARATOR):
                if headings.get(heading) is None and heading_key(heading):
                    count, _ = found.get((file, heading), (0, heading))
                    found[(file, heading)] = (count + 1, heading)
    findings = []
    for (file, heading), (count, _) in sorted(found.items()):
        suggested = [t.technique for t in tagger.tag(heading, "")]
        line = (f'- {{heading: {json.dumps(heading, ensure_ascii=False)}, techniques: '
                f'[{", ".join(suggested)}], source: {json.dumps("heading of " + file)}}}')
        findings.append(Finding(file, None, "unmapped-heading",
                                f"heading {heading!r} ({count} papers) is in no entry of "
                                f"{headings.file}; to map it, add: {line}"))
    return findings
