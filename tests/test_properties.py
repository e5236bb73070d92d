"""Property-based tests (hypothesis) for hostile input: issue 7.

* the sniffer, every parser in ``FORMATS`` and the structured-YAML reader
  never raise anything but ``AtlasError`` on arbitrary text, whether fully
  random Unicode or a random mixture of real-format line shapes;
* ``decode_listing`` raises only ``EncodingError`` on arbitrary bytes;
* name normalisation is idempotent and blind to composed/decomposed accents;
* slugs are always ``[a-z0-9-]``, at most 80 characters, never empty, ``.``,
  ``..`` or a reserved device name, and distinct keys get distinct slugs;
* an entry rendered back into its format parses to the same fields.

Every test is derandomized and database-less, so CI runs the same examples
every time, and bounded (``max_examples`` <= 200) so the file runs in seconds.
"""

from __future__ import annotations

import datetime as dt
import functools
import json
import re
import unicodedata
import warnings

import pytest
import yaml

# Hypothesis reports a failure through ``hypothesis.extra._patching``, which imports libcst,
# which warns (DeprecationWarning from mypy_extensions). With ``filterwarnings = error`` that
# turns every failing property into a pytest INTERNALERROR that hides the failing example,
# so import it here, once, with that warning silenced.
with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    try:
        import hypothesis.extra._patching  # noqa: F401
    except ImportError:                                # pragma: no cover - libcst not installed
        pass

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from build_graph.errors import AtlasError, EncodingError
from build_graph.normalize.names import clean_spacing, name_key, proper_case
from build_graph.normalize.slugs import MAX_LENGTH, stable_slug, title_key
from build_graph.sources import (FORMATS, arxiv_listing, author_profile, bare_abstracts, detect,
                                 papers_cool, parse_text, session_schedule)
from build_graph.sources import structured
from build_graph.sources.text import decode_listing

try:
    from build_graph.sources import jsonl_corpus
except ImportError:                                   # pragma: no cover - another engineer's format
    jsonl_corpus = None


def bounded(n: int = 150):
    return settings(max_examples=n, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.filter_too_much])


SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
RESERVED = {"con", "prn", "aux", "nul", "index", "assets", "search", *(f"com{i}" for i in range(10)),
            *(f"lpt{i}" for i in range(10))}

# --- strategies: hostile text ------------------------------------------------------

ANY_TEXT = st.text(max_size=400)            # all of Unicode, surrogates excluded by hypothesis
SMALL = st.text(max_size=40)
DIGITS = st.text(alphabet="0123456789", min_size=1, max_size=6)
UNICODE_DIGITS = st.text(alphabet="0123456789٠١٢٣٤٥٦٧٨٩²³¹₀०", min_size=1, max_size=5)
_DAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun", "Tuesday", "Xyz"]
_MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
           "August", "Foo"]


