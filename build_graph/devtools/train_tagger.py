"""``python -m build_graph train-tagger``: train the tagger's ranker, with leave-one-fixture-out figures.

Training data: the hand-labelled fixtures (``LABELLED``: the tuning sample and
the first four blind sets, 1,118 papers; the fifth blind set is the one the
figures are reported on, and is never trained on). Every candidate the phrase rules
find (``Tagger.candidates``) is a row; it is positive when the paper's hand
labels name that technique. Candidates of techniques outside a fixture's
``vocabulary`` (added after it was labelled) are left out: those labels
cannot speak for them. Labels with no candidate are misses the ranker
cannot fix; they count against recall in every figure.

Protocol (docs/tagging.md, "Round 4"): each design choice was made on the
mean of the leave-one-fixture-out folds (train on all fixtures but one, test
on that one), never on one set. Inside a fold, everything learnt from labels
(the vocabulary and its idf, the centroids, the weights and the threshold)
comes from the training fixtures only; the threshold is chosen by an inner
leave-one-fixture-out over them. The final model is trained on all of
them; its threshold is the one that maximises F1 on the
outer folds' held-out predictions.

The one feature learnt from the training labels (a technique's centroid,
the mean of its labelled papers) leaves the paper itself out when computed
for a training paper, so the weights are fitted on the same footing as a
new paper sees them.

The model is L2-regularised logistic regression fitted by Newton's method
for a fixed number of steps (deterministic: no random start, no sampling).
"""

from __future__ import annotations

import argparse
import datetime as _dt
import hashlib
import math
import subprocess
import sys
from collections import Counter
from itertools import combinations
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..ranker import (FEATURES, MODEL_FILE, RankerModel, Structure, TextSpace, candidate_features, paper_text,
                      technique_text, tokens, unit_rows)
from ..tagging import Found, Tagger, rule_verdicts
from ..taxonomy import Taxonomy
from .blind_eval import Counts, load_blind_set

FIXTURES = Path(__file__).resolve().parents[2] / "tests" / "fixtures"
LABELLED = ("tuning_techniques.yaml", "blind_techniques.yaml", "blind2_techniques.yaml", "blind3_techniques.yaml",
            "blind4_techniques.yaml")

# Chosen by the leave-one-fixture-out mean (docs/tagging.md, "Round 4").
L2 = 1.0                 # penalty on the standardised weights
NEWTON_STEPS = 30
MIN_DF = 2               # a word enters the vocabulary when this many training papers use it
CENTROID_WORDS = 60      # a technique's centroid keeps its heaviest words (the model file stays small)
STRONG_PRECISION = 0.85  # strong tags: the lowest probability whose held-out precision reaches this


@dataclass
class Row:
    """A paper of a labelled fixture, with its candidates."""

    fold: int
    title: str
    abstract: str
    labels: frozenset[str]
    vocabulary: frozenset[str] | None
    found: Found
    ranks: list[int]          # candidate ranks that can be scored (in the fixture's vocabulary)
    positive: np.ndarray      # 1.0 where the candidate is labelled


def load_rows(tagger: Tagger, fixtures: list[Path]) -> list[Row]:
    rows = []
    for fold, path in enumerate(fixtures):
        blind = load_blind_set(path, tagger.taxonomy, display=path.name)
        for paper in blind.papers:
            found = tagger.candidates(paper.title, paper.abstract)
            ranks = [r for r in sorted(found.candidates)
                     if blind.vocabulary is None or tagger.order[r] in blind.vocabulary]
            labels = frozenset(paper.techniques)
            rows.append(Row(fold, paper.title, paper.abstract, labels, blind.vocabulary, found, ranks,
                            np.array([tagger.order[r] in labels for r in ranks], dtype=np.float64)))
    return rows


# Fitting ---------------------------------------------------------------------

