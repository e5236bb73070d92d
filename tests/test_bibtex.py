"""BibTeX entries and keys on the real seeds, on copies of them with papers
added, and with titles written to break a .bib file."""

from __future__ import annotations

import html
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from build_graph.bibtex import (base_key, bibtex_entry, bibtex_file, bibtex_html, citation_keys,
                                escape)
from build_graph.normalize.slugs import short_hash
from build_graph.pipeline import build_atlas

ROOT = Path(__file__).resolve().parent.parent

# Two MLSys 2024 papers no other listing has; the second collides with the real
# "Tutel: Adaptive Mixture-of-Experts at Scale" (Changho Hwang, MLSys 2023) only
# when given the same year, which ``COLLIDING`` does.
UNRELATED = """MLSYS.2024

| Total: 2

#1 QuickServe: Serving Quantized Language Models on Commodity CPUs [PDF] [Copy] [Kimi] [REL]

Authors: Ottoline Quarrington, Bartholomew Fennimore-Vass

We present QuickServe, a system for low-latency inference with post-training quantization.


#2 ShardFlow: Pipeline Parallelism Across Heterogeneous Clusters [PDF] [Copy] [Kimi] [REL]

Authors: Wilhelmina Dragoescu

ShardFlow combines pipeline parallelism and data parallelism on heterogeneous GPU clusters.
"""

COLLIDING = """MLSYS.2023

| Total: 1

#1 Tutel Revisited: Expert Parallelism Without Padding [PDF] [Copy] [Kimi] [REL]

Authors: Changho Hwang, Quentin Example

A follow-up on mixture-of-experts training.
"""

NASTY_TITLE = r"Braces } { and \end{document} 100% & $5 #1 a_b x^2 ~user @misc{evil, \\"
NASTY = f"""MLSYS.2024

| Total: 1

#1 {NASTY_TITLE} [PDF] [Copy] [Kimi] [REL]

Authors: Ann {{Brace}} O'Neil, Research and Development Team, Smith, John

A paper whose title and authors were written to break a bibliography.
"""


def paper(atlas, slug):
    return next(p for p in atlas.corpus.papers if p.slug == slug)


def entry_of(atlas, slug):
    keys = citation_keys(atlas.corpus.papers, atlas.corpus)
    p = paper(atlas, slug)
    return bibtex_entry(p, atlas.corpus, keys[slug])


def fields(entry: str) -> dict[str, str]:
    """``name = {value}`` pairs of one generated entry (one field per line)."""
    return dict(re.findall(r"^  (\w+)\s*= \{(.*)\},?$", entry, re.MULTILINE))


def balanced(text: str) -> bool:
    """BibTeX's own rule: braces count whatever precedes them, backslash included."""
    depth = 0
    for char in text:
        depth += {"{": 1, "}": -1}.get(char, 0)
        if depth < 0:
            return False
    return depth == 0


def unescape(value: str) -> str:
    for seq, char in [(r"\textbackslash{}", "\\"), (r"\textbraceleft{}", "{"),
                      (r"\textbraceright{}", "}"), (r"\textasciicircum{}", "^"),
                      (r"\textasciitilde{}", "~"), (r"\%", "%"), (r"\&", "&"), (r"\$", "$"),
                      (r"\#", "#"), (r"\_", "_")]:
        value = value.replace(seq, char)
    return value


def with_listings(tmp_path: Path, **listings: str):
    seeds = tmp_path / "seeds"
    shutil.copytree(ROOT / "seeds", seeds)
    for name, text in listings.items():
        (seeds / f"{name}.txt").write_text(text, encoding="utf-8")
    return build_atlas(seeds, ROOT / "data")


# --- entry types follow the data ---------------------------------------------------

def test_mlsys_paper_is_inproceedings_with_booktitle(atlas):
    entry = entry_of(atlas, "tutel-adaptive-mixture-of-experts-at-scale")
    assert entry.startswith("@inproceedings{hwang2023tutel,\n")
    f = fields(entry)
    assert f["title"] == "Tutel: Adaptive Mixture-of-Experts at Scale"
    assert f["booktitle"] == "Conference on Machine Learning and Systems (MLSys)"
    assert f["year"] == "2023"
    assert f["author"].startswith("Changho Hwang and Wei Cui and ")
    assert " and others" not in f["author"]
    assert "eprint" not in f and "note" not in f


