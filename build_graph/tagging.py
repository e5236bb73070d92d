"""Tag papers with taxonomy techniques, keeping the sentence that justifies each tag.

A tag is only as trustworthy as the text it rests on, so every tag carries the
sentence where its technique was first named; a reader of the site (or of a
pull request) can check it without opening the paper.

Matching rules (the taxonomy's contract with contributors; docs/tagging.md):

* aliases match case-insensitively, as whole words; the last word may take a
  plural (``s``, ``es``, ``y`` -> ``ies``); a space or hyphen in an alias
  matches any run of spaces and hyphens, and a hyphen may also be dropped
  ("co-design" matches "co design", "co-design" and "codesign"); an alias
  does not start right after "word-" ("inter-datacenter networks");
* acronyms match case-sensitively, as whole tokens, with an optional plural
  ``s``; not in an all-capitals title (where every word looks like one), and
  not when the text spells the acronym out as something else;
* a match inside a longer match of another technique does not count
  ("homomorphic encryption" is not also "encryption");
* a technique named in only one sentence of the abstract is not tagged when
  that sentence reports results or describes earlier work, or names it as
  one item of a list of examples (``incidental``);
* a tag is ``strong`` when the technique is named in the title, in three or
  more sentences, or in a sentence stating the contribution; else ``weak``.

Those last two are the phrase rules' verdict. By default a trained ranker
(``build_graph/ranker.py``) decides instead: ``candidates`` collects every
match with its sense together with what the rules look at (incidental,
sentences, contribution, title), the ranker turns that and the paper's words
into a probability per technique, and strength follows the probability.
Techniques the ranker was not trained on keep the rules' verdict.

Speed: patterns are indexed by the word they start with and, per index word,
joined into one union regex that fails fast; a paper's words are looked up in
the index with C-level ``map``/``compress``, so Python only touches words that
can start a match. Compiling is a fixed cost of every build (some 1,550
alias and acronym patterns, compiled once for the taxonomy check and reused
by the tagger, plus some 250 unions), so aliases are matched against a
normalised copy of the text (``normalise``: lower-cased, Unicode hyphens as
"-", the same length, so every position is the same in both); their patterns
then compile without ``re.IGNORECASE`` and with a plain ``[-\\s]`` class,
several times faster than the IGNORECASE class of spaces and four dashes
they needed before (sre optimises such classes slowly). What a tag reports
(``matched``, evidence) is cut from the original text; acronyms are
case-sensitive and match the original text directly.
"""

from __future__ import annotations

import bisect
import re
from functools import lru_cache
from itertools import accumulate, compress
from typing import TYPE_CHECKING, NamedTuple

from .model import TechniqueTag

if TYPE_CHECKING:  # pragma: no cover
    from .taxonomy import Taxonomy

_WORD = re.compile(r"\w+")
_SPLIT_WORDS = re.compile(r"(\w+)")
# Aliases see the text through ``normalise``, where the hyphen-like dashes are
# already "-", so their gaps need only this plain class.
_GAP = r"[-\s]+"
_OPTIONAL_GAP = r"[-\s]*"
_HYPHENS = str.maketrans(dict.fromkeys("\u2010\u2011\u2013", "-"))


def normalise(text: str) -> str:
    """The text as alias patterns see it: lower-cased, with U+2010, U+2011 and U+2013 as "-".

    It has the same length as ``text``, so a match's positions are positions in
    ``text`` too. ``str.lower`` keeps the length except for "İ" (it becomes "i"
    plus a combining dot); then the text is lower-cased character by character
    and such a character is kept as it is (so it never matches an alias's "i").
    Lower-casing never changes whether a character is a word character or a
    space, so words split the same way in both.
    """
    lowered = text.lower()
    if len(lowered) != len(text):
        lowered = "".join(low if len(low := c.lower()) == 1 else c for c in text)
    return lowered.translate(_HYPHENS)


def _last_word(word: str) -> str:
    """Regex for the final (lower-case) word of an alias, singular or plural."""
    if len(word) > 2 and word[-1] == "y" and word[-2] not in "aeiou":
        return re.escape(word[:-1]) + r"(?:y|ies)"
    return re.escape(word) + r"(?:s|es)?"


def term_regex(term: str, acronym: bool = False) -> str:
    """The regex source for one alias or acronym, compiled without flags.

    An acronym's pattern matches the original text; an alias's pattern is
    lower-case and matches ``normalise(text)``.
    """
    if acronym:
        return r"(?<!\w)" + re.escape(term) + r"s?(?!\w)"
    pieces = re.split(r"([-\s]+)", normalise(term.strip()))
    words, seps = pieces[0::2], pieces[1::2]
    out = []
    for i, word in enumerate(words):
        out.append(_last_word(word) if i == len(words) - 1 else re.escape(word))
        if i < len(seps):
            out.append(_OPTIONAL_GAP if "-" in seps[i] else _GAP)
    # Not right after "word-": in "inter-datacenter networks" the phrase
    # "datacenter networks" is part of a compound about something else.
    return r"(?<!\w)(?<!\w-)" + "".join(out) + r"(?!\w)"