class Fitted:
    """What one training set teaches: text space, per-technique statistics, weights."""

    def __init__(self, tagger: Tagger, structure: Structure, rows: list[Row], l2: float = L2,
                 centroid_words: int = CENTROID_WORDS):
        self.tagger = tagger
        self.structure = structure
        order = tagger.order
        n_tech = len(order)
        texts = [paper_text(r.title, r.abstract) for r in rows]
        described = [technique_text(tagger.taxonomy, tid) for tid in order]
        df = Counter()
        for text in texts:
            df.update(set(tokens(text)))
        words = {w for w, n in df.items() if n >= MIN_DF}
        for text in described:
            words.update(tokens(text))
        vocabulary = sorted(words)
        total = len(texts)
        idf = [math.log((total + 1) / (df.get(w, 0) + 1)) + 1.0 for w in vocabulary]
        self.space = TextSpace(vocabulary, idf, math.log((total + 1) / 2) + 1.0)
        self.descriptions = unit_rows(np.array([self.space.dense(t) for t in described]))
        x = np.array([self.space.dense(t) for t in texts])
        labels = np.zeros((len(rows), n_tech))
        rank_of = {tid: r for r, tid in enumerate(order)}
        for i, row in enumerate(rows):
            for tid in row.labels:
                labels[i, rank_of[tid]] = 1.0
        self.centroid_words = centroid_words
        self.centroid_sums = labels.T @ x                      # (techniques, vocabulary)
        self.centroids = heaviest(self.centroid_sums, centroid_words)
        # Rows' features, leaving each paper out of what is learnt about it.
        feats, ys = [], []
        for i, row in enumerate(rows):
            if not row.ranks:
                continue
            feats.append(self.features(row, own=(x[i], labels[i])))
            ys.append(row.positive)
        self.x = np.vstack(feats)
        self.y = np.concatenate(ys)
        self.mean = self.x.mean(axis=0)
        self.scale = self.x.std(axis=0)
        self.scale[self.scale == 0] = 1.0
        self.weights, self.bias = fit_logistic((self.x - self.mean) / self.scale, self.y, l2)

    def features(self, row: Row, own=None) -> np.ndarray:
        """Features of a row's scoreable candidates; ``own`` = (vector, labels) of a training paper to leave out."""
        # Features are computed over all the paper's candidates, as the tagger does (competitors,
        # relations, the best centroid cosine); the rows returned are the scoreable ones.
        ranks = sorted(row.found.candidates)
        if own is None:
            vec = self.space.dense(paper_text(row.title, row.abstract))
            centroids = self.centroids[ranks]
        else:
            vec, labels = own
            centroids = self.centroids[ranks]
            mine = np.flatnonzero(labels[ranks])
            if len(mine):
                centroids = centroids.copy()
                centroids[mine] = heaviest(self.centroid_sums[np.asarray(ranks)[mine]] - vec, self.centroid_words)
        similarity = self.descriptions[ranks] @ vec
        centroid = centroids @ vec
        x = candidate_features(row.found, ranks, self.structure, similarity, centroid)
        return x[np.searchsorted(ranks, row.ranks)]

    def probabilities(self, row: Row) -> np.ndarray:
        if not row.ranks:
            return np.zeros(0)
        z = (self.features(row) - self.mean) / self.scale @ self.weights + self.bias
        return 1.0 / (1.0 + np.exp(-z))

    def model(self, threshold: float, threshold_strong: float, provenance: dict) -> RankerModel:
        vocabulary = self.space.vocabulary
        techniques = {}
        for rank, tid in enumerate(self.tagger.order):
            row = self.centroids[rank]
            techniques[tid] = {"centroid": {vocabulary[j]: float(row[j]) for j in np.flatnonzero(row)}}
        return RankerModel(list(FEATURES), self.weights.tolist(), float(self.bias), self.mean.tolist(),
                           self.scale.tolist(), threshold, threshold_strong, vocabulary,
                           self.space.idf.tolist(), self.space.unknown_idf, techniques, provenance)


def heaviest(sums: np.ndarray, words: int) -> np.ndarray:
    """Rows of ``sums`` cut to their ``words`` largest entries, then made unit length.

    Ties at the cut are common (words seen in the same papers weigh the
    same), so the order is total: weight rounded to 12 significant digits
    (BLAS builds differ in the last bits of a sum), then vocabulary order.
    ``np.argpartition`` breaks ties as its numpy version happens to, and the
    model file then depended on which numpy trained it.
    """
    out = np.zeros_like(sums)
    if sums.shape[1] > words:
        key = -_significant(sums, 12)
        top = np.argsort(key, axis=1, kind="stable")[:, :words]
        rows = np.arange(len(sums))[:, None]
        out[rows, top] = sums[rows, top]
    else:
        out[:] = sums
    return unit_rows(np.maximum(out, 0.0))


