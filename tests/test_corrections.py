"""Corrections from public records (data/corrections.yaml): authors and
identifiers, merges they reveal, the 'unidentified' list, validation with file
and line, the quality report and the diff, and the real corrections of the
seed papers."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from build_graph.diff import diff_specs, format_markdown
from build_graph.errors import CurationError
from build_graph.pipeline import build_atlas
from build_graph.report import build_report

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "curation"
LISTINGS = ("listing.txt", "bare.txt", "arxiv.txt")
QUANT_ABSTRACT = "we-study-post-training-quantization-for-3650de94"     # bare.txt#1, untitled
NIMBUS = "nimbus-cebfb18a"                                              # bare.txt#2, untitled
SYNTH_ARXIV = "we-present-a-synthesizer-for-collective-2405-00002"     # arxiv.txt#1, untitled


def make_project(root: Path, base: Path, corrections: str | None) -> Path:
    data = base / "data"
    shutil.copytree(root / "data", data)
    (data / "authors.yaml").unlink(missing_ok=True)
    (data / "corrections.yaml").unlink()
    if corrections is not None:
        (data / "corrections.yaml").write_text(corrections, encoding="utf-8")
    seeds = base / "seeds"
    seeds.mkdir()
    for name in LISTINGS:
        shutil.copy(FIXTURES / name, seeds / name)
    return base


@pytest.fixture
def project(root, tmp_path):
    def make(corrections: str | None = None, name: str = "p") -> Path:
        return make_project(root, tmp_path / name, corrections)
    return make


def build(base: Path):
    return build_atlas(base / "seeds", base / "data", strict=True)


def by_slug(atlas, slug):
    return next(p for p in atlas.corpus.papers if p.slug == slug)


def names(atlas, paper):
    return [atlas.corpus.authors[k].name for k in paper.authors]


def ledger(atlas):
    return {r.file: (r.detected, r.made, r.merged, len(r.skipped)) for r in atlas.corpus.ledger}


def test_authors_go_through_name_normalisation_and_join_the_graph(project):
    atlas = build(project(f"""corrections:
  - paper: {NIMBUS}
    title: "Nimbus: Decode-Length-Aware Request Placement"
    authors: [ANA SILVA, josé cambronero, Ming Zhao]
    source: https://example.org/nimbus
"""))
    nimbus = by_slug(atlas, NIMBUS)
    assert names(atlas, nimbus) == ["Ana Silva", "José Cambronero", "Ming Zhao"]
    assert not nimbus.untitled and nimbus.authors_truncated is False
    # Ana Silva also wrote listing.txt#1: one author node with both papers.
    silva = [a for a in atlas.corpus.authors.values() if a.name == "Ana Silva"]
    assert len(silva) == 1
    assert sum(silva[0].key in p.authors for p in atlas.corpus.papers) == 2
    assert atlas.graph.has_edge(f"author:{silva[0].slug}", f"paper:{NIMBUS}")
    assert [c.field for c in nimbus.corrections] == ["title", "authors"]
    assert nimbus.corrected("authors").listed is None


def test_authors_use_the_aliases_of_authors_yaml(project):
    base = project(f"""corrections:
  - paper: {NIMBUS}
    authors: [J. Laudon]
    source: https://example.org/nimbus
""")
    (base / "data" / "authors.yaml").write_text(
        "aliases:\n  - name: James Laudon\n    spellings: [J. Laudon]\n", encoding="utf-8")
    atlas = build(base)
    assert names(atlas, by_slug(atlas, NIMBUS)) == ["James Laudon"]
    assert [a.name for a in atlas.corpus.authors.values()].count("James Laudon") == 1


def test_corrected_authors_replace_a_truncated_list(project):
    atlas = build(project("""corrections:
  - paper: collective-synthesis-at-scale
    authors: [James Laudon, Wei Wang, Ana Silva, Priya Raman]
    source: https://example.org/css