@lru_cache(maxsize=16384)
def _compile_term(term: str, acronym: bool) -> re.Pattern:
    # A pure function of one term (no build state, see caches.py): the same
    # term compiles to the same pattern in every build and every taxonomy.
    # Always called as (term, acronym), positionally: lru_cache keys f(x),
    # f(x, False) and f(x, acronym=False) apart, and the Tagger relies on
    # hitting the patterns the taxonomy check compiled.
    return re.compile(term_regex(term, acronym))


class Hit(NamedTuple):
    """One match of an alias or acronym: a span of the original text."""

    start: int
    end: int
    acronym: bool


def find_term(term: str, text: str, acronym: bool = False) -> Hit | None:
    """The first match of one alias or acronym in ``text``, by the tagger's rules.

    The taxonomy checks every alias and acronym against its examples and
    counterexamples with this, so a term accepted there matches the same
    texts when tagging (the tagger uses the same patterns on the same
    normalised text, only through its index).
    """
    m = _compile_term(term, acronym).search(text if acronym else normalise(text))
    return Hit(m.start(), m.end(), acronym) if m else None


def _alias_keys(alias: str) -> set[str]:
    """Lower-case words that a text token can be where this alias starts.

    A dropped hyphen glues the first words together ("codesign"), so each
    glued prefix is a key too, and every key also stands for its plurals.
    """
    parts = re.split(r"(\s+|-)", normalise(alias.strip()))
    words, seps = parts[0::2], parts[1::2]
    keys, glued, whole = {words[0]}, words[0], len(words) == 1
    for i, (word, sep) in enumerate(zip(words[1:], seps)):
        if sep != "-":
            break
        glued += word
        keys.add(glued)
        whole = i == len(seps) - 1
    keys = {m.group(0) for k in keys if (m := _WORD.match(k))}
    if whole and re.fullmatch(r"\w+", glued):    # the whole alias can be one token, so it can be plural
        keys |= {glued + "s", glued + "es"}
        if len(glued) > 2 and glued.endswith("y") and glued[-2] not in "aeiou":
            keys.add(glued[:-1] + "ies")
    return keys


@lru_cache(maxsize=4096)
def _token_pattern(token: str) -> re.Pattern:
    """A whole-word pattern for one token; cached as a pure function of it."""
    return re.compile(r"(?<!\w)" + re.escape(token) + r"(?!\w)")


# Sentence splitting -------------------------------------------------------

_ABBREVIATIONS = frozenset(
    "e.g i.e et al vs cf fig figs eq eqs sec secs no nos approx resp ref refs "
    "dr mr ms prof inc ltd jr sr st vol pp ca ch tab alg def thm "
    "jan feb mar apr jun jul aug sep sept oct nov dec".split()
)
# A stop (with closing quotes/brackets) followed by whitespace and something
# that can start a sentence; or glued to a capitalised word ("GPUs.In DDT"),
# which real listings contain.
_BOUNDARY = re.compile(r"[.!?](?:[\"'\u201d\u2019)\]]*(?=\s+[^\sa-z])|(?=[A-Z][a-z]))")
_WORD_BEFORE_STOP = re.compile(r"([A-Za-z](?:\.?[A-Za-z])*)$")


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence, ignoring abbreviations and decimals.

    Decimals ("3.9x") never split because a split needs whitespace or a
    capitalised word after the stop; "e.g.", "et al.", "vs.", "Fig. 3" and
    initials ("T. S. Ng") never split because the word before the stop is checked.
    """
    spans, start = [], 0
    for m in _BOUNDARY.finditer(text):
        stop = m.start()
        glued = stop + 1 < len(text) and not text[stop + 1].isspace() and text[stop + 1] not in "\"'\u201d\u2019)]"
        if glued and not (stop >= 2 and text[stop - 2].isalpha() and text[stop - 1].islower()):
            continue
        if text[stop] == ".":
            before = _WORD_BEFORE_STOP.search(text, max(start, stop - 12), stop)
            if before and (before.group(1).lower() in _ABBREVIATIONS
                           or len(before.group(1)) == 1 and before.group(1).isupper()):
                continue
        if text[start:m.end()].strip():
            spans.append((start, m.end()))
        start = m.end()
    if text[start:].strip():
        spans.append((start, len(text)))
    return spans


def split_sentences(text: str) -> list[str]:
    return [" ".join(text[a:b].split()) for a, b in sentence_spans(text)]


class _Sentences:
    """A text's sentences, looked up by character position."""

    def __init__(self, text: str):
        self.text = text
        self.spans = sentence_spans(text) or [(0, len(text))]
        self.starts = [a for a, _ in self.spans]
        self._own: dict[int, bool] = {}     # sentence index -> states the paper's contribution
        self._clean: dict[int, str] = {}
        self._cues: dict[int, tuple[bool, bool]] = {}

    def index(self, pos: int) -> int:
        return max(bisect.bisect_right(self.starts, pos) - 1, 0)

    def at(self, pos: int) -> str:
        return self.clean(self.index(pos))

    def clean(self, i: int) -> str:
        """Sentence ``i`` with its whitespace tidied; cached (counting mentions and cutting evidence both ask)."""
        clean = self._clean.get(i)
        if clean is None:
            a, b = self.spans[i]
            clean = self._clean[i] = " ".join(self.text[a:b].split())
        return clean

    def cues(self, i: int) -> tuple[bool, bool]:
        """``_sentence_cues`` of sentence ``i``; cached (several techniques may be named only there)."""
        cues = self._cues.get(i)
        if cues is None:
            a, b = self.spans[i]
            cues = self._cues[i] = _sentence_cues(self.text[a:b], own=self.states_contribution(i))
        return cues

    def states_contribution(self, i: int) -> bool:
        """Whether sentence ``i`` states the paper's own contribution ("we propose ..."); cached per sentence."""
        own = self._own.get(i)
        if own is None:
            a, b = self.spans[i]
            own = self._own[i] = _states_contribution(_LOWER_WORDS.findall(self.text[a:b].lower()))
        return own


