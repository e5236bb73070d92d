"""``yamlio.Fields``: the one way a curated YAML format checks its keys and values.

Each format (sidecar, structured paper, correction, author alias, venue,
heading rule, taxonomy entry) declares its fields once; unknown keys,
missing keys and wrong values are reported the same way, with the line.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from build_graph.errors import CurationError
from build_graph.yamlio import (DATE, FLAG, LIST, NONEMPTY_TEXT, NONEMPTY_TEXTS, TEXT, TEXTS, YEAR, Fields,
                                load_yaml_text)

ROOT = Path(__file__).resolve().parent.parent
PAPER = Fields({"title": NONEMPTY_TEXT, "note": TEXT, "authors": NONEMPTY_TEXTS, "urls": TEXTS, "year": YEAR,
                "date": DATE, "draft": FLAG, "items": LIST}, required=("title",))


def first_error(text: str) -> CurationError:
    data = load_yaml_text(text, "x.yaml")
    with pytest.raises(CurationError) as info:
        PAPER.check(data, "x.yaml", "a paper")
        for key in PAPER.kinds:
            PAPER.get(data, key, "x.yaml")
    return info.value


@pytest.mark.parametrize("text, line, message", [
    ("title: T\ncolour: blue\n", 2, "unknown key 'colour'"),
    ("note: n\n", 1, "missing required key 'title'"),
    ("title: '  '\n", 1, "'title' must be non-empty text"),
    ("title: T\nnote: [a]\n", 2, "'note' must be text"),
    ("title: T\nauthors: Ana Silva\n", 2, "'authors' must be a non-empty list of text"),
    ("title: T\nauthors: []\n", 2, "'authors' must be a non-empty list of text"),
    ("title: T\nurls:\n  - https://a.org\n  - ''\n", 4, "'urls' must be a list of non-empty text"),
    ("title: T\nyear: twenty\n", 2, "'year' must be a four-digit number"),
    ("title: T\nyear: 20233\n", 2, "'year' must be a four-digit number"),
    ("title: T\nyear: true\n", 2, "'year' must be a four-digit number"),
    ("title: T\ndate: '2024-13-01'\n", 2, "'date' must be YYYY-MM-DD"),
    ("title: T\ndate: March 2024\n", 2, "'date' must be YYYY-MM-DD"),
    ("title: T\ndraft: yes please\n", 2, "'draft' must be true or false"),
    ("title: T\nitems: {a: 1}\n", 2, "'items' must be a list"),
    ("- just a list\n", 1, "a paper must be a mapping of keys to values"),
])
def test_problems_are_named_with_their_line(text, line, message):
    err = first_error(text)
    assert err.line == line and err.file == "x.yaml"
    assert message in err.format(), err.format()


def test_values_are_read_as_their_kind():
    data = PAPER.check(load_yaml_text("title: ' A title '\nnote: ''\nauthors: [' Ana ', Bo]\n"
                                      "year: 2024\ndate: 2024-03-01\ndraft: false\n", "x.yaml"), "x.yaml", "a paper")
    got = {key: PAPER.get(data, key, "x.yaml") for key in PAPER.kinds}
    assert got == {"title": "A title", "note": None, "authors": ["Ana", "Bo"], "urls": None, "year": 2024,
                   "date": "2024-03-01", "draft": False, "items": None}


def test_a_schema_cannot_require_a_key_it_does_not_declare():
    with pytest.raises(ValueError):
        Fields({"a": TEXT}, required=("b",))


# Error sites that would mean a second way of checking fields has grown back.
_AD_HOC = re.compile(r"""(?:CurationError|_fail)\(\s*f?["'](?:unknown key|missing required|'\{?\w+\}?' must be (?:text|"""
                     r"""non-empty text|a four-digit|YYYY-MM-DD|true or false))""")


def test_no_format_checks_its_fields_by_hand():
    offenders = []
    for path in sorted((ROOT / "build_graph").rglob("*.py")):
        if path.name == "yamlio.py" or "devtools" in path.parts:
            continue
        for number, line in enumerate(path.read_text("utf-8").splitlines(), start=1):
            if _AD_HOC.search(line):
                offenders.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not offenders, "use yamlio.Fields:\n" + "\n".join(offenders)


@pytest.mark.parametrize("line", [
    'raise CurationError(f"unknown key {key!r}", file=f)',
    "raise CurationError(\"'year' must be a four-digit number\", file=f)",
    "raise CurationError(f\"'{key}' must be text\", file=f)",
])
def test_the_ad_hoc_pattern_catches_what_it_should(line):
    assert _AD_HOC.search(line)
