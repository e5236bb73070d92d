"""Curation paths on real files: structured entries, aliases, splits,
corrections, technique overrides, notes, bad curation files, and the
data-quality report."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from build_graph.curation import REFERENCE_DIR
from build_graph.errors import CurationError
from build_graph.pipeline import build_atlas
from build_graph.render.notes import load_notes
from build_graph.report import build_report, format_text
from build_graph.site_build import SiteBuilder

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "curation"


@pytest.fixture
def project(root, tmp_path):
    """A copy of the real data/ and a seeds folder holding the curation fixture listing."""
    data = tmp_path / "data"
    shutil.copytree(root / "data", data)
    for name in ("authors.yaml", "corrections.yaml"):
        (data / name).unlink(missing_ok=True)
    seeds = tmp_path / "seeds"
    seeds.mkdir()
    shutil.copy(FIXTURES / "listing.txt", seeds / "listing.txt")
    return tmp_path


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def build(project, **kw):
    return build_atlas(project / "seeds", project / "data", strict=True, **kw)


def paper(atlas, title):
    return next(p for p in atlas.corpus.papers if p.title == title)


def author_names(atlas, p):
    return [atlas.corpus.authors[k].name for k in p.authors]


def test_add_papers_by_structured_yaml_merging_with_a_listing(project):
    shutil.copy(FIXTURES / "structured.yaml", project / "seeds" / "extra.yaml")
    atlas = build(project)
    assert len(atlas.corpus.papers) == 4                     # 3 listed + 1 new, 1 merged
    merged = paper(atlas, "Pipelines Revisited")
    assert [s.ref for s in merged.sources] == ["extra.yaml#1", "listing.txt#3"]
    assert merged.arxiv == "2405.00001" and merged.urls == ["https://github.com/example/pipelines"]
    added = paper(atlas, "A Hand-Written Paper")
    assert (added.venue, added.year, added.date) == ("NeurIPS", 2023, "2023-12-10")
    rows = {r.file: r for r in atlas.corpus.ledger}
    assert (rows["extra.yaml"].made, rows["listing.txt"].merged) == (2, 1)
    assert all(r.balanced for r in atlas.corpus.ledger)


def test_technique_override_adds_with_reason(project):
    shutil.copy(FIXTURES / "structured.yaml", project / "seeds" / "extra.yaml")
    merged = paper(build(project), "Pipelines Revisited")
    tag = next(t for t in merged.techniques if t.technique == "mixture-of-experts")
    assert tag.field == "curation" and "mixture-of-experts model" in tag.evidence


def test_technique_override_removes(project):
    write(project / "data" / "corrections.yaml", """corrections:
  - paper: pipelines-revisited
    source: https://example.org/pipelines
    techniques:
      remove:
        - {id: pipeline-parallelism, reason: "only mentioned as background"}
""")
    assert "pipeline-parallelism" not in [t.technique for t in paper(build(project), "Pipelines Revisited").techniques]


@pytest.mark.parametrize("body,line,fragment", [
    ("title: X\nauthors: [A B]\ncolour: blue\n", 3, "unknown key 'colour'"),
    ("title: X\nyear: twenty\n", 2, "'year' must be a four-digit number"),
    ("title: X\narxiv: 2301.00001\n", 2, "quote the arXiv id"),
    ("title: X\ntechniques:\n  add:\n    - {id: not-a-technique, reason: because}\n", 4,
     "unknown technique 'not-a-technique'"),
    ("title: X\ntechniques:\n  add:\n    - {id: quantization}\n", 4, "needs exactly 'id' and a non-empty 'reason'"),
    ("authors: [A B]\n", 1, "needs a 'title' or an 'abstract'"),
])
def test_bad_structured_entry_fails_with_file_and_line(project, body, line, fragment):
    write(project / "seeds" / "bad.yaml", body)
    with pytest.raises(CurationError) as err:
        build(project)
    assert f"bad.yaml:{line}:" in str(err.value) and fragment in str(err.value)


def test_alias_merges_spellings_including_mojibake(project):
    write(project / "data" / "authors.yaml", """aliases:
  - name: James Laudon
    spellings: [J. Laudon]
    source: https://research.google/people/jameslaudon/
  - name: José Cambronero
    spellings: ["JosÃ© Cambronero"]