# Matching with its sense --------------------------------------------------

# How many words on each side of a match count as "near" it, for context words
# and excluded phrases. Ten words is about a clause: enough to reach "4-bit
# quantization of the weights", short enough that the "model" of a music paper's
# next sentence is not taken for the context of its "quantization".
CONTEXT_WINDOW = 10


class _Words:
    """A (normalised) text's words with their spans, for windows around a match."""

    def __init__(self, normalised: str):
        self.spans = [m.span() for m in _WORD.finditer(normalised)]
        self.starts = [a for a, _ in self.spans]
        self.words = [normalised[a:b] for a, b in self.spans]

    def window(self, start: int, end: int) -> tuple[int, int]:
        """Word indices [lo, hi) of the match plus ``CONTEXT_WINDOW`` words either side."""
        first = max(bisect.bisect_right(self.starts, start) - 1, 0)
        after = bisect.bisect_left(self.starts, end)
        return max(first - CONTEXT_WINDOW, 0), min(after + CONTEXT_WINDOW, len(self.words))


class Sense:
    """When a match of a technique's alias means that technique.

    ``context``: lower-case words one of which must occur near the match
    ("quantization" needs model, weights, bits, precision, inference, ...);
    plurals count. ``context_terms``: the aliases and acronyms that need
    context (``None``: all of them). ``exclude``: phrases, matched like
    aliases, that near a match mean another sense ("replica exchange"). A
    title match may find its context words anywhere in the abstract: the title
    names the topic, the abstract says which sense it is.
    """

    def __init__(self, context=(), context_terms=None, exclude=()):
        self.context = frozenset(f for w in context for f in (w.lower(), w.lower() + "s", w.lower() + "es"))
        self.context_terms = None if context_terms is None else \
            [(_compile_term(t, a), a) for t, a in context_terms]
        self.exclude = [_compile_term(x, False) for x in exclude]

    @classmethod
    def of(cls, technique) -> "Sense | None":
        """The technique's rules, or None when it has none."""
        if not technique.context and not technique.exclude:
            return None
        acronyms = set(technique.acronyms)
        terms = [(t, t in acronyms) for t in technique.context_terms] if technique.context_terms else None
        return cls(technique.context, terms, technique.exclude)

    def _needs_context(self, text: str, normalised: str, start: int) -> bool:
        if not self.context:
            return False
        if self.context_terms is None:
            return True
        return any(p.match(text if acronym else normalised, start) for p, acronym in self.context_terms)

    def accepts(self, text: str, normalised: str, words: _Words, start: int, end: int,
                elsewhere: frozenset | set = frozenset()) -> bool:
        """Whether the match at [start, end) has its sense; ``elsewhere``: extra context words (a title's abstract)."""
        lo, hi = words.window(start, end)
        if self.exclude and hi > lo:
            a, b = words.spans[lo][0], words.spans[hi - 1][1]
            if any(p.search(normalised, a, b) for p in self.exclude):
                return False
        if self._needs_context(text, normalised, start):
            if not self.context.intersection(words.words[lo:hi]) and not self.context.intersection(elsewhere):
                return False
        return True


