"""CSL-JSON and awesome-list input, headings as technique evidence, and one paper
from many sources (issue 14)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml

from build_graph.cli import main
from build_graph.errors import CurationError, ParseError
from build_graph.headings import heading_key, load_headings
from build_graph.pipeline import build_atlas
from build_graph.sources import FORMATS, detect, parse_text

FIXTURES = Path(__file__).resolve().parent / "fixtures"
ROOT = FIXTURES.parent.parent
CSL = (FIXTURES / "csl" / "zotero.json").read_text(encoding="utf-8")
AWESOME_SEEDS = FIXTURES / "awesome" / "seeds"
AWESOME = (AWESOME_SEEDS / "awesome-mlsys.md").read_text(encoding="utf-8")
MERGE = FIXTURES / "merge" / "seeds"
JSONL = (FIXTURES / "ledger" / "mixed" / "h_corpus.jsonl").read_text(encoding="utf-8")


@pytest.mark.parametrize("text,fmt", [
    (CSL, "csl-json"),
    (AWESOME, "awesome-list"),
    (JSONL, "jsonl-corpus"),
    ((MERGE / "d_zotero.json").read_text(encoding="utf-8"), "csl-json"),
    ((MERGE / "b_awesome.md").read_text(encoding="utf-8"), "awesome-list"),
    ("[" + ", ".join(json.dumps(json.loads(line)) for line in JSONL.splitlines() if line.strip()
                     and line.strip().startswith("{")) + "]", None),   # an array of corpus rows: not CSL
])
def test_detection_by_content_without_ties(text, fmt):
    scores = {f.NAME: f.sniff(text) for f in FORMATS}
    if fmt is None:
        assert scores["csl-json"] == 0.0 and scores["jsonl-corpus"] == 0.0
        return
    assert detect(text, "x").NAME == fmt
    assert sorted(scores.values())[-2] < scores[fmt]


def test_seed_listings_are_not_read_as_the_new_formats():
    for path in sorted((ROOT / "seeds").glob("*.txt")):
        text = path.read_text(encoding="utf-8")
        assert {f.NAME: f.sniff(text) for f in FORMATS
                if f.NAME in ("bibtex", "csl-json", "awesome-list")} == {
            "bibtex": 0.0, "csl-json": 0.0, "awesome-list": 0.0}, path.name


# --- CSL-JSON ----------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def csl():
    return parse_text(CSL, "zotero.json")


# item: (line, title start, authors, year, date, container, doi, arxiv, urls)
CSL_ITEMS = [
    (1, 2, "Orca", ["Gyeong-In Yu", "Joo Seong Jeong", "Geon-Woo Kim", "Soojeong Kim", "Byung-Gon Chun"],
     2022, "2022-07-11",
     "16th USENIX Symposium on Operating Systems Design and Implementation (OSDI 22)", None, None,
     ["https://www.usenix.org/conference/osdi22/presentation/yu"]),
    (2, 20, "Efficient Memory", ["Woosuk Kwon", "Zhuohan Li", "vLLM Team"], 2023, None,
     "Proceedings of the 29th Symposium on Operating Systems Principles", "10.1145/3600006.3613165",
     None, []),
    (3, 34, "QLoRA", ["Tim Dettmers", "Artidoro Pagnoni", "Ari Holtzman", "Luke Zettlemoyer"], 2023,
     "2023-05-23", None, "10.48550/arXiv.2305.14314", "2305.14314", []),
    (4, 51, "MapReduce", ["Jeffrey Dean", "Sanjay Ghemawat"], 2008, None, "Communications of the ACM",
     "10.1145/1327452.1327492", None, []),
    (5, 65, "A Made-Up Report", ["Guido van Rossum", "Nobody", "Martin Luther King Jr."], None, None,
     None, None, None, []),
]


@pytest.mark.parametrize("number,line,start,authors,year,date,container,doi,arxiv,urls", CSL_ITEMS)
def test_csl_items(csl, number, line, start, authors, year, date, container, doi, arxiv, urls):
    entry = next(e for e in csl.entries if e.source.entry == number)
    assert entry.source.line == line and entry.title.startswith(start)
    assert entry.authors == authors
    assert (entry.year, entry.date, entry.container, entry.doi, entry.arxiv, entry.urls) == (
        year, date, container, doi, arxiv, urls)


def test_csl_skips_and_warnings_name_the_item(csl):
    assert [(s.source.entry, s.source.line, s.reason) for s in csl.skipped] == [
        (6, 76, "item has no title"), (7, 81, "item is not a JSON object")]
    assert [(f.line, f.code) for f in csl.findings] == [(65, "bad-date")]
    assert csl.entries[2].abstract.startswith("We present <jats:italic>QLoRA</jats:italic>")  # verbatim


def test_csl_broken_json_names_the_line():
    with pytest.raises(ParseError) as err:
        parse_text('[\n  {"title": "A", "type": "article"},\n  {"title": \n]', "bad.json")
    assert err.value.file == "bad.json" and err.value.line == 4


def test_csl_goes_through_normalisation_and_the_ledger(tmp_path, capsys):
    shutil.copy(FIXTURES / "csl" / "zotero.json", tmp_path / "zotero.json")
    atlas = build_atlas(tmp_path)
    venues = {p.title.split(":")[0]: (p.venue, p.year) for p in atlas.corpus.papers}
    assert venues["Orca"] == ("OSDI", 2022)
    assert venues["Efficient Memory Management for Large Language Model Serving with PagedAttention"] == (
        "SOSP", 2023)
    assert venues["QLoRA"] == (None, 2023)
    assert venues["MapReduce"] == ("Communications of the ACM", 2008)
    assert main(["check", "--seeds", str(tmp_path)]) == 0
    assert ("zotero.json: csl-json; entries detected 7 = papers made 5 + merged 0 + skipped 2 [ok]"
            in capsys.readouterr().out)


# --- awesome lists -----------------------------------------------------------------------------

@pytest.fixture(scope="module")
def awesome():
    return parse_text(AWESOME, "awesome-mlsys.md")


# line: (title, venue as written, year, arxiv, doi, headings)
AWESOME_ITEMS = [
    (15, "Efficient Large Language Models: A Survey", None, 2024, "2312.03863", None, ["Surveys"]),
    (21, "ZeRO: Memory Optimizations Toward Training Trillion Parameter Models", "SC", 2020,
     "1910.02054", None, ["Training System", "Parallelism"]),
    (22, "Alpa: Automating Inter- and Intra-Operator Parallelism for Distributed Deep Learning",
     "OSDI", 2022, None, None, ["Training System", "Parallelism"]),
    (23, "PipeDream: Generalized Pipeline Parallelism for DNN Training", "SOSP", 2019, None,
     "10.1145/3341301.3359646", ["Training System", "Parallelism"]),
    (29, "Zeus: Understanding and Optimizing GPU Energy Consumption of DNN Training", "NSDI", 2023,
     None, None, ["Training System", "GPU sharing"]),                      # tag after the title
    (36, "H2O: Heavy-Hitter Oracle for Efficient Generative Inference of Large Language Models",
     "NeurIPS", 2023, "2306.14048", None, ["Inference System", "KV cache"]),   # "Spotlight" dropped
    (40, "Fast Inference from Transformers via Speculative Decoding", "ICML", 2023, "2211.17192", None,
     ["Inference System", "Speculative decoding"]),                          # "(Oral)" dropped
    (41, "Optimal Block-Level Draft Verification for Accelerating Speculative Decoding",
     "ES-FoMo @ ICML", 2024, None, None, ["Inference System", "Speculative decoding"]),
    (43, "Orca: A Distributed Serving System for Transformer-Based Generative Models", "OSDI", 2022,
     None, None, ["Inference System", "Speculative decoding", "Serving systems"]),   # nested group
    (44, "A Workshop Paper on Serving at the Edge", "HotInfra", 2024, None, None,
     ["Inference System", "Speculative decoding", "Serving systems"]),
    (45, "Serving Large Language Models: A Survey of Techniques", None, None, "2404.14294", None,
     ["Inference System", "Speculative decoding", "Serving systems"]),
    (46, "Prompt Cache: Modular Attention Reuse for Low-Latency Inference", "MLSys", 2024,
     "2311.04934", None, ["Inference System", "Speculative decoding", "Serving systems"]),
]


@pytest.mark.parametrize("line,title,venue,year,arxiv,doi,headings", AWESOME_ITEMS)
def test_awesome_items(awesome, line, title, venue, year, arxiv, doi, headings):
    entry = next(e for e in awesome.entries if e.source.line == line)
    assert (entry.title, entry.venue, entry.year, entry.arxiv, entry.doi, entry.headings[0]) == (
        title, venue, year, arxiv, doi, headings)


def test_awesome_links_other_than_ids_are_kept(awesome):
    alpa = next(e for e in awesome.entries if e.source.line == 22)
    assert alpa.urls == ["https://www.usenix.org/conference/osdi22/presentation/zheng-lianmin",
                         "https://github.com/alpa-projects/alpa"]


def test_awesome_every_item_is_detected_and_non_papers_say_why(awesome):
    assert awesome.detected == 22
    assert [s.source.line for s in awesome.skipped] == [7, 9, 10, 11, 58, 59]
    assert all("no venue tag and no link" in s.reason for s in awesome.skipped)
    codes = sorted(f.code for f in awesome.findings)
    assert codes == ["table-not-read", "unread-tag"]


@pytest.fixture(scope="module")
def awesome_atlas():
    return build_atlas(AWESOME_SEEDS)


def test_cross_listing_is_one_paper_and_keeps_both_headings(awesome_atlas):
    paged = [p for p in awesome_atlas.corpus.papers if "PagedAttention" in p.title]
    assert len(paged) == 1
    assert paged[0].listed_under == [
        ("Inference System › KV cache", "awesome-mlsys.md"),
        ("Inference System › Memory Offloading & Swapping", "awesome-mlsys.md")]
    [row] = awesome_atlas.corpus.ledger
    assert (row.detected, row.made, row.merged, len(row.skipped)) == (22, 15, 1, 6)


def test_also_in_note_files_the_paper_under_that_section_too(awesome_atlas):
    [cache] = [p for p in awesome_atlas.corpus.papers if p.title.startswith("Prompt Cache")]
    assert cache.title == "Prompt Cache: Modular Attention Reuse for Low-Latency Inference"
    assert cache.listed_under == [
        ("Inference System › Speculative decoding › Serving systems", "awesome-mlsys.md"),
        ("Training System › Parallelism", "awesome-mlsys.md")]


def test_workshop_and_unknown_tags(awesome_atlas):
    venues = {p.title.split(":")[0]: p.venue for p in awesome_atlas.corpus.papers}
    assert venues["Optimal Block-Level Draft Verification for Accelerating Speculative Decoding"] == (
        "ES-FoMo @ ICML")
    assert awesome_atlas.corpus.venues["ES-FoMo @ ICML"].full_name == (
        "ES-FoMo workshop at International Conference on Machine Learning")
    unknown = [f for f in awesome_atlas.findings if f.code == "unknown-venue"]
    assert [(f.line, f.message) for f in unknown] == [
        (44, "venue 'HotInfra' is not in venues.yaml; kept as written")]
    assert venues["Efficient Large Language Models"] is None           # arxiv'24: a preprint


def test_headings_become_techniques_with_evidence(awesome_atlas):
    antman = next(p for p in awesome_atlas.corpus.papers if p.title.startswith("AntMan"))
    tag = next(t for t in antman.techniques if t.technique == "gpu-sharing")
    assert tag.field == "heading"
    assert tag.evidence == "listed under Training System › GPU sharing in awesome-mlsys.md"
    h2o = next(p for p in awesome_atlas.corpus.papers if p.title.startswith("H2O"))
    assert "kv-cache-management" in [t.technique for t in h2o.techniques]


def test_unmapped_heading_is_listed_with_a_line_that_pastes(awesome_atlas, tmp_path):
    [finding] = [f for f in awesome_atlas.findings if f.code == "unmapped-heading"]
    assert "'Memory Offloading & Swapping' (1 papers)" in finding.message
    line = finding.message.split("add: ", 1)[1]
    (tmp_path / "headings.yaml").write_text("headings:\n  " + line + "\n", encoding="utf-8")
    [rule] = load_headings(tmp_path / "headings.yaml", "headings.yaml").rules.values()
    assert rule.heading == "Memory Offloading & Swapping" and rule.techniques == ("memory-offloading",)
    assert yaml.safe_load(line)[0]["source"] == "heading of awesome-mlsys.md"


def test_check_lists_unmapped_headings(capsys):
    assert main(["check", "--seeds", str(AWESOME_SEEDS)]) == 0
    out = capsys.readouterr().out
    assert "awesome-mlsys.md: awesome-list; entries detected 22 = papers made 15 + merged 1 + skipped 6 [ok]" in out
    assert "[unmapped-heading] heading 'Memory Offloading & Swapping'" in out


@pytest.mark.parametrize("heading,key", [
    ("2.3 GPU sharing", "gpu sharing"), ("GPU Sharing:", "gpu sharing"), ("🔥 KV Cache", "kv cache"),
    ("IV. Serving", "serving"), ("**Quantization**", "quantization")])
def test_heading_keys(heading, key):
    assert heading_key(heading) == key


def test_headings_file_is_validated(tmp_path):
    data = tmp_path / "data"
    shutil.copytree(ROOT / "data", data)
    (data / "headings.yaml").write_text(
        "headings:\n  - {heading: GPU sharing, techniques: [gpu-sharng], source: typo}\n", encoding="utf-8")
    with pytest.raises(CurationError, match="unknown technique 'gpu-sharng'") as err:
        build_atlas(AWESOME_SEEDS, data)
    assert err.value.line == 2


# --- one paper from many sources -----------------------------------------------------------

@pytest.fixture(scope="module")
def merged():
    return build_atlas(MERGE)


def test_ledger_per_file(merged):
    assert [(r.file, r.format, r.detected, r.made, r.merged, len(r.skipped)) for r in merged.corpus.ledger] == [
        ("a_library.bib", "bibtex", 2, 2, 0, 0),
        ("b_awesome.md", "awesome-list", 2, 0, 2, 0),
        ("c_neurips.txt", "papers-cool", 1, 0, 1, 0),
        ("d_zotero.json", "csl-json", 1, 0, 1, 0)]


def test_every_value_is_kept_with_provenance_and_structured_sources_win(merged):
    orca = next(p for p in merged.corpus.papers if p.title.startswith("Orca"))
    assert (orca.venue, orca.year) == ("OSDI", 2022)
    assert [(v.value, v.source.ref, v.kind) for v in orca.field_values["year"]] == [
        ("2022", "a_library.bib#2", "structured"), ("2021", "b_awesome.md#2", "listing"),
        ("2022", "d_zotero.json#1", "structured")]
    assert [(v.value, v.source.ref) for v in orca.field_values["venue"]] == [
        ("OSDI", "a_library.bib#2"), ("ATC", "b_awesome.md#2"), ("OSDI", "d_zotero.json#1")]
    fineweb = next(p for p in merged.corpus.papers if p.title.startswith("The FineWeb"))
    assert [merged.corpus.authors[a].name for a in fineweb.authors][:2] == ["Guilherme Penedo",
                                                                            "Hynek Kydlíček"]
    assert [v.value for v in fineweb.field_values["authors"]] == [
        "Guilherme Penedo, Hynek Kydlíček, Loubna Ben Allal",
        "Guilherme Penedo, Hynek Kydlicek, Loubna Ben Allal"]


def test_conflicts_are_in_the_report(merged):
    conflicts = {f.code: f.message for f in merged.findings if f.code.startswith("conflicting-")}
    assert set(conflicts) == {"conflicting-year", "conflicting-venue", "conflicting-author"}
    assert "2022 (a_library.bib#2, d_zotero.json#1); 2021 (b_awesome.md#2); showing 2022" in (
        conflicts["conflicting-year"])
    assert "OSDI (a_library.bib#2, d_zotero.json#1); ATC (b_awesome.md#2); showing OSDI" in (
        conflicts["conflicting-venue"])
    assert "Hynek Kydlíček (a_library.bib#1); Hynek Kydlicek (c_neurips.txt#1)" in (
        conflicts["conflicting-author"])


def test_a_curated_correction_wins_and_is_kept_first(merged, tmp_path):
    orca = next(p for p in merged.corpus.papers if p.title.startswith("Orca"))
    data = tmp_path / "data"
    shutil.copytree(ROOT / "data", data)
    (data / "corrections.yaml").write_text(
        f"corrections:\n  - paper: {orca.slug}\n    year: 2023\n"
        "    source: https://example.org/erratum\n", encoding="utf-8")
    corrected = next(p for p in build_atlas(MERGE, data).corpus.papers if p.slug == orca.slug)
    assert corrected.year == 2023
    first = corrected.field_values["year"][0]
    assert (first.value, first.kind, first.source.line) == ("2023", "correction", 2)


def test_paper_page_shows_which_source_said_what(merged):
    from build_graph.render.site import render_site
    orca = next(p for p in merged.corpus.papers if p.title.startswith("Orca"))
    page = next(text.body for path, text in render_site(merged).items() if orca.slug in path
                and path.endswith(".md") and "papers/" in path)
    assert "Sources disagree on the year" in page
    for ref in ("a_library.bib#2", "b_awesome.md#2", "d_zotero.json#1"):
        assert ref in page.split("Sources disagree on the year", 1)[1].split("\n")[0]


@pytest.mark.parametrize("item,title", [
    ("- [OSDI'23] <script>alert(1)</script> Title {{ config }} {% if x %}", 
     "<script>alert(1)</script> Title {{ config }} {% if x %}"),
    ("- [OSDI'23] [<img src=x onerror=alert(1)> Linked](https://example.org/p.pdf)",
     "<img src=x onerror=alert(1)> Linked"),
])
def test_awesome_untrusted_text_is_kept_as_written(item, title):
    listing = parse_text(f"# L\n\n## A\n\n{item}\n- [NSDI'22] [Other](https://example.org/o.pdf)\n", "l.md")
    assert listing.entries[0].title == title


def test_benchmark_generators_write_what_they_say():
    from build_graph.devtools.import_bench import awesome_text, bib_text
    assert bib_text(60, seed=3) == bib_text(60, seed=3) != bib_text(60, seed=4)
    bib = parse_text(bib_text(60), "g.bib")
    assert len(bib.entries) == 60 and not bib.errors
    assert all(s.reason.endswith("is a volume, not a paper; entries cross-reference it for their venue")
               for s in bib.skipped)
    md = parse_text(awesome_text(40), "g.md")
    assert len(md.entries) == 40 and not md.skipped


SHAPES = (FIXTURES / "awesome" / "shapes.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("line,title,venue,year,arxiv,doi", [
    (13, "Zeus: Understanding and Optimizing GPU Energy Consumption of DNN Training", "NSDI", 2023,
     None, None),                                                       # tag after the link
    (14, "FastMoE: A Fast Mixture-of-Expert Training System", None, None, "2103.13262", None),
    (15, "Flash-LLM: Enabling Cost-Effective and Highly-Efficient Large Generative Model Inference "
         "with Unstructured Sparsity", "vldb", 2024, None, None),        # tag closing the link text
    (19, "Gandiva: Introspective Cluster Scheduling for Deep Learning", "OSDI", 2018, None, None),
    (20, "Varuna: Scalable, Low-cost Training of Massive Deep Learning Models", "EuroSys", 2022, None,
     "10.1145/3492321.3519584"),                                        # ACM DL page gives the DOI
    (22, "FlexGen: High-Throughput Generative Inference of Large Language Models with a Single GPU",
     "ICML", 2023, "2303.06865", None),                                 # numbered list
    (23, "Efficiently Scaling Transformer Inference", "MLSys", 2023, "2211.05102", None),
])
def test_awesome_list_shapes_of_real_lists(line, title, venue, year, arxiv, doi):
    listing = parse_text(SHAPES, "shapes.md")
    entry = next(e for e in listing.entries if e.source.line == line)
    assert (entry.title, entry.venue, entry.year, entry.arxiv, entry.doi) == (title, venue, year, arxiv, doi)


@pytest.mark.parametrize("text,arxiv,doi", [
    ("https://arxiv.org/abs/2305.14314v2", "2305.14314", None),
    ("http://arxiv.org/pdf/2305.14314.pdf", "2305.14314", None),
    ("arXiv:2305.14314", "2305.14314", None),
    ("cs/0112017v1", "cs/0112017", None),
    ("10.48550/arXiv.2305.14314", "2305.14314", "10.48550/arXiv.2305.14314"),
    ("https://doi.org/10.1145/3600006.3613165", None, "10.1145/3600006.3613165"),
    ("doi:10.1145/3600006.3613165", None, "10.1145/3600006.3613165"),
    ("https://dl.acm.org/doi/abs/10.1145/3492321.3519584", None, "10.1145/3492321.3519584"),
    ("https://github.com/vllm-project/vllm", None, None),
    ("https://openreview.net/forum?id=abc", None, None),
])
def test_ids_in_links(text, arxiv, doi):
    from build_graph.sources.links import arxiv_id, doi_of
    assert (arxiv_id(text), doi_of(text)) == (arxiv, doi)


@pytest.mark.parametrize("venue,preprint", [
    ("CoRR", True), ("arXiv", True), ("arXiv preprint arXiv:2309.06180", True), ("arXiv.org", True),
    ("bioRxiv", True), ("Communications of the ACM", False), ("ARXIVE Conference", False), (None, False)])
def test_preprint_servers_are_not_venues(venue, preprint):
    from build_graph.sources.links import is_preprint_server
    assert is_preprint_server(venue) is preprint