def _line_shapes() -> st.SearchStrategy[str]:
    """One line of something that looks, more or less, like a real listing."""
    sep = st.sampled_from(["", " ", "  ", "\t", "\u00a0"])
    return st.one_of(
        SMALL,
        st.just(""),
        st.builds(lambda s, t: f"Abstract:{s}{t}", sep, SMALL),
        st.just("Abstract:"),
        st.builds(lambda d, v: f"arXiv:{d}{v}", st.sampled_from(["2210.10246", "2301.12030v2",
                                                                 "cs.LG/0101001", "9999.99999"]),
                  st.sampled_from(["", " - doi: 10.1145/3575693.3575704 Proceedings of",
                                   " - doi:", " - doi: x."])),
        st.builds(lambda d, s: "arXiv:" + d + s, UNICODE_DIGITS, SMALL),
        st.builds(lambda y, m, d: f"Created: {y}-{m}-{d}", UNICODE_DIGITS, UNICODE_DIGITS,
                  UNICODE_DIGITS),
        st.sampled_from(["Created: 2022-10-18", "Created: 2022-13-45", "Created: 0000-00-00",
                         "Created: 2022-02-30"]),
        st.builds(lambda n, t, b: f"#{n} {t} {b}", st.one_of(DIGITS, UNICODE_DIGITS,
                                                             st.just("9" * 5000)),
                  SMALL, st.sampled_from(["[PDF] [Copy] [Kimi] [REL]", "[PDF3] [Copy] [Kimi9] [REL]",
                                          "[PDF]", "[REL]", "[pdf12]", ""])),
        st.just("#3 x [PDF] [Copy] [Kimi] [REL]"),
        st.builds(lambda s, names: "Authors:" + s + ", ".join(names), sep, st.lists(SMALL, max_size=4)),
        st.sampled_from(["Authors:", "Author: Solo Person", "Authors: ,,,", "MLSYS.2023",
                         "ICML.2024", "| Total: 46", "| Total: " + "9" * 5000, "| Total: 0"]),
        st.builds(lambda d, n, m, dot, h1, h2, z: f"{d} {n} {m}{dot} {h1} - {h2}{z}",
                  st.sampled_from(_DAYS), UNICODE_DIGITS, st.sampled_from(_MONTHS),
                  st.sampled_from(["", ".", ".,", ","]),
                  st.sampled_from(["14:15", "2:15 p.m.", "99:99", "1:00am"]),
                  st.sampled_from(["14:33", "3:30 p.m.", "00:00"]),
                  st.sampled_from(["", " PDT", " UTC", " X"])),
        st.just("Tue 30 Aug. 14:15 - 14:33 PDT"),
        st.builds(" · ".join, st.lists(SMALL, min_size=1, max_size=4)),
        st.just("·"),
        st.sampled_from(["Chat is not available.", "Moderator: Yingyan Lin", "Session chair: X",
                         "Exhibit Hall A"]),
        st.builds(lambda c, m, d, y, code: f"{c}{m} {d}, {y}{code}",
                  st.sampled_from(["LG", "CR", "DC", "xx", "L"]), st.sampled_from(_MONTHS),
                  UNICODE_DIGITS, UNICODE_DIGITS, st.sampled_from(["", "Code"])),
        st.sampled_from(["LGNov 6, 2019Code", "CRJun 19, 2023", "LGFeb 30, 2019"]),
        st.builds(lambda t: t + "John Smith, Jane Doe et al.", SMALL),
        st.builds(json.dumps, st.fixed_dictionaries(
            {"title": st.one_of(SMALL, st.none(), st.integers()),
             "abstract": st.one_of(SMALL, st.none(), st.lists(SMALL, max_size=2))},
            optional={"authors": st.one_of(SMALL, st.lists(st.one_of(SMALL, st.integers(),
                                                                    st.none()), max_size=3)),
                      "year": st.one_of(st.integers(), UNICODE_DIGITS, st.just("2" * 5000),
                                        st.floats(allow_nan=True)),
                      "date": st.one_of(SMALL, st.sampled_from(["2022-02-30", "2022-08-30"])),
                      "venue": st.one_of(SMALL, st.integers()),
                      "link": st.one_of(SMALL, st.just("https://x.org/a"))})),
        st.sampled_from(['{"title": "a", "abstract": "b"}', "{", "[" * 3000 + "]" * 3000,
                         '{"title": "a", "abstract": ' + "[" * 3000 + "]" * 3000 + "}", "null"]),
    )


LINE_ENDINGS = st.sampled_from(["\n", "\n", "\n\n", "\r\n", "\r"])


@st.composite
def format_like_text(draw) -> str:
    lines = draw(st.lists(_line_shapes(), max_size=25))
    out = []
    for line in lines:
        out.append(line)
        out.append(draw(LINE_ENDINGS))
    return "".join(out)


HOSTILE = st.one_of(ANY_TEXT, format_like_text())

# Known past offenders, always tried first (hypothesis ``@example``s).
OFFENDERS = [
    "#" + "1" * 5000 + " Title [PDF]\nAuthors: A B\n",
    "MLSYS.2023\n| Total: " + "9" * 5000 + "\n#1 T [PDF]\nAuthors: A\n",
    '{"title":"a","abstract":"b","x":' + "[" * 100000 + "]" * 100000 + "}\n",
    '{"title":"a","abstract":"b","year":"²"}',
    '{"title":"a","abstract":"b","year":"' + "1" * 5000 + '"}',
    "LGNov ٦, ٢٠١٩\nA Title of ThingsJohn Smith\nabs\n",
    "abs text\narXiv:2210.10246\nCreated: 2022-13-45\n",
    "@article{x, title = {" + "{" * 50000 + "}\n",                         # BibTeX
    "@string{a = b # " + "a # " * 20000 + "}\n@misc{k, title = a}\n",
    "@misc{k, title = {T}, author = {" + ",".join(["A"] * 500) + "}}\n",
    "[" * 100000 + "]" * 100000,                                            # CSL-JSON
    '[{"title": "a", "type": "x", "issued": {"date-parts": [["99999999999999999999", 13, 40]]}}]',
    "# H\n" + "- " * 3000 + "[OSDI'23] [T](https://x.org)\n- [A'23] [U](https://y.org)\n",  # awesome
    "# H\n" + "> " * 3000 + "- [OSDI'23] [T](https://x.org)\n- [A'23] [U](https://y.org)\n",
]


