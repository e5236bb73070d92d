"""People's names: repair shouting or whispering case, and decide identity.

Listings write the same person as ``colby banbury``, ``Colby Banbury`` and
``JINOOK SONG``. Identity is the case-folded NFC form, so those are one
author; the display form repairs ALL-CAPS and all-lower words while leaving
deliberate mixed case (``HoYuen Chau``, ``XiaoBing Feng``, ``DeVito``) and
lower-case particles (``Javier de Juan``) alone.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

PARTICLES = frozenset({
    "de", "da", "das", "do", "dos", "del", "della", "der", "den", "di", "du", "la", "le",
    "van", "von", "bin", "binti", "al", "el", "y", "zu", "ter", "ten", "af", "av",
})
_ROMAN = re.compile(r"^(?:I{1,3}|IV|V|VI{0,3}|IX|X)$")
_DASHES = re.compile(r"[\u2010-\u2015\u2212]")
_APOSTROPHES = re.compile(r"[\u2018\u2019\u02bc`´]")
_SPACE = re.compile(r"\s+")
_NAME_WORD = re.compile(r"^[^\W\d_]+(?:[-'.][^\W\d_]*)*\.?$")


def clean_spacing(name: str) -> str:
    name = unicodedata.normalize("NFC", name)
    name = _DASHES.sub("-", name)
    name = _APOSTROPHES.sub("'", name)
    return _SPACE.sub(" ", name).strip(" ,;")     # " ,;" at once: "a ," -> "a", not "a "


def _cap_word(word: str) -> str:
    """``ZHAOMIN`` -> ``Zhaomin``, ``o'brien`` -> ``O'Brien``, ``jean-pierre`` -> ``Jean-Pierre``."""
    parts = re.split(r"([-'])", word)
    # Turkish dotted capital I lower-cases to "i" + combining dot; in a name it is "i".
    return "".join(_cap_first(p[:1]) + p[1:].replace("İ", "i").lower() if p not in "-'" else p
                   for p in parts)


def _cap_first(char: str) -> str:
    """Upper-case one letter, unless that makes it two (``ß`` -> ``SS``)."""
    upper = char.upper()
    return upper if len(upper) == len(char) else char


@lru_cache(maxsize=1 << 16)       # pure (no build state, see caches.py); large inputs repeat names
def proper_case(name: str) -> str:
    """Repair the case of a name that is ALL CAPS or all lower, word by word.

    A word is repaired only when it has no case information of its own:
    all upper-case (two or more letters, not a Roman numeral) or all
    lower-case (not a particle). Initials (``T.``) and mixed-case words are
    kept exactly as written.
    """
    name = clean_spacing(name)
    words = name.split(" ")
    whole_lower = name == name.lower()
    out = []
    for i, word in enumerate(words):
        letters = [c for c in word if c.isalpha()]
        if not letters or not _NAME_WORD.match(word):
            out.append(word)           # not a name word (markup, code, digits): keep verbatim
            continue
        upper = all(c.isupper() for c in letters)
        lower = all(c.islower() for c in letters)
        if lower and word in PARTICLES and 0 < i < len(words) - 1:
            out.append(word)
        elif lower or (upper and len(letters) > 1 and not _ROMAN.match(word) and "." not in word):
            out.append(_cap_word(word))
        else:
            out.append(word)
    if whole_lower and len(out) == 1:
        return _cap_word(name)
    return " ".join(out)


def name_key(name: str) -> str:
    """Identity of a person: NFC, tidy spacing, case-folded."""
    return clean_spacing(name).casefold()


def ascii_fold(text: str) -> str:
    """Strip accents for fuzzy comparison (never for identity)."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c))
