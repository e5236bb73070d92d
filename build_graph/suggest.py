"""Suggest candidate techniques: frequent phrases that no taxonomy pattern matches yet.

Growing the taxonomy by hand is guesswork unless someone looks at what the
corpus actually talks about. This finds 2-4 word phrases shared by several
papers, drops the ones the tagger already recognises, and shows a few papers
for each so a contributor can decide whether it deserves a technique (and
write an honest description and aliases for it).

Wired into the CLI as ``python -m build_graph suggest``; also available as
``python -m build_graph.devtools.corpus_eval CORPUS --suggest 50`` on untagged papers.
"""

from __future__ import annotations

import bisect
import re
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from .tagging import Tagger

STOPWORDS = frozenset("""
a about above across after again against all also although am among an and any are as at be because been
before being below between both but by can cannot could did do does doing done down during each either
else even every few for from further had has have having he her here hers him his how however i if in
into is it its itself just least less may me might more most much must my no nor not now of off often on
once one only onto or other others otherwise our ours out over own per rather same she should since so
some such than that the their theirs them then there thereby therefore these they this those though
through thus to too toward towards under until up upon us very via was we well were what when where
whereas whether which while who whom whose why will with within without would yet you your
""".split())

# Words that carry no topic on their own: a phrase made only of these (with
# stopwords) is never a technique ("paper presents", "results show").
GENERIC = frozenset("""
able achieve achieves achieved achieving address addresses approach approaches average based better
challenge challenges compared compares demonstrate demonstrates design designs different due effective
efficient efficiently enable enables evaluate evaluated evaluation existing experiments faster first
high higher however improve improved improves improvement improvements introduce key large largely lower
low make makes many method methods new novel orders magnitude outperforms paper perform performance
present presents problem problems propose proposed proposes provide provides recent result results
several show shows significant significantly small state-of-the-art study support supports system
systems technique techniques times two three use used uses using various well-known wide widely work
works x experimental introduces latency throughput utilization resource resources range number amount
order years prior solutions case cases real real-world end-to-end evaluations extensive insight idea
implementation application applications overhead reduce reduces art time usage
""".split())

_CLAUSE = re.compile(r"[.,;:!?()\[\]{}\"\u201c\u201d]|\s[-\u2013\u2014]\s")
_TOKEN = re.compile(r"[a-z][a-z0-9]*(?:[-'][a-z0-9]+)*")


@dataclass(frozen=True)
class Suggestion:
    phrase: str
    papers: int                    # how many papers use the phrase
    examples: tuple[str, ...]      # up to three paper labels


def phrases(text: str, covered: list[tuple[int, int]] = (), sizes: range = range(2, 5)) -> set[str]:
    """The stopword-trimmed 2-4 word phrases of ``text``.

    Phrases never cross punctuation, and never touch a ``covered`` character
    span (text some technique already matches: "large language" inside
    "large language models" is not a new topic).
    """
    lowered = text.lower()
    breaks = [m.start() for m in _CLAUSE.finditer(lowered)]
    tokens = [(m.group(), bisect.bisect(breaks, m.start()),
               any(a < m.end() and m.start() < b for a, b in covered))
              for m in _TOKEN.finditer(lowered)]
    found = set()
    for n in sizes:
        for i in range(len(tokens) - n + 1):
            gram = tokens[i:i + n]
            if gram[0][1] != gram[-1][1] or any(blocked for _, _, blocked in gram):
                continue
            words = [w for w, _, _ in gram]
            if words[0] in STOPWORDS or words[-1] in STOPWORDS or any(len(w) < 2 for w in words):
                continue
            if all(w in STOPWORDS or w in GENERIC for w in words):
                continue
            found.add(" ".join(words))
    return found


def _contains(longer: str, shorter: str) -> bool:
    return f" {shorter} " in f" {longer} "


def suggest(texts: list[tuple[str, str]], tagger: Tagger, min_papers: int = 2, top: int = 50) -> list[Suggestion]:
    """Phrases shared by at least ``min_papers`` texts that no technique matches, most shared first.

    ``texts`` are (paper label, text) pairs. Ties are broken by longer phrase
    first, then alphabetically, so the output is deterministic. A phrase that
    contains, or is contained in, an already chosen one is skipped, so one
    topic does not fill the list with its variants.
    """
    counts: Counter[str] = Counter()
    examples: dict[str, list[str]] = {}
    for label, text in texts:
        for phrase in phrases(text, tagger.matched_spans(text)):
            counts[phrase] += 1
            seen = examples.setdefault(phrase, [])
            if len(seen) < 3:
                seen.append(label)
    ranked = sorted((p for p, n in counts.items() if n >= min_papers),
                    key=lambda p: (-counts[p], -len(p.split()), p))
    chosen: list[Suggestion] = []
    for phrase in ranked:
        if len(chosen) >= top:
            break
        if any(_contains(s.phrase, phrase) or _contains(phrase, s.phrase) for s in chosen):
            continue
        if tagger.matches_any(phrase):
            continue
        chosen.append(Suggestion(phrase, counts[phrase], tuple(examples[phrase])))
    return chosen


def format_suggestions(suggestions: list[Suggestion]) -> str:
    if not suggestions:
        return "No candidate techniques: every frequent phrase is already matched by the taxonomy."
    width = max(len(s.phrase) for s in suggestions)
    lines = [f"{len(suggestions)} candidate techniques (phrase, papers using it, examples):"]
    for s in suggestions:
        lines.append(f"  {s.phrase:<{width}}  {s.papers:4d}  " + "; ".join(e[:60] for e in s.examples))
    return "\n".join(lines)