def test_session_schedule_paper_takes_year_from_its_sidecar(atlas):
    f = fields(entry_of(atlas, "ulppack-fast-sub-8-bit-matrix-multiply-on-commodity-simd-hardware"))
    assert f["booktitle"].endswith("(MLSys)") and f["year"] == "2022"


def test_arxiv_only_untitled_paper_is_misc_with_eprint_and_no_title(listed_atlas):
    entry = entry_of(listed_atlas, "freqtier-2312-04789")
    assert entry.startswith("@misc{anon2023freqtier,\n")
    f = fields(entry)
    assert "title" not in f and "author" not in f and "booktitle" not in f
    assert f["eprint"] == "2312.04789" and f["archivePrefix"] == "arXiv"
    assert f["url"] == "https://arxiv.org/abs/2312.04789"
    assert f["note"] == "Untitled in the source listing; label: FreqTier"


@pytest.mark.parametrize("slug,venue", [
    ("tempo-2210-10246", "Conference on Neural Information Processing Systems (NeurIPS)"),
    ("tilt-2301-12030", "ACM International Conference on Architectural Support for Programming "
                        "Languages and Operating Systems (ASPLOS)"),
])
def test_venue_from_an_arxiv_comment_or_doi_makes_inproceedings(listed_atlas, slug, venue):
    entry = entry_of(listed_atlas, slug)
    assert entry.startswith("@inproceedings{")
    f = fields(entry)
    assert f["booktitle"] == venue
    assert "title" not in f and f["note"].startswith("Untitled in the source listing")
    assert f["eprint"] == paper(listed_atlas, slug).arxiv


def test_asplos_paper_keeps_its_doi(atlas):
    assert fields(entry_of(atlas, "tilt-2301-12030"))["doi"] == "10.1145/3575693.3575704"


def test_truncated_author_list_ends_in_and_others_and_unknown_venue_is_misc(atlas):
    entry = entry_of(atlas, "a-programmable-approach-to-neural-network-compression")
    assert entry.startswith("@misc{joseph2019programmable,\n")
    f = fields(entry)
    assert f["author"] == "Vinu Joseph and Saurav Muralidharan and Animesh Garg and others"
    assert f["note"] == "Venue not stated in the source listings"
    assert "eprint" not in f and "booktitle" not in f


# --- keys ------------------------------------------------------------------------------

def test_keys_are_unique_ascii_and_readable_across_the_real_atlas(atlas):
    keys = citation_keys(atlas.corpus.papers, atlas.corpus)
    assert set(keys) == {p.slug for p in atlas.corpus.papers}
    assert len(set(keys.values())) == len(keys)
    assert all(re.fullmatch(r"[a-z0-9]+(-[0-9a-f]+)?", k) for k in keys.values())
    assert keys["x-rlflow-graph-reinforcement-learning-for-neural-network-subgraphs-transf-c186e8"] \
        == "he2023xrlflow"
    assert keys["towards-the-co-design-of-neural-networks-and-accelerators"] == "zhou2022codesign"
    assert keys["breadth-first-pipeline-parallelism"] == "lamypoirier2023breadthfirst"


def test_keys_stay_short_and_plain_for_hostile_listings():
    hostile = build_atlas(ROOT / "tests" / "fixtures" / "hostile" / "seeds", ROOT / "data")
    keys = citation_keys(hostile.corpus.papers, hostile.corpus)
    assert len(set(keys.values())) == len(keys) == len(hostile.corpus.papers)
    for key in keys.values():
        assert re.fullmatch(r"[a-z0-9]+(-[0-9a-f]+)?", key) and len(key.split("-")[0]) <= 44, key


@pytest.fixture(scope="module")
def grown(tmp_path_factory):
    return with_listings(tmp_path_factory.mktemp("grown"), **{"900_unrelated": UNRELATED})


