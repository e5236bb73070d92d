"""The tagger's ranker: the model file, its features on real papers, its decisions, and its training."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
from pathlib import Path

import numpy as np
import pytest
import yaml

from build_graph.cli import main as cli_main
from build_graph.curation import REFERENCE_DIR
from build_graph.devtools import train_tagger as tt
from build_graph.devtools.blind_eval import load_blind_set
from build_graph.errors import CurationError
from build_graph.ranker import FEATURES, MODEL_FILE, RankerModel, Structure
from build_graph.tagging import Tagger, rule_verdicts
from build_graph.taxonomy import load_taxonomy

FIXTURES = Path(__file__).resolve().parent / "fixtures"
TAXONOMY = REFERENCE_DIR / "taxonomy.yaml"


@pytest.fixture(scope="module")
def taxonomy():
    return load_taxonomy(TAXONOMY)


@pytest.fixture(scope="module")
def model() -> RankerModel:
    return RankerModel.load()


@pytest.fixture(scope="module")
def ranked(taxonomy) -> Tagger:
    return Tagger(taxonomy)


@pytest.fixture(scope="module")
def rules(taxonomy) -> Tagger:
    return Tagger(taxonomy, model=None)


def _feature(x: np.ndarray, row: int, name: str) -> float:
    return float(x[row, FEATURES.index(name)])


# -- the model file ------------------------------------------------------------------

def test_model_file_says_how_it_was_made(model, taxonomy):
    p = model.provenance
    assert p["command"] == "python -m build_graph train-tagger"
    assert p["commit"] and p["trained"]
    assert set(p["fixtures"]) == set(tt.LABELLED)
    for name, entry in p["fixtures"].items():
        # Relabelling a fixture without retraining fails here.
        assert entry["sha256"] == hashlib.sha256((FIXTURES / name).read_bytes()).hexdigest()[:16], name
        assert entry["papers"] == len(load_blind_set(FIXTURES / name, taxonomy).papers)
    assert sum(e["papers"] for e in p["fixtures"].values()) == 1118
    assert set(p["cross_validation"]) == set(tt.LABELLED)
    assert model.features == list(FEATURES) and len(model.weights) == len(FEATURES)
    assert 0 < model.threshold <= model.threshold_strong < 1
    assert len(model.vocabulary) == len(model.idf) and model.vocabulary == sorted(model.vocabulary)


def test_cross_validated_figures_beat_the_rules(model):
    """The stored leave-one-fixture-out figures: the ranker must beat the phrase rules on papers it never saw."""
    folds = list(model.provenance["cross_validation"].values())
    mean = lambda f: sum(map(f, folds)) / len(folds)            # noqa: E731
    rules_p, rules_r = mean(lambda f: f["rules"]["precision"]), mean(lambda f: f["rules"]["recall"])
    model_p, model_r = mean(lambda f: f["model"]["precision"]), mean(lambda f: f["model"]["recall"])
    assert model_p >= rules_p + 0.05
    assert 2 * model_p * model_r / (model_p + model_r) > 2 * rules_p * rules_r / (rules_p + rules_r)


@pytest.mark.parametrize("change, message", [
    (lambda d: d.update(format=99), "unknown tagger model format"),
    (lambda d: d.update(features=d["features"][:-1]), "features differ"),
])
def test_a_bad_model_file_names_itself(tmp_path, change, message):
    data = json.loads(MODEL_FILE.read_text(encoding="utf-8"))
    change(data)
    path = tmp_path / "model.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(CurationError, match=message) as info:
        RankerModel.load(path)
    assert info.value.file == str(path)


def test_an_unreadable_model_file_names_itself(tmp_path):
    path = tmp_path / "model.json"
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(CurationError, match="cannot read the tagger model") as info:
        RankerModel.load(path)
    assert info.value.file == str(path)


# -- features on real papers -----------------------------------------------------------

def test_features_of_a_real_paper(taxonomy, ranked):
    """Orion (third blind set): FHE is named in the title and six abstract sentences, the first one included."""
    blind3 = load_blind_set(FIXTURES / "blind3_techniques.yaml", taxonomy)
    paper = next(p for p in blind3.papers if p.title.startswith("Orion:"))
    found = ranked.candidates(paper.title, paper.abstract)
    ranks, x = ranked.ranker.features(found)
    row = ranks.index(ranked.order.index("homomorphic-encryption"))
    assert _feature(x, row, "title") == 1.0
    assert _feature(x, row, "first_sentence") == 1.0
    assert _feature(x, row, "contribution") == 1.0          # "In this paper we address these challenges with Orion ... FHE"
    assert _feature(x, row, "incidental") == 0.0
    named = found.candidates[ranks[row]].named_in
    assert named >= 6 and _feature(x, row, "sentences") == pytest.approx(np.log1p(named))
    assert _feature(x, row, "share") == pytest.approx(named / found.sentence_count())
    assert _feature(x, row, "acronym") == 0.0 and _feature(x, row, "alias_words") == 3.0   # "Fully Homomorphic Encryption"
    assert _feature(x, row, "depth") == 1.0                 # directly under the privacy area
    assert _feature(x, row, "centroid_margin") == 0.0       # the closest of its candidates to its labelled papers
    assert 0.1 < _feature(x, row, "similarity") < 1 and 0.1 < _feature(x, row, "centroid") < 1
    _, p = ranked.ranker.probabilities(found)
    assert p[row] > 0.95
    assert [t.technique for t in ranked.tag(paper.title, paper.abstract)] == list(paper.techniques)


# (case, title, abstract, expected (technique, strength, field) with the ranker, the same with the rules alone)
DECISIONS = [
    ("title match kept and strong", "Tutel: Adaptive Mixture-of-Experts at Scale",
     "Sparsely-gated mixture-of-experts (MoE) has been widely adopted to scale deep learning models to trillion-plus "
     "parameters with fixed computational cost. We present Tutel, a highly scalable stack design and implementation "
     "for MoE with dynamically adaptive parallelism and pipelining.",
     [("mixture-of-experts", "strong", "title")], [("mixture-of-experts", "strong", "title")]),
    ("only hit incidental: dropped", "Sonar: Finding Slow Queries in Scientific Archives",
     "Scientific archives grow by petabytes each year and their users wait minutes for answers. We present Sonar, "
     "a tool that finds the queries that slow an archive down by replaying its access logs. Sonar ranks the culprits "
     "by their share of the wait. On the logs of three observatories, Sonar finds the slowest queries in seconds, and "
     "fixing them cuts waiting time by 35% compared to existing tools such as caching proxies, prefetchers, and "
     "replication managers.", [], []),
    ("a word without its sense is no candidate", "Music Transcription with Learned Note Grids",
     "We study automatic transcription of piano recordings into scores. Common transformations (quantization, "
     "removing voices) lose information; we propose a learned grid that keeps it.", [], []),
]


@pytest.mark.parametrize("case, title, abstract, expected, expected_rules", DECISIONS, ids=[d[0] for d in DECISIONS])
def test_decisions(ranked, rules, case, title, abstract, expected, expected_rules):
    assert [(t.technique, t.strength, t.field) for t in ranked.tag(title, abstract)] == expected
    assert [(t.technique, t.strength, t.field) for t in rules.tag(title, abstract)] == expected_rules


def test_strength_follows_the_probability(taxonomy, ranked, model):
    """Every tag of a known technique: strong at threshold_strong or more, weak between the two thresholds."""
    blind2 = load_blind_set(FIXTURES / "blind2_techniques.yaml", taxonomy)
    seen = set()
    for paper in blind2.papers:
        found = ranked.candidates(paper.title, paper.abstract)
        if not found.candidates:
            continue
        ranks, p = ranked.ranker.probabilities(found)
        prob = {ranked.order[r]: q for r, q in zip(ranks, p.tolist())}
        for tag in ranked.tag(paper.title, paper.abstract):
            q = prob[tag.technique]
            assert q >= model.threshold
            assert tag.strength == ("strong" if q >= model.threshold_strong else "weak")
            assert tag.matched and tag.matched.lower() in tag.evidence.lower()     # evidence kept
            seen.add(tag.strength)
    assert seen == {"strong", "weak"}


def test_same_inputs_same_tags(taxonomy, ranked):
    other = Tagger(taxonomy)
    tuning = load_blind_set(FIXTURES / "tuning_techniques.yaml", taxonomy)
    for paper in tuning.papers:
        assert ranked.tag(paper.title, paper.abstract) == other.tag(paper.title, paper.abstract)
        found = ranked.candidates(paper.title, paper.abstract)
        if found.candidates:
            assert np.array_equal(ranked.ranker.probabilities(found)[1], other.ranker.probabilities(found)[1])


def test_a_batch_gives_what_one_by_one_gives(taxonomy, ranked):
    """The build tags in batches (jobs of texts); a paper's tags and probabilities must not depend on its batch."""
    blind3 = load_blind_set(FIXTURES / "blind3_techniques.yaml", taxonomy)
    texts = [(p.title, p.abstract) for p in blind3.papers] + [(None, ""), ("", "No technique here at all.")]
    assert ranked.tag_many(texts) == [ranked.tag(title, abstract) for title, abstract in texts]
    founds = [f for f in (ranked.candidates(t, a) for t, a in texts) if f.candidates]
    batch = ranked.ranker.probabilities_many(founds)
    for found, (ranks, p) in zip(founds, batch):
        alone = ranked.ranker.probabilities(found)
        assert ranks == alone[0] and np.array_equal(p, alone[1])
    assert ranked.tag_many([]) == []


