"""Decide which of a paper's candidate techniques it is really about: a small logistic model.

The phrase rules (``tagging.py``) find every technique a paper names with its
sense; what they cannot tell is the technique a paper *contributes* from the
technologies it runs on or mentions. The ranker weighs the evidence the rules
collect (title, how many sentences, a contribution sentence, the incidental
cues, competing candidates, ...) together with how close the paper's words
are to the technique's own description and to the papers labelled with it,
and turns that into a probability. It was trained on the hand-labelled
fixtures by ``python -m build_graph train-tagger`` (``devtools/train_tagger.py``),
which also wrote the cross-validated figures into the model file
(``data/tagger_model.json``); docs/tagging.md, "Round 4", explains it.

Explainable by construction: a tag is still a phrase the taxonomy wrote down
and a sentence the authors wrote (the evidence); the model only says yes or
no, and how sure (``strong`` at ``threshold_strong`` or more, ``weak`` at
``threshold`` or more). Techniques the model does not know (added to the
taxonomy after training) keep the rules' verdict.

Speed: everything per technique (its description and centroid vectors,
sparse, depth, relations) is built once per ``Ranker``; per paper, one count
of its words in C (from the split the matcher already made); the rest per
batch of papers (``choose_many``: the build tags in jobs of texts), so
numpy's fixed cost per call is paid per batch. About +17% of the tagging
calls' time warm, more in a cold build (docs/tagging.md, "Speed").
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from itertools import chain
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from .errors import CurationError

if TYPE_CHECKING:  # pragma: no cover
    from .tagging import Found, Tagger
    from .taxonomy import Taxonomy

MODEL_FILE = Path(__file__).resolve().parent / "data" / "tagger_model.json"
FORMAT = 1

# The features, in the order of the model's weights; docs/tagging.md describes each.
FEATURES = (
    "title",               # named in the title (with its sense)
    "sentences",           # log(1 + abstract sentences naming it)
    "share",               # share of the abstract's sentences that name it
    "contribution",        # named in a sentence stating the contribution ("we propose ...")
    "first_sentence",      # named in the abstract's first sentence
    "incidental",          # a single mention the incidental rule would drop
    "single_workload",     # a single mention of a require_strong technique (model family, learning method)
    "acronym",             # its first match is an acronym
    "alias_words",         # words in the matched phrase (spaces + 1, capped at 4)
    "depth",               # depth in the taxonomy (1 = directly under an area)
    "competitors",         # log(number of candidates of the paper)
    "covered",             # a more specific technique that covers it (covered_by) is a candidate too
    "covers",              # it covers another candidate
    "related",             # a parent or child of it is a candidate too
    "similarity",          # cosine of the paper's words with the technique's name, description, aliases and examples
    "centroid",            # cosine of the paper's words with the papers labelled with it in training
    "centroid_margin",     # its centroid cosine minus the best among the paper's candidates
)

# Tokens of the similarity features: the tagger's words of the normalised text
# (``\w+`` of ``tagging.normalise``), kept when they are a letter and then one
# or more letters or digits, a plural "s" dropped, common function words left out.
_TOKEN = re.compile(r"[a-z][a-z0-9]+")
_WORD = re.compile(r"\w+")
_STOP = frozenset("""
a about above across after all also an and any are as at be been being both but by can could do does each
for from further had has have having how however in into is it its itself may more most much must not of
on or other our ours over same should so some such than that the their them then there these they this
those through to too under up upon us use used uses using very via was we were what when where whether which
while who whose why will with within without would yet
""".split())


_STOP_CODE = -1


class _Codes(dict):
    """Word -> code for one ``TextSpace``, filled as words are met (a paper repeats most of its words).

    The code is the word's stem's vocabulary index (>= 0; "system" and
    "systems" share it), ``_STOP_CODE`` for a function word or a non-word, or
    a code of its own below that for a word outside the vocabulary. Looked up
    with ``map`` in C; ``__missing__`` runs once per new word.
    """

    def __init__(self, index: dict[str, int]):
        super().__init__()
        self.index = index
        self.unknown = 0

    def __missing__(self, word: str) -> int:
        stem = _stem(word)
        if stem is None:
            code = _STOP_CODE
        elif stem in self.index:
            code = self.index[stem]
        else:
            self.unknown += 1
            code = _STOP_CODE - self.unknown
        self[word] = code
        return code


def _stem(word: str) -> str | None:
    """A word as the similarity features count it: None for a function word or a non-word, a final "s" dropped."""
    if word in _STOP or not _TOKEN.fullmatch(word):
        return None
    return word[:-1] if len(word) > 3 and word[-1] == "s" and word[-2] != "s" else word


def words_of(text: str) -> list[str]:
    r"""The words of a text as the tagger splits it (``\w+`` of the normalised text)."""
    from .tagging import normalise
    return _WORD.findall(normalise(text))


def tokens(text: str) -> list[str]:
    """The words the similarity features compare."""
    return [t for w in words_of(text) if (t := _stem(w)) is not None]


def technique_text(taxonomy: Taxonomy, tid: str) -> str:
    """What the taxonomy says about a technique: name (twice), description, aliases, acronyms, examples."""
    tech = taxonomy[tid]
    return " ".join([tech.name, tech.name, tech.description, *tech.aliases, *tech.acronyms,
                     *taxonomy.examples.get(tid, [])])


def paper_text(title: str | None, abstract: str) -> str:
    """A paper's text for the similarity features; the title counts twice (as in ``Found.words``)."""
    title = title or ""
    return f"{title}\n{title}\n{abstract}"


