"""Related papers, each with the reason it is related.

Score of paper *q* for paper *p* (explained for readers in docs/related.md):

* every shared technique *t* adds ``log(1 + N / df(t))``: a technique few papers
  share says more than one everybody has; the weight is multiplied by
  ``WEAK_FACTOR`` when either paper's tag is weak (named only in passing in
  the abstract, docs/tagging.md), since a weak tag is less often right;
* every shared author adds ``AUTHOR_WEIGHT``;
* the same venue adds ``SAME_VENUE_YEAR`` (same year) or ``SAME_VENUE`` (other year),
  but only to papers that already share a technique or an author.

Candidates come from inverted indexes (author -> papers, technique ->
papers) instead of comparing all pairs, and techniques shared by more than
``COMMON_DF`` papers only add weight to candidates found otherwise. That keeps
the work near-linear in the number of papers.
"""

from __future__ import annotations

import heapq
import math
from collections import defaultdict
from dataclasses import dataclass
from functools import partial

from .model import Paper
from .parallel import run_jobs

AUTHOR_WEIGHT = 3.0
SAME_VENUE_YEAR = 0.5
SAME_VENUE = 0.25
COMMON_DF = 300
TOP = 6
WEAK_FACTOR = 0.5


@dataclass(frozen=True)
class Related:
    slug: str
    score: float
    techniques: tuple[str, ...]     # shared technique ids, rarest first
    authors: tuple[str, ...]        # shared author keys, in the paper's author order
    venue: str | None               # the shared venue, if any

    def reason(self, technique_name, author_name) -> str:
        parts = []
        if self.techniques:
            names = [technique_name(t) for t in self.techniques[:3]]
            more = len(self.techniques) - len(names)
            text = " and ".join([", ".join(names[:-1]), names[-1]] if len(names) > 1 else names)
            parts.append("shares " + text + (f" (+{more} more)" if more else ""))
        if self.authors:
            names = [author_name(a) for a in self.authors]
            parts.append(("same author " if len(names) == 1 else "same authors ") + ", ".join(names))
        if self.venue:
            parts.append("same venue " + self.venue)
        return "; ".join(parts)


def related_papers(papers: list[Paper], top: int = TOP) -> dict[str, list[Related]]:
    n = len(papers)
    techniques = {p.slug: [t.technique for t in p.techniques] for p in papers}
    # (slug, tid) -> factor for weak tags only; strong tags (the common case) are absent.
    weak = {(p.slug, t.technique): WEAK_FACTOR for p in papers for t in p.techniques
            if t.strength == "weak"}
    by_technique: dict[str, list[str]] = defaultdict(list)
    by_author: dict[str, list[str]] = defaultdict(list)
    for paper in papers:
        for tid in dict.fromkeys(techniques[paper.slug]):
            by_technique[tid].append(paper.slug)
        for key in dict.fromkeys(paper.authors):
            by_author[key].append(paper.slug)
    weight = {tid: math.log(1 + n / len(slugs)) for tid, slugs in by_technique.items()}
    technique_sets = {slug: set(tids) for slug, tids in techniques.items()}
    index = {p.slug: p for p in papers}
    venue_of = {p.slug: p.venue for p in papers}
    year_of = {p.slug: p.year for p in papers}

    def related_to(paper: Paper) -> list[Related]:
        scores: dict[str, float] = defaultdict(float)
        mine = [t for t in dict.fromkeys(techniques[paper.slug])]
        rare = [t for t in mine if len(by_technique[t]) <= COMMON_DF]
        common = [t for t in mine if len(by_technique[t]) > COMMON_DF]
        for tid in rare:
            w = weight[tid]
            if weak and (paper.slug, tid) in weak:
                w *= WEAK_FACTOR
                for other in by_technique[tid]:
                    scores[other] += w
            elif weak:
                for other in by_technique[tid]:
                    scores[other] += w * weak.get((other, tid), 1.0)
            else:
                for other in by_technique[tid]:
                    scores[other] += w
        for key in dict.fromkeys(paper.authors):
            for other in by_author[key]:
                scores[other] += AUTHOR_WEIGHT
        scores.pop(paper.slug, None)
        if not scores and common:           # only ubiquitous techniques: fall back to one posting
            rarest = min(common, key=lambda t: (len(by_technique[t]), t))
            for other in by_technique[rarest][:COMMON_DF]:
                if other != paper.slug:
                    scores[other] += 0.0
        # Score every candidate (cheap: set and dict lookups), keep the best
        # ``top``, and only then work out the reasons. Building the reasons for
        # every candidate made this the slowest stage (hundreds of candidates
        # per paper at 1,000 papers). Additions happen in the same order as
        # before, so scores are bit-for-bit the same.
        common_w = [(tid, weight[tid]) for tid in common]
        ranked = []
        for other, score in scores.items():
            if common_w:
                others = technique_sets[other]
                for tid, w in common_w:
                    if tid in others:
                        score += w * (WEAK_FACTOR if (paper.slug, tid) in weak or (other, tid) in weak else 1.0)
            if paper.venue and paper.venue == venue_of[other]:
                score += SAME_VENUE_YEAR if paper.year == year_of[other] else SAME_VENUE
            ranked.append((-round(score, 6), other))
        best = heapq.nsmallest(top, ranked)
        out = []
        for negative, other in best:
            q = index[other]
            venue = paper.venue if paper.venue and paper.venue == q.venue else None
            shared_t = sorted((t for t in mine if t in technique_sets[other]),
                              key=lambda t: (len(by_technique[t]), t))
            theirs = set(q.authors)
            shared_a = tuple(a for a in dict.fromkeys(paper.authors) if a in theirs)
            out.append(Related(other, -negative if negative else 0.0, tuple(shared_t), shared_a, venue))
        return out

    # Each paper's list depends on the indexes above only: independent jobs (two cores when it is safe).
    return run_jobs([partial(_related_all, related_to, papers[start:start + JOB])
                     for start in range(0, n, JOB)])


JOB = 500
"""Papers per job of ``related_papers``."""


def _related_all(related_to, papers: list[Paper]) -> dict[str, list[Related]]:
    return {paper.slug: related_to(paper) for paper in papers}
