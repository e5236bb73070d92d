"""Score the tagger on a hand-labelled blind set: precision and recall, overall and per area.

Figures measured on the text a taxonomy was tuned on are optimistic; a
blind set holds papers labelled from their title and abstract before any
pattern was tuned on them, so its figures are the ones docs/tagging.md
reports. Each round of tuning reads its blind set when it reports, so the
next round draws a new one: ``blind_techniques.yaml`` (round 1),
``blind2_techniques.yaml`` (round 2), ``blind3_techniques.yaml`` (round 3),
``blind4_techniques.yaml`` (round 4, the ranker's), ``blind5_techniques.yaml``
(round 5; the default of the command). One command reproduces the figures:

    python -m build_graph evaluate --blind tests/fixtures/blind5_techniques.yaml

With ``--corpus`` it also re-draws the fixture's sample from the corpus
(checking the fixture is exactly that sample) and measures coverage on the
whole corpus.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import CurationError
from ..taxonomy import Taxonomy
from ..tagging import Tagger
from ..yamlio import LineDict, LineList, load_yaml_file

GOAL_PRECISION = 0.9
GOAL_RECALL = 0.8


@dataclass(frozen=True)
class BlindPaper:
    venue: str
    year: int
    title: str
    abstract: str
    techniques: tuple[str, ...]       # hand labels (taxonomy ids)
    line: int = 0                     # where the entry starts in the fixture


@dataclass
class BlindSet:
    papers: list[BlindPaper]
    seed: int
    minimum: int
    venue_years: list[tuple[str, int]]
    file: str = ""
    vocabulary: frozenset[str] | None = None    # technique ids the labels could use; None: all
    method: str = "venue-years"                 # how the papers were drawn (see ``drawn_records``)
    exclude_papers_of: tuple[str, ...] = ()     # fixtures (next to this one) whose papers the draw skipped


@dataclass
class Counts:
    tp: int = 0
    fp: int = 0
    fn: int = 0

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    def add(self, got: set[str], want: set[str] | frozenset[str]) -> None:
        """Count one paper: its tags ``got`` against its labels ``want``."""
        self.tp += len(got & want)
        self.fp += len(got - want)
        self.fn += len(want - got)

    def __add__(self, other: Counts) -> Counts:
        return Counts(self.tp + other.tp, self.fp + other.fp, self.fn + other.fn)


@dataclass
class Scores:
    overall: Counts = field(default_factory=Counts)
    strong: Counts = field(default_factory=Counts)           # strong tags only (recall against all labels)
    per_area: dict[str, Counts] = field(default_factory=lambda: defaultdict(Counts))
    false_positives: list[tuple[str, str, str]] = field(default_factory=list)   # (title, technique, evidence)
    misses: list[tuple[str, str]] = field(default_factory=list)                 # (title, technique)
    unscored: list[tuple[str, str, str]] = field(default_factory=list)  # tags of techniques newer than the labels
    papers: int = 0
    tagged: int = 0

    def meets_goals(self) -> bool:
        return self.overall.precision >= GOAL_PRECISION and self.overall.recall >= GOAL_RECALL


def _field(entry: LineDict, key: str, kind, file: str):
    value = entry.get(key)
    if not isinstance(value, kind) or isinstance(value, bool):
        raise CurationError(f"'{key}' must be a {kind.__name__}", file=file, line=entry.line_of(key))
    return value


def load_blind_set(path: Path, taxonomy: Taxonomy, display: str | None = None) -> BlindSet:
    """Read the fixture; every label must be a taxonomy technique (errors name file and line)."""
    display = display or str(path)
    data = load_yaml_file(Path(path), display)
    if not isinstance(data, LineDict) or not isinstance(data.get("papers"), LineList):
        raise CurationError("expected a mapping with 'sampling' and a 'papers' list", file=display, line=1)
    sampling = data.get("sampling")
    if not isinstance(sampling, LineDict):
        raise CurationError("missing 'sampling' mapping", file=display, line=data.line)
    venue_years = []
    for item in _field(sampling, "venue_years", list, display):
        if not (isinstance(item, list) and len(item) == 2 and isinstance(item[0], str) and isinstance(item[1], int)):
            raise CurationError("venue_years items must be [venue, year]", file=display,
                                line=sampling.line_of("venue_years"))
        venue_years.append((item[0], item[1]))
    vocabulary = sampling.get("vocabulary")
    if vocabulary is not None and not (isinstance(vocabulary, list) and all(isinstance(v, str) for v in vocabulary)):
        raise CurationError("'vocabulary' must be a list of technique ids", file=display,
                            line=sampling.line_of("vocabulary"))
    papers = []
    for entry in data["papers"]:
        if not isinstance(entry, LineDict):
            raise CurationError("each paper must be a mapping", file=display, line=getattr(entry, "line", 0) or 1)
        labels = _field(entry, "techniques", list, display)
        for i, tid in enumerate(labels):
            line = labels.item_lines[i] if isinstance(labels, LineList) else entry.line_of("techniques")
            if tid not in taxonomy or taxonomy[tid].is_area:
                raise CurationError(f"unknown technique {tid!r} (labels must be taxonomy technique ids)",
                                    file=display, line=line)
            if vocabulary is not None and tid not in vocabulary:
                raise CurationError(f"label {tid!r} is not in the sampling vocabulary", file=display, line=line)
        papers.append(BlindPaper(venue=_field(entry, "venue", str, display), year=_field(entry, "year", int, display),
                                 title=_field(entry, "title", str, display), abstract=entry.get("abstract") or "",
                                 techniques=tuple(labels), line=entry.line))
    method = sampling.get("method", "venue-years")
    if method not in ("venue-years", "sample"):
        raise CurationError(f"unknown sampling method {method!r}; expected 'venue-years' or 'sample'",
                            file=display, line=sampling.line_of("method"))
    excluded = sampling.get("exclude_papers_of", [])
    if not (isinstance(excluded, list) and all(isinstance(e, str) for e in excluded)):
        raise CurationError("'exclude_papers_of' must be a list of fixture file names", file=display,
                            line=sampling.line_of("exclude_papers_of"))
    return BlindSet(papers, _field(sampling, "seed", int, display), _field(sampling, "minimum", int, display),
                    venue_years, display, frozenset(vocabulary) if vocabulary is not None else None,
                    method, tuple(excluded))


def draw_venue_years(records: list[dict], seed: int, minimum: int) -> list[tuple[str, int]]:
    """Shuffle the sorted (venue, year) pairs with ``random.Random(seed)``; hold out until ``minimum`` papers."""
    sizes = Counter((r.get("venue"), r.get("year")) for r in records)
    pairs = sorted(sizes, key=lambda p: (str(p[0]), p[1] if isinstance(p[1], int) else -1))
    random.Random(seed).shuffle(pairs)
    chosen, total = [], 0
    for pair in pairs:
        if total >= minimum:
            break
        chosen.append(pair)
        total += sizes[pair]
    return chosen


def drawn_records(blind: BlindSet, records: list[dict], excluded: set[tuple[str, str]] = frozenset()) -> list[dict]:
    """The records the fixture's sampling rule picks from ``records``, in corpus order.

    ``venue-years``: every paper of the venue-years ``draw_venue_years`` holds
    out. ``sample``: ``random.Random(seed).sample`` of ``minimum`` papers among
    those outside ``venue_years`` and not in ``excluded`` ((title, abstract)
    pairs of the fixtures named in ``exclude_papers_of``).
    """
    if blind.method == "venue-years":
        held = set(draw_venue_years(records, blind.seed, blind.minimum))
        return [r for r in records if (r.get("venue"), r.get("year")) in held]
    held = set(blind.venue_years)
    rest = [r for r in records if (r.get("venue"), r.get("year")) not in held
            and (r.get("title") or "", r.get("abstract") or "") not in excluded]
    if len(rest) < blind.minimum:
        return rest
    return [rest[i] for i in sorted(random.Random(blind.seed).sample(range(len(rest)), blind.minimum))]


def check_sample(blind: BlindSet, records: list[dict], excluded: set[tuple[str, str]] = frozenset()) -> list[str]:
    """Problems (empty if none) with the fixture being exactly the seeded draw from ``records``."""
    problems = []
    if blind.method == "venue-years":
        drawn_pairs = draw_venue_years(records, blind.seed, blind.minimum)
        if drawn_pairs != blind.venue_years:
            problems.append(f"venue-years drawn with seed {blind.seed}: {drawn_pairs}; "
                            f"fixture says {blind.venue_years}")
    expected = [(r.get("title") or "", r.get("abstract") or "") for r in drawn_records(blind, records, excluded)]
    got = [(p.title, p.abstract) for p in blind.papers]
    if expected != got:
        problems.append(f"the fixture's papers differ from the draw ({len(got)} in the fixture, {len(expected)} drawn)")
    return problems


def score(blind: list[BlindPaper], tagger: Tagger, vocabulary: frozenset[str] | None = None) -> Scores:
    """Micro precision and recall with exact matching (a parent or child of a label counts as wrong).

    Tags of techniques outside ``vocabulary`` (added after the labels were
    made) are neither right nor wrong by these labels: they are listed in
    ``unscored`` for a person to check, not counted.
    """
    taxonomy = tagger.taxonomy
    out = Scores(papers=len(blind))
    for paper in blind:
        tags = tagger.tag(paper.title, paper.abstract)
        out.tagged += bool(tags)
        want = set(paper.techniques)
        if vocabulary is not None:
            out.unscored += [(paper.title, t.technique, t.evidence) for t in tags if t.technique not in vocabulary]
            tags = [t for t in tags if t.technique in vocabulary]
        got = {t.technique: t for t in tags}
        for tid, tag in got.items():
            area = out.per_area[taxonomy.area_of(tid)]
            if tid in want:
                out.overall.tp += 1
                area.tp += 1
            else:
                out.overall.fp += 1
                area.fp += 1
                out.false_positives.append((paper.title, tid, tag.evidence))
            if tag.strength == "strong":
                if tid in want:
                    out.strong.tp += 1
                else:
                    out.strong.fp += 1
        for tid in want - set(got):
            out.overall.fn += 1
            out.per_area[taxonomy.area_of(tid)].fn += 1
            out.misses.append((paper.title, tid))
    out.strong.fn = out.overall.tp + out.overall.fn - out.strong.tp
    return out


def format_scores(scores: Scores, taxonomy: Taxonomy, show_errors: int = 0) -> str:
    o = scores.overall
    lines = [
        f"blind set: {scores.papers} papers, {o.tp + o.fn} labels; tagger: {o.tp + o.fp} tags on "
        f"{scores.tagged} papers",
        f"overall  precision {o.precision:.3f} ({o.tp}/{o.tp + o.fp})   recall {o.recall:.3f} ({o.tp}/{o.tp + o.fn})",
        f"strong tags only: precision {scores.strong.precision:.3f} ({scores.strong.tp}/"
        f"{scores.strong.tp + scores.strong.fp})   recall {scores.strong.recall:.3f}",
        f"goals (precision >= {GOAL_PRECISION}, recall >= {GOAL_RECALL}): "
        + ("met" if scores.meets_goals() else "NOT met"),
        f"tags of techniques added after the labels (not scored): {len(scores.unscored)}",
        "", f"{'area':<52} {'precision':>14} {'recall':>14}",
    ]
    for area in taxonomy.areas():
        c = scores.per_area.get(area.id)
        if not c:
            continue
        lines.append(f"{area.name[:52]:<52} {c.precision:>6.3f} {f'({c.tp}/{c.tp + c.fp})':>7} "
                     f"{c.recall:>6.3f} {f'({c.tp}/{c.tp + c.fn})':>7}")
    if show_errors:
        lines += ["", f"false positives (first {show_errors}):"]
        lines += [f"  {tid:<28} {title[:50]}  <- {evidence[:90]}" for title, tid, evidence
                  in scores.false_positives[:show_errors]]
        lines += ["", f"misses (first {show_errors}):"]
        lines += [f"  {tid:<28} {title[:70]}" for title, tid in scores.misses[:show_errors]]
        lines += ["", f"tags of new techniques, not scored (first {show_errors}):"]
        lines += [f"  {tid:<28} {title[:50]}  <- {evidence[:90]}" for title, tid, evidence
                  in scores.unscored[:show_errors]]
    return "\n".join(lines)


def describe_tagger(tagger: Tagger, fixture: Path) -> str:
    """One line on what decides the tags, with a warning when the fixture is the ranker's own training data."""
    if tagger.ranker is None:
        return "tagger: phrase rules only (no ranker)"
    provenance = tagger.ranker.model.provenance
    line = (f"tagger: phrase rules + ranker (threshold {tagger.ranker.model.threshold:.2f}, strong at "
            f"{tagger.ranker.model.threshold_strong:.2f}; trained {provenance.get('trained', '?')} "
            f"at {provenance.get('commit', '?')})")
    if Path(fixture).name in provenance.get("fixtures", {}):
        line += ("\nnote: the ranker was trained on this fixture, so these figures are optimistic; the honest "
                 "ones are its leave-one-fixture-out figures (python -m build_graph train-tagger --cv)")
    return line


def coverage(records: list[dict], tagger: Tagger) -> tuple[int, int]:
    """(papers with at least one tag, papers)."""
    return sum(1 for r in records if tagger.tag(r.get("title"), r.get("abstract") or "")), len(records)