"""))
    paper = by_slug(atlas, "collective-synthesis-at-scale")
    assert names(atlas, paper)[-1] == "Priya Raman"
    assert paper.corrected("authors").listed == ["J. Laudon", "Wei Wang", "Ana Silva"]


def test_title_correction_merges_an_untitled_entry_into_the_titled_paper(project):
    before = build(project())
    after = build(project(f"""corrections:
  - paper: {QUANT_ABSTRACT}
    title: "Quantized Serving for Everyone"
    source: https://example.org/quant
""", name="after"))
    assert len(after.corpus.papers) == len(before.corpus.papers) - 1
    merged = by_slug(after, "quantized-serving-for-everyone")        # the listed title's id stays
    assert [s.ref for s in merged.sources] == ["bare.txt#1", "listing.txt#2"]
    assert merged.merged_ids == [QUANT_ABSTRACT]
    assert QUANT_ABSTRACT not in {p.slug for p in after.corpus.papers}
    # bare.txt comes first, so its entry now makes the paper and listing.txt's is merged.
    assert ledger(before)["bare.txt"] == (2, 2, 0, 0) and ledger(before)["listing.txt"] == (3, 3, 0, 0)
    assert ledger(after)["bare.txt"] == (2, 2, 0, 0) and ledger(after)["listing.txt"] == (3, 2, 1, 0)
    assert all(r.balanced for r in after.corpus.ledger)
    found = [f for f in build_report(after).findings if f.code == "merged-by-correction"]
    assert len(found) == 1 and QUANT_ABSTRACT in found[0].message
    assert "corrections.yaml:3" in found[0].message


def test_arxiv_correction_merges_two_entries(project):
    atlas = build(project("""corrections:
  - paper: collective-synthesis-at-scale
    arxiv: "2405.00002"
    source: https://arxiv.org/abs/2405.00002
"""))
    paper = by_slug(atlas, "collective-synthesis-at-scale")
    assert paper.arxiv == "2405.00002" and paper.merged_ids == [SYNTH_ARXIV]
    assert [s.ref for s in paper.sources] == ["arxiv.txt#1", "listing.txt#1"]
    assert paper.date == "2024-05-02"                 # the arXiv entry's facts join the paper
    assert paper.corrected("arxiv").listed is None
    assert ledger(atlas)["listing.txt"] == (3, 2, 1, 0)


def test_doi_correction_merges_and_is_exported(project):
    atlas = build(project(f"""corrections:
  - paper: {NIMBUS}
    doi: 10.1145/1234567.7654321
    source: https://doi.org/10.1145/1234567.7654321
  - paper: pipelines-revisited
    doi: 10.1145/1234567.7654321
    source: https://doi.org/10.1145/1234567.7654321
"""))
    paper = by_slug(atlas, "pipelines-revisited")
    assert paper.merged_ids == [NIMBUS] and paper.doi == "10.1145/1234567.7654321"
    node = atlas.graph.nodes["paper:pipelines-revisited"]
    assert node["corrected"] == {"doi": "https://doi.org/10.1145/1234567.7654321"}
    assert node["sources"] == ["bare.txt#2", "listing.txt#3"]


def test_two_untitled_entries_merged_keep_the_earliest_id(project):
    atlas = build(project(f"""corrections:
  - paper: {NIMBUS}
    title: "Nimbus"
    source: https://example.org/a
  - paper: tessel-2405-00003
    title: "Nimbus"
    source: https://example.org/a
"""))
    # Neither had a title of its own: arxiv.txt sorts first, so its entry's id survives.
    paper = by_slug(atlas, "tessel-2405-00003")
    assert paper.merged_ids == [NIMBUS] and paper.title == "Nimbus"


def test_merged_corrections_that_disagree_are_an_error(project):
    base = project(f"""corrections:
  - paper: {QUANT_ABSTRACT}
    title: "Quantized Serving for Everyone"
    year: 2023
    source: https://example.org/a
  - paper: quantized-serving-for-everyone
    year: 2024
    source: https://example.org/b