def sense_matches(sense: Sense | None, terms: list[tuple[str, bool]], text: str) -> list[Hit]:
    """Every match of ``terms`` (alias or acronym, flag) in ``text`` that keeps its sense.

    The taxonomy check uses this on examples (each term must have one) and
    counterexamples (none may have any), with the tagger's own patterns and rules.
    """
    normalised = normalise(text)
    words = _Words(normalised) if sense else None
    hits = []
    for term, acronym in terms:
        for m in _compile_term(term, acronym).finditer(text if acronym else normalised):
            if sense is None or sense.accepts(text, normalised, words, m.start(), m.end()):
                hits.append(Hit(m.start(), m.end(), acronym))
    return hits


# Incidental mentions -------------------------------------------------------

# A technique named in one sentence only, when that sentence reports results,
# describes the implementation or earlier work, or sets the scene, is nearly
# always a workload, a baseline or background ("speeds up training of a
# mixture-of-experts model by 17%"), not what the paper is about. The cues are
# checked on the sentence's words (sets, not regex alternations: this runs
# for every single mention of every paper).
_NUMBER_RESULT = re.compile(r"\d\s*(?:x\b|×|%|\\%|\$?\\times)")
_LOWER_WORDS = re.compile(r"[a-z]+")
_RESULT_WORDS = frozenset(
    "evaluation evaluations evaluated experiment experiments experimental baseline baselines "
    "implement implemented prototype prototyped outperform outperforms outperformed outperforming".split())
_RESULT_PAIRS = frozenset(tuple(p.split()) for p in (
    "compared to", "compared with", "we show", "results show", "we compare", "we evaluate", "case study",
    "case studies", "our implementation", "our prototype"))
_EARLIER = frozenset("prior previous existing recent earlier traditional conventional".split())
_EARLIER_NOUNS = frozenset("work works research studies approaches methods systems solutions efforts engines "
                           "frameworks tools".split())
_STUDIED = frozenset("proposed studied explored focused".split())
_SCENE_OPENERS = frozenset("rise growth advent emergence proliferation popularity".split())
_OWN_VERBS = frozenset("propose present introduce design develop build".split())


def _positions(words: list[str], word: str) -> list[int]:
    """Indices of ``word`` in ``words``, found with C-level ``list.index`` (most sentences have none)."""
    out, i = [], -1
    try:
        while True:
            i = words.index(word, i + 1)
            out.append(i)
    except ValueError:
        return out


def _states_contribution(words: list[str]) -> bool:
    """Whether a sentence's (lower-case) words say "we propose/present/...", or "this paper/work"."""
    n = len(words)
    return any(i + 1 < n and (words[i + 1] in _OWN_VERBS or i + 2 < n and words[i + 2] in _OWN_VERBS)
               for i in _positions(words, "we")) \
        or any(i + 1 < n and words[i + 1] in ("paper", "work") for i in _positions(words, "this"))


def _sentence_cues(sentence: str, own: bool | None = None) -> tuple[bool, bool]:
    """(states the paper's own contribution, reports results or background).

    ``own``: the first, when already known. Each scan first asks, in C,
    whether its trigger word occurs at all.
    """
    words = _LOWER_WORDS.findall(sentence.lower())
    if own if own is not None else _states_contribution(words):
        return True, False
    pairs = set(zip(words, words[1:]))
    other = bool(
        _NUMBER_RESULT.search(sentence) or _RESULT_WORDS.intersection(words) or _RESULT_PAIRS & pairs
        or " challeng" in " " + " ".join(words)
        or _EARLIER.intersection(words) and any(_EARLIER_NOUNS.intersection(words[i + 1:i + 4])
                                                for w in _EARLIER.intersection(words) for i in _positions(words, w))
        or "been" in words and any(words[i - 1] in ("has", "have") and _STUDIED.intersection(words[i + 1:i + 3])
                                   for i in _positions(words, "been") if i >= 1)
        or ("long", "line") in pairs
        or words[:1] == ["as"] or words[:2] in (["for", "example"], ["for", "instance"])
        or words[:2] == ["with", "the"] and words[2:3] and words[2] in _SCENE_OPENERS
    )
    return False, other


def incidental(sentence: str, offset: int, cues: tuple[bool, bool] | None = None) -> bool:
    """Whether a mention at ``offset`` in ``sentence`` is incidental.

    It is when the sentence reports results, the implementation or earlier
    work, or sets the scene (and does not state the paper's own contribution),
    or when the mention sits in an "(e.g., ...)" aside or is one item of a
    list of examples ("such as GPUs, TPUs, FPGAs, and ASICs").
    """
    own, other = cues if cues is not None else _sentence_cues(sentence)
    if own:
        return False
    if other:
        return True
    opening = sentence.rfind("(", 0, offset)
    if opening >= 0 and ")" not in sentence[opening:offset] \
            and sentence[opening + 1:offset].lstrip().startswith("e.g."):
        return True
    return _in_example_list(sentence, offset)