def _significant(values: np.ndarray, digits: int) -> np.ndarray:
    """``values`` rounded to ``digits`` significant digits (zeros stay zero)."""
    scale = np.zeros_like(values)
    nonzero = values != 0
    scale[nonzero] = 10.0 ** (digits - 1 - np.floor(np.log10(np.abs(values[nonzero]))))
    return np.where(nonzero, np.round(values * scale) / np.where(nonzero, scale, 1.0), 0.0)


def fit_logistic(x: np.ndarray, y: np.ndarray, l2: float, steps: int = NEWTON_STEPS) -> tuple[np.ndarray, float]:
    """L2-regularised logistic regression (bias not penalised) by Newton's method from zero."""
    n, d = x.shape
    design = np.hstack([x, np.ones((n, 1))])
    w = np.zeros(d + 1)
    penalty = np.full(d + 1, l2)
    penalty[-1] = 0.0
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-(design @ w)))
        gradient = design.T @ (p - y) + penalty * w
        hessian = (design * (p * (1 - p))[:, None]).T @ design + np.diag(penalty) + 1e-9 * np.eye(d + 1)
        w -= np.linalg.solve(hessian, gradient)
    return w[:-1], float(w[-1])


# Scoring ---------------------------------------------------------------------

def kept(tagger: Tagger, row: Row, chosen: dict[int, str]) -> set[str]:
    """Scored technique ids a paper is tagged with, after covered_by (as ``Found.tags`` does)."""
    tags = row.found.tags(chosen, tagger.covered_by, tagger.order) if chosen else []
    return {t.technique for t in tags if row.vocabulary is None or t.technique in row.vocabulary}


def model_figures(tagger: Tagger, rows: list[Row], probs: list[np.ndarray], threshold: float) -> Counts:
    out = Counts()
    for row, p in zip(rows, probs):
        chosen = {rank: "strong" for rank, q in zip(row.ranks, p.tolist()) if q >= threshold}
        out.add(kept(tagger, row, chosen), row.labels)
    return out


def rules_figures(tagger: Tagger, rows: list[Row]) -> Counts:
    out = Counts()
    for row in rows:
        out.add(kept(tagger, row, rule_verdicts(row.found)), row.labels)
    return out


THRESHOLDS = [round(0.05 * i, 2) for i in range(2, 19)]


def best_threshold(tagger: Tagger, rows: list[Row], probs: list[np.ndarray]) -> float:
    """The threshold with the highest F1 on held-out predictions (ties: the higher threshold)."""
    scored = [(model_figures(tagger, rows, probs, t).f1, t) for t in THRESHOLDS]
    return max(scored)[1]


def strong_threshold(tagger: Tagger, rows: list[Row], probs: list[np.ndarray], threshold: float) -> float:
    """The lowest probability at or above ``threshold`` whose held-out tags reach ``STRONG_PRECISION``."""
    for t in [threshold] + [x for x in THRESHOLDS if x > threshold] + [0.95]:
        if model_figures(tagger, rows, probs, t).precision >= STRONG_PRECISION:
            return t
    return 0.95


def held_out(tagger: Tagger, structure: Structure, rows: list[Row], folds: list[int],
             **options) -> list[np.ndarray]:
    """Leave-one-fold-out predictions for ``rows`` (whose fold is one of ``folds``)."""
    probs: list[np.ndarray | None] = [None] * len(rows)
    for k in folds:
        train = [r for r in rows if r.fold != k]
        fitted = Fitted(tagger, structure, train, **options)
        for i, row in enumerate(rows):
            if row.fold == k:
                probs[i] = fitted.probabilities(row)
    return probs


@dataclass
class FoldResult:
    name: str
    papers: int
    labels: int
    candidate_recall: float
    rules: Counts
    model: Counts
    threshold: float
    probabilities: list[np.ndarray]     # of the held-out rows, in order


