"""The trends stage: one pass's counts equal counting each page's papers again,
and the trend rule, as a table of cases."""

from __future__ import annotations

from collections import Counter
from functools import lru_cache

import pytest

from build_graph.devtools.synth import write_synthetic_seeds
from build_graph.pipeline import build_atlas
from build_graph.trends import (MIN_TECHNIQUE_PAPERS, MIN_YEAR_PAPERS, Trends, compute_trends, movers,
                                slope, trend_window)
from build_graph.taxonomy import load_taxonomy
from build_graph.curation import REFERENCE_DIR
from site_pages import DATA, SITES


@pytest.fixture(scope="module")
def synthetic(tmp_path_factory):
    """600 synthetic papers over several venues and years: enough for the trend rule."""
    folder = tmp_path_factory.mktemp("synthetic")
    write_synthetic_seeds(folder, 600, seed=3)
    return build_atlas(folder, DATA, strict=True)


@lru_cache(maxsize=None)
def fixture_atlas(site: str):
    return build_atlas(SITES[site], DATA, strict=True)


@pytest.fixture
def atlas(synthetic):
    return lambda site: synthetic if site == "synthetic" else fixture_atlas(site)


ALL_SITES = sorted(SITES) + ["synthetic"]


@pytest.mark.parametrize("site", ALL_SITES)
def test_one_pass_counts_equal_counting_again(atlas, site):
    a = atlas(site)
    trends = compute_trends(a.corpus.papers, a.taxonomy)
    papers = a.corpus.papers
    dated = [p for p in papers if p.year]
    assert trends.totals == Counter(p.year for p in dated)
    assert trends.undated == len(papers) - len(dated)
    for tid in a.taxonomy.techniques:
        expected = Counter(p.year for p in dated if any(t.technique == tid for t in p.techniques))
        assert trends.technique_years.get(tid, Counter()) == expected, tid
        area = Counter(p.year for p in dated
                       if any(a.taxonomy.area_of(t.technique) == tid for t in p.techniques))
        if a.taxonomy.techniques[tid].is_area:
            assert trends.area_years.get(tid, Counter()) == area, tid
    for venue in a.corpus.venues:
        assert trends.venue_years.get(venue, Counter()) == Counter(p.year for p in dated if p.venue == venue)
    for key in a.corpus.authors:
        mine = [p for p in papers if key in p.authors]
        assert trends.author_years.get(key, Counter()) == Counter(p.year for p in mine if p.year)
        assert trends.author_techniques.get(key, Counter()) == Counter(
            tid for p in mine for tid in dict.fromkeys(t.technique for t in p.techniques))


@pytest.mark.parametrize("site", ALL_SITES)
def test_co_occurrence_is_symmetric_and_bounded(atlas, site):
    a = atlas(site)
    trends = compute_trends(a.corpus.papers, a.taxonomy)
    for tid, others in trends.cooccurring_years.items():
        for other, years in others.items():
            assert trends.cooccurring_years[other][tid] == years
            for year, n in years.items():
                assert n <= min(trends.technique_years[tid][year], trends.technique_years[other][year])


Y = MIN_YEAR_PAPERS
WINDOWS = [
    ("no papers", {}, ()),
    ("too few years with data", {2022: Y, 2023: Y, 2024: Y - 1}, ()),
    ("three years", {2021: Y, 2022: 2 * Y, 2023: Y}, (2021, 2022, 2023)),
    ("latest three of four", {2020: Y, 2021: Y, 2022: Y, 2023: Y}, (2021, 2022, 2023)),
    ("a thin latest year is skipped", {2021: Y, 2022: Y, 2023: Y, 2024: 2}, (2021, 2022, 2023)),
    ("years need not be consecutive", {2010: Y, 2015: Y, 2023: Y, 2024: 1}, (2010, 2015, 2023)),
]


@pytest.mark.parametrize("name, totals, window", WINDOWS, ids=[w[0] for w in WINDOWS])
def test_the_window_is_the_latest_years_with_data(name, totals, window):
    assert trend_window(Counter(totals)) == window


@pytest.mark.parametrize("xs, ys, expected", [
    ([2021, 2022, 2023], [10, 20, 40], 15.0),
    ([2021, 2022, 2023], [5, 5, 5], 0.0),
    ([2010, 2015, 2023], [0, 0, 13], 13 * (2023 - 2016) / ((6 ** 2) + (1 ** 2) + (7 ** 2))),
    ([2023, 2023, 2023], [1, 2, 3], 0.0),
])
def test_slope_is_least_squares(xs, ys, expected):
    assert slope(xs, ys) == pytest.approx(expected)


def _trends(totals: dict, techniques: dict) -> Trends:
    trends = Trends()
    trends.totals.update(totals)
    for tid, years in techniques.items():
        trends.technique_years[tid].update(years)
    trends.window = trend_window(trends.totals)
    return trends


def test_the_rule_ranks_by_share_not_by_count():
    taxonomy = load_taxonomy(REFERENCE_DIR / "taxonomy.yaml")
    a, b, c, d, area = [t.id for t in taxonomy.leaves()][:4] + [taxonomy.areas()[0].id]
    totals = {2021: 20, 2022: 40, 2023: 80}
    trends = _trends(totals, {
        a: {2021: 2, 2022: 8, 2023: 32},        # 10% → 20% → 40%: rising 15 points a year
        b: {2021: 4, 2022: 8, 2023: 16},        # more papers each year, same 20% share: no trend
        c: {2021: 10, 2022: 10, 2023: 10},      # 50% → 25% → 12.5%: falling
        d: {2023: MIN_TECHNIQUE_PAPERS - 1},    # below the threshold: not ranked at all
        area: {2021: 10, 2022: 20, 2023: 60},   # areas are not techniques
    })
    ranked = {m.technique: m for m in movers(trends, taxonomy)}
    assert set(ranked) == {a, b, c}
    assert ranked[a].slope == 15.0 and ranked[a].shares == (10.0, 20.0, 40.0) and ranked[a].total == 42
    assert ranked[b].slope == 0.0
    assert ranked[c].slope == pytest.approx(-18.75)
    trends.movers = movers(trends, taxonomy)
    assert [m.technique for m in trends.rising] == [a]
    assert [m.technique for m in trends.falling] == [c]


def test_one_paper_cannot_make_a_trend():
    taxonomy = load_taxonomy(REFERENCE_DIR / "taxonomy.yaml")
    tid = taxonomy.leaves()[0].id
    trends = _trends({2021: Y, 2022: Y, 2023: Y}, {tid: {2023: 1}})
    assert movers(trends, taxonomy) == []


def test_synthetic_atlas_has_trends_both_ways(synthetic):
    """The fixture the chart tests rely on does exercise the rule."""
    a = synthetic
    trends = compute_trends(a.corpus.papers, a.taxonomy)
    assert len(trends.window) == 3 and trends.rising and trends.falling
    for m in trends.movers:
        assert m.total >= MIN_TECHNIQUE_PAPERS
        assert all(trends.totals[y] >= MIN_YEAR_PAPERS for y in m.years)