# "such as GPUs, TPUs, FPGAs, and ASICs": a mention that is one item of a list
# of examples names one workload or platform among several, not the topic. A
# list needs two commas; it ends a few words after its last comma, since the
# clause goes on after the last item ("..., and ASICs have been deployed to X").
_EXAMPLE_LIST = re.compile(r"\b(?:such as|e\.g\.,?|including|like)\s+([^.;:()]*)", re.IGNORECASE)
_LAST_ITEM = re.compile(r",\s*(?:and\s+|or\s+)?(?:\S+\s*){1,3}")


def _in_example_list(sentence: str, offset: int) -> bool:
    for m in _EXAMPLE_LIST.finditer(sentence):
        start, end = m.span(1)
        if not start <= offset < end:
            continue
        last_comma = sentence.rfind(",", start, end)
        if sentence.count(",", start, end) < 2:
            return False
        last = _LAST_ITEM.match(sentence, last_comma, end)
        return offset < (last.end() if last else end)
    return False


_DEFINES_ACRONYM = re.compile(r"\s*\(([A-Z][A-Za-z0-9]*[A-Z0-9])s?\)")


def _mention_positions(text: str, spans: list[tuple[int, int]]) -> list[int]:
    """Starts of a technique's matches plus later uses of an acronym the text defines for it.

    "gradient compression (GC)" followed by five uses of "GC" is a paper about
    gradient compression, even though the phrase itself occurs once.
    """
    positions = [a for a, _ in spans]
    for _, end in spans:
        defined = _DEFINES_ACRONYM.match(text, end)
        if defined:
            uses = _token_pattern(defined.group(1))
            positions.extend(m.start() for m in uses.finditer(text, defined.end()))
    return positions


def _drop_redefined_acronyms(text: str, hits: list[Hit]) -> list[Hit]:
    """Drop acronym matches when the text spells the acronym out as something else.

    "cross-system interaction (CSI)" makes every later "CSI" mean that, not
    channel state information; the acronym counts only if one of this
    technique's own aliases stands right before the "(CSI)".
    """
    alias_ends = {h.end for h in hits if not h.acronym}
    kept = []
    for h in hits:
        if h.acronym:
            word = text[h.start:h.end]
            short = word[:-1] if word.endswith("s") and len(word) > 2 else word
            definitions = [] if "(" + short not in text else \
                [d.start() for d in re.finditer(r"\(" + re.escape(short) + r"s?\)", text)]
            if definitions and not any(text[e:d].strip() == "" for d in definitions for e in alias_ends if e <= d):
                continue
        kept.append(h)
    return kept


def _shouting(text: str) -> bool:
    letters = [c for c in text if c.isalpha()]
    return len(letters) >= 12 and sum(c.isupper() for c in letters) >= 0.8 * len(letters)


# Strength -------------------------------------------------------------------

# An abstract tag is strong when the technique is named in at least
# STRONG_SENTENCES different sentences, or in a sentence that states the
# paper's own contribution ("we propose X", "this paper presents X"); a title
# tag is always strong. On the 618 tuning papers, abstract tags named in two
# sentences neither of which states the contribution were right 39% of the time
# (as often as single mentions), while single mentions in a contribution
# sentence were right 68%, and three or more sentences 72-90%.
STRONG_SENTENCES = 3


# Candidates and the rules' verdict ------------------------------------------

class Candidate:
    """What the phrase rules found for one technique in one paper.

    ``title`` / ``abstract``: the first match with its sense there, or None
    (the evidence sentence is cut only for the tags kept: ``Found.tags``);
    ``named_in``: how many different abstract sentences name it (an acronym
    it defines counts), ``named`` their indices; ``contribution``: one of
    them states the paper's contribution; ``incidental``: named in one
    sentence only, and the incidental rule fired on it. The rules' verdict
    (``rule_verdicts``) and the ranker's features (``build_graph/ranker.py``)
    are both read from here.
    """

    __slots__ = ("rank", "require_strong", "title", "abstract", "named_in", "named", "contribution", "incidental")

    def __init__(self, rank: int, require_strong: bool = False):
        self.rank = rank
        self.require_strong = require_strong
        self.title: Hit | None = None
        self.abstract: Hit | None = None
        self.named_in = 0
        self.named: set[int] = set()
        self.contribution = False
        self.incidental = False

    def rule_strength(self) -> str | None:
        """The phrase rules' verdict on this technique alone: "strong", "weak", "held" or None (not tagged)."""
        if self.title is not None:
            return "strong"
        if self.named_in == 1 and self.incidental:
            return None
        if self.named_in == 1 and self.require_strong:
            return "held"
        return "strong" if self.named_in >= STRONG_SENTENCES or self.contribution else "weak"


