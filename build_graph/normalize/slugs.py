"""Slugs: stable, unique, safe in every filesystem and URL.

A slug must not change when an unrelated paper is added, so it never depends
on what else is in the atlas (no "-2" for the second comer). Instead:

* a slug is the readable ASCII form of the entity's identity key when that
  form is *lossless* (the key can be read back from it);
* otherwise (accents transliterated, punctuation dropped, text truncated) it
  gets a short suffix from a hash of the full key, so two different keys
  never meet at one slug.

Slugs are lower-case ``[a-z0-9-]``, at most ``MAX_LENGTH`` characters, never
empty, never ``.``/``..``, and never a Windows reserved device name.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata

MAX_LENGTH = 80
_TRANSLIT = str.maketrans({"ß": "ss", "æ": "ae", "Æ": "AE", "ø": "o", "Ø": "O", "ł": "l", "Ł": "L",
                           "đ": "d", "Đ": "D", "þ": "th", "Þ": "Th", "œ": "oe", "Œ": "OE",
                           "ı": "i", "ð": "d"})
_RESERVED = re.compile(r"^(?:con|prn|aux|nul|com\d|lpt\d|index|assets|search)$")
_NON_ALNUM = re.compile(r"[^a-z0-9]+")


def ascii_words(text: str) -> str:
    """Lower-case ASCII words separated by single hyphens."""
    text = unicodedata.normalize("NFKD", text.translate(_TRANSLIT))
    text = "".join(c for c in text if not unicodedata.combining(c)).lower()
    return _NON_ALNUM.sub("-", text).strip("-")


def short_hash(key: str, length: int = 6) -> str:
    return hashlib.sha1(key.encode("utf-8")).hexdigest()[:length]


def stable_slug(key: str, readable: str | None = None) -> str:
    """Slug for identity ``key``; ``readable`` is the text to spell it from.

    Lossless means the key itself is exactly the readable words joined by
    spaces, in lower-case ASCII: then the slug is those words joined by
    hyphens, and distinct keys give distinct slugs without any suffix.
    """
    words = ascii_words(readable if readable is not None else key)
    lossless = bool(words) and key == words.replace("-", " ") and len(words) <= MAX_LENGTH
    if lossless and not _RESERVED.match(words):
        return words
    base = words[: MAX_LENGTH - 7].rstrip("-") or "x"
    return f"{base}-{short_hash(key)}"


_WORD = re.compile(r"[^\W_]+")


def title_key(title: str) -> str:
    """Identity of a title: case, accents and punctuation do not matter.

    Letters with no ASCII form (Cyrillic, Greek, CJK, ...) are kept, case-folded,
    so two such titles are two papers (with two hashed slugs) instead of both
    reducing to "" or to their shared ASCII words. Transliterable titles give
    exactly ``ascii_words(title)`` with spaces.
    """
    text = unicodedata.normalize("NFKD", title.translate(_TRANSLIT))
    text = "".join(c for c in text if not unicodedata.combining(c)).casefold()
    return " ".join(_WORD.findall(text))
