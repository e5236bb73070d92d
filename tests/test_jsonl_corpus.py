"""The JSON Lines corpus format: recognised from content, parsed field by field."""

from __future__ import annotations

import json

from build_graph.sources import detect, jsonl_corpus, parse_text


def line(**fields) -> str:
    return json.dumps(fields, ensure_ascii=False)


SAMPLE = "\n".join([
    line(title="Energy-aware Scheduling for Energy-harvesting Systems",
         authors=["Harsh Desai", "Xinye Wang", "Brandon Lucia"],
         abstract="We propose Quetzal. Code: https://github.com/x/quetzal",
         venue="ASPLOS", year=2025, date="2025-03-31", session="Session 1A: Energy",
         link="https://doi.org/10.1145/3669940.3707223"),
    "",
    line(title="Second paper", authors=[], abstract="An abstract.", venue="OSDI", year=2022,
         date=None, session=None, link=None),
]) + "\n"


def test_sniff_needs_every_line_to_be_an_object_with_title_and_abstract():
    assert jsonl_corpus.sniff(SAMPLE) == 1.0
    assert detect(SAMPLE, "corpus.jsonl") is jsonl_corpus
    assert jsonl_corpus.sniff("") == 0.0
    assert jsonl_corpus.sniff(SAMPLE + "not json\n") == 0.0
    assert jsonl_corpus.sniff(line(title="x") + "\n") == 0.0
    assert jsonl_corpus.sniff("[1, 2]\n") == 0.0
    assert jsonl_corpus.sniff("MLSYS.2023\n\n#1 Title [PDF] [Copy] [Kimi] [REL]\n\nAuthors: A\n") == 0.0


def test_parse_maps_every_field_and_keeps_line_numbers():
    listing = parse_text(SAMPLE, "corpus.jsonl")
    assert listing.format == "jsonl-corpus"
    first, second = listing.entries
    assert first.title == "Energy-aware Scheduling for Energy-harvesting Systems"
    assert first.authors == ["Harsh Desai", "Xinye Wang", "Brandon Lucia"]
    assert first.venue == "ASPLOS" and first.year == 2025 and first.date == "2025-03-31"
    assert first.session == "Session 1A: Energy"
    assert first.urls == ["https://doi.org/10.1145/3669940.3707223", "https://github.com/x/quetzal"]
    assert (first.source.entry, first.source.line) == (1, 1)
    assert (second.source.entry, second.source.line) == (2, 3)      # the blank line is not an entry
    assert second.date is None and second.urls == []
    assert [f.code for f in listing.findings] == ["missing-authors"]


def test_bad_values_are_reported_not_fatal():
    text = "\n".join([
        line(title="A", abstract="x", authors="Ann Lee, Bo Chen", year="2021", date="2020-01-01"),
        line(title="B", abstract="y", authors=["Ann Lee", 7], year=21, date="yesterday"),
        line(title="", abstract=""),
        line(title="C", abstract="z", link="javascript:alert(1)"),
    ])
    listing = jsonl_corpus.parse(text, "bad.jsonl")
    codes = [f.code for f in listing.findings]
    a, b, c = listing.entries
    assert a.authors == ["Ann Lee", "Bo Chen"] and a.year == 2021 and a.date is None
    assert b.authors == ["Ann Lee"] and b.year is None and b.date is None
    assert c.urls == []
    assert codes.count("authors-not-a-list") == 1 and codes.count("bad-author") == 1
    assert codes.count("bad-year") == 1 and codes.count("bad-date") == 2
    assert [s.reason for s in listing.skipped] == ["entry has neither a title nor an abstract"]
    assert listing.detected == 4


def test_a_corpus_builds_into_papers(tmp_path):
    from build_graph.pipeline import build_atlas
    (tmp_path / "corpus.jsonl").write_text(SAMPLE, encoding="utf-8")
    atlas = build_atlas(tmp_path, strict=True)
    papers = {p.title: p for p in atlas.corpus.papers}
    assert set(papers) == {"Energy-aware Scheduling for Energy-harvesting Systems", "Second paper"}
    assert papers["Second paper"].venue == "OSDI" and papers["Second paper"].year == 2022
    assert [atlas.corpus.authors[k].name for k in papers["Energy-aware Scheduling for Energy-harvesting "
                                                         "Systems"].authors][0] == "Harsh Desai"