""")
    with pytest.raises(CurationError, match=r"corrections\.yaml:7: .* disagree on 'year' \(line 4\)"):
        build(base)


def test_paper_id_and_listing_never_change(project):
    atlas = build(project("""corrections:
  - paper: we-present-a-synthesizer-for-collective-2405-00002
    title: "Collective Synthesis, the Preprint"
    venue: neurips
    year: 2024
    source: https://example.org/x
"""))
    paper = by_slug(atlas, SYNTH_ARXIV)
    assert (paper.title, paper.venue, paper.year) == ("Collective Synthesis, the Preprint", "NeurIPS", 2024)
    assert (FIXTURES / "arxiv.txt").read_bytes() == (atlas.seeds_dir / "arxiv.txt").read_bytes()


BAD = [
    ("  - paper: {p}\n    authors: [Ana Silva, et al.]\n    source: x\n", 3,
     "'et al.' in 'authors' is not a person"),
    ("  - paper: {p}\n    authors:\n      - Ana Silva\n      - ana silva\n    source: x\n", 5,
     "'ana silva' is listed twice in 'authors' (line 4)"),
    ("  - paper: {p}\n    authors: Ana Silva\n    source: x\n", 3,
     "'authors' must be a non-empty list of text"),
    ("  - paper: {p}\n    arxiv: 2405.00002\n    source: x\n", 3, "quote the arXiv id"),
    ("  - paper: {p}\n    arxiv: \"2405.00002v2\"\n    source: x\n", 3,
     "give the arXiv id without its version"),
    ("  - paper: {p}\n    arxiv: \"arXiv:2405.00002\"\n    source: x\n", 3, "'arxiv' is not an arXiv id"),
    ("  - paper: {p}\n    doi: https://doi.org/10.1/x\n    source: x\n", 3,
     "give the DOI itself, not a link"),
    ("  - paper: {p}\n    doi: 11.1/x\n    source: x\n", 3, "'doi' is not a DOI"),
    ("  - paper: {p}\n    year: 2023\n    date: 2024-01-02\n    source: x\n", 4,
     "'date' 2024-01-02 is not in 'year' 2023"),
    ("  - paper: {p}\n    venue: Not A Conference\n    source: x\n", 3,
     "venue 'Not A Conference' is not in venues.yaml"),
    ("  - paper: {p}\n    title: A\n    source: x\n  - paper: {p}\n    title: B\n    source: y\n", 6,
     "'title' of paper '{p}' is already corrected at line 3"),
    ("  - paper: {p}\n    note: only a note\n    source: x\n", 2, "a correction must change at least one"),
    ("  - paper: {p}\n    title: A\n    sources: x\n", 4, "unknown key 'sources'"),
    ("  - paper: {p}\n    title: A\n    source: x\nunidentified:\n  - paper: {p}\n    reason: r\n", 6,
     "has a title ('A'); remove it from 'unidentified'"),
    ("  []\nunidentified:\n  - paper: {p}\n", 4, "missing required key 'reason'"),
    ("  []\naliases: []\n", 3, "unknown key 'aliases'"),
]


@pytest.mark.parametrize("body,line,fragment", BAD)
def test_bad_correction_fails_with_file_and_line(project, body, line, fragment):
    base = project("corrections:\n" + body.format(p=NIMBUS))
    with pytest.raises(CurationError) as err:
        build(base)
    message = str(err.value)
    assert f"corrections.yaml:{line}:" in message and fragment.format(p=NIMBUS) in message, message


def test_entry_for_a_paper_not_in_these_seeds_is_reported_not_applied(project):
    atlas = build(project("corrections:\n  - paper: no-such-paper\n    year: 2020\n    source: x\n"
                          "unidentified:\n  - paper: nor-this-one\n    reason: r\n"))
    found = [f for f in build_report(atlas).findings if f.code == "unknown-paper-id"]
    assert [(f.file.endswith("corrections.yaml"), f.line) for f in found] == [(True, 2), (True, 6)]
    assert "'no-such-paper' is not the id of any paper" in found[0].message


def test_quality_report_lists_only_unidentified_untitled_papers_with_reasons(project):
    base = project(f"""corrections:
  - paper: {NIMBUS}
    title: "Nimbus: Decode-Length-Aware Request Placement"
    source: https://example.org/nimbus
  - paper: tessel-2405-00003
    title: "Tessel: Planning Tensor Layouts for Scratchpads"
    source: https://arxiv.org/abs/2405.00003