def cross_validate(tagger: Tagger, rows: list[Row], names: list[str], **options) -> list[FoldResult]:
    """Leave-one-fixture-out: per fold, train on the others (threshold by inner folds), test on it."""
    structure = Structure(tagger)
    results = []
    for k, name in enumerate(names):
        train = [r for r in rows if r.fold != k]
        test = [r for r in rows if r.fold == k]
        inner = held_out(tagger, structure, train, sorted({r.fold for r in train}), **options)
        threshold = best_threshold(tagger, train, inner)
        fitted = Fitted(tagger, structure, train, **options)
        probs = [fitted.probabilities(r) for r in test]
        labels = sum(len(r.labels) for r in test)
        covered = sum(len(r.labels & {tagger.order[q] for q in r.ranks}) for r in test)
        results.append(FoldResult(name, len(test), labels, covered / max(labels, 1), rules_figures(tagger, test),
                                  model_figures(tagger, test, probs, threshold), threshold, probs))
    return results


@dataclass
class CurvePoint:
    fixtures: int                      # how many fixtures each model trained on
    papers: float                      # their mean number of papers
    figures: dict[float, Counts]      # held-out figures at each threshold, over every fold and subset


def learning_curve(tagger: Tagger, rows: list[Row], folds: int,
                   thresholds: tuple[float, ...] = (0.35, 0.5)) -> list[CurvePoint]:
    """Held-out figures of models trained on 1, 2, ... of the other fixtures (every subset of
    that size, for every held-out fixture): whether more labels of the same kind would help."""
    structure = Structure(tagger)
    papers = Counter(r.fold for r in rows)
    points = []
    for size in range(1, folds):
        figures = {t: Counts() for t in thresholds}
        sizes = []
        for k in range(folds):
            test = [r for r in rows if r.fold == k]
            for subset in combinations([j for j in range(folds) if j != k], size):
                fitted = Fitted(tagger, structure, [r for r in rows if r.fold in subset])
                sizes.append(sum(papers[j] for j in subset))
                probs = [fitted.probabilities(r) for r in test]
                for t in thresholds:
                    figures[t] += model_figures(tagger, test, probs, t)
        points.append(CurvePoint(size, sum(sizes) / len(sizes), figures))
    return points


def format_learning_curve(points: list[CurvePoint]) -> str:
    lines = ["held-out figures by training size (every held-out fixture, every subset of the others):"]
    for point in points:
        lines.append(f"trained on {point.fixtures} fixture(s), {point.papers:.0f} papers on average: " + "   ".join(
            f"at {t:.2f} P {f.precision:.3f} R {f.recall:.3f} F1 {f.f1:.3f}" for t, f in point.figures.items()))
    return "\n".join(lines)


def outer_predictions(rows: list[Row], results: list[FoldResult]) -> list[np.ndarray]:
    """Each row's held-out probabilities from the fold that left its fixture out, in the order of ``rows``."""
    by_fold = {k: iter(r.probabilities) for k, r in enumerate(results)}
    return [next(by_fold[row.fold]) for row in rows]


def format_curve(tagger: Tagger, rows: list[Row], probs: list[np.ndarray]) -> str:
    """Precision and recall of all held-out predictions together, at each threshold: the trade-off on offer."""
    lines = ["held-out predictions of all folds together:", f"{'threshold':>9} {'precision':>9} {'recall':>7} {'F1':>6}"]
    for t in THRESHOLDS:
        f = model_figures(tagger, rows, probs, t)
        lines.append(f"{t:>9.2f} {f.precision:>9.3f} {f.recall:>7.3f} {f.f1:>6.3f}")
    return "\n".join(lines)


def format_cv(results: list[FoldResult]) -> str:
    lines = [f"{'held-out fixture':<26} {'papers':>6} {'labels':>6} {'cand.rec':>8}  "
             f"{'rules P':>7} {'rules R':>7}  {'model P':>7} {'model R':>7} {'thr':>5}"]
    for r in results:
        lines.append(f"{r.name:<26} {r.papers:>6} {r.labels:>6} {r.candidate_recall:>8.3f}  "
                     f"{r.rules.precision:>7.3f} {r.rules.recall:>7.3f}  {r.model.precision:>7.3f} "
                     f"{r.model.recall:>7.3f} {r.threshold:>5.2f}")
    mean = lambda f: sum(f(r) for r in results) / len(results)   # noqa: E731
    lines.append(f"{'mean of folds':<26} {'':>6} {'':>6} {mean(lambda r: r.candidate_recall):>8.3f}  "
                 f"{mean(lambda r: r.rules.precision):>7.3f} {mean(lambda r: r.rules.recall):>7.3f}  "
                 f"{mean(lambda r: r.model.precision):>7.3f} {mean(lambda r: r.model.recall):>7.3f}")
    return "\n".join(lines)