class TextSpace:
    """TF-IDF over a fixed vocabulary: sublinear counts, idf from the training texts, unit length.

    Words outside the vocabulary still count in a vector's length (with the
    idf of a word seen once), so a paper full of unknown words is not made
    to look close to everything.
    """

    def __init__(self, vocabulary: list[str], idf: list[float], unknown_idf: float):
        self.vocabulary = vocabulary
        self.index = {w: i for i, w in enumerate(vocabulary)}
        self.idf = np.asarray(idf, dtype=np.float64)
        self.unknown_idf = unknown_idf
        self._codes = _Codes(self.index)

    def vector(self, words: list[str]) -> tuple[np.ndarray, np.ndarray]:
        """(vocabulary indices, weights) of the unit TF-IDF vector of a text's ``words_of``.

        Counts are per stem ("system" and "systems" are one word), tf is
        ``1 + log(count)``; words outside the vocabulary only count in the
        norm (each raw word apart). Counting runs in C (``Counter`` over
        ``map``); Python touches a word only the first time this space meets it.
        """
        counted = Counter(map(self._codes.__getitem__, words))
        counted.pop(_STOP_CODE, None)
        codes = np.fromiter(counted, dtype=np.int64, count=len(counted))
        tf = 1.0 + np.log(np.fromiter(counted.values(), dtype=np.float64, count=len(counted)))
        known = codes >= 0
        ids = codes[known]
        weights = tf[known] * self.idf[ids]
        rest = tf[~known]
        norm = math.sqrt(float(weights @ weights) + self.unknown_idf ** 2 * float(rest @ rest))
        return ids, (weights / norm if norm else weights)

    def vectors(self, texts: list[list[str]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``vector`` of many texts at once: (text index, vocabulary index, weight) of every known stem.

        The same numbers as ``vector`` for each text: the norm of a text sums
        its own terms in the same order.
        """
        codes_of = self._codes.__getitem__
        counted = [Counter(map(codes_of, words)) for words in texts]
        for c in counted:
            c.pop(_STOP_CODE, None)
        sizes = [len(c) for c in counted]
        total = sum(sizes)
        codes = np.fromiter(chain.from_iterable(counted), dtype=np.int64, count=total)
        tf = 1.0 + np.log(np.fromiter(chain.from_iterable(map(dict.values, counted)), dtype=np.float64, count=total))
        owner = np.repeat(np.arange(len(texts)), sizes)
        known = codes >= 0
        weight = tf * np.where(known, self.idf[np.where(known, codes, 0)], self.unknown_idf)
        norm = np.sqrt(np.bincount(owner, weights=weight * weight, minlength=len(texts)))
        weight = weight / np.where(norm > 0, norm, 1.0)[owner]
        return owner[known], codes[known], weight[known]

    def dense(self, text: str) -> np.ndarray:
        """The text's vector over the whole vocabulary (training; the tagger uses ``vector``)."""
        ids, weights = self.vector(words_of(text))
        out = np.zeros(len(self.vocabulary))
        out[ids] = weights
        return out


def unit_rows(matrix: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return matrix / np.where(norms > 0, norms, 1.0)


@dataclass
class RankerModel:
    """The trained model as stored in ``data/tagger_model.json``."""

    features: list[str]
    weights: list[float]                # one per feature, on standardised features
    bias: float
    mean: list[float]                   # standardisation of each feature (training mean and scale)
    scale: list[float]
    threshold: float                    # tagged (weak) at this probability or more
    threshold_strong: float             # strong at this probability or more
    vocabulary: list[str]
    idf: list[float]
    unknown_idf: float
    techniques: dict[str, dict]         # every technique id at training -> {"centroid": {word: weight}}
    provenance: dict = field(default_factory=dict)

    @classmethod
    def load(cls, path: Path = MODEL_FILE) -> "RankerModel":
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, ValueError) as err:
            raise CurationError(f"cannot read the tagger model: {err}", file=str(path),
                                expected="the JSON written by python -m build_graph train-tagger") from err
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise CurationError(f"unknown tagger model format {data.get('format') if isinstance(data, dict) else None!r}",
                                file=str(path), expected=f"format {FORMAT} (retrain: python -m build_graph train-tagger)")
        if data.get("features") != list(FEATURES):
            raise CurationError("the tagger model's features differ from this version's", file=str(path),
                                expected=f"{list(FEATURES)} (retrain: python -m build_graph train-tagger)")
        keys = ("features", "weights", "bias", "mean", "scale", "threshold", "threshold_strong", "vocabulary",
                "idf", "unknown_idf", "techniques", "provenance")
        return cls(**{k: data[k] for k in keys})

    def to_json(self) -> str:
        """Deterministic text: sorted technique and word keys, floats rounded, one technique per line."""
        def r(x: float) -> float:
            return round(float(x), 6)
        head = {
            "format": FORMAT, "provenance": self.provenance, "features": self.features,
            "weights": [r(w) for w in self.weights], "bias": r(self.bias),
            "mean": [r(m) for m in self.mean], "scale": [r(s) for s in self.scale],
            "threshold": r(self.threshold), "threshold_strong": r(self.threshold_strong),
            "unknown_idf": r(self.unknown_idf),
        }
        lines = ["{"]
        for key, value in head.items():
            lines.append(f"  {json.dumps(key)}: {json.dumps(value, sort_keys=True, ensure_ascii=False)},")
        lines.append(f'  "vocabulary": {json.dumps(self.vocabulary, ensure_ascii=False)},')
        lines.append(f'  "idf": {json.dumps([r(x) for x in self.idf])},')
        lines.append('  "techniques": {')
        items = sorted(self.techniques.items())
        for i, (tid, data) in enumerate(items):
            entry = {"centroid": {w: r(v) for w, v in sorted(data["centroid"].items())}}
            comma = "," if i < len(items) - 1 else ""
            lines.append(f"    {json.dumps(tid)}: {json.dumps(entry, ensure_ascii=False)}{comma}")
        lines.append("  }")
        lines.append("}")
        return "\n".join(lines) + "\n"


class Ranker:
    """A trained model bound to one tagger's technique order.

    ``choose_many`` decides for a batch of papers at once (the build tags in
    jobs of a few hundred texts), so numpy's fixed cost per call is paid per
    batch, not per paper; ``choose`` is a batch of one and gives the same
    answer, bit for bit (every sum runs over the same terms in the same
    order whatever the batch).
    """

    def __init__(self, model: RankerModel, tagger: Tagger):
        self.model = model
        self.space = TextSpace(model.vocabulary, model.idf, model.unknown_idf)
        self.order = tagger.order
        # A technique added to the taxonomy after training keeps the rules' verdict.
        self.known = [tid in model.techniques for tid in self.order]
        index = self.space.index
        # Per rank: the words of its description vector and of its centroid (60 words) and both
        # vectors' weights, concatenated over the ranks (starts[rank] : starts[rank + 1]).
        words_of_rank, both_of_rank = [], []
        for tid in self.order:
            described = dict(zip(*self.space.vector(words_of(technique_text(tagger.taxonomy, tid)))))
            centroid = {index[w]: v for w, v in model.techniques.get(tid, {}).get("centroid", {}).items()
                        if w in index}
            norm = math.sqrt(sum(v * v for v in centroid.values()))
            words = sorted(set(described) | set(centroid)) or [0]      # never empty (reduceat needs one term)
            words_of_rank.append(words)
            both_of_rank.append([(described.get(w, 0.0), centroid.get(w, 0.0) / norm if norm else 0.0)
                                 for w in words])
        self.lengths = np.array([len(w) for w in words_of_rank], dtype=np.int64)
        self.starts = np.concatenate([[0], np.cumsum(self.lengths)])
        self.words = np.array([w for ws in words_of_rank for w in ws], dtype=np.int64)
        self.both = np.array([pair for pairs in both_of_rank for pair in pairs], dtype=np.float64).reshape(-1, 2)
        self.structure = Structure(tagger)
        self.weights = np.asarray(model.weights) / np.asarray(model.scale)
        self.bias = model.bias - float(np.asarray(model.mean) @ self.weights)

    def cosines(self, founds: list[Found]) -> list[np.ndarray]:
        """Per paper, a (candidates x 2) array: the cosine of the paper with each candidate's
        description and centroid, candidates in rank order. All papers in a few numpy calls:
        the papers' vectors scattered into one dense (papers x vocabulary) array, and every
        (paper, candidate) pair's terms gathered and summed with ``np.add.reduceat``."""
        if not founds:
            return []
        owner, ids, weights = self.space.vectors([f.words for f in founds])
        dense = np.zeros((len(founds), len(self.space.vocabulary)))
        dense[owner, ids] = weights
        counts = [len(f.candidates) for f in founds]
        pair_rank = np.fromiter(chain.from_iterable(sorted(f.candidates) for f in founds), dtype=np.int64,
                                count=sum(counts))
        pair_paper = np.repeat(np.arange(len(founds)), counts)
        lengths = self.lengths[pair_rank]
        ends = np.cumsum(lengths)
        # The terms of every pair: positions starts[rank] .. starts[rank] + length - 1 in self.words.
        term = np.arange(int(ends[-1])) - np.repeat(ends - lengths - self.starts[pair_rank], lengths)
        products = dense[np.repeat(pair_paper, lengths), self.words[term]][:, None] * self.both[term]
        sums = np.add.reduceat(products, ends - lengths, axis=0)
        return np.split(sums, np.cumsum(counts)[:-1])

    def features_many(self, founds: list[Found]) -> list[tuple[list[int], np.ndarray]]:
        """Per paper (each with at least one candidate): its candidate ranks (sorted) and feature matrix."""
        return [(ranks, candidate_features(found, ranks, self.structure, both[:, 0], both[:, 1]))
                for found, both, ranks in zip(founds, self.cosines(founds),
                                              (sorted(f.candidates) for f in founds))]

    def features(self, found: Found) -> tuple[list[int], np.ndarray]:
        return self.features_many([found])[0]

    def probabilities(self, found: Found) -> tuple[list[int], np.ndarray]:
        return self.probabilities_many([found])[0]

    def probabilities_many(self, founds: list[Found]) -> list[tuple[list[int], np.ndarray]]:
        if not founds:
            return []
        rows = self.features_many(founds)
        x = np.vstack([x for _, x in rows])
        # Row by row (not a BLAS product, whose summation order may depend on the batch).
        p = 1.0 / (1.0 + np.exp(-((x * self.weights).sum(axis=1) + self.bias)))
        parts = np.split(p, np.cumsum([len(ranks) for ranks, _ in rows])[:-1])
        return [(ranks, part) for (ranks, _), part in zip(rows, parts)]

    def choose(self, found: Found) -> dict[int, str]:
        return self.choose_many([found])[0]

    def choose_many(self, founds: list[Found]) -> list[dict[int, str]]:
        """Per paper (each with at least one candidate): rank -> strength of the candidates the
        model keeps; techniques it does not know keep the rules' verdict."""
        from .tagging import rule_verdicts
        out = []
        threshold, strong, known = self.model.threshold, self.model.threshold_strong, self.known
        for found, (ranks, p) in zip(founds, self.probabilities_many(founds)):
            chosen, rules = {}, None
            for rank, prob in zip(ranks, p.tolist()):
                if known[rank]:
                    if prob >= threshold:
                        chosen[rank] = "strong" if prob >= strong else "weak"
                else:
                    if rules is None:
                        rules = rule_verdicts(found)
                    if rank in rules:
                        chosen[rank] = rules[rank]
            out.append(chosen)
        return out


class Structure:
    """Per technique rank: taxonomy depth and relations, and the rules' flags, as the features need them."""

    def __init__(self, tagger: Tagger):
        taxonomy = tagger.taxonomy
        rank_of = {tid: rank for rank, tid in enumerate(tagger.order)}
        self.depth = [len(taxonomy.ancestors(tid)) for tid in tagger.order]
        self.covered_by = tagger.covered_by
        # rank -> ranks it covers (the inverse of covered_by)
        covers: dict[int, set[int]] = {}
        for rank, by in tagger.covered_by.items():
            for other in by:
                covers.setdefault(other, set()).add(rank)
        self.covers = {rank: frozenset(c) for rank, c in covers.items()}
        related: dict[int, set[int]] = {}
        for rank, tid in enumerate(tagger.order):
            for parent in taxonomy.ancestors(tid)[:-1]:    # the last is the area
                if parent in rank_of:
                    related.setdefault(rank, set()).add(rank_of[parent])
                    related.setdefault(rank_of[parent], set()).add(rank)
        self.related = {rank: frozenset(r) for rank, r in related.items()}


def candidate_features(found: Found, ranks: list[int], structure: Structure,
                       similarity: np.ndarray, centroid: np.ndarray) -> np.ndarray:
    """The (candidates x FEATURES) matrix of one paper, in the order of ``ranks``.

    ``similarity`` and ``centroid``: the cosines for ``ranks``, which must be
    all of the paper's candidates (the margins compare with the best of them).
    """
    candidates = found.candidates
    # Only a candidate named in the abstract needs the sentence count (share is 0 otherwise), and
    # then the abstract was split already.
    sentences = found.sentence_count() if any(c.named_in for c in candidates.values()) else 0
    present = set(candidates)
    competitors = math.log(len(present))
    covered_by, covers, related, depth = structure.covered_by, structure.covers, structure.related, structure.depth
    log1p, title_text, abstract_text = math.log1p, found.title, found.abstract
    rows = []
    for rank in ranks:
        c = candidates[rank]
        in_title = c.title is not None
        first = c.title if in_title else c.abstract
        named_in = c.named_in
        by, over, near = covered_by.get(rank), covers.get(rank), related.get(rank)
        rows.append((
            in_title,
            log1p(named_in),
            named_in / sentences if sentences else 0.0,
            c.contribution,
            0 in c.named,
            c.incidental,
            c.require_strong and named_in == 1 and not in_title,
            first.acronym,
            min((title_text if in_title else abstract_text).count(" ", first.start, first.end) + 1, 4),
            depth[rank],
            competitors,
            by is not None and not by.isdisjoint(present),
            over is not None and not over.isdisjoint(present),
            near is not None and not near.isdisjoint(present),
            0.0, 0.0, 0.0,
        ))
    x = np.array(rows, dtype=np.float64)
    x[:, -3] = similarity
    x[:, -2] = centroid
    x[:, -1] = centroid - centroid.max()
    return x


def load_ranker(tagger: Tagger, path: Path = MODEL_FILE) -> Ranker | None:
    """The packaged model bound to ``tagger``, or None when there is no model file."""
    if not Path(path).is_file():
        return None
    return Ranker(RankerModel.load(path), tagger)
