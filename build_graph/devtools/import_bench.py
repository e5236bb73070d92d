"""Benchmark inputs for the BibTeX and awesome-list importers, and their timings.

``python -m build_graph.devtools.import_bench`` writes a 10,000-entry ``.bib``
and a 2,000-entry awesome list into a temporary folder and times, for each:

* **parse**: reading the file and ``parse`` (the format's own work);
* **import**: what importing a file costs on a seeds folder holding only that
  file: reading, parsing, the crossref pass, normalisation, merging and the
  ledger, and tagging (with the headings' techniques);
* **build_atlas**: the whole model build, which adds the graph and the
  related-paper ranking. Related papers are scored over shared techniques;
  the generated titles come from a few dozen topics, so thousands of papers
  share each technique and that stage costs more here than on real corpora
  (see docs/performance.md for it on real metadata).

The targets (issue 14): a 10,000-entry .bib imports in 10 s or less, a
2,000-entry awesome list in 3 s or less. This is a benchmark, not a timed
test: the numbers depend on the machine and are reported in docs/performance.md.

The generator is self-contained on purpose (it does not use ``synth.py``) and
deterministic (``random.Random(seed)``): the entries combine made-up system
names with real-looking title patterns, 1-12 authors (from 2 x N people,
a few prolific, most with one paper) with accents, DBLP
numbers and ``and others``, ``@string`` macros, crossrefs to ``@proceedings``
volumes, arXiv ids and DOIs, in the proportions of a DBLP export; the awesome
list has nested headings, bold sub-headers, venue tags with annotations,
workshop tags and cross-listings.
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from pathlib import Path

_SYLLABLES = ["flo", "ra", "tex", "mi", "zen", "quo", "vil", "pa", "dor", "ke", "lu", "sha", "rin",
              "bo", "tai", "gen", "vo", "cas", "ly", "nu"]
_TOPICS = ["Serving Large Language Models", "Pipeline-Parallel Training", "GPU Sharing in Clusters",
           "KV Cache Compression", "Speculative Decoding", "Mixture-of-Experts Inference",
           "Quantized Fine-Tuning", "Elastic Deep Learning Jobs", "Collective Communication",
           "Sparse Attention Kernels", "Memory Offloading for Training", "Serverless Inference",
           "Tensor Program Auto-Tuning", "Federated Learning on Devices", "Recommendation Embeddings"]
_HOWS = ["Efficient", "Fast", "Scalable", "Adaptive", "Transparent", "Predictable", "Fair", "Elastic"]
_GIVEN = ["Wei", "Anna", "José", "Zoë", "Tianqi", "Hynek", "Ion", "Matei", "Aditi", "Kai", "Lena",
          "Søren", "Chloé", "Yuki", "Omar", "Priya"]
_FAMILY = ["Chen", "Kydl{\\'{\\i}}{\\v{c}}ek", "Müller", "Stoica", "Zaharia", "Patel", "Nguyen",
           "Kim", "Dragojevi{\\'c}", "García", "Rossi", "O'Neil", "Li", "Wang", "Zhang", "Smith"]
_VENUES = [("osdi", "USENIX Symposium on Operating Systems Design and Implementation"),
           ("sosp", "Symposium on Operating Systems Principles"),
           ("nsdi", "USENIX Symposium on Networked Systems Design and Implementation"),
           ("mlsys", "Conference on Machine Learning and Systems"),
           ("eurosys", "European Conference on Computer Systems"),
           ("asplos", "International Conference on Architectural Support for Programming "
                      "Languages and Operating Systems")]
_TAGS = ["OSDI", "SOSP", "NSDI", "MLSys", "EuroSys", "ASPLOS", "NeurIPS", "ICML", "arxiv", "ATC"]
_HEADINGS = ["Training System", "Inference System", "Compilers", "Clusters", "Compression"]
_SUBHEADINGS = ["GPU sharing", "KV cache", "Speculative decoding", "Quantization", "Pruning",
                "Pipeline Parallelism", "Serving", "Cluster Scheduling"]


def _title(rng: random.Random, i: int) -> str:
    name = "".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(2, 3))).capitalize()
    return f"{name}{i}: {rng.choice(_HOWS)} {rng.choice(_TOPICS)}"


def _people(rng: random.Random, count: int) -> list[tuple[str, str]]:
    """``count`` distinct (given, family) names; some family names carry LaTeX accents."""
    people = set()
    while len(people) < count:
        given = rng.choice(_GIVEN) if rng.random() < 0.3 else (
            "".join(rng.choice(_SYLLABLES) for _ in range(2)).capitalize())
        family = rng.choice(_FAMILY) if rng.random() < 0.1 else (
            "".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(2, 3))).capitalize())
        people.add((given, family))
    return sorted(people)


def _author(rng: random.Random, people: list[tuple[str, str]]) -> str:
    # rng.random() ** 3 skews towards the first people: a few write many papers, most write one
    given, family = people[int(len(people) * rng.random() ** 3)]
    style = rng.random()
    if style < 0.5:
        return f"{family}, {given}"
    if style < 0.6:
        return f"{given} {family} {rng.randint(1, 20):04d}"
    return f"{given} {family}"


def bib_text(entries: int, seed: int = 0) -> str:
    rng = random.Random(seed)
    people = _people(rng, max(10, entries * 2))
    out = ["% generated by build_graph.devtools.import_bench\n"]
    out += [f'@string{{{key} = "Proceedings of the " # "{name}"}}\n' for key, name in _VENUES]
    volumes = []
    for year in range(2015, 2025):
        for key, name in _VENUES:
            volumes.append(f"{key}{year}")
            out.append(f"@proceedings{{{key}{year},\n  title = {{{name}, {key.upper()} {year}}},\n"
                       f"  year = {{{year}}},\n}}\n")
    for i in range(entries):
        authors = list(dict.fromkeys(_author(rng, people) for _ in range(rng.randint(1, 12))))
        if rng.random() < 0.05:
            authors.append("others")
        fields = [f"  title = {{{_title(rng, i)}}}", "  author = {" + " and ".join(authors) + "}"]
        kind = rng.random()
        if kind < 0.45:
            fields.append(f"  crossref = {{{rng.choice(volumes)}}}")
        elif kind < 0.8:
            key, _ = rng.choice(_VENUES)
            fields += [f"  booktitle = {key}", f"  year = {rng.randint(2015, 2024)}",
                       f"  month = {rng.choice(['jan', 'apr', 'jul', 'oct'])}"]
        else:
            fields += [f"  year = {rng.randint(2015, 2024)}", "  archivePrefix = {arXiv}",
                       f"  eprint = {{{rng.randint(1501, 2412)}.{i:05d}}}"]
        if rng.random() < 0.4:
            fields.append(f"  doi = {{10.1145/{3000000 + i}}}")
        out.append(f"@inproceedings{{e{i},\n" + ",\n".join(fields) + "\n}\n")
    return "\n".join(out)


def awesome_text(entries: int, seed: int = 0) -> str:
    rng = random.Random(seed)
    out = ["# Awesome Generated Systems\n", "A generated list for the import benchmark.\n"]
    per_section = max(1, entries // (len(_HEADINGS) * 3))
    written, section = 0, 0
    while written < entries:
        if written % (per_section * 3) == 0:
            out.append(f"\n## {section + 1}. {_HEADINGS[section % len(_HEADINGS)]}\n")
            section += 1
        if written % per_section == 0:
            out.append(f"\n### {rng.choice(_SUBHEADINGS)}\n")
            if rng.random() < 0.3:
                out.append(f"\n**{rng.choice(_SUBHEADINGS)}**\n")
        tag = rng.choice(_TAGS)
        year = rng.randint(15, 24)
        note = rng.choice(["", "", "", " Spotlight", " (Oral)"])
        label = f"ES-FoMo @ ICML'{year}" if rng.random() < 0.03 else f"{tag}'{year}{note}"
        link = (f"https://arxiv.org/abs/{2000 + year * 10 + rng.randint(0, 9)}.{written:05d}"
                if rng.random() < 0.6 else f"https://example.org/papers/{written}.pdf")
        out.append(f"- [{label}] [{_title(rng, written)}]({link})"
                   + (" [[code]](https://github.com/example/repo)" if rng.random() < 0.3 else ""))
        written += 1
    return "\n".join(out) + "\n"


def _time(label: str, run) -> float:
    start = time.perf_counter()
    result = run()
    elapsed = time.perf_counter() - start
    print(f"{label}: {elapsed:.2f} s{result}")
    return elapsed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bib", type=int, default=10_000, help="entries in the .bib (default 10000)")
    parser.add_argument("--awesome", type=int, default=2_000, help="awesome-list items (default 2000)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    from ..curation import load_curation
    from ..headings import load_headings
    from ..normalize import normalize
    from ..pipeline import build_atlas, load_tagging, read_sources, tag_papers
    from ..sources import parse_text
    from ..sources.bib import resolve_bibtex
    from ..caches import BuildCaches
    caches = BuildCaches()                         # as under ``mkdocs serve``: the tagger is compiled once
    load_tagging(load_curation().taxonomy_file, caches)              # ... here, untimed
    with tempfile.TemporaryDirectory(prefix="import-bench-") as tmp:
        for name, text, target in (("generated.bib", bib_text(args.bib, args.seed), 10.0),
                                   ("generated.md", awesome_text(args.awesome, args.seed), 3.0)):
            folder = Path(tmp) / name.replace(".", "-")
            folder.mkdir()
            (folder / name).write_text(text, encoding="utf-8")
            print(f"{name}: {len(text.encode()):,} bytes")
            _time(f"  parse {name}", lambda: f" ({len(parse_text(text, name).entries):,} entries)")

            def run_import(folder=folder):
                curation = load_curation()
                taxonomy, tagger = load_tagging(curation.taxonomy_file, caches)
                sources = read_sources(folder)
                corpus = normalize(resolve_bibtex(sources.listings), sources.sidecars, curation,
                                   sources.years)
                headings = load_headings(curation.source_files()["headings.yaml"], "headings.yaml")
                tag_papers(corpus, tagger, taxonomy, headings)
                [row] = corpus.ledger
                return (f" (detected {row.detected:,} = made {row.made:,} + merged {row.merged:,}"
                        f" + skipped {len(row.skipped):,}; target <= {target:.0f} s)")
            _time(f"  import {name}", run_import)
            _time(f"  build_atlas {name}",
                  lambda folder=folder: f" ({len(build_atlas(folder, caches=caches).corpus.papers):,} papers)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
