"""The curated taxonomy loads, is shaped as promised, and bad edits are caught at the right line."""

from __future__ import annotations

from pathlib import Path

import pytest

from build_graph.curation import REFERENCE_DIR
from build_graph.errors import TaxonomyError
from build_graph.taxonomy import Taxonomy, load_taxonomy

ROOT = Path(__file__).resolve().parent.parent
TAXONOMY = REFERENCE_DIR / "taxonomy.yaml"


@pytest.fixture(scope="module")
def taxonomy() -> Taxonomy:
    return load_taxonomy(TAXONOMY)


def test_real_taxonomy_has_enough_techniques_and_areas(taxonomy):
    assert len(taxonomy.leaves()) >= 80
    assert 8 <= len(taxonomy.areas()) <= 14


def test_every_technique_reaches_an_area(taxonomy):
    areas = {a.id for a in taxonomy.areas()}
    for tech in taxonomy.leaves():
        assert tech.parent is not None
        assert taxonomy.area_of(tech.id) in areas
        assert taxonomy.ancestors(tech.id)[-1] == taxonomy.area_of(tech.id)


def test_areas_have_no_parent_and_no_patterns(taxonomy):
    for area in taxonomy.areas():
        assert area.parent is None and area.is_area
        assert not area.aliases and not area.acronyms


def test_every_area_has_techniques(taxonomy):
    for area in taxonomy.areas():
        assert taxonomy.children(area.id), area.id


def test_file_order_and_helpers(taxonomy):
    ids = list(taxonomy.techniques)
    assert ids[:len(taxonomy.areas())] == [a.id for a in taxonomy.areas()]
    assert "pipeline-parallelism" in taxonomy.children("model-parallelism")
    assert taxonomy.ancestors("pipeline-parallelism") == ["model-parallelism", "parallelism"]
    assert taxonomy.area_of("parallelism") == "parallelism"
    assert taxonomy["cxl-memory"].line > 0


def test_descriptions_are_sentences(taxonomy):
    for tech in taxonomy.techniques.values():
        assert tech.description.endswith("."), tech.id
        assert len(tech.description.split()) >= 6, tech.id


GOOD_HEAD = """\
areas:
  - id: area-one
    name: Area one
    description: An area for tests.
techniques:
"""

GOOD_TECHNIQUE = """\
  - id: good-technique
    name: Good technique
    parent: area-one
    description: A technique that is fine.
    aliases: [good thing]
    acronyms: [GT]
    examples:
      - "A good thing (GT) happens."
"""

# (case, snippet appended after GOOD_HEAD + GOOD_TECHNIQUE, text expected in the message).
# The line the error must name is marked "# <-- here" in the snippet.
BROKEN = [
    ("duplicate-id", """\
  - id: good-technique  # <-- here
    name: Again
    parent: area-one
    description: Same id twice.
    aliases: [other thing]
    examples: ["An other thing."]
""", "duplicate id"),
    ("unknown-parent", """\
  - id: orphan
    name: Orphan
    parent: no-such-area  # <-- here
    description: Parent does not exist.
    aliases: [orphan thing]
    examples: ["An orphan thing."]
""", "unknown parent"),
    ("cycle", """\
  - id: first-in-cycle
    name: First
    parent: second-in-cycle  # <-- here
    description: Part of a cycle.
    aliases: [first thing]
    examples: ["A first thing."]
  - id: second-in-cycle
    name: Second
    parent: first-in-cycle
    description: Part of a cycle.
    aliases: [second thing]
    examples: ["A second thing."]
""", "parent cycle"),
    ("alias-matches-no-example", """\
  - id: lonely
    name: Lonely
    parent: area-one
    description: One alias is never exercised.
    aliases:
      - lonely thing
      - never mentioned phrase  # <-- here
    examples: ["A lonely thing."]
""", "matches none of its examples"),
    ("acronym-matches-no-example", """\
  - id: shouty
    name: Shouty
    parent: area-one
    description: The acronym only appears in lower case.
    aliases: [shouty thing]
    acronyms: [SHT]  # <-- here
    examples: ["A shouty thing, or sht."]
""", "matches none of its examples"),
    ("counterexample-matches", """\
  - id: strict
    name: Strict
    parent: area-one
    description: A counterexample that is matched.
    aliases: [strict thing]
    examples: ["A strict thing."]
    counterexamples:
      - "Nothing here."
      - "Another strict thing."  # <-- here
""", "counterexample"),
    ("context-word-not-a-word", """\
  - id: wordy
    name: Wordy
    parent: area-one
    description: A context entry with a space.
    aliases: [wordy thing]
    examples: ["A wordy thing with weights."]
    context:
      - weights
      - two words  # <-- here
""", "must be one lower-case word"),
    ("context-term-unknown", """\
  - id: picky
    name: Picky
    parent: area-one
    description: Context for a term it does not have.
    aliases: [picky thing]
    examples: ["A picky thing with weights."]
    context: [weights]
    context_terms:
      - picky stuff  # <-- here
""", "is not one of its aliases or acronyms"),
    ("example-without-its-sense", """\
  - id: senseless
    name: Senseless
    parent: area-one
    description: The only example lacks every context word.
    aliases:
      - senseless thing  # <-- here
    examples: ["A senseless thing alone."]
    context: [weights, bits]
""", "only without its sense"),
    ("counterexample-matched-in-sense", """\
  - id: sensible
    name: Sensible
    parent: area-one
    description: A counterexample that keeps the sense.
    aliases: [sensible thing]
    examples: ["A sensible thing with weights."]
    context: [weights]
    counterexamples:
      - "A sensible thing near bits."
      - "A sensible thing near weights."  # <-- here
""", "counterexample"),
    ("covered-by-unknown", """\
  - id: covered
    name: Covered
    parent: area-one
    description: Covered by something that is not there.
    aliases: [covered thing]
    examples: ["A covered thing."]
    covered_by:
      - no-such-technique  # <-- here
""", "not another technique"),
    ("require-strong-not-a-flag", """\
  - id: flaggy
    name: Flaggy
    parent: area-one
    description: A flag with a string value.
    aliases: [flaggy thing]
    examples: ["A flaggy thing."]
    require_strong: sometimes  # <-- here
""", "must be true or false"),
    ("unknown-key", """\
  - id: typo
    name: Typo
    parent: area-one
    description: Has a misspelt key.
    aliases: [typo thing]
    examples: ["A typo thing."]
    comment: this key does not exist  # <-- here
""", "unknown key 'comment'"),
]


