"""Command line: ``python -m build_graph {check,export,build,suggest,diff,evaluate,bench}``.

The CLI reports and carries on where that is safe (``check`` lists every
broken file, not just the first) and exits non-zero when anything is an error.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .errors import AtlasError

DEFAULT_SEEDS = Path("seeds")
DEFAULT_DATA = Path("data")


def _data_dir(args) -> Path | None:
    """``--data``, else ``data/`` in the current folder if there is one; the
    packaged reference data (taxonomy, venues, non-names) fills in the rest."""
    if args.data:
        return Path(args.data)
    return DEFAULT_DATA if DEFAULT_DATA.is_dir() else None


def _atlas(args, strict: bool = False):
    from .pipeline import build_atlas
    return build_atlas(Path(args.seeds), _data_dir(args), strict=strict)


def cmd_check(args) -> int:
    from .report import build_report, format_text
    atlas = _atlas(args)
    report = build_report(atlas)
    print(format_text(report))
    return 1 if report.errors or not all(r.balanced for r in report.ledger) else 0


def cmd_export(args) -> int:
    from .graph import export_json
    atlas = _atlas(args)
    for error in atlas.errors:
        print("error: " + error.format(), file=sys.stderr)
    text = export_json(atlas.graph)
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(text, encoding="utf-8")
        print(f"wrote {args.out}: {sum(1 for _, d in atlas.graph.nodes(data=True) if d['type'] == 'paper')} "
              f"papers, {atlas.graph.number_of_nodes()} nodes, {atlas.graph.number_of_edges()} edges",
              file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 1 if atlas.errors else 0


def cmd_build(args) -> int:
    from .render.html import Html, url_of
    from .render.site import render_site
    atlas = _atlas(args)
    for error in atlas.errors:
        print("error: " + error.format(), file=sys.stderr)
    out = Path(args.out)
    pages = render_site(atlas)
    for path, content in pages.items():
        if isinstance(content, Html):       # a page: its HTML body, where MkDocs would put it
            path, content = url_of(path) + "index.html", content.body
        target = out / path
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):      # the gzipped export
            target.write_bytes(content)
        else:
            target.write_text(content, encoding="utf-8")
    print(f"wrote {len(pages)} files to {out}", file=sys.stderr)
    return 1 if atlas.errors else 0


def cmd_suggest(args) -> int:
    from .suggest import format_suggestions, suggest
    from .tagging import Tagger
    if args.corpus:
        from .devtools.corpus_eval import load_corpus_texts
        texts = load_corpus_texts(Path(args.corpus))
        from .curation import load_curation
        from .taxonomy import load_taxonomy
        taxonomy = load_taxonomy(load_curation(_data_dir(args)).taxonomy_file)
    else:
        atlas = _atlas(args)
        taxonomy = atlas.taxonomy
        texts = [(p.label, " ".join(filter(None, [p.title, p.abstract]))) for p in atlas.corpus.papers]
    print(format_suggestions(suggest(texts, Tagger(taxonomy), top=args.top)))
    return 0


def cmd_diff(args) -> int:
    import tempfile

    from .diff import diff_specs, format_markdown
    with tempfile.TemporaryDirectory(prefix="atlas-diff-") as workdir:
        diff = diff_specs(args.old, args.new, Path.cwd(), Path(workdir))
    text = format_markdown(diff)
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(text, encoding="utf-8")
        print(f"wrote {args.out}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0


DEFAULT_BLIND = "tests/fixtures/blind5_techniques.yaml"


def cmd_evaluate(args) -> int:
    from .devtools.blind_eval import check_sample, coverage, describe_tagger, format_scores, load_blind_set, score
    from .curation import load_curation
    from .tagging import Tagger
    from .taxonomy import load_taxonomy
    taxonomy = load_taxonomy(Path(args.taxonomy) if args.taxonomy
                             else load_curation(_data_dir(args)).taxonomy_file)
    tagger = Tagger(taxonomy, model=None) if args.rules_only else Tagger(taxonomy)
    second = None
    if args.second:
        from .devtools.label_agreement import load_second_labels
        second = load_second_labels(Path(args.second), taxonomy)
    # A second labeller's file names its blind set; that set is the one to score beside it.
    blind_path = Path(args.blind or (second.blind.file if second else DEFAULT_BLIND))
    blind = load_blind_set(blind_path, taxonomy)
    scores = score(blind.papers, tagger, blind.vocabulary)
    print(describe_tagger(tagger, blind_path))
    print(format_scores(scores, taxonomy, show_errors=args.errors))
    status = 0 if scores.meets_goals() else 1
    if args.corpus:
        from .devtools.corpus_eval import read_jsonl
        records = read_jsonl(Path(args.corpus))
        excluded = {(p.title, p.abstract) for name in blind.exclude_papers_of
                    for p in load_blind_set(blind_path.parent / name, taxonomy).papers}
        problems = check_sample(blind, records, excluded)
        for problem in problems:
            print("sample mismatch: " + problem, file=sys.stderr)
        held = set(blind.venue_years)
        tuning = [r for r in records if (r.get("venue"), r.get("year")) not in held]
        for label, part in (("whole corpus", records), ("outside the fixture's venue-years", tuning)):
            covered, total = coverage(part, tagger)
            print(f"coverage, {label}: {covered}/{total} = {covered / max(total, 1):.1%} of papers have a tag")
        status = status or (1 if problems else 0)
    if second is not None:
        from .devtools.label_agreement import agreement, format_agreement
        print()
        print(format_agreement(agreement(second, tagger), second))
    return status


def cmd_train_tagger(args) -> int:
    from .devtools.train_tagger import main as train_main
    return train_main(args)


def cmd_bench(args) -> int:
    from .devtools.bench import main as bench_main
    return bench_main(args)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m build_graph", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)

    def common(p):
        p.add_argument("--seeds", default=str(DEFAULT_SEEDS), help="folder of listings (default: seeds)")
        p.add_argument("--data", default=None, help="folder of the site's curated data (default: ./data if present)")

    p = sub.add_parser("check", help="report entries, papers and warnings per listing")
    common(p)
    p.set_defaults(func=cmd_check)
    p = sub.add_parser("export", help="write the graph as networkx node-link JSON")
    common(p)
    p.add_argument("--out", help="output file (default: standard output)")
    p.set_defaults(func=cmd_export)
    p = sub.add_parser("build", help="write the generated HTML pages and data files to a folder")
    common(p)
    p.add_argument("--out", default="out", help="output folder (default: out)")
    p.set_defaults(func=cmd_build)
    p = sub.add_parser("suggest", help="list candidate new techniques: frequent uncovered phrases")
    common(p)
    p.add_argument("--corpus", help="JSON Lines corpus to read instead of the seeds")
    p.add_argument("--top", type=int, default=40)
    p.set_defaults(func=cmd_suggest)
    p = sub.add_parser("diff", help="Markdown report of what changes in the graph between two "
                                    "seeds folders or git revisions")
    p.add_argument("old", help="seeds folder or git revision (e.g. origin/main)")
    p.add_argument("new", help="seeds folder or git revision (e.g. HEAD)")
    p.add_argument("--out", help="output file (default: standard output)")
    p.set_defaults(func=cmd_diff)
    p = sub.add_parser("evaluate", help="precision and recall of the tagger on a hand-labelled blind set")
    p.add_argument("--blind", default=None,
                   help=f"labelled fixture (default: {DEFAULT_BLIND}, the fifth blind set, the one to report; "
                        "the ranker was trained on the others, docs/tagging.md; with --second, the set it names)")
    p.add_argument("--corpus", help="JSON Lines corpus: check the sample was drawn from it, report coverage")
    p.add_argument("--taxonomy", help="taxonomy file (default: the data folder's taxonomy.yaml)")
    p.add_argument("--data", default=None, help="folder of curated data (default: the project's data/)")
    p.add_argument("--errors", type=int, default=0, metavar="N", help="also list N false positives and misses")
    p.add_argument("--rules-only", action="store_true",
                   help="score the phrase rules alone, without the trained ranker (to compare)")
    p.add_argument("--second", metavar="FILE",
                   help="a second labeller's labels of a sample of a blind set: how far the two agree, "
                        "and the tagger against each")
    p.set_defaults(func=cmd_evaluate)
    p = sub.add_parser("train-tagger", help="train the tagger's ranker on the labelled fixtures "
                                            "(leave-one-fixture-out figures; docs/tagging.md)")
    p.add_argument("--cv", action="store_true", help="only print the leave-one-fixture-out table")
    p.add_argument("--learning-curve", action="store_true",
                   help="only print held-out figures by how many fixtures the model trains on")
    p.add_argument("--check", action="store_true",
                   help="retrain and fail if the model file differs (apart from its date and commit)")
    p.add_argument("--out", help="model file to write (default: build_graph/data/tagger_model.json)")
    p.add_argument("--taxonomy", help="taxonomy file (default: build_graph/data/taxonomy.yaml)")
    p.add_argument("--fixtures", nargs="+", metavar="YAML",
                   help="labelled fixtures, one fold each (default: the tuning sample and blind sets 1-4)")
    p.set_defaults(func=cmd_train_tagger)
    p = sub.add_parser("bench", help="time and measure a full site build at N papers (see docs/performance.md)")
    p.add_argument("--papers", type=int, default=1000, help="papers to generate, or corpus entries to use (default: 1000)")
    p.add_argument("--corpus", help="JSON Lines corpus to use instead of synthetic listings")
    p.add_argument("--seeds", dest="seeds_dir", help="use this seeds folder as it is (e.g. seeds)")
    p.add_argument("--seed", type=int, default=0, help="seed of the synthetic generator (default: 0)")
    p.add_argument("--data", default=None, help="folder of the site's curated data (default: ./data if present)")
    p.add_argument("--keep", help="build in this folder and keep it (it is emptied first)")
    p.add_argument("--rebuild", action="store_true", help="also time a rebuild after editing one listing")
    p.add_argument("--json", help="also write the report as JSON to this file")
    p.add_argument("--profile", help="write a cProfile of our stages to this file")
    p.add_argument("--no-floor", action="store_true", help="skip the plain mkdocs-material floor build")
    p.add_argument("--no-memory", action="store_true", help="skip the traced-memory pass")
    p.add_argument("--repeat", type=int, default=1,
                   help="build the atlas and the floor N times each, alternately; keep the fastest")
    p.set_defaults(func=cmd_bench)
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except AtlasError as err:
        print("error: " + err.format(), file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
