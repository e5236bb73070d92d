"""Measure the tagger on a real corpus: coverage, tags per paper, speed, and a sample to check by hand.

The seed gold set is small and ML-heavy; a few thousand real systems papers
show whether the taxonomy covers the field and whether tags stay right on
text nobody tuned for. The random sample (seeded, so reproducible) is written
out with its evidence for a person to judge.

    python -m build_graph.devtools.corpus_eval ../shared/corpora/systems-conferences.jsonl
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

from ..curation import REFERENCE_DIR
from ..errors import ParseError
from ..taxonomy import load_taxonomy
from ..tagging import Tagger

DEFAULT_TAXONOMY = REFERENCE_DIR / "taxonomy.yaml"


def read_jsonl(path: Path) -> list[dict]:
    papers = []
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as err:
                raise ParseError(f"invalid JSON: {err.msg}", file=str(path), line=number) from None
            if not isinstance(record, dict):
                raise ParseError("expected a JSON object", file=str(path), line=number)
            record["_line"] = number
            papers.append(record)
    return papers


def paper_text(paper: dict) -> tuple[str, str]:
    """(label, title and abstract) of one corpus record, as ``suggest`` takes them."""
    title = paper.get("title") or ""
    label = title or f"line {paper.get('_line', '?')}"
    return label, f"{title}. {paper.get('abstract') or ''}" if title else paper.get("abstract") or ""


def load_corpus_texts(path: Path) -> list[tuple[str, str]]:
    """Every record of a JSON Lines corpus as (label, text), for ``python -m build_graph suggest --corpus``."""
    return [paper_text(p) for p in read_jsonl(path)]


def tag_corpus(papers: list[dict], tagger: Tagger, repeat: int = 1) -> tuple[list[list], float]:
    """Tags of every paper and the best-of-``repeat`` CPU seconds per paper.

    CPU (process) time, not wall time: shared CI machines are busy, and the
    tagger is single-threaded pure computation.
    """
    best = float("inf")
    for _ in range(max(repeat, 1)):
        start = time.process_time()
        tags = [tagger.tag(p.get("title"), p.get("abstract") or "") for p in papers]
        best = min(best, (time.process_time() - start) / max(len(papers), 1))
    return tags, best


def write_sample(path: Path, papers: list[dict], tags: list[list], size: int, seed: int) -> list[tuple]:
    """Write ``size`` random (paper, tag) assignments as a Markdown table with a blank verdict column."""
    pairs = [(i, tag) for i, paper_tags in enumerate(tags) for tag in paper_tags]
    sample = random.Random(seed).sample(pairs, min(size, len(pairs)))
    lines = [f"# {len(sample)} random tag assignments (seed {seed})", "",
             "| # | line | paper | technique | field | matched | evidence | verdict |",
             "|---|---|---|---|---|---|---|---|"]
    for n, (i, tag) in enumerate(sample, start=1):
        cells = [str(n), str(papers[i]["_line"]), papers[i].get("title") or "(untitled)", tag.technique,
                 tag.field, tag.matched, tag.evidence, ""]
        lines.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return sample


def report(papers: list[dict], tags: list[list], seconds: float, tagger: Tagger, top: int = 15) -> str:
    counts = [len(t) for t in tags]
    covered = sum(1 for c in counts if c)
    per_technique = Counter(tag.technique for t in tags for tag in t)
    per_area = Counter(tagger.taxonomy.area_of(tid) for tid in per_technique.elements())
    unused = [tid for tid in tagger.order if tid not in per_technique]
    lines = [
        f"papers:                 {len(papers)}",
        f"coverage (>=1 tag):     {covered}/{len(papers)} = {covered / max(len(papers), 1):.1%}",
        f"techniques per paper:   mean {statistics.mean(counts or [0]):.2f}, "
        f"median {statistics.median(counts or [0]):g}, max {max(counts or [0])}",
        f"tags from the title:    {sum(1 for t in tags for g in t if g.field == 'title')}",
        f"strong / weak tags:     {sum(1 for t in tags for g in t if g.strength == 'strong')} / "
        f"{sum(1 for t in tags for g in t if g.strength == 'weak')}",
        f"CPU time per paper:     {seconds * 1e3:.3f} ms",
        f"techniques used:        {len(per_technique)}/{len(tagger.order)}",
        "", "most used techniques:",
        *(f"  {n:5d}  {tid}" for tid, n in per_technique.most_common(top)),
        "", "tags per area:",
        *(f"  {n:5d}  {area}" for area, n in per_area.most_common()),
        "", f"never used ({len(unused)}): {', '.join(unused) or '-'}",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m build_graph.devtools.corpus_eval", description=__doc__.splitlines()[0])
    parser.add_argument("corpus", type=Path, help="JSON Lines file: one {title, abstract, ...} per line")
    parser.add_argument("--taxonomy", type=Path, default=DEFAULT_TAXONOMY)
    parser.add_argument("--sample", type=int, default=50, help="assignments to sample for hand-checking")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--sample-out", type=Path, default=Path("out/tagging-sample.md"))
    parser.add_argument("--repeat", type=int, default=3, help="timing runs; the fastest is reported")
    parser.add_argument("--untagged", type=int, default=0, metavar="N", help="also list N untagged titles")
    parser.add_argument("--suggest", type=int, default=0, metavar="N",
                        help="also suggest N candidate techniques from the untagged papers")
    args = parser.parse_args(argv)

    tagger = Tagger(load_taxonomy(args.taxonomy))
    papers = read_jsonl(args.corpus)
    tags, seconds = tag_corpus(papers, tagger, args.repeat)
    print(report(papers, tags, seconds, tagger))
    write_sample(args.sample_out, papers, tags, args.sample, args.seed)
    print(f"\nwrote {args.sample} sampled assignments to {args.sample_out}")
    untagged = [p for p, t in zip(papers, tags) if not t]
    for paper in untagged[:args.untagged]:
        print(f"  untagged: {paper.get('title')}")
    if args.suggest:
        from ..suggest import format_suggestions, suggest
        texts = [paper_text(p) for p in untagged]
        print("\n" + format_suggestions(suggest(texts, tagger, top=args.suggest)))
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