def _only_atlas_errors(call, *args):
    try:
        return call(*args)
    except AtlasError:
        return None


def _with_offenders(test):
    for text in OFFENDERS:
        test = example(text=text)(test)
    return test


# --- the sniffer and every parser ------------------------------------------------------

@bounded(200)
@given(text=HOSTILE)
@_with_offenders
def test_detect_and_parse_text_raise_only_atlas_errors(text):
    try:
        fmt = detect(text, "hostile.txt")
    except AtlasError:
        fmt = None
    else:
        assert fmt in FORMATS
    listing = _only_atlas_errors(parse_text, text, "hostile.txt")
    if listing is not None:
        assert listing.file == "hostile.txt"
        assert listing.detected == len(listing.entries) + len(listing.skipped)


@bounded(200)
@given(text=HOSTILE)
@_with_offenders
def test_every_parser_raises_only_atlas_errors(text):
    """Each parser on its own, even on text its sniffer would refuse."""
    for fmt in FORMATS:
        score = fmt.sniff(text)
        assert isinstance(score, float) and 0.0 <= score <= 1.0, fmt.NAME
        listing = _only_atlas_errors(fmt.parse, text, "hostile.txt")
        if listing is None:
            continue
        assert listing.format == fmt.NAME
        for entry in listing.entries:
            assert entry.source.file == "hostile.txt"
            if entry.date is not None:           # a date a parser reports is a real ISO date
                assert dt.date.fromisoformat(entry.date).isoformat() == entry.date, fmt.NAME
            if entry.year is not None:
                assert isinstance(entry.year, int)


@functools.lru_cache(maxsize=1)
def _stages():
    from build_graph.curation import load_curation
    from build_graph.tagging import Tagger
    from build_graph.taxonomy import load_taxonomy
    curation = load_curation()
    taxonomy = load_taxonomy(curation.taxonomy_file)
    return curation, taxonomy, Tagger(taxonomy)


@bounded(40)
@given(first=format_like_text(), second=format_like_text())
def test_whole_pipeline_on_hostile_listings_raises_only_atlas_errors(first, second):
    """What the parsers let through must not crash normalisation, tagging or the graph."""
    from build_graph.graph import build_graph, export_json
    from build_graph.normalize import normalize
    from build_graph.normalize.dates import years_mentioned
    from build_graph.pipeline import tag_papers
    from build_graph.related import related_papers
    curation, taxonomy, tagger = _stages()
    texts = {"a.txt": first, "b.txt": second}
    listings = [x for x in (_only_atlas_errors(parse_text, t, n) for n, t in texts.items()) if x]
    try:
        corpus = normalize(listings, {}, curation, {n: years_mentioned(t) for n, t in texts.items()})
    except AtlasError:
        return
    assert all(row.balanced for row in corpus.ledger)
    tag_papers(corpus, tagger, taxonomy)
    export_json(build_graph(corpus, taxonomy))
    related_papers(corpus.papers)
    for paper in corpus.papers:
        assert SLUG.match(paper.slug) and len(paper.slug) <= MAX_LENGTH
    for author in corpus.authors.values():
        assert SLUG.match(author.slug) and len(author.slug) <= MAX_LENGTH


def test_huge_numbers_in_a_listing_are_not_a_crash():
    """Python refuses int() of > 4300 digits: a listing must not reach that."""
    for text in OFFENDERS[:2]:
        _only_atlas_errors(parse_text, text, "big.txt")
        _only_atlas_errors(papers_cool.parse, text, "big.txt")


# --- structured YAML entries ---------------------------------------------------------

_YAML_SCALARS = st.one_of(
    SMALL, st.integers(), st.booleans(), st.none(), st.floats(allow_nan=False),
    st.sampled_from(["2022-02-30", "2022-08-30", "!!int " + "1" * 5000, "!!timestamp foo",
                     "!!binary '@@@'", "!!python/object/apply:os.system ['true']", "&a x", "*a",
                     "[" * 2000, "<<: {a: 1}", "? [a]\n: b", "!!set {a, b}", "1" * 5000]))
