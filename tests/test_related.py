"""Related-paper ranking: rarity-weighted shared techniques, shared authors,
same venue as a tie-breaker only, and a reason for every suggestion."""

from __future__ import annotations

import math

import pytest

from build_graph.model import Paper, TechniqueTag
from build_graph.related import AUTHOR_WEIGHT, SAME_VENUE, SAME_VENUE_YEAR, WEAK_FACTOR, related_papers


def paper(slug, techniques=(), authors=(), venue=None, year=None):
    return Paper(slug=slug, title=slug, label=slug, authors=list(authors), venue=venue, year=year,
                 techniques=[TechniqueTag(t, "e") for t in techniques])


def weak_paper(slug, strong=(), weak=()):
    tags = [TechniqueTag(t, "e") for t in strong] + [TechniqueTag(t, "e", strength="weak") for t in weak]
    return Paper(slug=slug, title=slug, label=slug, techniques=tags)


def ranked(papers, slug):
    return [r.slug for r in related_papers(papers)[slug]]


def test_rare_shared_technique_outranks_common_one():
    papers = [paper("p", ["common", "rare"]), paper("q-rare", ["rare"]), paper("r-common", ["common"])]
    papers += [paper(f"filler{i}", ["common"]) for i in range(6)]
    top = related_papers(papers)["p"]
    assert top[0].slug == "q-rare"
    n = len(papers)
    assert top[0].score == pytest.approx(math.log(1 + n / 2))
    assert top[1].score == pytest.approx(math.log(1 + n / 8))


@pytest.mark.parametrize("mine, theirs, factor", [
    ("strong", "strong", 1.0), ("weak", "strong", WEAK_FACTOR), ("strong", "weak", WEAK_FACTOR),
    ("weak", "weak", WEAK_FACTOR)])
def test_weak_tags_count_less(mine, theirs, factor):
    def make(slug, strength):
        return weak_paper(slug, **{strength: ["x"]})
    papers = [make("p", mine), make("q", theirs)] + [weak_paper(f"f{i}", ["y"]) for i in range(4)]
    top = related_papers(papers)["p"]
    assert top[0].slug == "q"
    assert top[0].score == pytest.approx(factor * math.log(1 + len(papers) / 2))


def test_weak_tags_count_less_for_common_techniques_too():
    # More than COMMON_DF papers share "common", so it only adds to candidates found otherwise.
    from build_graph.related import COMMON_DF
    papers = [weak_paper("p", ["rare"], ["common"]), weak_paper("q", ["rare", "common"]),
              weak_paper("r", ["rare"])] + [weak_paper(f"f{i}", ["common"]) for i in range(COMMON_DF)]
    top = {r.slug: r.score for r in related_papers(papers)["p"]}
    assert top["q"] - top["r"] == pytest.approx(WEAK_FACTOR * math.log(1 + len(papers) / (COMMON_DF + 2)))


def test_shared_author_adds_its_weight_and_is_named_in_the_reason():
    papers = [paper("p", ["x"], ["ana"]), paper("q", ["x"], ["ana"]), paper("r", ["x"], ["bo"])]
    top = related_papers(papers)["p"]
    assert [r.slug for r in top] == ["q", "r"]
    assert top[0].score - top[1].score == pytest.approx(AUTHOR_WEIGHT)
    names = {"ana": "Ana Silva", "bo": "Bo Li"}
    assert top[0].reason(lambda t: t.upper(), names.get) == "shares X; same author Ana Silva"


def test_venue_breaks_ties_but_never_makes_a_paper_related_alone():
    papers = [paper("p", ["x"], venue="MLSys", year=2023), paper("a", ["x"], venue="MLSys", year=2023),
              paper("b", ["x"], venue="MLSys", year=2020), paper("c", ["x"]),
              paper("d", ["y"], venue="MLSys", year=2023)]
    top = related_papers(papers)["p"]
    assert [r.slug for r in top] == ["a", "b", "c"]
    assert top[0].score - top[2].score == pytest.approx(SAME_VENUE_YEAR)
    assert top[1].score - top[2].score == pytest.approx(SAME_VENUE)
    assert "same venue MLSys" in top[0].reason(str, str)


def test_ties_are_broken_by_slug_and_results_are_capped():
    papers = [paper("p", ["x"])] + [paper(f"q{i:02d}", ["x"]) for i in range(20)]
    assert ranked(papers, "p") == [f"q{i:02d}" for i in range(6)]


def test_real_seeds_reasons(atlas):
    papers = {p.slug: p for p in atlas.corpus.papers}
    names = {tid: t.name for tid, t in atlas.taxonomy.techniques.items()}

    def reasons(slug):
        return {r.slug: r.reason(names.get, lambda k: atlas.corpus.authors[k].name)
                for r in atlas.related[slug]}

    tutel = reasons("tutel-adaptive-mixture-of-experts-at-scale")
    assert "megablocks-efficient-sparse-training-with-mixture-of-experts" in tutel
    assert "Mixture-of-experts" in tutel["megablocks-efficient-sparse-training-with-mixture-of-experts"]
    fedtree = next(s for s in papers if s.startswith("fedtree"))
    edge = next(s for s in papers if s.startswith("practical-edge-kernels"))
    assert "same author Bingsheng He" in reasons(fedtree)[edge]
    assert all(r.slug != s for s, rs in atlas.related.items() for r in rs)