def _write(tmp_path: Path, name: str, *snippets: str) -> tuple[Path, list[int]]:
    """Write a taxonomy made of the good part plus ``snippets``; return it and the marked lines."""
    text = GOOD_HEAD + GOOD_TECHNIQUE + "".join(snippets)
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path, [n for n, line in enumerate(text.splitlines(), start=1) if "# <-- here" in line]


@pytest.mark.parametrize("case, snippet, text", BROKEN, ids=[b[0] for b in BROKEN])
def test_broken_taxonomy_is_reported_at_the_line(tmp_path, case, snippet, text):
    path, (line,) = _write(tmp_path, f"{case}.yaml", snippet)
    with pytest.raises(TaxonomyError) as info:
        load_taxonomy(path)
    message = str(info.value)
    assert f"{path}:{line}: " in message, message
    assert text in message
    assert any(n == line and text in p for n, p in info.value.problems)


def test_all_problems_are_listed_together(tmp_path):
    path, lines = _write(tmp_path, "many.yaml", BROKEN[1][1], next(b[1] for b in BROKEN if b[0] == "unknown-key"))
    with pytest.raises(TaxonomyError) as info:
        load_taxonomy(path)
    assert [n for n, _ in info.value.problems] == lines
    assert all(f"{path}:{n}: " in str(info.value) for n in lines)
    assert info.value.line == lines[0]


def test_the_good_snippet_loads(tmp_path):
    path = tmp_path / "good.yaml"
    path.write_text(GOOD_HEAD + GOOD_TECHNIQUE, encoding="utf-8")
    tax = load_taxonomy(path)
    assert list(tax.techniques) == ["area-one", "good-technique"]
    assert tax["good-technique"].acronyms == ["GT"]
    assert tax.examples["good-technique"] == ["A good thing (GT) happens."]


@pytest.mark.parametrize("snippet, text", [
    ("  - id: Bad_Id\n    name: Bad\n    parent: area-one\n    description: Not kebab case.\n"
     "    aliases: [bad thing]\n    examples: ['A bad thing.']\n", "kebab-case"),
    ("  - id: no-desc\n    name: No description\n    parent: area-one\n"
     "    aliases: [nodesc thing]\n    examples: ['A nodesc thing.']\n", "missing required key 'description'"),
    ("  - id: no-patterns\n    name: Nothing\n    parent: area-one\n    description: Cannot be tagged.\n"
     "    examples: ['Whatever.']\n", "can never be tagged"),
    ("  - id: lower-acronym\n    name: Lower\n    parent: area-one\n    description: Acronym in lower case.\n"
     "    aliases: [lower thing]\n    acronyms: [npm]\n    examples: ['A lower thing, npm.']\n", "all lower-case"),
    ("  - id: thief\n    name: Thief\n    parent: area-one\n    description: Reuses an alias.\n"
     "    aliases: [good things]\n    examples: ['Good things.']\n", "already used by 'good-technique'"),
])
def test_other_checks(tmp_path, snippet, text):
    path = tmp_path / "other.yaml"
    path.write_text(GOOD_HEAD + GOOD_TECHNIQUE + snippet, encoding="utf-8")
    with pytest.raises(TaxonomyError, match=text):
        load_taxonomy(path)