""")
    atlas = build(project)
    names = sorted(a.name for a in atlas.corpus.authors.values())
    assert names.count("James Laudon") == 1 and "J. Laudon" not in names
    assert "JosÃ© Cambronero" not in names
    laudon = next(a for a in atlas.corpus.authors.values() if a.name == "James Laudon")
    assert sum(laudon.key in p.authors for p in atlas.corpus.papers) == 2


def test_split_one_name_into_two_people(project):
    write(project / "data" / "authors.yaml", """splits:
  - name: Wei Wang
    source: affiliations on the papers
    people:
      - {id: wei-wang-networks, display: Wei Wang (networks), papers: [collective-synthesis-at-scale]}
      - {id: wei-wang-ml, display: Wei Wang (ML), papers: [quantized-serving-for-everyone]}
""")
    atlas = build(project)
    slugs = {a.slug: a.name for a in atlas.corpus.authors.values()}
    assert slugs["wei-wang-networks"] == "Wei Wang (networks)"
    assert slugs["wei-wang-ml"] == "Wei Wang (ML)"
    assert "wei-wang" not in slugs
    assert author_names(atlas, paper(atlas, "Quantized Serving for Everyone"))[0] == "Wei Wang (ML)"


def test_correction_changes_fields_but_not_the_id(project):
    write(project / "data" / "corrections.yaml", """corrections:
  - paper: quantized-serving-for-everyone
    venue: ICML
    year: 2023
    source: https://doi.org/10.0000/example
""")
    atlas = build(project)
    p = next(p for p in atlas.corpus.papers if p.slug == "quantized-serving-for-everyone")
    assert (p.venue, p.year) == ("ICML", 2023)
    assert [(c.field, c.source, c.listed, c.line) for c in p.corrections] == [
        ("venue", "https://doi.org/10.0000/example", "MLSys", 3),
        ("year", "https://doi.org/10.0000/example", 2024, 4)]
    assert p.corrections[0].file.endswith("corrections.yaml")


def test_correction_gives_an_untitled_paper_its_title(listed_atlas, root, tmp_path):
    data = tmp_path / "data"
    shutil.copytree(root / "data", data)
    taccl = next(p for p in listed_atlas.corpus.papers if p.label == "TACCL")
    write(data / "corrections.yaml", f"""corrections:
  - paper: {taccl.slug}
    title: "TACCL: Guiding Collective Algorithm Synthesis using Communication Sketches"
    source: https://arxiv.org/abs/2111.04867
