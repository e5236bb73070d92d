"""The ledger: nothing is lost (issue 7).

For every input file, ``entries detected = papers made + entries merged into
another paper + entries skipped``, each skip with its reason, and ``check``
prints exactly that. The equation alone could balance while a parser quietly
dropped an entry (it would simply not be "detected"), so the tests also
count entries independently of the parsers: by hand for the fixtures in
``tests/fixtures/ledger/``, with ``tests/seed_texts.py``'s deliberately
separate reader for the seeds, and by checking that every entry a parser
returned ends up in exactly one paper's provenance.
"""

from __future__ import annotations

import copy
from collections import Counter
from pathlib import Path

import pytest

from build_graph.cli import main
from build_graph.pipeline import build_atlas
from build_graph.report import build_report, format_text
from build_graph.sources import listing_kind, parse_listing, seed_files
from build_graph.sources import structured

from seed_texts import seed_papers

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"
MIXED = FIXTURES / "ledger" / "mixed"

# file: (format, detected, made, merged, skip reasons) - counted by hand from the files
EXPECTED = {
    "a_abstracts.txt": ("bare-abstracts", 4, 2, 0, ["'Abstract:' line with no text"] * 2),
    "b_arxiv.txt": ("arxiv-listing", 3, 2, 0, ["entry has neither an abstract nor an arXiv id"]),
    "c_arxiv_again.txt": ("arxiv-listing", 2, 1, 1, []),          # same arXiv id as b_arxiv #1
    "d_profile.txt": ("author-profile", 3, 2, 0,
                      ["category/date line with no title, authors or abstract"]),
    "e_cool.txt": ("papers-cool", 3, 1, 1,                        # #1: same title as d_profile #3
                   ["entry has neither a title nor an abstract"]),
    "f_session.txt": ("session-schedule", 3, 1, 1,                # same title (other punctuation)
                      ["time slot with no talk under it"]),       # as e_cool #3
    "g_entry.yaml": ("structured-yaml", 2, 1, 1, []),             # same arXiv id as b_arxiv #3
    "h_corpus.jsonl": ("jsonl-corpus", 3, 1, 1,                   # same title as d_profile #1
                       ["entry has neither a title nor an abstract"]),
    "i_empty.txt": ("empty", 0, 0, 0, []),
}
SEED_FORMATS = {"000": "bare-abstracts", "001": "arxiv-listing", "002": "author-profile",
                "003": "papers-cool", "004": "session-schedule"}


@pytest.fixture(scope="module")
def mixed():
    return build_atlas(MIXED, strict=True)


def _row_tuple(row):
    return (row.format, row.detected, row.made, row.merged, [s.reason for s in row.skipped])


def _equation(row) -> str:
    return (f"entries detected {row.detected} = papers made {row.made} + merged {row.merged} "
            f"+ skipped {len(row.skipped)}")


def assert_nothing_lost(atlas) -> None:
    """The equation per file, and every detected entry accounted for exactly once."""
    ledger = atlas.corpus.ledger
    for row in ledger:
        assert row.detected == row.made + row.merged + len(row.skipped), row
        assert row.balanced
        assert all(skip.reason and skip.source.file == row.file for skip in row.skipped)
    assert sum(row.made for row in ledger) == len(atlas.corpus.papers)
    made_by = Counter(p.sources[0].file for p in atlas.corpus.papers)
    merged_by = Counter(s.file for p in atlas.corpus.papers for s in p.sources[1:])
    for row in ledger:
        assert made_by[row.file] == row.made and merged_by[row.file] == row.merged, row.file
    # every entry is in exactly one paper or one skip, never both, never twice
    sources = [s for p in atlas.corpus.papers for s in p.sources]
    skips = [s.source for row in ledger for s in row.skipped]
    assert len(set(sources)) == len(sources) and not set(sources) & set(skips)
    for row in ledger:
        numbers = sorted(s.entry for s in sources + skips if s.file == row.file)
        assert numbers == list(range(1, row.detected + 1)), row.file


# --- the fixture with skips and merges ------------------------------------------------

def test_mixed_fixture_ledger_matches_a_hand_count(mixed):
    got = {row.file: _row_tuple(row) for row in mixed.corpus.ledger}
    assert got == EXPECTED
    assert_nothing_lost(mixed)
    assert len(mixed.corpus.papers) == 11