def test_invalid_yaml_is_a_taxonomy_error_with_line(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text(GOOD_HEAD + "  - id: [unclosed\n", encoding="utf-8")
    with pytest.raises(TaxonomyError) as info:
        load_taxonomy(path)
    assert info.value.file == str(path) and info.value.line


def test_yaml_aliases_are_refused(tmp_path):
    path = tmp_path / "anchors.yaml"
    path.write_text(GOOD_HEAD + GOOD_TECHNIQUE.replace("[good thing]", "&a [good thing]")
                    + "  - id: copy\n    name: Copy\n    parent: area-one\n    description: Uses an anchor.\n"
                    "    aliases: *a\n    examples: ['x']\n", encoding="utf-8")
    with pytest.raises(TaxonomyError, match="aliases"):
        load_taxonomy(path)


# Texts that only the tagger's own rules judge right: "İ" lower-cases to two
# characters, Unicode hyphens are hyphens (so "inter‐dash thing" is a compound,
# not a mention), and a match is quoted from the original text.
DASH_TECHNIQUE = """\
  - id: dashes
    name: Dashes
    parent: area-one
    description: Only matched through the normalised text.
    aliases: [dash thing]
    examples: ["\u0130\u0130 A DASH\u2010THINGS layer."]
    counterexamples: ["An inter\u2010dash thing.", "%s"]
"""


def test_validation_and_tagging_agree(tmp_path):
    """An example the check accepts is tagged; a counterexample it lets pass is not, one it rejects is."""
    from build_graph.tagging import Tagger
    path = tmp_path / "dashes.yaml"
    path.write_text(GOOD_HEAD + GOOD_TECHNIQUE + DASH_TECHNIQUE % "No dash here.", encoding="utf-8")
    tagger = Tagger(load_taxonomy(path))
    assert [(t.technique, t.matched) for t in tagger.tag("\u0130\u0130 A DASH\u2010THINGS layer.", "")] == \
        [("dashes", "DASH\u2010THINGS")]
    assert tagger.tag("An inter\u2010dash thing.", "") == []
    matched = "\u0130 Dash\u2013Things"
    assert [t.matched for t in tagger.tag(matched, "")] == ["Dash\u2013Things"]
    path.write_text(GOOD_HEAD + GOOD_TECHNIQUE + DASH_TECHNIQUE % matched, encoding="utf-8")
    with pytest.raises(TaxonomyError) as info:
        load_taxonomy(path)
    assert [p for _, p in info.value.problems] == \
        ["counterexample of 'dashes' is matched (by 'Dash\u2013Things')"]


def test_validation_uses_the_taggers_matcher(tmp_path, monkeypatch):
    from build_graph import tagging, taxonomy
    assert taxonomy.find_term is tagging.find_term
    calls = []

    def spy(term, text, acronym=False):
        calls.append((term, text, acronym))
        return tagging.find_term(term, text, acronym)

    monkeypatch.setattr(taxonomy, "find_term", spy)
    path = tmp_path / "good.yaml"
    path.write_text(GOOD_HEAD + GOOD_TECHNIQUE, encoding="utf-8")
    load_taxonomy(path)
    assert calls == [("good thing", "A good thing (GT) happens.", False), ("GT", "A good thing (GT) happens.", True)]


# -- matching with its sense ------------------------------------------------------

def test_every_counterexample_is_not_tagged_by_the_real_tagger(taxonomy):
    """Each counterexample, as an abstract and as a title, never gets its technique (incidental filter off)."""
    from build_graph.tagging import Tagger
    tagger = Tagger(taxonomy, skip_incidental=False)
    checked = 0
    for tid, texts in taxonomy.counterexamples.items():
        for text in texts:
            assert tid not in [t.technique for t in tagger.tag(None, text)], (tid, text)
            assert tid not in [t.technique for t in tagger.tag(text, "")], (tid, text)
            checked += 1
    assert checked == sum(len(v) for v in taxonomy.counterexamples.values()) >= 15


# The six confusions of issue 15, each a counterexample of the technique it was wrongly tagged with.
CONFUSIONS = [
    ("quantization", "music"),
    ("replication", "replica exchange"),
    ("datacenter-networks", "neural network"),
    ("bayesian-optimization", "Gaussian process"),
    ("web-systems", "ad placement"),
    ("backdoor-attacks", "bad training data"),
]


@pytest.mark.parametrize("technique, phrase", CONFUSIONS, ids=[c[0] for c in CONFUSIONS])
def test_the_six_confusions_are_counterexamples(taxonomy, technique, phrase):
    texts = taxonomy.counterexamples[technique]
    assert any(phrase.lower() in t.lower() for t in texts), texts


def test_every_example_is_tagged_with_its_technique(taxonomy):
    """Examples are positive: with the incidental filter off, each example that names one of its
    technique's terms is tagged with that technique, or with a more specific one that covers it
    (a longer match of another technique may take the words, as the tagger intends)."""
    from build_graph.tagging import Tagger, find_term
    tagger = Tagger(taxonomy, skip_incidental=False)
    for tech in taxonomy.leaves():
        terms = [(a, False) for a in tech.aliases] + [(a, True) for a in tech.acronyms]
        tagged_somewhere = False
        for text in taxonomy.examples[tech.id]:
            if any(find_term(t, text, a) for t, a in terms):
                # As a title too: a single abstract sentence never tags a require_strong technique.
                tags = [t.technique for t in tagger.tag(None, text) + tagger.tag(text, "")]
                tagged_somewhere |= tech.id in tags or any(c in tags for c in tech.covered_by)
        assert tagged_somewhere, tech.id