# -- techniques the model does not know ------------------------------------------------------

def test_a_technique_new_since_training_keeps_the_rules_verdict(taxonomy, ranked, rules, model):
    """Find papers where the ranker and the rules disagree on a technique; unknown to the model, the rules decide."""
    blind = load_blind_set(FIXTURES / "blind_techniques.yaml", taxonomy)
    disagreements = []
    for paper in blind.papers:
        mine = {t.technique: t.strength for t in ranked.tag(paper.title, paper.abstract)}
        theirs = {t.technique: t.strength for t in rules.tag(paper.title, paper.abstract)}
        disagreements += [(paper, tid) for tid in set(mine) | set(theirs) if mine.get(tid) != theirs.get(tid)]
    assert len(disagreements) > 20
    for paper, tid in disagreements[:10]:
        techniques = {k: v for k, v in model.techniques.items() if k != tid}
        tagger = Tagger(taxonomy, model=dataclasses.replace(model, techniques=techniques))
        assert not tagger.ranker.known[tagger.order.index(tid)]
        found = tagger.candidates(paper.title, paper.abstract)
        verdict = rule_verdicts(found).get(tagger.order.index(tid))
        chosen = tagger.ranker.choose(found)
        assert chosen.get(tagger.order.index(tid)) == verdict


def test_a_taxonomy_of_its_own_is_tagged_by_the_rules(tmp_path):
    path = tmp_path / "taxonomy.yaml"
    path.write_text("""\
areas:
  - id: things
    name: Things
    description: Everything in this test.
techniques:
  - id: widgets
    name: Widget scheduling
    parent: things
    description: Scheduling widgets.
    aliases: [widget scheduling]
    examples: ["Widget scheduling is hard."]
""", encoding="utf-8")
    taxonomy = load_taxonomy(path)
    tagger = Tagger(taxonomy)
    assert tagger.ranker is not None and not any(tagger.ranker.known)
    text = "We evaluate on a cluster. Our implementation outperforms widget scheduling by 20%."
    assert tagger.tag("Widget scheduling for all", "") == Tagger(taxonomy, model=None).tag("Widget scheduling for all", "")
    assert tagger.tag(None, text) == Tagger(taxonomy, model=None).tag(None, text) == []


