"""How consistent are the labels the tagger is scored against? A second labeller's view.

A blind set's figures mean little if the labels themselves are a matter of
taste: if two careful labellers following one rule agree at precision 0.7,
no tagger can be asked for 0.9. So a second labeller labels a seeded sample
of a blind set's papers without seeing the first labels, and this module
compares the two, and the tagger against each. The sample file looks like:

    of: blind4_techniques.yaml          # the blind set, next to this file
    sample: {seed: 2026, papers: 100}   # random.Random(seed).sample(range(len(papers)), papers)
    papers:
    - index: 1                          # position in the blind set's papers, from 0
      title: Enhancing CGRA Efficiency Through Aligned Compute and ...
      techniques: [hw-sw-codesign, energy-efficiency]
      uncovered: [CGRA architecture]    # not scored, as in the blind sets

``python -m build_graph evaluate --second tests/fixtures/blind4_second_labels.yaml``
prints the agreement (docs/tagging.md, "How consistent the labels are").
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import CurationError
from ..tagging import Tagger
from ..taxonomy import Taxonomy
from ..yamlio import LineDict, LineList, load_yaml_file
from .blind_eval import BlindSet, Counts, load_blind_set


@dataclass(frozen=True)
class SecondLabels:
    blind: BlindSet                           # the set the sample is drawn from
    indices: tuple[int, ...]                  # positions in ``blind.papers``, in order
    labels: tuple[frozenset[str], ...]        # the second labeller's, one per index
    file: str = ""


def load_second_labels(path: Path, taxonomy: Taxonomy, display: str | None = None) -> SecondLabels:
    """Read a second labeller's file and the blind set it names; every entry is checked
    against that set (its place in the seeded sample, its title, its labels' vocabulary)."""
    display = display or str(path)
    data = load_yaml_file(Path(path), display)
    if not isinstance(data, LineDict) or not isinstance(data.get("papers"), LineList):
        raise CurationError("expected a mapping with 'of', 'sample' and a 'papers' list", file=display, line=1)
    of = data.get("of")
    if not isinstance(of, str) or not (Path(path).parent / of).is_file():
        raise CurationError(f"'of' must name a blind-set fixture next to this file; got {of!r}",
                            file=display, line=data.line_of("of") if "of" in data else 1)
    blind = load_blind_set(Path(path).parent / of, taxonomy)
    sample = data.get("sample")
    if not (isinstance(sample, LineDict) and isinstance(sample.get("seed"), int)
            and isinstance(sample.get("papers"), int)):
        raise CurationError("'sample' must be a mapping with integer 'seed' and 'papers'", file=display,
                            line=data.line_of("sample") if "sample" in data else 1)
    if not 0 < sample["papers"] <= len(blind.papers):
        raise CurationError(f"'sample: papers' must be between 1 and {len(blind.papers)} (the size of {of})",
                            file=display, line=sample.line_of("papers"))
    expected = sorted(random.Random(sample["seed"]).sample(range(len(blind.papers)), sample["papers"]))
    entries = data["papers"]
    if len(entries) != len(expected):
        raise CurationError(f"expected {len(expected)} papers (the seeded sample), found {len(entries)}",
                            file=display, line=data.line_of("papers"))
    labels = []
    for entry, index in zip(entries, expected):
        if not isinstance(entry, LineDict):
            raise CurationError("each paper must be a mapping", file=display, line=getattr(entry, "line", 0) or 1)
        if entry.get("index") != index:
            raise CurationError(f"expected index {index} here (the seeded sample, in order); "
                                f"got {entry.get('index')!r}", file=display, line=entry.line_of("index")
                                if "index" in entry else entry.line)
        title = blind.papers[index].title
        if entry.get("title") != title:
            raise CurationError(f"title differs from paper {index} of {of}: expected {title!r}",
                                file=display, line=entry.line_of("title") if "title" in entry else entry.line)
        techniques = entry.get("techniques")
        if not isinstance(techniques, list):
            raise CurationError("'techniques' must be a list (it may be empty)", file=display, line=entry.line)
        for i, tid in enumerate(techniques):
            line = techniques.item_lines[i] if isinstance(techniques, LineList) else entry.line
            if tid not in taxonomy or taxonomy[tid].is_area:
                raise CurationError(f"unknown technique {tid!r} (labels must be taxonomy technique ids)",
                                    file=display, line=line)
            if blind.vocabulary is not None and tid not in blind.vocabulary:
                raise CurationError(f"label {tid!r} is not in {of}'s vocabulary", file=display, line=line)
        labels.append(frozenset(techniques))
    return SecondLabels(blind, tuple(expected), tuple(labels), display)


@dataclass
class Agreement:
    papers: int = 0
    identical: int = 0                        # papers both labelled alike
    second_vs_first: Counts = field(default_factory=Counts)   # tp: both; fp: second only; fn: first only
    tagger: dict[str, Counts] = field(default_factory=dict)   # against "first", "second", "both"


def agreement(second: SecondLabels, tagger: Tagger) -> Agreement:
    """The second labeller scored against the first, and the tagger against the first, the
    second, and the labels both gave; tags of techniques newer than the labels are left out."""
    vocabulary = second.blind.vocabulary
    out = Agreement(papers=len(second.indices))
    out.tagger = {who: Counts() for who in ("first", "second", "both")}
    for index, theirs in zip(second.indices, second.labels):
        paper = second.blind.papers[index]
        first = set(paper.techniques)
        out.second_vs_first.add(set(theirs), first)
        out.identical += first == theirs
        got = {t.technique for t in tagger.tag(paper.title, paper.abstract)
               if vocabulary is None or t.technique in vocabulary}
        for who, want in (("first", first), ("second", set(theirs)), ("both", first & theirs)):
            out.tagger[who].add(got, want)
    return out


def format_agreement(result: Agreement, second: SecondLabels) -> str:
    s = result.second_vs_first
    lines = [
        f"second labeller ({second.file}): {result.papers} papers of {second.blind.file}",
        f"labels: first {s.tp + s.fn}, second {s.tp + s.fp}, both {s.tp}; "
        f"papers labelled alike: {result.identical} of {result.papers}",
        f"second against first: precision {s.precision:.3f}  recall {s.recall:.3f}  F1 {s.f1:.3f}",
        "tagger on these papers:",
    ]
    for who, label in (("first", "the first labels"), ("second", "the second labels"),
                       ("both", "the labels both gave")):
        c = result.tagger[who]
        lines.append(f"  against {label:<22} precision {c.precision:.3f}  recall {c.recall:.3f}  F1 {c.f1:.3f}")
    return "\n".join(lines)