unidentified:
  - paper: {QUANT_ABSTRACT}
    reason: "no public record matches the abstract (searched its first two sentences)"
""")
    untitled = {f.message.split("(paper ")[1].split(")")[0]: f.message
                for f in build_report(build(base)).findings if f.code == "untitled"}
    assert set(untitled) == {f"'{QUANT_ABSTRACT}'", f"'{SYNTH_ARXIV}'"}
    assert untitled[f"'{QUANT_ABSTRACT}'"].endswith(
        "not identified: no public record matches the abstract (searched its first two sentences)")
    assert "not looked up yet" in untitled[f"'{SYNTH_ARXIV}'"]


def test_diff_shows_the_merge_and_the_ledger(project, tmp_path):
    old = project(name="old")
    new = project("""corrections:
  - paper: collective-synthesis-at-scale
    arxiv: "2405.00002"
    title: "Collective Synthesis at Scale"
    authors: [James Laudon, Wei Wang, Ana Silva]
    source: https://arxiv.org/abs/2405.00002
""", name="new")
    diff = diff_specs(str(old / "seeds"), str(new / "seeds"), tmp_path, tmp_path / "work")
    assert [(m.node.id, m.into.id) for m in diff.merged] == [
        (f"paper:{SYNTH_ARXIV}", "paper:collective-synthesis-at-scale")]
    assert not [r for r in diff.removed if r.type == "paper"]
    assert [(c.file, c.old, c.new) for c in diff.ledger] == [("listing.txt", (3, 3, 0, 0), (3, 2, 1, 0))]
    changed = {c.node.id: {f.name: f for f in c.fields} for c in diff.changed}
    fields = changed["paper:collective-synthesis-at-scale"]
    assert fields["authors"].old == ["J. Laudon", "Wei Wang", "Ana Silva"]
    assert fields["authors"].new == ["James Laudon", "Wei Wang", "Ana Silva"]
    assert fields["arxiv"].new == "2405.00002" and "sources" in fields and "corrected" in fields
    md = format_markdown(diff)
    assert "papers merged 1" in md and "**Merged** (1)" in md and "### Ledger" in md
    assert re.search(r"\| listing\\\.txt \| 3 \| 3 → 2 \| 0 → 1 \| 0 \|", md), md


# --- the real seeds ------------------------------------------------------------------------------

def test_every_seed_paper_is_titled_from_a_sourced_correction(atlas, listed_atlas):
    listed = {p.slug: p for p in listed_atlas.corpus.papers}
    assert {p.slug for p in atlas.corpus.papers} == set(listed)          # ids never change
    assert len(atlas.corpus.papers) == 51                                # no seed paper merged
    corrected = [p for p in atlas.corpus.papers if p.corrected("title")]
    assert len(corrected) == 14 and not [p for p in atlas.corpus.papers if p.untitled]
    assert all(listed[p.slug].untitled and p.corrected("title").listed is None for p in corrected)
    for paper in corrected:
        for c in paper.corrections:
            assert re.match(r"https://\S+$", c.source), (paper.slug, c.source)


def test_seed_corrections_join_the_author_graph(atlas):
    counts = {}
    for paper in atlas.corpus.papers:
        for key in paper.authors:
            name = atlas.corpus.authors[key].name
            counts[name] = counts.get(name, 0) + 1
    # Meghan Cowan wrote three of the four bare abstracts; Pekhimenko is on the arXiv
    # listing's papers and on Hotline Profiler in the papers.cool listing.
    assert counts["Meghan Cowan"] == 3 and counts["Gennady Pekhimenko"] == 11
    assert counts["Bojian Zheng"] == 2 and counts["Christina Giannoula"] == 4
    tvm = by_slug(atlas, "tvm-96514120")
    assert (tvm.title, tvm.venue, tvm.year) == (
        "TVM: An Automated End-to-End Optimizing Compiler for Deep Learning", "OSDI", 2018)
    assert names(atlas, tvm)[:6] == ["Tianqi Chen", "Thierry Moreau", "Ziheng Jiang", "Lianmin Zheng",
                                     "Eddie Yan", "Meghan Cowan"]
    hidet = by_slug(atlas, "hidet-2210-09603")
    assert (hidet.venue, hidet.year, hidet.doi) == ("ASPLOS", 2023, "10.1145/3575693.3575702")
    minuet = by_slug(atlas, "minuet-2401-06145")
    assert {c.field: c.source for c in minuet.corrections} == {
        "title": "https://arxiv.org/abs/2401.06145", "authors": "https://arxiv.org/abs/2401.06145",
        "venue": "https://github.com/UofT-EcoSystem/Minuet",
        "year": "https://github.com/UofT-EcoSystem/Minuet"}


# --- the paper page ------------------------------------------------------------------------------

def test_page_says_the_title_comes_from_a_correction_and_links_its_source(project):
    from build_graph.site_build import SiteBuilder
    base = project(f"""corrections:
  - paper: {NIMBUS}
    title: "Nimbus: Decode-Length-Aware Request Placement"
    authors: [Ana Silva]
    source: https://example.org/nimbus
  - paper: quantized-serving-for-everyone
    title: "Quantized Serving for All"
    source: https://example.org/q