# -- training ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def all_rows(rules):
    return tt.load_rows(rules, [FIXTURES / name for name in tt.LABELLED])


def test_training_reproduces_the_committed_weights_and_the_runtime_features(rules, all_rows, model, taxonomy):
    """A fit on all 818 papers gives the committed weights, and the tagger computes the features the fit saw."""
    fitted = tt.Fitted(rules, Structure(rules), all_rows)
    assert np.allclose(fitted.weights, model.weights, atol=2e-6) and fitted.bias == pytest.approx(model.bias, abs=2e-6)
    assert fitted.space.vocabulary == model.vocabulary
    tagger = Tagger(taxonomy, model=fitted.model(model.threshold, model.threshold_strong, {}))
    for row in all_rows[:200]:
        if not row.ranks:
            continue
        ranks, p = tagger.ranker.probabilities(row.found)
        runtime = dict(zip(ranks, p.tolist()))
        assert np.allclose([runtime[r] for r in row.ranks], fitted.probabilities(row), atol=1e-9), row.title


def test_fit_is_deterministic_and_learns_the_obvious():
    """Newton's method from zero: the same data gives the same weights; a separating feature gets a positive weight."""
    x = np.array([[0.0, 1.0], [1.0, 0.0], [1.0, 1.0], [0.0, 0.0]] * 5)
    y = np.array([0.0, 1.0, 1.0, 0.0] * 5)
    w1, b1 = tt.fit_logistic(x, y, 1.0)
    w2, b2 = tt.fit_logistic(x, y, 1.0)
    assert np.array_equal(w1, w2) and b1 == b2
    assert w1[0] > 1 and abs(w1[1]) < 0.5