def test_adding_unrelated_papers_changes_no_existing_key(atlas, grown):
    before = citation_keys(atlas.corpus.papers, atlas.corpus)
    after = citation_keys(grown.corpus.papers, grown.corpus)
    assert len(after) == len(before) + 2
    assert {slug: after[slug] for slug in before} == before
    assert len(set(after.values())) == len(after)


def test_colliding_papers_all_get_a_suffix_from_their_own_slug(atlas, tmp_path):
    grown = with_listings(tmp_path, **{"900_colliding": COLLIDING, "901_unrelated": UNRELATED})
    keys = citation_keys(grown.corpus.papers, grown.corpus)
    tutel = "tutel-adaptive-mixture-of-experts-at-scale"
    revisited = next(p.slug for p in grown.corpus.papers if p.slug.startswith("tutel-revisited"))
    assert base_key(paper(grown, revisited), grown.corpus) == "hwang2023tutel"
    # The plain key is retired rather than handed to either paper...
    assert "hwang2023tutel" not in keys.values()
    assert keys[tutel] == "hwang2023tutel-" + short_hash(tutel, 4)
    assert keys[revisited] == "hwang2023tutel-" + short_hash(revisited, 4)
    # ...and no other key moves.
    before = citation_keys(atlas.corpus.papers, atlas.corpus)
    assert {s: keys[s] for s in before if s != tutel} == {s: k for s, k in before.items()
                                                         if s != tutel}


def test_keys_do_not_depend_on_paper_order(atlas):
    papers = atlas.corpus.papers
    assert citation_keys(list(reversed(papers)), atlas.corpus) == citation_keys(papers, atlas.corpus)


# --- escaping ------------------------------------------------------------------------

@pytest.fixture(scope="module")
def nasty(tmp_path_factory):
    atlas = with_listings(tmp_path_factory.mktemp("nasty"), **{"950_nasty": NASTY})
    p = next(p for p in atlas.corpus.papers if p.title and p.title.startswith("Braces"))
    keys = citation_keys(atlas.corpus.papers, atlas.corpus)
    return atlas, p, bibtex_entry(p, atlas.corpus, keys[p.slug])


def test_special_characters_are_escaped_and_round_trip(nasty):
    _, p, entry = nasty
    assert {"}", "{", "\\", "%", "&", "$", "#", "_", "^", "~", "@"} <= set(p.title)
    title = fields(entry)["title"]
    assert unescape(title) == p.title
    stripped = re.sub(r"\\text\w+\{\}|\\[%&$#_]", "", title)
    assert not set(stripped) & set("{}\\%&$#_^~")
    assert "\\end{" not in entry and "\\textbackslash{}end\\textbraceleft{}document" in entry
    assert balanced(entry)


def test_author_names_with_and_or_commas_stay_one_person(nasty):
    atlas, p, entry = nasty
    names = [atlas.corpus.authors[a].name for a in p.authors]
    author = fields(entry)["author"]
    assert re.search(r"\{Research and Development Team\}", author, re.IGNORECASE)
    parts = re.split(r" and (?![^{]*\})", author)
    assert len(parts) == len(names)


def test_escape_handles_every_special_character():
    assert escape(r"{}\%&$#_^~") == (r"\textbraceleft{}\textbraceright{}\textbackslash{}\%\&\$"
                                     r"\#\_\textasciicircum{}\textasciitilde{}")
    assert escape("Ünïcödé — kept") == "Ünïcödé — kept"
    assert escape("two\nlines\t here") == "two lines here"
    assert balanced(escape("}}}{{ \\} \\{"))


# --- the whole file -------------------------------------------------------------------

def parse_bib(text: str) -> dict[str, tuple[str, dict[str, str]]]:
    """A deliberately small parser: ``@type{key,`` then ``name = {value}`` lines."""
    entries = {}
    for chunk in re.split(r"\n(?=@)", text):
        head = re.match(r"@(\w+)\{([^,\s]+),\n", chunk)
        if not head:
            assert not chunk.strip() or all(line.startswith("%") for line in chunk.strip().splitlines())
            continue
        assert chunk.rstrip().endswith("}") and balanced(chunk), chunk
        assert head.group(2) not in entries
        entries[head.group(2)] = (head.group(1), fields(chunk))
    return entries


