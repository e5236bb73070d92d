"""A second labeller against the first: the sample file's checks, the counts, and the real fixture."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from build_graph.cli import main as cli_main
from build_graph.curation import REFERENCE_DIR
from build_graph.devtools.blind_eval import load_blind_set, score
from build_graph.devtools.label_agreement import agreement, load_second_labels
from build_graph.errors import CurationError
from build_graph.tagging import Tagger
from build_graph.taxonomy import load_taxonomy

FIXTURES = Path(__file__).resolve().parent / "fixtures"
SECOND = FIXTURES / "blind4_second_labels.yaml"

MINI = """\
areas:
  - id: a1
    name: Area one
    description: The first area of these tests.
techniques:
  - id: alpha
    name: Alpha
    parent: a1
    description: The alpha technique of the tests.
    aliases: [alpha method]
    examples: ["An alpha method."]
  - id: beta
    name: Beta
    parent: a1
    description: The beta technique of the tests.
    aliases: [beta method]
    examples: ["A beta method."]
  - id: gamma
    name: Gamma
    parent: a1
    description: A technique newer than the labels.
    aliases: [gamma method]
    examples: ["A gamma method."]
"""

BLIND = """\
sampling:
  seed: 1
  minimum: 1
  venue_years: [[V, 2020]]
  vocabulary: [alpha, beta]
papers:
- {venue: V, year: 2020, title: Alpha method, abstract: '', techniques: [alpha]}
- {venue: V, year: 2020, title: Beta method and gamma method, abstract: '', techniques: [alpha, beta]}
- {venue: V, year: 2020, title: Nothing at all, abstract: '', techniques: [beta]}
- {venue: V, year: 2020, title: Alpha method and beta method, abstract: '', techniques: [alpha, beta]}
"""

SECOND_MINI = """\
of: blind.yaml
sample: {seed: 7, papers: 4}
papers:
- {index: 0, title: Alpha method, techniques: [alpha]}
- {index: 1, title: Beta method and gamma method, techniques: [beta]}
- {index: 2, title: Nothing at all, techniques: [alpha]}
- {index: 3, title: Alpha method and beta method, techniques: [alpha, beta]}
"""


@pytest.fixture
def mini(tmp_path):
    (tmp_path / "taxonomy.yaml").write_text(MINI, encoding="utf-8")
    (tmp_path / "blind.yaml").write_text(BLIND, encoding="utf-8")
    return tmp_path, Tagger(load_taxonomy(tmp_path / "taxonomy.yaml"))


def test_agreement_counts_both_labellers_and_the_tagger_against_each(mini):
    folder, tagger = mini
    (folder / "second.yaml").write_text(SECOND_MINI, encoding="utf-8")
    second = load_second_labels(folder / "second.yaml", tagger.taxonomy)
    result = agreement(second, tagger)
    s = result.second_vs_first
    # second's 5 labels: 4 the first gave too, 1 (alpha on paper 2) it did not; the first's alpha on paper 1
    # and beta on paper 2 the second did not give.
    assert (s.tp, s.fp, s.fn) == (4, 1, 2) and result.identical == 2 and result.papers == 4
    # The tagger finds alpha (0), beta (1; gamma is newer than the labels: not scored), nothing (2), alpha+beta (3).
    first, other, both = (result.tagger[w] for w in ("first", "second", "both"))
    assert (first.tp, first.fp, first.fn) == (4, 0, 2)
    assert (other.tp, other.fp, other.fn) == (4, 0, 1)
    assert (both.tp, both.fp, both.fn) == (4, 0, 0)


def test_the_sample_is_the_seeded_one(mini):
    folder, tagger = mini
    expected = sorted(random.Random(3).sample(range(4), 2))
    titles = ["Alpha method", "Beta method and gamma method", "Nothing at all", "Alpha method and beta method"]
    rows = "\n".join(f"- {{index: {i}, title: {titles[i]}, techniques: []}}" for i in expected)
    (folder / "second.yaml").write_text(f"of: blind.yaml\nsample: {{seed: 3, papers: 2}}\npapers:\n{rows}\n",
                                        encoding="utf-8")
    assert load_second_labels(folder / "second.yaml", tagger.taxonomy).indices == tuple(expected)


@pytest.mark.parametrize("change, message, line", [
    (("index: 2, title: Nothing", "index: 3, title: Nothing"), "expected index 2 here", 6),
    (("title: Nothing at all", "title: Something else"), "title differs from paper 2 of blind.yaml", 6),
    (("[alpha]}\n- {index: 3", "[nope]}\n- {index: 3"), "unknown technique 'nope'", 6),
    (("[alpha]}\n- {index: 3", "[gamma]}\n- {index: 3"), "'gamma' is not in blind.yaml's vocabulary", 6),
    (("[alpha]}\n- {index: 3", "alpha}\n- {index: 3"), "'techniques' must be a list", 6),
    (("papers: 4}", "papers: 3}"), "expected 3 papers", 3),
    (("papers: 4}", "papers: 9}"), "between 1 and 4", 2),
    (("of: blind.yaml", "of: missing.yaml"), "'of' must name a blind-set fixture", 1),
])
def test_a_bad_second_labels_file_names_file_and_line(mini, change, message, line):
    folder, tagger = mini
    path = folder / "second.yaml"
    path.write_text(SECOND_MINI.replace(*change), encoding="utf-8")
    with pytest.raises(CurationError, match=message) as info:
        load_second_labels(path, tagger.taxonomy)
    assert info.value.file == str(path) and info.value.line == line


def test_the_fourth_blind_sets_second_labeller_as_documented(capsys):
    """docs/tagging.md, "How consistent the labels are": the labellers' counts (fixed data), and the
    tagger's figures against the first labels, which must be the blind-set scoring of the same papers."""
    taxonomy = load_taxonomy(REFERENCE_DIR / "taxonomy.yaml")
    second = load_second_labels(SECOND, taxonomy)
    s = agreement(second, Tagger(taxonomy)).second_vs_first
    assert (s.tp + s.fn, s.tp + s.fp, s.tp) == (247, 221, 211)
    assert s.precision >= 0.95 and s.recall >= 0.85
    tagger = Tagger(taxonomy)
    result = agreement(second, tagger)
    blind = load_blind_set(FIXTURES / "blind4_techniques.yaml", taxonomy)
    same = score([blind.papers[i] for i in second.indices], tagger, blind.vocabulary).overall
    first = result.tagger["first"]
    assert (first.tp, first.fp, first.fn) == (same.tp, same.fp, same.fn)
    cli_main(["evaluate", "--second", str(SECOND)])
    out = capsys.readouterr().out
    assert "labels: first 247, second 221, both 211; papers labelled alike: 65 of 100" in out
    assert f"against the first labels       precision {first.precision:.3f}" in out