def _tiny_fixtures(tmp_path: Path, papers: int) -> list[Path]:
    out = []
    for name in tt.LABELLED:
        data = yaml.safe_load((FIXTURES / name).read_text(encoding="utf-8"))
        data["papers"] = data["papers"][:papers]
        path = tmp_path / name
        path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
        out.append(path)
    return out


def test_training_at_tiny_scale_is_byte_for_byte_reproducible(tmp_path, taxonomy):
    fixtures = _tiny_fixtures(tmp_path, 25)
    first, results, _ = tt.train(taxonomy, TAXONOMY, fixtures, "test")
    second, _, _ = tt.train(taxonomy, TAXONOMY, fixtures, "test")
    assert first.to_json() == second.to_json()
    assert [r.papers for r in results] == [25] * len(tt.LABELLED)
    assert json.loads(first.to_json())["provenance"]["fixtures"]["blind3_techniques.yaml"]["papers"] == 25


def test_learning_curve_trains_on_every_subset_and_ends_at_leave_one_out(tmp_path, rules):
    """The last point (train on all the other fixtures) is the leave-one-fixture-out figure; each
    smaller size scores every held-out paper once per subset of the others."""
    fixtures = _tiny_fixtures(tmp_path, 40)
    rows = tt.load_rows(rules, fixtures)
    n = len(fixtures)
    points = tt.learning_curve(rules, rows, n, thresholds=(0.35,))
    assert [p.fixtures for p in points] == list(range(1, n))
    assert [p.papers for p in points] == [40 * k for k in range(1, n)]
    labels = sum(len(r.labels) for r in rows)
    for k, point in enumerate(points, start=1):       # every k-subset of the n - 1 other fixtures, per held-out one
        f = point.figures[0.35]
        assert f.tp + f.fn == labels * math.comb(n - 1, k)
    loo = tt.model_figures(rules, rows, tt.held_out(rules, Structure(rules), rows, list(range(n))), 0.35)
    last = points[-1].figures[0.35]
    assert (last.tp, last.fp, last.fn) == (loo.tp, loo.fp, loo.fn)


@pytest.mark.slow
def test_training_reproduces_the_committed_model_file(capsys):
    """The whole training (cross-validation included) writes the committed file, apart from its date and commit."""
    assert cli_main(["train-tagger", "--check"]) == 0, capsys.readouterr().err


# -- the commands ---------------------------------------------------------------------------

def test_evaluate_reports_the_ranker_and_warns_on_its_training_data(capsys):
    cli_main(["evaluate", "--blind", str(FIXTURES / "tuning_techniques.yaml")])
    out = capsys.readouterr().out
    assert "tagger: phrase rules + ranker" in out and "trained on this fixture" in out
    cli_main(["evaluate", "--blind", str(FIXTURES / "tuning_techniques.yaml"), "--rules-only"])
    out = capsys.readouterr().out
    assert "tagger: phrase rules only" in out and "trained on this fixture" not in out


@pytest.mark.slow
def test_train_tagger_cv_prints_every_fold(capsys):
    assert cli_main(["train-tagger", "--cv"]) == 0
    out = capsys.readouterr().out
    for name in tt.LABELLED:
        assert name in out
    assert "mean of folds" in out and "held-out predictions" in out