""")
    pages = SiteBuilder().build(base / "seeds", base / "data")
    page = pages[f"papers/{NIMBUS}.md"].body
    assert pages[f"papers/{NIMBUS}.md"].meta == {"atlas": "paper", "hide": ["navigation", "toc"]}
    visible = page[page.index("<h1"):]                   # after the hidden search facts
    assert visible.startswith(f'<h1 id="{NIMBUS}">Nimbus: Decode-Length-Aware Request Placement<')
    assert '<span data-pagefind-meta="title">Nimbus: Decode-Length-Aware Request Placement</span>' in page
    assert '<div class="admonition note" data-pagefind-ignore>\n<p class="admonition-title">Title from a correction</p>' in page \
        and "Untitled paper" not in page
    assert "The listing gives no title; this title is recorded in <code>data/corrections.yaml</code> from " \
           '<a href="https://example.org/nimbus">https://example.org/nimbus</a>.' in page
    assert '<li>title, authors: from <a href="https://example.org/nimbus">https://example.org/nimbus</a>' in page
    renamed = pages["papers/quantized-serving-for-everyone.md"].body
    assert "The listing gives the title “Quantized Serving for Everyone”" in renamed


@pytest.mark.parametrize("source", [
    "<script>window.__pwned=1</script>",
    "javascript:window.__pwned=1",
    "https://example.org/<script>x</script>",
])
def test_hostile_source_and_note_stay_text(project, source):
    from build_graph.site_build import SiteBuilder
    base = project(f"""corrections:
  - paper: {NIMBUS}
    title: "Nimbus"
    source: '{source}'
    note: "<img src=x onerror=window.__pwned=1> [x](javascript:alert(1))"
""")
    page = SiteBuilder().build(base / "seeds", base / "data")[f"papers/{NIMBUS}.md"].body
    # The note's "[x](javascript:…)" is shown as typed; it never becomes a link.
    assert "<script>" not in page and "<img" not in page and "[x](javascript:alert(1))" in page
    assert 'href="javascript:' not in page and 'href="https://example.org/<' not in page
    from markupsafe import escape
    assert escape(source) in page and "&lt;img src=x" in page            # shown, as text