def test_mixed_fixture_detection_matches_a_parser_free_count():
    """Entry markers counted with plain string tests, not the parsers' regexes."""
    def count(name: str) -> int:
        text = (MIXED / name).read_text(encoding="utf-8")
        lines = [line.strip() for line in text.splitlines()]
        if name.endswith(".yaml"):
            return sum(1 for line in lines if line.startswith("- title:"))
        if name.endswith(".jsonl"):
            return sum(1 for line in lines if line.startswith("{"))
        markers = {"a": lambda l: l.startswith("Abstract:"),
                   "b": lambda l: l.startswith("Created:"), "c": lambda l: l.startswith("Created:"),
                   "d": lambda l: l[:2].isupper() and l.endswith(("2019Code", "2023", "2021")),
                   "e": lambda l: l.startswith("#"), "f": lambda l: l.startswith("Tue 30 Aug."),
                   "i": lambda l: False}
        return sum(1 for line in lines if markers[name[0]](line))
    for name, (_, detected, *_rest) in EXPECTED.items():
        assert count(name) == detected, name


def test_merges_happen_by_arxiv_id_and_by_title(mixed):
    by_refs = {tuple(s.ref for s in p.sources): p for p in mixed.corpus.papers}
    assert ("b_arxiv.txt#1", "c_arxiv_again.txt#1") in by_refs             # arXiv id, v2 dropped
    assert ("b_arxiv.txt#3", "g_entry.yaml#1") in by_refs                  # arXiv id, structured
    assert ("d_profile.txt#1", "h_corpus.jsonl#2") in by_refs              # title, case/hyphen
    assert ("d_profile.txt#3", "e_cool.txt#1") in by_refs                  # title
    assert ("e_cool.txt#3", "f_session.txt#2") in by_refs                  # title, punctuation


def test_check_prints_the_equation_and_every_skip_reason(capsys):
    assert main(["check", "--seeds", str(MIXED)]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    for name, (fmt, detected, made, merged, reasons) in EXPECTED.items():
        head = (f"{name}: {fmt}; entries detected {detected} = papers made {made} + merged {merged} "
                f"+ skipped {len(reasons)} [ok]")
        start = next(i for i, line in enumerate(lines) if line.startswith(head))
        block = []
        for line in lines[start + 1:]:
            if not line.startswith("  "):
                break
            block.append(line.strip())
        assert [b.split(": ", 1)[1] for b in block if b.startswith("skipped entry")] == reasons
    assert "skipped entry 1 (line 5): time slot with no talk under it" in out
    assert "skipped entry 2 (line 4): category/date line with no title, authors or abstract" in out
    assert lines[-1] == f"{len(EXPECTED)} listings, 11 papers, " + lines[-1].split(", ", 2)[2]


def test_an_unbalanced_ledger_makes_check_fail(monkeypatch, capsys, mixed):
    """If a stage loses an entry, ``check`` says UNBALANCED and exits non-zero."""
    lossy = copy.deepcopy(mixed)
    lossy.corpus.ledger[0].made -= 1
    monkeypatch.setattr("build_graph.cli._atlas", lambda args, strict=False: lossy)
    assert main(["check", "--seeds", str(MIXED)]) == 1
    out = capsys.readouterr().out
    assert "a_abstracts.txt: bare-abstracts; entries detected 4 = papers made 1 + merged 0 + " \
           "skipped 2 [UNBALANCED]" in out
    with pytest.raises(AssertionError):
        assert_nothing_lost(lossy)


# --- the real seeds -----------------------------------------------------------------

def test_seed_ledger_balances_and_accounts_for_every_entry(atlas):
    assert_nothing_lost(atlas)
    assert {row.file[:3]: row.format for row in atlas.corpus.ledger} == SEED_FORMATS


def test_seed_detection_matches_the_independent_reader(atlas):
    independent = Counter(key.split("#")[0] for key, _, _ in seed_papers())
    assert {row.file: row.detected for row in atlas.corpus.ledger} == dict(independent)


def test_seed_report_prints_the_equation_per_file(atlas):
    text = format_text(build_report(atlas))
    for row in atlas.corpus.ledger:
        assert f"{row.file}: {row.format}; {_equation(row)} [ok]" in text
        for skip in row.skipped:
            assert f"skipped entry {skip.source.entry} (line {skip.source.line}): {skip.reason}" in text


# --- every other fixture folder ---------------------------------------------------------

@pytest.mark.parametrize("folder", ["listings", "curation"])
def test_fixture_folders_balance(folder):
    path = FIXTURES / folder
    atlas = build_atlas(path)               # not strict: a deliberately unknown file is an error
    assert atlas.corpus.ledger
    assert_nothing_lost(atlas)
    # detected is what the parser saw: re-parse each file on its own and compare
    for file in seed_files(path):
        name = file.relative_to(path).as_posix()
        kind = listing_kind(file)
        if kind not in ("listing", "structured") or name in {e.file for e in atlas.errors}:
            continue
        listing = (structured.parse(file.read_text(encoding="utf-8"), name) if kind == "structured"
                   else parse_listing(file, name))
        row = next(r for r in atlas.corpus.ledger if r.file == name)
        assert row.detected == len(listing.entries) + len(listing.skipped)
        assert [s.reason for s in row.skipped] == [s.reason for s in listing.skipped]
