"""Likely duplicate people, for curators to confirm with an alias line.

Two author nodes are flagged when their names agree after folding case,
accents and common transliterations (``Jürgen``/``Juergen``), after repairing
mis-decoded UTF-8 (``JosÃ©`` -> ``José``), when one abbreviates the other's
given names (``J. Laudon``/``James Laudon``), or when they hold the same words
in another order (``Wu Zhaomin``/``Zhaomin Wu``). Nothing is merged
automatically: a wrong merge silently corrupts two people's pages, while a
flag costs a curator one look. Comparisons happen only within small blocks
(same folded family name, or same word set), so the check stays near-linear.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from dataclasses import dataclass

from .normalize.names import ascii_fold

_TRANSLIT = [("ae", "a"), ("oe", "o"), ("ue", "u"), ("ss", "s")]


def repair_mojibake(name: str) -> str:
    """``JosÃ©`` -> ``José`` when the text is UTF-8 that was decoded as Latin-1."""
    try:
        fixed = name.encode("cp1252").decode("utf-8")
    except (UnicodeEncodeError, UnicodeDecodeError):
        return name
    return fixed


def fold(name: str) -> str:
    text = ascii_fold(repair_mojibake(name)).lower()
    text = re.sub(r"[^a-z ]+", " ", text)
    for a, b in _TRANSLIT:
        text = text.replace(a, b)
    return " ".join(text.split())


def _initials_match(a: list[str], b: list[str]) -> bool:
    """Given names agree, one side abbreviated: ``j`` ~ ``james``, family names equal."""
    if len(a) != len(b) or a[-1] != b[-1] or a == b:
        return False
    return all(x == y or (len(x) == 1 and y.startswith(x)) or (len(y) == 1 and x.startswith(y))
               for x, y in zip(a[:-1], b[:-1]))


@dataclass(frozen=True)
class LikelyDuplicate:
    keep: str            # display name to keep (more papers)
    other: str           # spelling to alias onto it
    reason: str

    def alias_line(self) -> str:
        return (f"- {{name: {json.dumps(self.keep, ensure_ascii=False)}, "
                f"spellings: [{json.dumps(self.other, ensure_ascii=False)}]}}")


def likely_duplicates(names: dict[str, int]) -> list[LikelyDuplicate]:
    """``names``: display name -> number of papers. Returns pairs, deterministic order."""
    folded = {n: fold(n) for n in names}
    blocks: dict[str, set[str]] = defaultdict(set)
    for name, f in folded.items():
        words = f.split()
        if not words:
            continue
        # Same family name, same number of words and the same given-name
        # initials: every pair the checks below can flag (equal, abbreviated)
        # shares this key. A block per family name alone was quadratic in
        # the commonest names ("Wang", "Li": hundreds of people each).
        blocks["family:" + words[-1] + ":" + "".join(w[0] for w in words[:-1])].add(name)
        blocks["words:" + " ".join(sorted(words))].add(name)
    found: dict[tuple[str, str], str] = {}
    for block in blocks.values():
        members = sorted(block)
        for i, a in enumerate(members):
            for b in members[i + 1:]:
                fa, fb = folded[a], folded[b]
                if fa == fb:
                    reason = ("the same name once UTF-8 is decoded correctly"
                              if repair_mojibake(a) != a or repair_mojibake(b) != b
                              else "the same name apart from case, accents or transliteration")
                elif _initials_match(fa.split(), fb.split()):
                    reason = "one spelling abbreviates the other's given names"
                elif sorted(fa.split()) == sorted(fb.split()):
                    reason = "the same names in another order"
                else:
                    continue
                found.setdefault((a, b), reason)
    result = []
    for (a, b), reason in sorted(found.items()):
        keep, other = sorted((a, b), key=lambda n: (-names[n], repair_mojibake(n) != n,
                                                    n.isascii(), -len(n), n))
        result.append(LikelyDuplicate(keep, other, reason))
    return result