_YAML_VALUES = st.recursive(_YAML_SCALARS,
                            lambda inner: st.lists(inner, max_size=3)
                            | st.dictionaries(st.sampled_from(sorted(structured.FIELDS.kinds) + ["x", "papers"]),
                                              inner, max_size=4),
                            max_leaves=12)


@st.composite
def yaml_like_text(draw) -> str:
    value = draw(_YAML_VALUES)
    text = yaml.safe_dump(value, allow_unicode=True)
    if draw(st.booleans()):        # raw, unquoted splices: tags, aliases, broken syntax
        raw = draw(st.sampled_from(["title: !!int " + "1" * 5000, "date: 2022-02-30",
                                    "year: " + "1" * 5000, "title: !!timestamp foo",
                                    "title: " + "[" * 3000 + "]" * 3000, "a: &x [1]\nb: *x",
                                    "!!python/object/apply:os.system ['true']", "- [", "\t: :",
                                    "date: 2022-13-01", "title: !!float x"]))
        text = draw(st.sampled_from([raw, raw + "\n" + text, text + "\n" + raw]))
    return text


@bounded(200)
@given(text=st.one_of(ANY_TEXT, yaml_like_text()))
@example(text="title: x\ndate: 2022-02-30\n")
@example(text="title: x\nyear: " + "1" * 5000 + "\n")
@example(text="title: !!int " + "1" * 5000 + "\n")
@example(text="title: " + "[" * 5000 + "]" * 5000 + "\n")
@example(text="title: !!timestamp foo\n")
def test_structured_yaml_raises_only_atlas_errors(text):
    listing = _only_atlas_errors(structured.parse, text, "hostile.yaml")
    if listing is not None:
        for entry in listing.entries:
            assert entry.title or entry.abstract


# --- bytes -----------------------------------------------------------------------------

@bounded(200)
@given(raw=st.one_of(st.binary(max_size=300),
                     st.builds(lambda t, e: t.encode(e, "replace"), ANY_TEXT,
                               st.sampled_from(["utf-8", "utf-16", "latin-1", "cp1252", "utf-8-sig"]))))
def test_decode_listing_raises_only_encoding_errors(raw):
    try:
        text = decode_listing(raw, "bytes.txt")
    except EncodingError as err:
        assert err.file == "bytes.txt"
        return
    assert "\r" not in text
    if raw.startswith(b"\xef\xbb\xbf"):
        assert text == decode_listing(raw[3:], "bytes.txt")        # the BOM is dropped
    assert unicodedata.is_normalized("NFC", text)


@bounded(150)
@given(text=ANY_TEXT)
def test_decoding_is_blind_to_bom_line_endings_and_composition(text):
    try:
        clean = decode_listing(text.encode("utf-8"), "a.txt")
    except EncodingError:
        return                               # e.g. a NUL character: refused either way
    variants = [b"\xef\xbb\xbf" + text.encode("utf-8"),
                text.replace("\n", "\r\n").encode("utf-8"),
                unicodedata.normalize("NFD", text).encode("utf-8")]
    if "\r" not in text:
        variants.append(text.replace("\n", "\r").encode("utf-8"))
    for raw in variants:
        assert decode_listing(raw, "a.txt") == clean


# --- names -------------------------------------------------------------------------------

NAMEISH = st.one_of(
    st.text(max_size=40),
    st.lists(st.one_of(st.text(alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                        "éÉüÜçÇøØßİıǅǆǄ'’-.", min_size=1, max_size=10),
                       st.sampled_from(["de", "van", "von", "la", "II", "IV", "J.", "T.", "O'BRIEN",
                                        "jean-pierre", "McDonald", "HoYuen", ",", ";"])),
             max_size=5).map(" ".join),
)


@bounded(200)
@given(name=NAMEISH)
@example(name="a ,")
@example(name="Aİ")
@example(name="de LA")
def test_proper_case_is_idempotent(name):
    once = proper_case(name)
    assert proper_case(once) == once
    assert name_key(proper_case(name)) == name_key(proper_case(proper_case(name)))
    assert clean_spacing(clean_spacing(name)) == clean_spacing(name)


