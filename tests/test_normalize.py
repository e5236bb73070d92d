"""Normalisation rules, one table per rule."""

from __future__ import annotations

from pathlib import Path

import pytest

from build_graph.curation import load_curation
from build_graph.model import ParsedListing, Provenance, RawEntry
from build_graph.normalize import normalize
from build_graph.normalize.dates import candidate_years, complete_date
from build_graph.normalize.labels import label_for
from build_graph.normalize.latex import render_latex
from build_graph.normalize.names import name_key, proper_case
from build_graph.normalize.slugs import stable_slug, title_key
from build_graph.sources.sidecar import Sidecar

CURATION = load_curation()


@pytest.mark.parametrize("raw,expected", [
    ("JINOOK SONG", "Jinook Song"),
    ("WU ZHAOMIN", "Wu Zhaomin"),
    ("colby banbury", "Colby Banbury"),
    ("yuxuan han", "Yuxuan Han"),
    ("Li zhicheng", "Li Zhicheng"),
    ("Guoliang HE", "Guoliang He"),
    ("HoYuen Chau", "HoYuen Chau"),
    ("XiaoBing Feng", "XiaoBing Feng"),
    ("Javier de Juan", "Javier de Juan"),
    ("javier de juan", "Javier de Juan"),
    ("Zachary DeVito", "Zachary DeVito"),
    ("T. S. Eugene Ng", "T. S. Eugene Ng"),
    ("JEAN-PIERRE O'BRIEN", "Jean-Pierre O'Brien"),
    ("John Smith III", "John Smith III"),
    ("  Ada   Lovelace ", "Ada Lovelace"),
])
def test_proper_case(raw, expected):
    assert proper_case(raw) == expected
    assert proper_case(expected) == expected          # idempotent


def test_names_differing_in_case_are_one_identity():
    assert name_key(proper_case("colby banbury")) == name_key("Colby Banbury")
    assert name_key("José") == name_key("Jose\u0301")    # composed == decomposed


@pytest.mark.parametrize("name,is_non_name", [
    ("NameError", True), ("ValueError", True), ("et al.", True), ("N/A", True),
    ("Zachary DeVito", False), ("Li Wei", False), ("Errol Flynn", False),
])
def test_non_names(name, is_non_name):
    assert (CURATION.non_names.reason(name) is not None) == is_non_name


@pytest.mark.parametrize("text,expected", [
    ("Accepted to NeurIPS 2022", ("NeurIPS", 2022)),
    ("Proceedings of the 28th ACM International Conference on Architectural Support for "
     "Programming Languages and Operating Systems, Volume 2, 2023", ("ASPLOS", 2023)),
    ("To appear in OSDI 2023", ("OSDI", 2023)),
    ("Accepted to NeurIPS 2022 Workshop on ML for Systems", None),
    ("we use micro-batching in 2021", None),
])
def test_venue_in_text(text, expected):
    assert CURATION.venues.find_in_text(text) == expected


@pytest.mark.parametrize("raw,key", [("MLSYS", "MLSys"), ("mlsys", "MLSys"), ("NIPS", "NeurIPS"),
                                     ("Unknown Conf", None)])
def test_venue_canonical(raw, key):
    assert CURATION.venues.canonical(raw) == key


@pytest.mark.parametrize("date_text,years,expected", [
    ("Tue 30 Aug", [2011, 2016, 2022], [2011, 2016, 2022]),   # ambiguous: three Tuesdays
    ("Tue 30 Aug", [2022, 2023], [2022]),
    ("Wed 11 Jun", [2025], [2025]),
    ("Mon 11 Jun", [2025], []),
    ("Tue 31 Feb", [2022], []),
])
def test_year_candidates(date_text, years, expected):
    assert candidate_years(date_text, years) == expected


def test_complete_date():
    assert complete_date("Tue 30 Aug", 2022) == "2022-08-30"
    assert complete_date("Tue 31 Feb", 2022) is None


@pytest.mark.parametrize("text,expected", [
    (r"up to $3\times$ faster", "up to 3× faster"),
    (r"by $17\%$.", "by 17%."),
    (r"among $10^{32}$ models", "among 10³² models"),
    (r"$1.74\times$ (up to $2.22\times$)", "1.74× (up to 2.22×)"),
    (r"$O(n^2)$ and $\mathcal{O}(\log n)$", "O(n²) and O(log n)"),
    (r"$x_{ij}$ and $\alpha$", "xᵢⱼ and α"),
    ("costs $5 and $10 today", "costs $5 and $10 today"),
    (r"$\unknowncmd{z}$", "unknowncmdz"),
])
def test_latex(text, expected):
    assert render_latex(text) == expected


