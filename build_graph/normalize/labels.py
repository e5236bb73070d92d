"""Labels for papers whose listing gives no title.

Bare abstracts and arXiv listings have no titles. Such a paper stays
*untitled* (``title`` is ``None`` everywhere, including the export), but
people need something to call it. The label is the name of the system the
abstract introduces ("we present TACCL, ..." -> ``TACCL``) when there is one,
otherwise the opening words of the abstract, ending in an ellipsis so nobody
mistakes them for a title.
"""

from __future__ import annotations

import re

_VERBS = (r"(?:present|presents|introduce|introduces|propose|proposes|develop|develops|design|designs|"
          r"build|builds|describe|describes|implement|implements|release|releases)")
_NAME = r"([A-Z][A-Za-z0-9]*(?:[-+][A-Za-z0-9]+)*)"
_INTRO = re.compile(
    r"\b(?i:we|this paper|this work|the paper|our paper|this article)\s+(?:also\s+)?" + _VERBS +
    r"\s+(?:here\s+)?" + _NAME + r"(?=\s*(?:,|:|\(|—|–| - |\bwhich\b|\bthat\b|\ba\b|\ban\b))")
_VERB_APPOSITION = re.compile(r"\b" + _VERBS + r"\s+" + _NAME + r"(?=,\s+(?:a|an)\s)")
_KIND_DASH = re.compile(r"\b(?:system|framework|compiler|engine|library|tool|platform|runtime|scheduler)"
                        r"\s*[-–—:]\s*" + _NAME + r"\b")
_CALLED = re.compile(r"\b(?:called|named|dubbed|coined)\s+" + _NAME + r"\b")
_APPOSITION = re.compile(r"(?<![\w-])" + _NAME + r",\s+(?:a|an)\s+(?:new\s+|novel\s+)?[a-z]")
_COMMON = frozenset({"A", "An", "The", "We", "This", "Our", "In", "It", "These", "That", "To", "For",
                     "However", "Moreover", "Finally", "Furthermore", "First", "Second", "Third",
                     "Specifically", "Additionally", "Then", "Here", "Existing", "Recent", "Prior"})
OPENING_WORDS = 8


def _is_system_name(word: str) -> bool:
    if word in _COMMON or len(word) < 2:
        return False
    inner_caps = any(c.isupper() for c in word[1:])
    return inner_caps or any(c.isdigit() for c in word) or word[1:].islower()


def system_name(abstract: str) -> str | None:
    """The system an abstract introduces, if it names one the usual ways."""
    for pattern in (_INTRO, _VERB_APPOSITION, _CALLED, _KIND_DASH):
        for match in pattern.finditer(abstract):
            if _is_system_name(match.group(1)):
                return match.group(1)
    for match in _APPOSITION.finditer(abstract):
        word = match.group(1)
        if _is_system_name(word) and (any(c.isupper() for c in word[1:]) or word.isupper()):
            return word
    return None


def opening_words(abstract: str, count: int = OPENING_WORDS) -> str:
    words = abstract.split()
    if not words:
        return "(no text)"
    snippet = " ".join(words[:count]).rstrip(",;:.")
    return snippet + ("…" if len(words) > count else "")


def label_for(abstract: str) -> str:
    return system_name(abstract) or opening_words(abstract)