""")
    fixed = next(p for p in build_atlas(root / "seeds", data, strict=True).corpus.papers if p.slug == taccl.slug)
    assert fixed.title.startswith("TACCL: Guiding") and not fixed.untitled
    assert fixed.corrected("title").listed is None and fixed.label == fixed.title


@pytest.mark.parametrize("file,body,line,fragment", [
    ("corrections.yaml", "corrections:\n  - paper: pipelines-revisited\n    colour: red\n    source: x\n", 3,
     "unknown key 'colour'"),
    ("corrections.yaml", "corrections:\n  - paper: pipelines-revisited\n    year: 2020\n", 2,
     "missing required key 'source'"),
    ("corrections.yaml", "corrections:\n  - {paper: pipelines-revisited, year: 2020, source: a}\n"
     "  - {paper: pipelines-revisited, year: 2021, source: b}\n", 3, "'year' of paper 'pipelines-revisited' "
     "is already corrected at line 2"),
    ("authors.yaml", "aliases:\n  - name: A B\n    spellings: [C D]\n  - name: E F\n    spellings: [c d]\n", 4,
     "already an alias"),
    ("authors.yaml", "splits:\n  - name: Wei Wang\n    people:\n      - {id: a, display: A, papers: [nope]}\n"
     "      - {id: b, display: B, papers: [collective-synthesis-at-scale]}\n", 4, "unknown paper id 'nope'"),
    ("authors.yaml", "aliasses: []\n", 1, "unknown key 'aliasses'"),
    ("venues.yaml", "venues:\n  - key: X\n    full_name: Y\n    colour: z\n", 4, "unknown key 'colour'"),
    ("authors.yaml", "a: &x [1]\nb: *x\n", 2, "aliases (*name) are not allowed"),
])
def test_bad_curation_file_fails_with_file_and_line(project, file, body, line, fragment):
    write(project / "data" / file, body)
    with pytest.raises(CurationError) as err:
        build(project)
    assert f"{file}:{line}:" in str(err.value) and fragment in str(err.value)


def test_bad_curation_file_stops_the_site_build(project):
    write(project / "data" / "corrections.yaml",
          "corrections:\n  - paper: pipelines-revisited\n    year: twenty\n    source: x\n")
    with pytest.raises(CurationError):
        SiteBuilder().build(project / "seeds", project / "data")


def test_notes_appear_and_unknown_ids_fail(project):
    notes = project / "notes"
    (notes / "techniques").mkdir(parents=True)
    write(notes / "techniques" / "quantization.md", "Start with *the survey* by Gholami et al.\n")
    pages = SiteBuilder().build(project / "seeds", project / "data", notes)
    page = pages["techniques/quantization.md"].body
    assert 'id="notes">Notes<' in page and "Start with <em>the survey</em>" in page
    write(notes / "techniques" / "quantisation.md", "typo\n")
    with pytest.raises(CurationError, match="quantisation.md"):
        load_notes(notes, {"techniques": {"quantization"}})


def test_edit_targets_point_at_the_file_that_changes_the_page(project):
    builder = SiteBuilder()
    builder.build(project / "seeds", project / "data")
    assert builder.edit_targets["papers/pipelines-revisited.md"] == project / "seeds" / "listing.txt"
    # The project's data/ has no taxonomy of its own: the packaged one changes the page.
    assert builder.edit_targets["techniques/quantization.md"] == REFERENCE_DIR / "taxonomy.yaml"
    assert builder.edit_targets["authors/ana-silva.md"] == project / "data" / "authors.yaml"


def test_quality_report_suggests_alias_lines(project):
    report = build_report(build(project))
    text = format_text(report)
    assert 'Alias line: - {name: "José Cambronero", spellings: ["JosÃ© Cambronero"]}' in text
    assert 'spellings: ["J. Laudon"]' in text


def test_quality_report_on_the_real_seeds(atlas):
    report = build_report(atlas)
    codes = report.by_code()
    truncated = {f.message.split("'")[1] for f in codes["truncated-authors"]}
    assert len(truncated) == 5 and all(f.file.startswith("002_") for f in codes["truncated-authors"])
    assert "ArctyrEX : Accelerated Encrypted Execution of General-Purpose Applications" in truncated
    # data/corrections.yaml identifies all 14 untitled seed papers; one keeps no authors.
    assert "untitled" not in codes and "unknown-paper-id" not in codes
    assert [f.message.split("'")[1] for f in codes["no-authors"]] == [
        "Analysis and Mitigations of Reverse Engineering Attacks on Local Feature Descriptors"]
    assert len(codes["declared-total"]) == 1 and len(codes["non-name"]) == 1


def test_quality_report_on_the_seeds_as_listed(listed_atlas):
    codes = build_report(listed_atlas).by_code()
    assert len(codes["untitled"]) == 14
    assert all("not looked up yet" in f.message for f in codes["untitled"])