@bounded(150)
@given(name=NAMEISH)
def test_names_compare_after_normalisation(name):
    nfd, nfc = unicodedata.normalize("NFD", name), unicodedata.normalize("NFC", name)
    assert name_key(nfd) == name_key(nfc) == name_key(name)
    assert name_key(proper_case(nfd)) == name_key(proper_case(nfc))
    assert proper_case(nfd) == proper_case(nfc)


def test_same_person_in_different_dress():
    variants = ["Larissa Rozales Gonçalves", "LARISSA ROZALES GONÇALVES",
                "larissa rozales gonc\u0327alves", "Larissa  Rozales\u00a0Gonçalves,"]
    assert len({name_key(proper_case(v)) for v in variants}) == 1
    assert proper_case("larissa rozales gonc\u0327alves") == "Larissa Rozales Gonçalves"


# --- slugs -------------------------------------------------------------------------------

def _assert_safe(slug: str) -> None:
    assert SLUG.match(slug), slug
    assert len(slug) <= MAX_LENGTH
    assert slug not in {"", ".", ".."} and slug not in RESERVED
    assert slug == slug.lower() and slug.isascii()


@bounded(200)
@given(key=st.text(max_size=300), readable=st.one_of(st.none(), st.text(max_size=120)))
@example(key="con", readable=None)
@example(key="nul", readable="NUL")
@example(key="com1", readable=None)
@example(key="..", readable="..")
@example(key="", readable="")
@example(key="index", readable=None)
@example(key="深度学习", readable=None)
def test_stable_slug_is_always_safe(key, readable):
    _assert_safe(stable_slug(key, readable))
    assert stable_slug(key, readable) == stable_slug(key, readable)


@bounded(200)
@given(title=st.text(max_size=300))
@example(title="CON")
@example(title="..")
@example(title="Ранние системы")
@example(title="word " * 40)
def test_title_slug_is_always_safe(title):
    key = title_key(title)
    _assert_safe(stable_slug(key))
    assert title_key(unicodedata.normalize("NFD", title)) == key
    assert title_key(title.upper()) == title_key(title.lower()) or not title.isascii()


_ACCENTS = str.maketrans("aeiouc", "áéíöüç")


@st.composite
def near_duplicate_keys(draw) -> list[str]:
    """Keys built to meet after slugification: case, accents, punctuation, length."""
    words = draw(st.lists(st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789", min_size=1,
                                  max_size=12), min_size=1, max_size=12))
    base = " ".join(words)
    keys = {base, base.upper(), base.translate(_ACCENTS), base.replace(" ", "-"),
            base.replace(" ", "  "), base + "!", "¿" + base + "?", base.replace(" ", ". "),
            base + " " + "x" * 80, base + " " + "y" * 80, "深度学习 " + base, "Ранние " + base}
    return sorted(keys)


@bounded(100)
@given(groups=st.lists(st.one_of(near_duplicate_keys(), st.lists(st.text(max_size=60), max_size=8)),
                       min_size=1, max_size=8))
def test_distinct_keys_get_distinct_slugs(groups):
    keys = sorted({k for group in groups for k in group})
    slugs = [stable_slug(k) for k in keys]
    assert len(set(slugs)) == len(keys)
    names = sorted({name_key(k) for k in keys})
    assert len({stable_slug(k, proper_case(k)) for k in names}) == len(names)


@bounded(100)
@given(titles=st.lists(st.one_of(st.text(max_size=100), near_duplicate_keys().map(" ".join)),
                       min_size=1, max_size=30))
def test_distinct_title_keys_get_distinct_slugs(titles):
    keys = sorted({title_key(t) for t in titles})
    assert len({stable_slug(k) for k in keys}) == len(keys)


def test_untransliterable_titles_keep_distinct_identities():
    """Two Cyrillic (or CJK) titles are two papers with two slugs, not one ``x-...``."""
    a, b = "Ранние системы", "Поздние системы"
    assert title_key(a) != title_key(b)
    assert stable_slug(title_key(a)) != stable_slug(title_key(b))
    assert title_key("深度学习 for GPUs") != title_key("机器学习 for GPUs")
    # and transliterable text is unchanged by that rule
    assert title_key("Café Über-Fast: GPUs!") == "cafe uber fast gpus"