class Found:
    """A paper's candidates by technique rank, its text, and its title's and abstract's sentences.

    ``sentences`` (the abstract's) is None when no technique matched in the
    abstract (the split is only made where it is needed); ``sentence_count``
    makes it then.
    """

    __slots__ = ("title", "abstract", "candidates", "sentences", "title_sentences", "words")

    def __init__(self, title: str, abstract: str):
        self.title = title
        self.abstract = abstract
        self.candidates: dict[int, Candidate] = {}
        self.sentences: _Sentences | None = None
        self.title_sentences: _Sentences | None = None
        # The words of the title (twice) and the abstract, as matching split them: the ranker's text.
        self.words: list[str] = []

    def sentence_count(self) -> int:
        if self.sentences is None:
            return len(sentence_spans(self.abstract)) if self.abstract.strip() else 0
        return len(self.sentences.spans)

    def evidence(self, candidate: Candidate) -> tuple[str, str, str]:
        """(field, sentence, matched text) of a candidate's first match, title first.

        Cut from the original text, not the normalised copy: "Mixture-Of-Experts" keeps its capitals.
        """
        if candidate.title is not None:
            field, hit, sentences = "title", candidate.title, self.title_sentences
        else:
            field, hit, sentences = "abstract", candidate.abstract, self.sentences
        return field, sentences.at(hit.start), sentences.text[hit.start:hit.end]

    def tags(self, chosen: dict[int, str], covered_by: dict[int, frozenset[int]],
             order: list[str]) -> list[TechniqueTag]:
        """Tags of the ``chosen`` ranks (rank -> strength) in taxonomy order, evidence from the title first.

        A technique is left out when a more specific technique that covers
        it (``covered_by``) is chosen too.
        """
        out = []
        for rank, strength in sorted(chosen.items()):
            if rank in covered_by and covered_by[rank].intersection(chosen):
                continue
            field, evidence, matched = self.evidence(self.candidates[rank])
            out.append(TechniqueTag(technique=order[rank], evidence=evidence, field=field, matched=matched,
                                    strength=strength))
        return out


def rule_verdicts(found: Found) -> dict[int, str]:
    """The phrase rules' tags (rank -> strength).

    ``require_strong`` techniques named in a single abstract sentence are
    held back; they are tagged (weak) only when the paper would otherwise
    have no technique at all, which is better than nothing.
    """
    chosen, held = {}, {}
    for rank, candidate in found.candidates.items():
        strength = candidate.rule_strength()
        if strength == "held":
            held[rank] = "weak"
        elif strength is not None:
            chosen[rank] = strength
    return chosen or held


# The tagger -----------------------------------------------------------------

class _PackagedModel:
    """``Tagger(model=PACKAGED_MODEL)``, the default: the ranker trained by ``train-tagger``
    (``build_graph/data/tagger_model.json``); ``model=None``: the phrase rules alone."""

    def __repr__(self) -> str:
        return "PACKAGED_MODEL"


PACKAGED_MODEL = _PackagedModel()

Entry = tuple[int, re.Pattern]          # (technique rank, compiled alias or acronym)
Group = tuple[re.Pattern, list[Entry]]   # all entries under one index key, plus their union


def _group(entries: list[Entry]) -> Group:
    # The union fails fast in C at the many positions where none of several
    # aliases matches; a lone alias is its own union.
    if len(entries) == 1:
        return entries[0][1], entries
    union = re.compile("|".join(f"(?:{p.pattern})" for _, p in entries))
    return union, entries


def _groups(index: dict[str, list[Entry]]) -> dict[str, Group]:
    # A key's plural and glued forms carry the same entries: compile each union once.
    built: dict[tuple, Group] = {}
    out = {}
    for key, entries in index.items():
        signature = tuple((rank, p.pattern) for rank, p in entries)
        if signature not in built:
            built[signature] = _group(entries)
        out[key] = built[signature]
    return out


