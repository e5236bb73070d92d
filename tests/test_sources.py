"""Listing parsers: format detection by content, exact counts on the real seeds,
and the edge cases of each format on small fixtures."""

from __future__ import annotations

from pathlib import Path

import pytest

from build_graph.errors import EncodingError, UnknownFormatError
from build_graph.sources import FORMATS, detect, parse_listing, parse_text
from build_graph.sources.author_profile import split_title_authors
from build_graph.sources.text import decode_listing

ROOT = Path(__file__).resolve().parent.parent
SEEDS = ROOT / "seeds"
FIXTURES = Path(__file__).resolve().parent / "fixtures" / "listings"

SEED_TABLE = [
    ("000_828b643ce7fcf97b.txt", "bare-abstracts", 4),
    ("001_26a661ad9ca0bb7c.txt", "arxiv-listing", 10),
    ("002_bcbd238a594dd892.txt", "author-profile", 8),
    ("003_582fbc6f8791162a.txt", "papers-cool", 25),
    ("004_d682a2c69557955b.txt", "session-schedule", 4),
]


@pytest.mark.parametrize("name,fmt,count", SEED_TABLE)
def test_real_seed_counts(name, fmt, count):
    listing = parse_listing(SEEDS / name, name)
    assert listing.format == fmt
    assert len(listing.entries) == count
    assert listing.skipped == []
    assert [e.source.entry for e in listing.entries] == list(range(1, count + 1))
    assert all(e.abstract for e in listing.entries)


def test_seed_total_is_51():
    assert sum(len(parse_listing(SEEDS / n, n).entries) for n, _, _ in SEED_TABLE) == 51


@pytest.mark.parametrize("name,fmt,count", SEED_TABLE)
def test_detection_reads_content_not_name(name, fmt, count, tmp_path):
    renamed = tmp_path / "listing.yaml.txt"
    renamed.write_bytes((SEEDS / name).read_bytes())
    assert parse_listing(renamed, "x").format == fmt
    text = (SEEDS / name).read_text(encoding="utf-8")
    scores = {f.NAME: f.sniff(text) for f in FORMATS}
    assert max(scores, key=scores.get) == fmt
    assert sorted(scores.values())[-2] < scores[fmt], "detection must not be a tie"


def test_every_format_module_documents_a_sample():
    for fmt in FORMATS:
        assert fmt.__doc__ and "Sample input" in fmt.__doc__, fmt.NAME
        assert fmt.NAME and fmt.SUMMARY


def test_unknown_format_names_file_and_known_formats():
    with pytest.raises(UnknownFormatError) as err:
        parse_listing(FIXTURES / "unknown.txt", "seeds/unknown.txt")
    message = str(err.value)
    assert message.startswith("seeds/unknown.txt: ")
    for fmt in FORMATS:
        assert fmt.NAME in message


def test_empty_file_is_a_warning_not_an_error():
    listing = parse_listing(FIXTURES / "empty.txt", "empty.txt")
    assert listing.entries == [] and [f.code for f in listing.findings] == ["empty-file"]


def test_not_utf8_names_byte_offset():
    with pytest.raises(EncodingError) as err:
        decode_listing(b"Abstract: caf\xe9 ok\n", "bad.txt")
    assert "bad.txt:1" in str(err.value) and "byte offset 13" in str(err.value)


def test_bare_abstract_continuation_lines():
    listing = parse_listing(FIXTURES / "bare_wrapped.txt", "f")
    assert len(listing.entries) == 2
    assert listing.entries[0].abstract.endswith("wraps onto a second line.")
    assert listing.entries[1].source.line == 3


def test_arxiv_comments_doi_and_unterminated_entry():
    listing = parse_listing(FIXTURES / "arxiv_edge.txt", "f")
    first, second, third = listing.entries
    assert first.arxiv == "2210.00001" and first.comments == ["Accepted to NeurIPS 2022 Workshop on ML Systems"]
    assert second.doi == "10.1145/1234567.8901234"
    assert second.proceedings.endswith("Operating Systems Design and Implementation, 2023")
    assert third.arxiv == "2302.00003" and third.date is None
    assert "unterminated-entry" in [f.code for f in listing.findings]