def test_a_slug_collision_is_never_silent():
    """A title can be *made* to spell another paper's hashed slug (its first words plus the
    hash). Two papers must then either get two slugs or stop the build with both named;
    one page silently overwriting the other is the one outcome that is not allowed."""
    from build_graph.curation import load_curation
    from build_graph.normalize import normalize
    long_title = "Adaptive Message Quantization and Parallelization for Distributed " \
                 "Full-graph GNN Training at Scale"
    victim = stable_slug(title_key(long_title))
    assert victim != title_key(long_title).replace(" ", "-")        # too long: hashed
    forged = victim.replace("-", " ")
    text = (f"MLSYS.2023\n\n#1 {long_title} [PDF]\n\nAuthors: A B\n\nx.\n\n"
            f"#2 {forged} [PDF]\n\nAuthors: C D\n\ny.\n")
    listing = parse_text(text, "forged.txt")
    assert len(listing.entries) == 2
    try:
        corpus = normalize([listing], {}, load_curation())
    except AtlasError as err:
        assert "forged.txt#1" in str(err) and "forged.txt#2" in str(err)
        return
    assert len({p.slug for p in corpus.papers}) == len(corpus.papers) == 2


# --- round trips: render an entry into its format, parse it back ------------------------

LOWER = "abcdefghijklmnopqrstuvwxyz"
UPPER = LOWER.upper()
low_word = st.text(alphabet=LOWER, min_size=2, max_size=9)
cap_word = st.builds(lambda a, b: a + b, st.sampled_from(UPPER), low_word)
person = st.lists(cap_word, min_size=2, max_size=3).map(" ".join)
people = st.lists(person, min_size=1, max_size=6, unique=True)
title_words = st.lists(st.one_of(cap_word, low_word), min_size=1, max_size=8)
sentence = st.lists(low_word, min_size=1, max_size=15).map(lambda ws: " ".join(ws) + ".")
abstract_text = st.lists(sentence, min_size=1, max_size=4).map(" ".join)
years = st.integers(min_value=1990, max_value=2030)
dates = st.dates(min_value=dt.date(1990, 1, 1), max_value=dt.date(2030, 12, 31))


def wrap(text: str, width: int) -> list[str]:
    """Break ``text`` at spaces into lines of about ``width`` characters (copy-paste wrapping)."""
    lines, current = [], ""
    for word in text.split(" "):
        if current and len(current) + 1 + len(word) > width:
            lines.append(current)
            current = word
        else:
            current = f"{current} {word}" if current else word
    if current:
        lines.append(current)
    return lines


# papers-cool -------------------------------------------------------------------------

@st.composite
def cool_entries(draw):
    return {"title": draw(title_words.map(" ".join)),
            "authors": draw(st.one_of(st.just([]), people)),
            "abstract": draw(st.one_of(st.just(""), abstract_text))}


def render_papers_cool(venue: str, year: int, entries: list[dict], buttons: str) -> str:
    out = [f"{venue}.{year}", "", f"| Total: {len(entries)}", ""]
    for n, e in enumerate(entries, start=1):
        out += [f"#{n} {e['title']} {buttons}", ""]
        if e["authors"]:
            out += ["Authors: " + ", ".join(e["authors"]), ""]
        if e["abstract"]:
            out += [e["abstract"], ""]
    return "\n".join(out)


@bounded(60)
@given(venue=st.sampled_from(["MLSYS", "ICML", "NeurIPS", "OSDI"]), year=years,
       entries=st.lists(cool_entries(), min_size=1, max_size=5),
       buttons=st.sampled_from(["[PDF] [Copy] [Kimi] [REL]", "[PDF3] [Copy] [Kimi9] [REL]", "[PDF]"]))
def test_papers_cool_round_trip(venue, year, entries, buttons):
    text = render_papers_cool(venue, year, entries, buttons)
    assert detect(text, "c.txt") is papers_cool
    listing = parse_text(text, "c.txt")
    assert listing.declared_total == len(entries) and not listing.skipped
    got = [{"title": e.title, "authors": e.authors, "abstract": e.abstract} for e in listing.entries]
    assert got == entries
    assert all(e.venue == venue and e.year == year for e in listing.entries)


# author-profile ----------------------------------------------------------------------

_MONTH_NAMES = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]


@st.composite
def profile_entries(draw):
    words = draw(title_words)
    words[-1] = draw(low_word)                 # the glued boundary is lower -> Upper
    return {"title": " ".join(words), "authors": draw(people), "truncated": draw(st.booleans()),
            "abstract": draw(abstract_text), "date": draw(dates),
            "category": draw(st.sampled_from(["LG", "CR", "DC", "AR", "PF"])),
            "code": draw(st.booleans())}


