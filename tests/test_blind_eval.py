"""The blind-set evaluation: fixture integrity, the scoring rules, the command, and a regression gate."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from build_graph.devtools.blind_eval import (GOAL_PRECISION, GOAL_RECALL, BlindPaper, check_sample, draw_venue_years,
                                    drawn_records, load_blind_set, score)
from build_graph.cli import main as cli_main
from build_graph.curation import REFERENCE_DIR
from build_graph.errors import CurationError
from build_graph.tagging import Tagger
from build_graph.taxonomy import load_taxonomy

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"
BLIND = FIXTURES / "blind_techniques.yaml"
TUNING = FIXTURES / "tuning_techniques.yaml"
# Opt-in: ATLAS_CORPUS=../shared/corpora/systems-conferences.jsonl python -m pytest tests/test_blind_eval.py
CORPUS = Path(os.environ["ATLAS_CORPUS"]) if os.environ.get("ATLAS_CORPUS") else None

BLIND2 = FIXTURES / "blind2_techniques.yaml"
BLIND3 = FIXTURES / "blind3_techniques.yaml"
BLIND4 = FIXTURES / "blind4_techniques.yaml"
BLIND5 = FIXTURES / "blind5_techniques.yaml"

# The phrase rules' figures after round 5 (docs/tagging.md), as floors: a change
# to the taxonomy or the rules that lowers them fails here. (fixture, precision,
# recall, precision of strong tags). They gate the rules alone (``model=None``):
# the ranker of round 5 was trained on the other five fixtures, so its figures on
# them are optimistic and gate nothing; its honest figures are the leave-one-fixture-
# out ones stored in the model file (test_ranker.py gates those). All are below
# the goals of issue 15 (precision 0.9, recall 0.8); see test_goals_of_issue_15.
FLOORS = [
    (BLIND5, 0.59, 0.59, 0.72),
    (BLIND4, 0.65, 0.63, 0.78),
    (BLIND3, 0.66, 0.71, 0.81),
    (BLIND2, 0.68, 0.77, 0.84),
    (BLIND, 0.72, 0.74, 0.86),
    (TUNING, 0.69, 0.77, 0.81),
]

# The ranker's figures on the fifth blind set as reported for round 5 (docs/tagging.md), as floors,
# and the size of that set's labels.
RANKER_P, RANKER_R, RANKER_STRONG_P = 0.70, 0.57, 0.79
BLIND5_LABELS = 711


@pytest.fixture(scope="module")
def taxonomy():
    return load_taxonomy(REFERENCE_DIR / "taxonomy.yaml")


@pytest.fixture(scope="module")
def blind(taxonomy):
    return load_blind_set(BLIND, taxonomy)


@pytest.fixture(scope="module")
def tagger(taxonomy):
    return Tagger(taxonomy, model=None)


@pytest.fixture(scope="module")
def blind_scores(taxonomy, tagger):
    """The rules alone on the fifth blind set (the command's default fixture)."""
    blind5 = load_blind_set(BLIND5, taxonomy)
    return score(blind5.papers, tagger, blind5.vocabulary)


@pytest.fixture(scope="module")
def ranker_scores(taxonomy):
    """The ranker on the fifth blind set, which it was never trained on."""
    blind5 = load_blind_set(BLIND5, taxonomy)
    return score(blind5.papers, Tagger(taxonomy), blind5.vocabulary)


def test_the_ranker_holds_its_figures_on_the_fifth_blind_set(ranker_scores, blind_scores):
    """Round 5's reported figures (docs/tagging.md) as floors, and the ranker
    ahead of the rules alone in precision and F1 on papers it never saw."""
    o, rules = ranker_scores.overall, blind_scores.overall
    assert o.precision >= RANKER_P and o.recall >= RANKER_R and ranker_scores.strong.precision >= RANKER_STRONG_P
    f1 = lambda c: 2 * c.precision * c.recall / (c.precision + c.recall)
    assert o.precision > rules.precision and f1(o) > f1(rules)


# The sampled blind sets: (fixture, seed, the fixtures it excludes, its labels).
# Each is drawn outside the first set's venue-years and every earlier fixture.
SAMPLED_SETS = [
    (BLIND4, 41414141, (TUNING, BLIND2, BLIND3), 730),
    (BLIND5, 55055, (TUNING, BLIND2, BLIND3, BLIND4), BLIND5_LABELS),
]


@pytest.mark.parametrize("fixture, seed, earlier_sets, labels", SAMPLED_SETS,
                         ids=[f.name for f, *_ in SAMPLED_SETS])
def test_sampled_blind_set_is_disjoint_from_the_others(taxonomy, blind, fixture, seed, earlier_sets, labels):
    drawn = load_blind_set(fixture, taxonomy)
    assert len(drawn.papers) == 300 == drawn.minimum and drawn.seed == seed
    assert drawn.method == "sample"
    assert drawn.exclude_papers_of == tuple(f.name for f in earlier_sets)
    assert drawn.venue_years == blind.venue_years
    held = set(blind.venue_years)
    assert not any((p.venue, p.year) in held for p in drawn.papers)
    earlier = {(p.title, p.abstract) for f in earlier_sets for p in load_blind_set(f, taxonomy).papers}
    assert not {(p.title, p.abstract) for p in drawn.papers} & earlier
    assert sum(len(p.techniques) for p in drawn.papers) == labels
    assert drawn.vocabulary is not None and len(drawn.vocabulary) == 206


def test_blind_fixture_is_the_documented_sample(blind):
    assert len(blind.papers) == 348 >= blind.minimum == 300
    assert blind.seed == 15
    assert blind.venue_years == [("OSDI", 2023), ("SOSP", 2023), ("NSDI", 2025), ("OSDI", 2022),
                                 ("EuroSys", 2023), ("ATC", 2021)]
    assert {(p.venue, p.year) for p in blind.papers} == set(blind.venue_years)
    assert sum(len(p.techniques) for p in blind.papers) == 733
    assert all(len(set(p.techniques)) == len(p.techniques) for p in blind.papers)
    assert blind.vocabulary is not None and len(blind.vocabulary) == 190


def test_tuning_sample_is_disjoint_from_the_blind_set(taxonomy, blind):
    tuning = load_blind_set(TUNING, taxonomy)
    assert len(tuning.papers) == 120
    held = set(blind.venue_years)
    assert not any((p.venue, p.year) in held for p in tuning.papers)


def test_second_blind_set_is_disjoint_from_the_others(taxonomy, blind):
    blind2 = load_blind_set(BLIND2, taxonomy)
    tuning = load_blind_set(TUNING, taxonomy)
    assert len(blind2.papers) == 150 and blind2.seed == 1515
    held = set(blind.venue_years)
    assert not any((p.venue, p.year) in held for p in blind2.papers)
    assert not {p.title for p in blind2.papers} & {p.title for p in tuning.papers}
    assert blind2.vocabulary is not None and len(blind2.vocabulary) == 206


def test_third_blind_set_is_disjoint_from_the_others(taxonomy, blind):
    blind3 = load_blind_set(BLIND3, taxonomy)
    assert len(blind3.papers) == 200 == blind3.minimum and blind3.seed == 151515
    assert blind3.method == "sample"
    assert blind3.exclude_papers_of == ("tuning_techniques.yaml", "blind2_techniques.yaml")
    assert blind3.venue_years == blind.venue_years
    held = set(blind.venue_years)
    assert not any((p.venue, p.year) in held for p in blind3.papers)
    earlier = {(p.title, p.abstract) for f in (TUNING, BLIND2) for p in load_blind_set(f, taxonomy).papers}
    assert not {(p.title, p.abstract) for p in blind3.papers} & earlier
    assert sum(len(p.techniques) for p in blind3.papers) == 424
    assert blind3.vocabulary is not None and len(blind3.vocabulary) == 206


@pytest.mark.parametrize("fixture, precision, recall, strong", FLOORS, ids=[f[0].stem for f in FLOORS])
def test_figures_do_not_regress(taxonomy, tagger, fixture, precision, recall, strong):
    labelled = load_blind_set(fixture, taxonomy)
    s = score(labelled.papers, tagger, labelled.vocabulary)
    assert s.overall.precision >= precision, s.overall
    assert s.overall.recall >= recall, s.overall
    assert s.strong.precision >= strong, s.strong


@pytest.mark.xfail(strict=True, reason="issue 15's goals are not met yet (docs/tagging.md); "
                                       "when this passes, raise the floors and drop the mark")
def test_goals_of_issue_15(ranker_scores):
    """On papers the tagger never learnt from: the ranker on the fifth blind set."""
    assert ranker_scores.overall.precision >= GOAL_PRECISION
    assert ranker_scores.overall.recall >= GOAL_RECALL


def test_evaluate_command_prints_the_figures(capsys, blind_scores):
    status = cli_main(["evaluate", "--rules-only"])          # the default fixture is the fifth blind set
    out = capsys.readouterr().out
    assert "tagger: phrase rules only" in out
    o = blind_scores.overall
    assert f"overall  precision {o.precision:.3f} ({o.tp}/{o.tp + o.fp})" in out
    assert f"recall {o.recall:.3f} ({o.tp}/{o.tp + o.fn})" in out
    assert "Storage, databases and distributed systems" in out       # per area
    assert status == (0 if blind_scores.meets_goals() else 1)


# -- the scoring rules, on a tiny made-up set ---------------------------------------

MINI = """\
areas:
  - id: a1
    name: Area one
    description: The first area of these tests.
  - id: a2
    name: Area two
    description: The second area of these tests.
techniques:
  - id: alpha
    name: Alpha
    parent: a1
    description: The alpha technique of the tests.
    aliases: [alpha method]
    examples: ["An alpha method."]
  - id: beta
    name: Beta
    parent: a2
    description: The beta technique of the tests.
    aliases: [beta method]
    examples: ["A beta method."]
  - id: gamma
    name: Gamma
    parent: a2
    description: A technique newer than the labels.
    aliases: [gamma method]
    examples: ["A gamma method."]
"""


@pytest.fixture(scope="module")
def mini(tmp_path_factory):
    path = tmp_path_factory.mktemp("blind") / "taxonomy.yaml"
    path.write_text(MINI, encoding="utf-8")
    return Tagger(load_taxonomy(path))


def test_score_counts_exact_matches_per_area_and_skips_newer_techniques(mini):
    papers = [
        BlindPaper("V", 2020, "Alpha method, fast", "", ("alpha",)),                          # TP alpha
        BlindPaper("V", 2020, "Beta method", "We use an alpha method. It helps.", ("beta",)),  # TP beta, FP alpha
        BlindPaper("V", 2020, "Nothing here", "", ("beta",)),                                 # FN beta
        BlindPaper("V", 2020, "Gamma method", "", ()),                                        # unscored
    ]
    s = score(papers, mini, frozenset({"alpha", "beta"}))
    assert (s.overall.tp, s.overall.fp, s.overall.fn) == (2, 1, 1)
    assert s.per_area["a1"].tp == 1 and s.per_area["a1"].fp == 1 and s.per_area["a1"].fn == 0
    assert s.per_area["a2"].tp == 1 and s.per_area["a2"].fn == 1
    assert [t for _, t, _ in s.unscored] == ["gamma"]
    assert s.false_positives[0][1] == "alpha" and s.misses == [("Nothing here", "beta")]
    assert (s.strong.tp, s.strong.fp) == (2, 0)          # the alpha in paper 2 is one sentence: weak
    assert s.overall.precision == pytest.approx(2 / 3) and s.overall.recall == pytest.approx(2 / 3)
    unrestricted = score(papers, mini)
    assert unrestricted.overall.fp == 2 and not unrestricted.unscored


def _fixture(tmp_path, labels, vocabulary="[alpha, beta]"):
    text = f"""\
sampling:
  seed: 1
  minimum: 1
  venue_years: [[V, 2020]]
  vocabulary: {vocabulary}
papers:
- venue: V
  year: 2020
  title: A paper
  abstract: ''
  techniques: {labels}
"""
    path = tmp_path / "blind.yaml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("labels, vocabulary, message, line", [
    ("[alpha, nope]", "[alpha, beta]", "unknown technique 'nope'", 11),
    ("[a1]", "[alpha, beta]", "unknown technique 'a1'", 11),
    ("[gamma]", "[alpha, beta]", "not in the sampling vocabulary", 11),
    ("alpha", "[alpha, beta]", "'techniques' must be a list", 11),
])
def test_bad_fixtures_name_file_and_line(tmp_path, mini, labels, vocabulary, message, line):
    path = _fixture(tmp_path, labels, vocabulary)
    with pytest.raises(CurationError, match=message) as info:
        load_blind_set(path, mini.taxonomy)
    assert info.value.line == line and info.value.file == str(path)


