"""The whole pipeline on the real seeds: the export contract and the people
and venues the issue names."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

from build_graph.graph import export_json
from build_graph.pipeline import build_atlas
from build_graph.render.site import render_site

PAPER_FIELDS = {"id", "type", "label", "title", "authors", "venue", "year", "date", "arxiv", "doi",
                "urls", "techniques", "sources", "abstract"}


def nodes_of(export, kind):
    return [n for n in export["nodes"] if n["type"] == kind]


def papers_of(export, author_label):
    author = next(n["id"] for n in nodes_of(export, "author") if n["label"] == author_label)
    papers = {n["id"]: n for n in nodes_of(export, "paper")}
    return [papers[e["target"]] for e in export["edges"] if e["source"] == author]


def test_export_holds_51_papers_with_contract_fields(export):
    papers = nodes_of(export, "paper")
    assert len(papers) == 51
    for node in export["nodes"]:
        assert {"id", "type", "label"} <= node.keys()
        assert node["type"] in {"paper", "author", "venue", "technique"}
        assert node["id"].startswith(node["type"] + ":")
    for paper in papers:
        assert PAPER_FIELDS <= paper.keys()
        assert paper["sources"] and all("#" in s for s in paper["sources"])
    assert all("type" in e for e in export["edges"])
    ids = {n["id"] for n in export["nodes"]}
    for paper in papers:
        assert set(paper["techniques"]) <= ids


def test_uses_edges_carry_evidence_field_and_strength(export):
    uses = [e for e in export["edges"] if e["type"] == "uses"]
    assert uses and all({"evidence", "field", "strength"} <= e.keys() for e in uses)
    assert {e["strength"] for e in uses} == {"strong", "weak"}
    # Curators' tags are strong; a tagger's tag is as strong as the ranker's probability, even from
    # the title (docs/tagging.md, "Strength"), so a title tag is strong or weak.
    assert all(e["strength"] == "strong" for e in uses if e["field"] == "curation")
    assert {e["strength"] for e in uses if e["field"] == "title"} <= {"strong", "weak"}


@pytest.mark.parametrize("name,venue_years", [
    ("James Laudon", [("MLSys", 2022), ("MLSys", 2023)]),
    ("Yanqi Zhou", [("MLSys", 2022), ("MLSys", 2023)]),
    ("Vijay Janapa Reddi", [("MLSys", 2023), ("MLSys", 2023)]),
    ("Colby Banbury", [("MLSys", 2023), ("MLSys", 2023)]),
])
def test_people_shared_across_listings_are_single_nodes(export, name, venue_years):
    assert [n["label"] for n in nodes_of(export, "author")].count(name) == 1
    papers = papers_of(export, name)
    assert sorted((p["venue"], p["year"]) for p in papers) == venue_years


def test_vinu_joseph_has_four_profile_papers(export):
    papers = papers_of(export, "Vinu Joseph")
    assert len(papers) == 4
    assert all(p["sources"][0].startswith("002_") for p in papers)


def test_case_repair_and_non_names(export, atlas):
    labels = {n["label"] for n in nodes_of(export, "author")}
    assert {"Jinook Song", "Wu Zhaomin", "Yuxuan Han", "HoYuen Chau", "XiaoBing Feng",
            "Javier de Juan"} <= labels
    assert not {"JINOOK SONG", "colby banbury", "NameError"} & labels
    assert any(f.code == "non-name" and "NameError" in f.message for f in atlas.findings)
    burst = next(p for p in nodes_of(export, "paper") if p["title"] and p["title"].startswith("Efficient Strong"))
    assert burst["authors"].count("Adam Belay") == 1


def by_source(export, ref):
    return next(p for p in nodes_of(export, "paper") if ref in p["sources"])


@pytest.mark.parametrize("ref,venue,year,date", [
    ("004_d682a2c69557955b.txt#1", "MLSys", 2022, "2022-08-30"),      # from the sidecar
    ("003_582fbc6f8791162a.txt#16", "MLSys", 2023, None),             # from the MLSYS.2023 header
    ("001_26a661ad9ca0bb7c.txt#8", "ASPLOS", 2023, "2023-01-27"),     # from the DOI proceedings name
    ("001_26a661ad9ca0bb7c.txt#10", "NeurIPS", 2022, "2022-10-18"),   # from "Accepted to NeurIPS 2022"
    ("001_26a661ad9ca0bb7c.txt#1", None, 2024, "2024-04-18"),         # preprint: no venue invented
    ("002_bcbd238a594dd892.txt#5", None, 2019, "2019-11-06"),
    ("000_828b643ce7fcf97b.txt#1", None, None, None),                 # bare abstract: nothing known
])
def test_venues_and_dates(listed_export, ref, venue, year, date):
    paper = by_source(listed_export, ref)
    assert (paper["venue"], paper["year"], paper["date"]) == (venue, year, date)


def test_identifiers_links_and_latex(export):
    tilt = by_source(export, "001_26a661ad9ca0bb7c.txt#8")
    assert tilt["arxiv"] == "2301.12030" and tilt["doi"] == "10.1145/3575693.3575704"
    assert tilt["urls"] == ["https://github.com/ampersand-projects/tilt.git"]
    taccl = by_source(export, "000_828b643ce7fcf97b.txt#1")
    assert "3× faster" in taccl["abstract"] and "17%" in taccl["abstract"] and "$" not in taccl["abstract"]
    assert "10³²" in by_source(export, "001_26a661ad9ca0bb7c.txt#1")["abstract"]
    condensa = by_source(export, "002_bcbd238a594dd892.txt#5")
    assert condensa["has_code"] and condensa["urls"] == ["https://github.com/NVlabs/condensa"]


def test_untitled_papers_get_labels_never_titles(listed_export):
    untitled = [p for p in nodes_of(listed_export, "paper") if p["title"] is None]
    assert len(untitled) == 14                         # 4 bare abstracts + 10 arXiv entries
    assert all(p["untitled"] and p["label"] and p["corrected"] == {} for p in untitled)
    assert by_source(listed_export, "000_828b643ce7fcf97b.txt#1")["label"] == "TACCL"
    assert by_source(listed_export, "001_26a661ad9ca0bb7c.txt#2")["label"] == "PyGim"


def test_ledger_balances_for_every_listing(atlas):
    assert [r.detected for r in atlas.corpus.ledger] == [4, 10, 8, 25, 4]
    assert all(r.balanced for r in atlas.corpus.ledger)
    assert sum(r.made for r in atlas.corpus.ledger) == 51


def test_build_is_deterministic(root, atlas):
    again = build_atlas(root / "seeds", root / "data", strict=True)
    assert export_json(again.graph) == export_json(atlas.graph)
    assert render_site(again) == render_site(atlas)


def run_cli(*args, cwd):
    return subprocess.run([sys.executable, "-m", "build_graph", *args], cwd=cwd, capture_output=True,
                          text=True, env={**os.environ, "PYTHONPATH": str(cwd)})


def test_cli_check_reports_every_file(root):
    result = run_cli("check", cwd=root)
    assert result.returncode == 0, result.stderr
    for name, count in [("000_828b643ce7fcf97b.txt", 4), ("003_582fbc6f8791162a.txt", 25)]:
        assert f"{name}: " in result.stdout
    assert "entries detected 25 = papers made 25 + merged 0 + skipped 0" in result.stdout
    assert "listing declares 46 entries but holds 25" in result.stdout
    assert result.stdout.rstrip().splitlines()[-1].startswith("5 listings, 51 papers")


def test_cli_check_unknown_file_is_an_error_and_the_rest_is_still_reported(root, tmp_path):
    seeds = tmp_path / "seeds"
    shutil.copytree(root / "seeds", seeds)
    (seeds / "notes.txt").write_text("just some notes\n", encoding="utf-8")
    (seeds / "empty.txt").write_text("", encoding="utf-8")
    result = run_cli("check", "--seeds", str(seeds), cwd=root)
    assert result.returncode == 1
    assert "error: notes.txt: no parser recognises this listing" in result.stdout
    assert "empty.txt: [empty-file] file is empty" in result.stdout
    assert "003_582fbc6f8791162a.txt: papers-cool" in result.stdout


def test_cli_export_writes_node_link_json(root, tmp_path, export):
    out = tmp_path / "atlas.json"
    result = run_cli("export", "--out", str(out), cwd=root)
    assert result.returncode == 0, result.stderr
    assert json.loads(out.read_text(encoding="utf-8")) == export


def test_strict_build_refuses_unknown_listing(root, tmp_path):
    from build_graph.errors import UnknownFormatError
    seeds = tmp_path / "seeds"
    seeds.mkdir()
    (seeds / "mystery.txt").write_text("hello\n", encoding="utf-8")
    with pytest.raises(UnknownFormatError, match="mystery.txt"):
        build_atlas(seeds, strict=True)