def render_author_profile(entries: list[dict], width: int) -> str:
    out = []
    for e in entries:
        d = e["date"]
        out.append(f"{e['category']}{_MONTH_NAMES[d.month - 1]} {d.day}, {d.year}"
                   + ("Code" if e["code"] else ""))
        out.append(e["title"] + ", ".join(e["authors"]) + (" et al." if e["truncated"] else ""))
        out += wrap(e["abstract"], width)
    return "\n".join(out) + "\n"


@bounded(60)
@given(entries=st.lists(profile_entries(), min_size=1, max_size=4),
       width=st.integers(min_value=20, max_value=400))
def test_author_profile_round_trip(entries, width):
    text = render_author_profile(entries, width)
    assert detect(text, "p.txt") is author_profile
    listing = parse_text(text, "p.txt")
    assert not listing.skipped and not [f for f in listing.findings if f.code == "unsplittable-title"]
    got = [{"title": e.title, "authors": e.authors, "truncated": e.authors_truncated,
            "abstract": e.abstract, "date": dt.date.fromisoformat(e.date),
            "category": e.categories[0], "code": e.has_code} for e in listing.entries]
    assert got == entries
    assert [e.year for e in listing.entries] == [e["date"].year for e in entries]


# arxiv-listing -----------------------------------------------------------------------

arxiv_ids = st.builds(lambda y, m, n: f"{y:02d}{m:02d}.{n}", st.integers(7, 29), st.integers(1, 12),
                      st.text(alphabet="0123456789", min_size=5, max_size=5))


@st.composite
def arxiv_entries(draw):
    doi = draw(st.one_of(st.none(), st.builds(lambda a, b: f"10.{a}/{b}", DIGITS,
                                              st.text(alphabet=LOWER + "0123456789.", min_size=1,
                                                      max_size=12).map(lambda s: s + "x"))))
    return {"abstract": draw(abstract_text), "arxiv": draw(arxiv_ids),
            "comments": draw(st.lists(st.lists(low_word, min_size=1, max_size=10).map(" ".join),
                                      max_size=2)),
            "doi": doi,
            "proceedings": draw(st.one_of(st.none(), st.lists(cap_word, min_size=1, max_size=12)
                                          .map(" ".join))) if doi else None,
            "date": draw(dates).isoformat()}


def render_arxiv(entries: list[dict], width: int, version: str) -> str:
    out = []
    for e in entries:
        out += wrap(e["abstract"], width) + [""]
        for comment in e["comments"]:
            out += [comment, ""]
        line = f"arXiv:{e['arxiv']}{version}"
        if e["doi"]:
            line += f" - doi: {e['doi']}"
            proceedings = wrap(e["proceedings"] or "", width)
            if proceedings:
                line += " " + proceedings[0]
            out.append(line)
            out += proceedings[1:]
        else:
            out.append(line)
        out += [f"Created: {e['date']}", ""]
    return "\n".join(out)


@bounded(60)
@given(entries=st.lists(arxiv_entries(), min_size=1, max_size=4),
       width=st.integers(min_value=30, max_value=400), version=st.sampled_from(["", "v1", "v12"]))
def test_arxiv_listing_round_trip(entries, width, version):
    text = render_arxiv(entries, width, version)
    assert detect(text, "a.txt") is arxiv_listing
    listing = parse_text(text, "a.txt")
    assert not listing.skipped and not listing.findings
    got = [{"abstract": e.abstract, "arxiv": e.arxiv, "comments": e.comments, "doi": e.doi,
            "proceedings": e.proceedings, "date": e.date} for e in listing.entries]
    assert got == entries
    assert [e.year for e in listing.entries] == [int(e["date"][:4]) for e in entries]


# session-schedule --------------------------------------------------------------------

_WEEKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]


@st.composite
def talks(draw):
    return {"title": draw(st.lists(cap_word, min_size=1, max_size=8).map(" ".join)),
            "authors": draw(people.filter(lambda p: len(p) > 1 or len(p[0].split()) > 1)),
            "abstract": draw(st.lists(abstract_text, max_size=2)),
            "day": draw(st.sampled_from(_WEEKDAYS)), "date": draw(st.integers(1, 28)),
            "month": draw(st.sampled_from(_MONTH_NAMES)),
            "time": draw(st.sampled_from(["14:15 - 14:33 PDT", "9:00 - 9:20", "2:15 p.m. - 2:30 p.m. UTC"])),
            "dot": draw(st.sampled_from(["", "."]))}