def test_draw_is_seeded_and_holds_out_whole_venue_years():
    rng = random.Random(0)
    records = [{"venue": v, "year": y, "title": f"{v}{y}-{i}", "abstract": ""}
               for v in ("A", "B", "C") for y in (2020, 2021) for i in range(rng.randint(5, 30))]
    drawn = draw_venue_years(records, seed=3, minimum=40)
    assert drawn == draw_venue_years(list(reversed(records)), seed=3, minimum=40)
    sizes = [sum(1 for r in records if (r["venue"], r["year"]) == p) for p in drawn]
    assert sum(sizes) >= 40 and sum(sizes[:-1]) < 40
    assert drawn != draw_venue_years(records, seed=4, minimum=40)


def test_check_sample_detects_a_changed_fixture(tmp_path, mini):
    records = [{"venue": "V", "year": 2020, "title": "A paper", "abstract": ""}]
    blind = load_blind_set(_fixture(tmp_path, "[alpha]"), mini.taxonomy)
    assert check_sample(blind, records) == []
    records[0]["title"] = "Another paper"
    assert check_sample(blind, records) and "differ" in check_sample(blind, records)[0]


def test_sample_method_skips_excluded_papers_and_is_seeded(tmp_path, mini):
    records = [{"venue": v, "year": 2020, "title": f"{v}{i}", "abstract": ""} for v in "AB" for i in range(10)]
    text = _fixture(tmp_path, "[alpha]").read_text(encoding="utf-8")
    path = tmp_path / "sampled.yaml"
    path.write_text(text.replace("  seed: 1\n", "  method: sample\n  seed: 1\n"), encoding="utf-8")
    blind = load_blind_set(path, mini.taxonomy)
    excluded = {("B0", ""), ("B1", "")}
    (drawn,) = drawn_records(blind, records, excluded)       # minimum 1, outside V 2020 (all of them)
    rest = [r for r in records if (r["title"], "") not in excluded]
    assert drawn == rest[random.Random(1).sample(range(len(rest)), 1)[0]]
    assert check_sample(blind, records, excluded)            # the fixture's one paper is not that draw


@pytest.mark.corpus
@pytest.mark.skipif(CORPUS is None, reason="set ATLAS_CORPUS to the systems corpus to run this (slow, optional)")
def test_fixtures_are_the_seeded_draws_from_the_corpus_and_coverage_holds(capsys):
    """Optional: re-draw every sample from the real corpus and measure coverage (not in the default run)."""
    for fixture in (BLIND, TUNING, BLIND2, BLIND3, BLIND4, BLIND5):
        cli_main(["evaluate", "--blind", str(fixture), "--corpus", str(CORPUS)])
        captured = capsys.readouterr()
        assert "sample mismatch" not in captured.err, (fixture, captured.err)
    line = next(l for l in captured.out.splitlines() if l.startswith("coverage, whole corpus"))
    covered, total = map(int, line.split(": ")[1].split(" = ")[0].split("/"))
    assert total == len(CORPUS.read_text(encoding="utf-8").splitlines()) and covered / total >= 0.95