@pytest.mark.parametrize("abstract,label", [
    ("In this work, we present TACCL, a synthesizer for collectives.", "TACCL"),
    ("This paper presents Proteus, a novel mechanism.", "Proteus"),
    ("We analyze engines, and propose Minuet, a novel engine.", "Minuet"),
    ("We implement a deep learning compiler - Hidet. It is fast.", "Hidet"),
    ("Our framework called ArctyrEX runs C programs.", "ArctyrEX"),
    ("As autonomous driving and augmented reality evolve, a practical concern is privacy.",
     "As autonomous driving and augmented reality evolve, a…"),
])
def test_untitled_labels(abstract, label):
    assert label_for(abstract) == label


def test_slugs_are_stable_unique_and_safe():
    assert stable_slug(title_key("Breadth-First Pipeline Parallelism")) == "breadth-first-pipeline-parallelism"
    assert stable_slug("colby banbury") == "colby-banbury"
    lossy = stable_slug("josé li", "José Li")
    assert lossy.startswith("jose-li-") and lossy != stable_slug("jose li")
    assert stable_slug("con") != "con"                      # Windows device name
    long = stable_slug(title_key("word " * 40))
    assert len(long) <= 80 and long == stable_slug(title_key("word " * 40))


def _entry(file, n, **fields):
    return RawEntry(source=Provenance(file, n, n), **fields)


def test_same_paper_in_two_listings_is_one_paper_with_both_provenances():
    a = ParsedListing("a.txt", "papers-cool", [
        _entry("a.txt", 1, title="Tutel: Adaptive Mixture-of-Experts at Scale", authors=["A B"],
               abstract="x", venue="MLSYS", year=2023)])
    b = ParsedListing("b.txt", "author-profile", [
        _entry("b.txt", 1, title="TUTEL: adaptive mixture of experts at scale!", authors=["a b", "C D"],
               abstract="longer abstract", year=2022),
        _entry("b.txt", 2, abstract="untitled", arxiv="2301.00001")])
    c = ParsedListing("c.txt", "arxiv-listing", [_entry("c.txt", 1, abstract="again", arxiv="2301.00001")])
    corpus = normalize([c, b, a], {}, CURATION)
    assert len(corpus.papers) == 2
    tutel = next(p for p in corpus.papers if p.title)
    assert [s.ref for s in tutel.sources] == ["a.txt#1", "b.txt#1"]
    assert tutel.venue == "MLSys" and tutel.year == 2023
    assert tutel.authors == ["a b", "c d"]              # the fuller list wins
    rows = {r.file: r for r in corpus.ledger}
    assert (rows["a.txt"].made, rows["b.txt"].made, rows["b.txt"].merged, rows["c.txt"].merged) == (1, 1, 1, 1)
    assert all(r.balanced for r in corpus.ledger)


def test_sidecar_supplies_venue_year_and_date():
    listing = ParsedListing("s.txt", "session-schedule", [
        _entry("s.txt", 1, title="T", authors=["Adam Belay", "Adam Belay"], abstract="x",
               date_text="Tue 30 Aug")])
    corpus = normalize([listing], {"s.txt": Sidecar("s.meta.yaml", venue="MLSys", year=2022)},
                       CURATION)
    paper = corpus.papers[0]
    assert (paper.venue, paper.year, paper.date) == ("MLSys", 2022, "2022-08-30")
    assert paper.authors == ["adam belay"]
    assert "duplicate-author" in [f.code for f in corpus.findings]


def test_year_not_invented_when_ambiguous():
    listing = ParsedListing("s.txt", "session-schedule", [
        _entry("s.txt", 1, title="T", abstract="x", date_text="Tue 30 Aug")])
    corpus = normalize([listing], {}, CURATION,
                       {"s.txt": [2011, 2016, 2022]})
    assert corpus.papers[0].year is None and corpus.papers[0].date is None
    assert "ambiguous-date" in [f.code for f in corpus.findings]
    corpus = normalize([listing], {}, CURATION, {"s.txt": [2022, 2024]})
    assert corpus.papers[0].date == "2022-08-30"
