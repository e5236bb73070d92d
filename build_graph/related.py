"""Related papers, each with the reason it is related.

Score of paper *q* for paper *p* (all weights are documented on the
"How related papers are ranked" section of docs/techniques.md):

* every shared technique *t* adds ``log(1 + N / df(t))``: a technique few papers
  share says more than one everybody has;
* every shared author adds ``AUTHOR_WEIGHT``;
* the same venue adds ``SAME_VENUE_YEAR`` (same year) or ``SAME_VENUE`` (other year),
  but only to papers that already share a technique or an author.

Candidates come from inverted indexes (author -> papers, technique ->
papers) instead of comparing all pairs, and techniques shared by more than
``COMMON_DF`` papers only add weight to candidates found otherwise. That keeps
the work near-linear in the number of papers.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass

from .model import Paper

AUTHOR_WEIGHT = 3.0
SAME_VENUE_YEAR = 0.5
SAME_VENUE = 0.25
COMMON_DF = 300
TOP = 6


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
    result: dict[str, list[Related]] = {}
    for paper in papers:
        scores: dict[str, float] = defaultdict(float)
        mine = [t for t in dict.fromkeys(techniques[paper.slug])]
        rare = [t for t in mine if len(by_technique[t]) <= COMMON_DF]
        common = [t for t in mine if len(by_technique[t]) > COMMON_DF]
        for tid in rare:
            for other in by_technique[tid]:
                scores[other] += weight[tid]
        for key in dict.fromkeys(paper.authors):
            for other in by_author[key]:
                scores[other] += AUTHOR_WEIGHT
        scores.pop(paper.slug, None)
        if not scores and common:           # only ubiquitous techniques: fall back to one posting
            rarest = min(common, key=lambda t: (len(by_technique[t]), t))
            for other in by_technique[rarest][:COMMON_DF]:
                if other != paper.slug:
                    scores[other] += 0.0
        for other in scores:
            for tid in common:
                if tid in technique_sets[other]:
                    scores[other] += weight[tid]
        ranked = []
        for other, score in scores.items():
            q = index[other]
            venue = paper.venue if paper.venue and paper.venue == q.venue else None
            if venue:
                score += SAME_VENUE_YEAR if paper.year == q.year else SAME_VENUE
            shared_t = sorted((t for t in mine if t in technique_sets[other]),
                              key=lambda t: (len(by_technique[t]), t))
            shared_a = tuple(a for a in dict.fromkeys(paper.authors) if a in set(q.authors))
            ranked.append(Related(other, round(score, 6), tuple(shared_t), shared_a, venue))
        ranked.sort(key=lambda r: (-r.score, r.slug))
        result[paper.slug] = ranked[:top]
    return result