@pytest.mark.parametrize("glued,title,authors,truncated", [
    ("ArctyrEX : Accelerated Encrypted Execution of General-Purpose ApplicationsCharles Gouert, "
     "Vinu Joseph, Steven Dalton et al.",
     "ArctyrEX : Accelerated Encrypted Execution of General-Purpose Applications",
     ["Charles Gouert", "Vinu Joseph", "Steven Dalton"], True),
    ("AdaBatch: Adaptive Batch Sizes for Training Deep Neural NetworksAditya Devarakonda, Maxim Naumov",
     "AdaBatch: Adaptive Batch Sizes for Training Deep Neural Networks",
     ["Aditya Devarakonda", "Maxim Naumov"], False),
    ("Warp Specialization for Tensor Core GPUsRupanshu Soi, Rohan Yadav et al.",
     "Warp Specialization for Tensor Core GPUs", ["Rupanshu Soi", "Rohan Yadav"], True),
    ("Scaling with GPTJohn Smith", "Scaling with GPT", ["John Smith"], False),
    ("Foo (BAR)Zachary DeVito, Javier de Juan", "Foo (BAR)", ["Zachary DeVito", "Javier de Juan"], False),
    ("DeepSpeed Ulysses System OptimizationsJohn Doe", "DeepSpeed Ulysses System Optimizations",
     ["John Doe"], False),
    ("A TitleHoYuen Chau, Bo Li", "A Title", ["HoYuen Chau", "Bo Li"], False),
])
def test_profile_title_author_split(glued, title, authors, truncated):
    assert split_title_authors(glued) == (title, authors, truncated)


def test_profile_unsplittable_and_empty_entries_are_reported():
    listing = parse_listing(FIXTURES / "profile_edge.txt", "f")
    assert len(listing.entries) == 3 and len(listing.skipped) == 1
    assert listing.skipped[0].source.entry == 4
    assert listing.entries[1].has_code and listing.entries[1].authors_truncated
    assert listing.entries[1].urls == ["https://github.com/example/repo"]
    assert listing.entries[1].date == "2025-12-19" and listing.entries[1].categories == ["PL"]
    assert listing.entries[2].authors == [] and listing.entries[2].title == "no separable line at all"
    assert "unsplittable-title" in [f.code for f in listing.findings]


def test_papers_cool_header_total_gap_and_single_author():
    listing = parse_listing(FIXTURES / "cool_edge.txt", "f")
    assert listing.declared_total == 5
    assert [e.venue for e in listing.entries] == ["ICML", "ICML"]
    assert listing.entries[0].authors == ["Solo Person"]
    assert listing.entries[1].title == "Third Paper: A System"
    codes = [f.code for f in listing.findings]
    assert "declared-total" in codes and "numbering-gap" in codes


def test_real_papers_cool_reports_declared_total():
    listing = parse_listing(SEEDS / "003_582fbc6f8791162a.txt", "003")
    assert listing.declared_total == 46
    assert [f.message for f in listing.findings if f.code == "declared-total"] == [
        "listing declares 46 entries but holds 25"]


def test_session_schedule_entries_and_empty_slot():
    listing = parse_listing(FIXTURES / "session_edge.txt", "f")
    assert [e.title for e in listing.entries] == ["Talk One", "Talk Two"]
    assert listing.entries[0].authors == ["Ann Lee", "Bo Chen", "Bo Chen"]
    assert listing.entries[1].authors == ["Solo Speaker"]
    assert listing.entries[0].session == "Systems for ML"
    assert listing.entries[0].date_text == "Wed 11 Jun"
    assert len(listing.skipped) == 1 and listing.skipped[0].source.entry == 3


def test_ambiguous_detection_is_refused():
    text = ("Abstract: x\n" * 3) + "arXiv:2101.00001\nCreated: 2021-01-01\n"
    # both a bare-abstract start and arXiv lines: the arXiv sniffer is surer
    assert detect(text, "f").NAME == "arxiv-listing"


def test_parse_is_pure():
    text = (SEEDS / "003_582fbc6f8791162a.txt").read_text(encoding="utf-8")
    assert parse_text(text, "a") == parse_text(text, "a")