class Tagger:
    """Compiled taxonomy patterns and the ranker bound to them; build once, call ``tag`` per paper.

    ``model``: the packaged ranker (default), a ``RankerModel``, or None for
    the phrase rules alone.
    """

    def __init__(self, taxonomy: Taxonomy, skip_incidental: bool = True, model=PACKAGED_MODEL):
        self.taxonomy = taxonomy
        self.skip_incidental = skip_incidental
        self.order: list[str] = [t.id for t in taxonomy.techniques.values() if not t.is_area]
        self.senses: dict[int, Sense] = {rank: sense for rank, tid in enumerate(self.order)
                                         if (sense := Sense.of(taxonomy.techniques[tid])) is not None}
        # Techniques that a single abstract sentence never tags: for model families and
        # learning methods one mention is nearly always the workload or background.
        self.require_strong = frozenset(rank for rank, tid in enumerate(self.order)
                                        if taxonomy.techniques[tid].require_strong)
        rank_of = {tid: rank for rank, tid in enumerate(self.order)}
        # rank -> ranks of the more specific techniques that make it redundant ("LLM serving" says "LLM").
        self.covered_by: dict[int, frozenset[int]] = {
            rank_of[tid]: frozenset(rank_of[c] for c in taxonomy.techniques[tid].covered_by if c in rank_of)
            for tid in self.order if taxonomy.techniques[tid].covered_by}
        aliases: dict[str, list[Entry]] = {}
        acronyms: dict[str, list[Entry]] = {}
        for rank, tid in enumerate(self.order):
            tech = taxonomy.techniques[tid]
            for alias in tech.aliases:
                pattern = _compile_term(alias, False)
                for key in _alias_keys(alias):
                    aliases.setdefault(key, []).append((rank, pattern))
            for acronym in tech.acronyms:
                key = _WORD.match(acronym)
                if key:
                    pattern = _compile_term(acronym, True)
                    for form in (key.group(0), key.group(0) + "s"):
                        acronyms.setdefault(form, []).append((rank, pattern))
        # Alias keys are words of the normalised text, acronym keys words of the original.
        self._alias_index = _groups(aliases)
        self._acronym_index = _groups(acronyms)
        # The ranker (build_graph/ranker.py) decides among the candidates; None: the phrase rules do.
        # Imported here: the ranker needs this module's Found and Candidate.
        from .ranker import Ranker, load_ranker
        self.ranker = load_ranker(self) if model is PACKAGED_MODEL else None if model is None else Ranker(model, self)

    def _candidates(self, text: str, normalised: str, acronyms: bool,
                    words: list[str] | None = None) -> list[tuple[int, Group | None, Group | None]]:
        """(position, alias group, acronym group) for every word that some pattern starts with, in order.

        Splitting, offset sums and key look-ups all run in C (``map``/``compress``);
        Python only touches the few words that are keys. ``normalise`` keeps
        positions and word boundaries, so both texts split into the same words.
        """
        parts = _SPLIT_WORDS.split(normalised)         # [gap, word, gap, word, ..., gap]
        lowered = parts[1::2]
        if words is not None:
            words += lowered
        aliases, acronyms_ = self._alias_index, self._acronym_index
        hits = set(compress(range(len(lowered)), map(aliases.__contains__, lowered)))
        if acronyms:
            words = _SPLIT_WORDS.split(text)[1::2]
            hits.update(compress(range(len(words)), map(acronyms_.__contains__, words)))
        if not hits:
            return []
        ends = list(accumulate(map(len, parts)))
        return [(ends[2 * i], aliases.get(lowered[i]), acronyms_.get(words[i]) if acronyms else None)
                for i in sorted(hits)]

    def _matches(self, text: str, skip: dict, acronyms: bool, words: list[str] | None = None,
                 normalised: str | None = None) -> dict[int, list[Hit]]:
        """Every counting match of each technique not in ``skip``, in text order.

        A match inside a longer match of another technique does not count.
        Aliases are matched on ``normalise(text)`` (pass it as ``normalised``
        when already made), acronyms on ``text``; the positions are the same
        in both. ``words``: a list to extend with the text's words.
        """
        normalised = normalise(text) if normalised is None else normalised
        out: dict[int, list[Hit]] = {}
        reach: dict[int, tuple[int, int]] = {}   # technique -> (end, -start) of its furthest match so far
        for start, alias_group, acronym_group in self._candidates(text, normalised, acronyms, words):
            hits = []
            if alias_group and alias_group[0].match(normalised, start):
                hits += [(rank, Hit(start, m.end(), False)) for rank, pattern in alias_group[1]
                         if (m := pattern.match(normalised, start))]
            if acronym_group and acronym_group[0].match(text, start):
                hits += [(rank, Hit(start, m.end(), True)) for rank, pattern in acronym_group[1]
                         if (m := pattern.match(text, start))]
            if not hits:
                continue
            for rank, h in hits:
                reach[rank] = max(reach.get(rank, (0, 0)), (h.end, -h.start))
            for rank, h in hits:
                if rank in skip:
                    continue
                # Earlier matches start at or before this one, so one contains
                # this if it ends later, or ends here but began earlier.
                mine = (h.end, -h.start)
                if not any(other != rank and far > mine for other, far in reach.items()):
                    out.setdefault(rank, []).append(h)
        return out

    def tag(self, title: str | None, abstract: str) -> list[TechniqueTag]:
        """One tag per technique, title evidence first, in taxonomy order.

        With a ranker (``build_graph/ranker.py``), the ranker decides which
        candidates are tagged and how strongly; without one, or for a
        technique the ranker was not trained on, the phrase rules do:
        a technique named in the title, in ``STRONG_SENTENCES`` or more
        different sentences of the abstract, or in a sentence that states
        the paper's contribution is ``strong``; one named only in passing
        (one or two sentences that set the scene or describe parts) is
        ``weak``.
        """
        return self.tag_many([(title, abstract)])[0]

    def tag_many(self, texts: list[tuple[str | None, str]]) -> list[list[TechniqueTag]]:
        """``tag`` of many (title, abstract) pairs, the ranker deciding for all of them at once
        (its numpy calls then cost per batch, not per paper); the same tags as ``tag`` one by one."""
        founds = [self.candidates(title, abstract) for title, abstract in texts]
        ranked = [f for f in founds if f.candidates]
        if self.ranker is not None:
            decisions = dict(zip(map(id, ranked), self.ranker.choose_many(ranked)))
        else:
            decisions = {id(f): rule_verdicts(f) for f in ranked}
        return [f.tags(decisions[id(f)], self.covered_by, self.order) if f.candidates else [] for f in founds]

    def candidates(self, title: str | None, abstract: str) -> "Found":
        """Every technique the phrase rules match with its sense, with what the rules and the ranker need.

        Unlike the rules' verdict this keeps the single mentions the
        incidental and ``require_strong`` rules drop, and counts abstract
        sentences for techniques the title already names; a match without
        its sense (context words, exclusions) is never a candidate: those
        rules are the taxonomy's word on what a phrase means.
        """
        abstract = abstract or ""
        title_text = title or ""
        found = Found(title_text, abstract)
        for field, text in (("title", title_text), ("abstract", abstract)):
            if not text.strip():
                continue
            start = len(found.words)
            normalised = normalise(text)
            matches = self._matches(text, {}, acronyms=not (field == "title" and _shouting(text)),
                                    words=found.words, normalised=normalised)
            if field == "title":
                found.words += found.words[start:]       # the title counts twice
            if not matches:
                continue
            sentences = _Sentences(text)
            if field == "abstract":
                found.sentences = sentences
            else:
                found.title_sentences = sentences
            sensed = None
            for rank, hits in matches.items():
                hits = _drop_redefined_acronyms(text, hits)
                sense = self.senses.get(rank)
                if sense and hits:
                    if sensed is None:
                        elsewhere = set(_WORD.findall(normalise(abstract))) if field == "title" else frozenset()
                        sensed = (_Words(normalised), elsewhere)
                    hits = [h for h in hits if sense.accepts(text, normalised, sensed[0], h.start, h.end, sensed[1])]
                if not hits:
                    continue
                candidate = found.candidates.get(rank)
                if candidate is None:
                    candidate = found.candidates[rank] = Candidate(rank, rank in self.require_strong)
                if field == "title":
                    candidate.title = hits[0]
                    continue
                named_in, named = self._mentions(sentences, hits)
                candidate.abstract = hits[0]
                candidate.named_in = named_in
                candidate.named = named
                candidate.contribution = any(map(sentences.states_contribution, named))
                if named_in == 1:
                    candidate.incidental = self._incidental(sentences, hits)
        if not self.skip_incidental:
            for candidate in found.candidates.values():
                candidate.incidental = False
        return found

    @staticmethod
    def _mentions(sentences: _Sentences, hits: list[Hit]) -> tuple[int, set[int]]:
        """(how many different sentences name the technique, their indices); an acronym it defines counts."""
        named = {sentences.index(p) for p in _mention_positions(sentences.text, [(h.start, h.end) for h in hits])}
        # Distinct by text, not index: some listings repeat a sentence verbatim.
        return len({sentences.clean(i) for i in named}), named

    @staticmethod
    def _incidental(sentences: _Sentences, hits: list[Hit]) -> bool:
        """Whether the (single-sentence) mention is incidental."""
        i = sentences.index(hits[0].start)
        a, b = sentences.spans[i]
        return incidental(sentences.text[a:b], hits[0].start - a, sentences.cues(i))

    def matched_spans(self, text: str) -> list[tuple[int, int]]:
        """Character spans of every alias or acronym match in ``text``, before any filtering."""
        return [(h.start, h.end) for hits in self._matches(text, {}, acronyms=True).values() for h in hits]

    def matches_any(self, text: str) -> bool:
        """Whether any technique pattern matches ``text`` (used by ``suggest``)."""
        return bool(self._matches(text, {}, acronyms=True))