def render_session(session: str, items: list[dict]) -> str:
    out = [session, "", "Exhibit Hall A", "", "Moderator: Yingyan Lin", "", "Chat is not available.", ""]
    for t in items:
        out += [f"{t['day']} {t['date']} {t['month']}{t['dot']} {t['time']}", "", t["title"], "",
                " · ".join(t["authors"]), ""]
        for paragraph in t["abstract"]:
            out += [paragraph, ""]
    return "\n".join(out)


@bounded(60)
@given(session=st.lists(cap_word, min_size=1, max_size=4).map(" ".join),
       items=st.lists(talks(), min_size=1, max_size=4))
def test_session_schedule_round_trip(session, items):
    text = render_session(session, items)
    assert detect(text, "s.txt") is session_schedule
    listing = parse_text(text, "s.txt")
    assert not listing.skipped
    got = [{"title": e.title, "authors": e.authors, "abstract": e.abstract.split("\n\n") if e.abstract else [],
            "date_text": e.date_text, "session": e.session} for e in listing.entries]
    want = [{"title": t["title"], "authors": t["authors"], "abstract": t["abstract"],
             "date_text": f"{t['day']} {t['date']} {t['month']}", "session": session} for t in items]
    assert got == want


# bare-abstracts ----------------------------------------------------------------------

@bounded(60)
@given(abstracts=st.lists(abstract_text, min_size=1, max_size=6),
       width=st.integers(min_value=20, max_value=500), space=st.sampled_from(["", " "]))
def test_bare_abstracts_round_trip(abstracts, width, space):
    out = []
    for a in abstracts:
        lines = wrap(a, width)
        out += ["Abstract:" + space + lines[0], *lines[1:]]
    text = "\n".join(out) + "\n"
    assert detect(text, "b.txt") is bare_abstracts
    listing = parse_text(text, "b.txt")
    assert [e.abstract for e in listing.entries] == abstracts
    assert all(e.title is None and not e.authors for e in listing.entries)


# jsonl-corpus ------------------------------------------------------------------------

@pytest.mark.skipif(jsonl_corpus is None, reason="jsonl-corpus format not present")
@bounded(50)
@given(items=st.lists(st.fixed_dictionaries({
    "title": title_words.map(" ".join), "abstract": abstract_text, "authors": people,
    "venue": st.sampled_from(["ASPLOS", "MLSys", "OSDI"]), "date": dates.map(dt.date.isoformat),
    "session": st.lists(cap_word, min_size=1, max_size=3).map(" ".join)}), min_size=1, max_size=5))
def test_jsonl_corpus_round_trip(items):
    text = "\n".join(json.dumps(item, ensure_ascii=False) for item in items) + "\n"
    assert detect(text, "j.jsonl") is jsonl_corpus
    listing = parse_text(text, "j.jsonl")
    got = [{"title": e.title, "abstract": e.abstract, "authors": e.authors, "venue": e.venue,
            "date": e.date, "session": e.session} for e in listing.entries]
    assert got == items
    assert [e.year for e in listing.entries] == [int(i["date"][:4]) for i in items]


# structured YAML ---------------------------------------------------------------------

@bounded(50)
@given(items=st.lists(st.fixed_dictionaries(
    {"title": title_words.map(" ".join), "abstract": abstract_text, "authors": people},
    optional={"venue": st.sampled_from(["ASPLOS", "MLSys"]), "year": years, "arxiv": arxiv_ids,
              "doi": st.just("10.1145/3575693.3575704"),
              "urls": st.lists(st.just("https://github.com/x/y"), min_size=1, max_size=1)}),
    min_size=1, max_size=4), wrapped=st.booleans())
def test_structured_yaml_round_trip(items, wrapped):
    data = {"papers": items} if wrapped or len(items) > 1 else items[0]
    text = yaml.safe_dump(data, allow_unicode=True, sort_keys=False)
    listing = structured.parse(text, "s.yaml")
    fields = ("title", "abstract", "authors", "venue", "year", "arxiv", "doi", "urls")
    got = [{k: getattr(e, k) for k in fields if k in item} for e, item in zip(listing.entries, items)]
    assert len(listing.entries) == len(items) and got == items