# The command -------------------------------------------------------------------

def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]


def _commit() -> str:
    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                             cwd=Path(__file__).resolve().parent, timeout=10)
        return out.stdout.strip() or "unknown"
    except OSError:
        return "unknown"


def train(taxonomy: Taxonomy, taxonomy_file: Path, fixtures: list[Path],
          command: str) -> tuple[RankerModel, list[FoldResult], str]:
    tagger = Tagger(taxonomy, model=None)
    rows = load_rows(tagger, fixtures)
    names = [p.name for p in fixtures]
    results = cross_validate(tagger, rows, names)
    structure = Structure(tagger)
    outer = outer_predictions(rows, results)
    threshold = best_threshold(tagger, rows, outer)
    strong = strong_threshold(tagger, rows, outer, threshold)
    fitted = Fitted(tagger, structure, rows)
    provenance = {
        "command": command,
        "trained": _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d"),
        "commit": _commit(),
        "taxonomy": {"file": taxonomy_file.name, "sha256": _digest(taxonomy_file),
                     "techniques": len(tagger.order)},
        "fixtures": {p.name: {"sha256": _digest(p), "papers": sum(r.fold == k for r in rows)}
                     for k, p in enumerate(fixtures)},
        "rows": int(len(fitted.y)), "positives": int(fitted.y.sum()),
        "settings": {"l2": L2, "newton_steps": NEWTON_STEPS, "min_df": MIN_DF, "centroid_words": CENTROID_WORDS,
                     "strong_precision": STRONG_PRECISION},
        "cross_validation": {r.name: {"papers": r.papers, "labels": r.labels,
                                      "candidate_recall": round(r.candidate_recall, 3),
                                      "rules": {"precision": round(r.rules.precision, 3),
                                                "recall": round(r.rules.recall, 3)},
                                      "model": {"precision": round(r.model.precision, 3),
                                                "recall": round(r.model.recall, 3), "threshold": r.threshold}}
                             for r in results},
    }
    return fitted.model(threshold, strong, provenance), results, format_curve(tagger, rows, outer)


UNSTABLE = ("trained", "commit")    # provenance fields that may differ between two trainings of the same data


def comparable(text: str) -> str:
    """The model file without the provenance fields that name when and where it was trained."""
    import json
    data = json.loads(text)
    for key in UNSTABLE:
        data["provenance"].pop(key, None)
    return json.dumps(data, sort_keys=True)


def main(args: argparse.Namespace) -> int:
    from ..curation import REFERENCE_DIR
    from ..taxonomy import load_taxonomy
    taxonomy_file = Path(args.taxonomy) if args.taxonomy else REFERENCE_DIR / "taxonomy.yaml"
    taxonomy = load_taxonomy(taxonomy_file)
    fixtures = [Path(f) for f in args.fixtures] if args.fixtures else [FIXTURES / name for name in LABELLED]
    if args.learning_curve:
        tagger = Tagger(taxonomy, model=None)
        print(format_learning_curve(learning_curve(tagger, load_rows(tagger, fixtures), len(fixtures))))
        return 0
    if args.cv:
        tagger = Tagger(taxonomy, model=None)
        rows = load_rows(tagger, fixtures)
        results = cross_validate(tagger, rows, [p.name for p in fixtures])
        print(format_cv(results))
        print(format_curve(tagger, rows, outer_predictions(rows, results)))
        return 0
    model, results, curve = train(taxonomy, taxonomy_file, fixtures, "python -m build_graph train-tagger")
    print(format_cv(results))
    print(curve)
    print(f"final model: threshold {model.threshold:.2f}, strong at {model.threshold_strong:.2f}; "
          f"{len(model.techniques)} techniques, {len(model.vocabulary)} words")
    text = model.to_json()
    out = Path(args.out) if args.out else MODEL_FILE
    if args.check:
        current = out.read_text(encoding="utf-8") if out.is_file() else ""
        if not current or comparable(current) != comparable(text):
            print(f"{out} differs from a fresh training: retrain with python -m build_graph train-tagger",
                  file=sys.stderr)
            return 1
        print(f"{out} is what this training writes")
        return 0
    out.write_text(text, encoding="utf-8")
    print(f"wrote {out}")
    return 0