def test_bib_file_is_complete_sorted_deterministic_and_parses(atlas):
    text = bibtex_file(atlas)
    assert text == bibtex_file(atlas)
    entries = parse_bib(text)
    assert len(entries) == len(atlas.corpus.papers) == 51
    assert list(entries) == sorted(entries)
    assert balanced(text)
    kinds = {kind for kind, _ in entries.values()}
    assert kinds == {"inproceedings", "misc"}
    for kind, f in entries.values():
        assert ("booktitle" in f) == (kind == "inproceedings")
        assert "title" in f or f["note"].startswith("Untitled")


def test_bib_file_with_nasty_entry_parses(nasty):
    atlas, p, _ = nasty
    text = bibtex_file(atlas)
    entries = parse_bib(text)
    assert len(entries) == len(atlas.corpus.papers)


def test_bibtex_html_is_an_escaped_code_block(nasty):
    _, _, entry = nasty
    block = bibtex_html(entry)
    assert block.startswith('<pre class="atlas-bibtex"><code>') and block.endswith("</code></pre>\n")
    inner = block[len('<pre class="atlas-bibtex"><code>'):-len("</code></pre>\n")]
    assert "<" not in inner and html.unescape(inner) == entry.rstrip("\n")
    assert "\n\n" not in block          # a blank line would end the raw HTML block in Markdown


class _ConfigLoader(yaml.SafeLoader):
    """mkdocs.yml uses tags such as ``!ENV``; their values do not matter here."""


_ConfigLoader.add_multi_constructor("!", lambda loader, suffix, node: None)
_ConfigLoader.add_multi_constructor("tag:yaml.org,2002:python/", lambda loader, suffix, node: None)


def _chromium_or_skip():
    if not Path("/usr/bin/chromium").exists():
        if os.environ.get("CI") == "true":
            pytest.fail("/usr/bin/chromium is missing under CI=true")
        pytest.skip("/usr/bin/chromium is missing (apt-get install -y chromium)")
    if os.environ.get("CI") == "true":
        import playwright.sync_api  # noqa: F401  (must be installed in CI)
    else:
        pytest.importorskip("playwright.sync_api")


@pytest.mark.browser
def test_material_puts_a_working_copy_button_on_the_entry(atlas, tmp_path):
    """mkdocs-material's ``content.code.copy`` acts on every ``pre > code``, so the
    raw block gets the same button as a fenced one, and copies the entry exactly."""
    _chromium_or_skip()
    from playwright.sync_api import sync_playwright

    config = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=_ConfigLoader)
    assert "content.code.copy" in config["theme"]["features"]
    entry = entry_of(atlas, "tutel-adaptive-mixture-of-experts-at-scale")
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text(
        "# Tutel\n\n## Cite\n\n" + bibtex_html(entry) + "\nAfter the entry.\n", encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text(yaml.safe_dump({
        "site_name": "copy button", "theme": {"name": "material", "features": config["theme"]["features"]},
        "markdown_extensions": ["tables", "attr_list", "md_in_html", "pymdownx.superfences"]}),
        encoding="utf-8")
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q"], cwd=tmp_path,
                   check=True, capture_output=True, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})

    server = subprocess.Popen([sys.executable, "-u", "-m", "http.server", "0", "--bind", "127.0.0.1",
                               "-d", str(tmp_path / "site")], stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)
    try:
        port = int(re.search(r"port (\d+)", server.stdout.readline()).group(1))
        origin = f"http://127.0.0.1:{port}"
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
            context = browser.new_context()
            context.grant_permissions(["clipboard-read", "clipboard-write"], origin=origin)
            page = context.new_page()
            page.goto(origin + "/")
            button = page.locator("pre.atlas-bibtex button[data-md-type=copy]")
            button.wait_for(state="attached", timeout=10_000)
            assert button.count() == 1
            page.locator("pre.atlas-bibtex").hover()
            button.click()
            page.wait_for_function("navigator.clipboard.readText().then(t => t.length > 0)")
            assert page.evaluate("navigator.clipboard.readText()") == entry.rstrip("\n")
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=10)
        server.stdout.close()
