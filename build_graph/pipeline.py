"""Runs the stages in order: sources -> normalize -> techniques -> graph -> related.

Each stage is a plain function that can be called and tested alone; this
module only wires them together and decides what an error means:

* an error in one listing (unknown format, bad bytes, invalid sidecar) is
  collected with its file name, and the other listings still go through, so
  ``check`` can report every problem at once;
* ``build_atlas(..., strict=True)`` (the MkDocs hook) raises instead, because a
  published site must never silently miss a listing.

What is worth keeping between builds (parsed listings, the compiled
taxonomy, tags per paper text) lives in one ``caches.BuildCaches``, passed in
by the caller: ``SiteBuilder`` keeps one for as long as ``mkdocs serve``
runs, so a rebuild re-parses only the listing that changed. Without one, a
build starts cold.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

import networkx as nx

from .caches import BuildCaches, ParseCache
from .curation import Curation, load_curation
from .errors import AtlasError, CurationError, EncodingError, Finding
from .graph import build_graph
from .headings import FILE_NAME as HEADINGS_FILE, HeadingMap, heading_tags, load_headings, unmapped_headings
from .model import ParsedListing, TechniqueTag
from .normalize import Corpus, normalize
from .normalize.dates import years_mentioned
from .parallel import run_jobs
from .related import Related, related_papers
from .sources import listing_kind, parse_text, seed_files
from .sources import structured as structured_entries
from .sources.bib import resolve_bibtex
from .sources.sidecar import Sidecar, load_sidecar
from .sources.text import decode_listing, MAX_LISTING_BYTES
from .tagging import Tagger
from .taxonomy import Taxonomy, load_taxonomy



@dataclass
class SourceSet:
    listings: list[ParsedListing] = field(default_factory=list)
    sidecars: dict[str, Sidecar] = field(default_factory=dict)
    years: dict[str, list[int]] = field(default_factory=dict)
    errors: list[AtlasError] = field(default_factory=list)


@dataclass
class Atlas:
    corpus: Corpus
    taxonomy: Taxonomy
    graph: nx.DiGraph
    related: dict[str, list[Related]]
    errors: list[AtlasError]
    seeds_dir: Path
    curated_files: dict[str, Path] = field(default_factory=dict)    # name -> the file read
    # The caches it was built with; the renderer takes the global layout from them.
    caches: BuildCaches = field(default_factory=BuildCaches, compare=False, repr=False)

    @property
    def findings(self) -> list[Finding]:
        return self.corpus.findings


def read_sources(seeds_dir: Path, cache: ParseCache | None = None) -> SourceSet:
    """Parse every listing and sidecar below ``seeds_dir``; collect per-file errors."""
    result = SourceSet()
    files = seed_files(seeds_dir)
    names = {p.relative_to(seeds_dir).as_posix() for p in files}
    for path in files:
        name = path.relative_to(seeds_dir).as_posix()
        kind = listing_kind(path)
        try:
            if kind == "sidecar":
                target = name[: -len(".meta.yaml")] + ".txt"
                if target not in names:
                    raise CurationError(f"sidecar has no listing {target!r} beside it", file=name)
                result.sidecars[target] = load_sidecar(path, name)
            elif kind == "listing":
                listing, years = _parse_listing(path, name, cache)
                result.listings.append(listing)
                result.years[name] = years
                result.errors.extend(listing.errors)     # bad entries; the others are in
            elif kind == "structured":
                listing, years = _parse_listing(path, name, cache, structured=True)
                result.listings.append(listing)
                result.years[name] = years
        except AtlasError as err:
            result.errors.append(err)
    return result


def _parse_listing(path: Path, name: str, cache: ParseCache | None, structured: bool = False):
    size = path.stat().st_size
    if size > MAX_LISTING_BYTES:         # refuse before reading, and name the real size
        raise EncodingError(f"file is {size:,} bytes; listings are limited to "
                            f"{MAX_LISTING_BYTES:,} bytes", file=name)
    raw = path.read_bytes()
    cached = cache.get(name, raw) if cache is not None else None
    if cached is not None:
        return cached
    text = decode_listing(raw, name)
    parsed = structured_entries.parse(text, name) if structured else parse_text(text, name)
    value = (parsed, years_mentioned(text))
    if cache is not None:
        cache.put(name, raw, value)
    return value


def apply_overrides(paper, taxonomy: Taxonomy) -> None:
    """Curators' add/remove decisions win over the tagger; each keeps its reason."""
    for override in paper.technique_overrides:
        technique = taxonomy.techniques.get(override.technique)
        if technique is None or technique.is_area:
            raise CurationError(f"technique override names unknown technique {override.technique!r}",
                                file=override.file, line=override.line,
                                expected="a technique id from taxonomy.yaml")
        paper.techniques = [t for t in paper.techniques if t.technique != override.technique]
        if override.action == "add":
            paper.techniques.append(TechniqueTag(override.technique, override.reason, "curation"))
    order = {tid: i for i, tid in enumerate(taxonomy.techniques)}
    paper.techniques.sort(key=lambda t: order[t.technique])


TAG_JOB = 200
"""Texts per tagging job: enough that handing out a job costs nothing, few
enough that two processes finish together."""


def _tag_texts(tagger: Tagger, texts: list[tuple]) -> dict[tuple, tuple]:
    # One batch: the tagger's ranker decides for all of a job's texts in a few numpy calls.
    return {text: tuple(tags) for text, tags in zip(texts, tagger.tag_many(texts))}


def tag_papers(corpus: Corpus, tagger: Tagger, taxonomy: Taxonomy | None = None,
               headings: HeadingMap | None = None, caches: BuildCaches | None = None) -> None:
    """Attach techniques (with evidence) to every paper; report papers with none.

    Order: the tagger's matches, then the techniques of the list headings the
    paper is filed under (``data/headings.yaml``), then curators' overrides,
    which may remove either.

    ``tagger.tag`` depends on the paper's title and abstract only, so with
    ``caches`` a rebuild re-tags only the papers whose text changed, and the
    texts to tag are independent jobs (``parallel.run_jobs``: two cores when
    it is safe)."""
    previous = caches.tags(tagger) if caches is not None else {}
    todo = list(dict.fromkeys(key for key in ((p.title, p.abstract) for p in corpus.papers) if key not in previous))
    fresh = run_jobs([partial(_tag_texts, tagger, todo[start:start + TAG_JOB])
                      for start in range(0, len(todo), TAG_JOB)])
    memo: dict[tuple, tuple] = {}
    for paper in corpus.papers:
        key = (paper.title, paper.abstract)
        tags = memo[key] = previous[key] if key in previous else fresh[key]
        paper.techniques = list(tags)
        if headings is not None and paper.listed_under:
            have = {t.technique for t in paper.techniques}
            paper.techniques += [t for t in heading_tags(paper, headings) if t.technique not in have]
            if taxonomy is not None:
                order = {tid: i for i, tid in enumerate(taxonomy.techniques)}
                paper.techniques.sort(key=lambda t: order[t.technique])
        if taxonomy is not None:
            apply_overrides(paper, taxonomy)
        if not paper.techniques:
            first = paper.sources[0]
            corpus.findings.append(Finding(first.file, first.line or None, "no-technique",
                                           f"{paper.label!r} matches no technique in the taxonomy"))
    if caches is not None:
        caches.keep_tags(tagger, memo)


def load_tagging(path: Path, caches: BuildCaches | None = None) -> tuple[Taxonomy, Tagger]:
    """Taxonomy and compiled tagger; with ``caches``, reused while the taxonomy
    file's content is unchanged (compiling the tagger's ~4,000 patterns costs
    more than parsing and normalising all seed listings).
    """
    if not path.is_file():
        raise CurationError("the technique taxonomy is missing", file=str(path),
                            expected="taxonomy.yaml (see docs/tagging.md)")

    def compile_tagging() -> tuple[Taxonomy, Tagger]:
        taxonomy = load_taxonomy(path)
        return taxonomy, Tagger(taxonomy)

    if caches is None:
        return compile_tagging()
    # The path is part of the key: the taxonomy's error messages name its file.
    digest = hashlib.sha256(str(path.resolve()).encode() + b"\0" + path.read_bytes()).hexdigest()
    return caches.tagging(digest, compile_tagging)


def build_atlas(seeds_dir: Path, data_dir: Path | None = None, *, strict: bool = False,
                caches: BuildCaches | None = None, curation: Curation | None = None) -> Atlas:
    """Every stage in order. ``caches``: what to reuse from earlier builds of the
    same process (``SiteBuilder`` passes its own); without it, a cold build."""
    seeds_dir = Path(seeds_dir)
    if not seeds_dir.is_dir():
        raise AtlasError("seeds folder does not exist", file=str(seeds_dir))
    curation = curation or load_curation(data_dir)
    caches = caches if caches is not None else BuildCaches()
    taxonomy, tagger = load_tagging(curation.taxonomy_file, caches)
    sources = read_sources(seeds_dir, caches.parses)
    if strict and sources.errors:
        if len(sources.errors) == 1:
            raise sources.errors[0]
        raise AtlasError(f"{len(sources.errors)} input files have errors:\n  "
                         + "\n  ".join(e.format() for e in sources.errors))
    corpus = normalize(resolve_bibtex(sources.listings), sources.sidecars, curation, sources.years)
    headings = load_headings(curation.source_files()[HEADINGS_FILE], HEADINGS_FILE)
    headings.check(taxonomy)
    tag_papers(corpus, tagger, taxonomy, headings, caches)
    corpus.findings.extend(unmapped_headings(corpus.papers, headings, tagger))
    graph = build_graph(corpus, taxonomy)
    return Atlas(corpus=corpus, taxonomy=taxonomy, graph=graph,
                 related=related_papers(corpus.papers), errors=sources.errors, seeds_dir=seeds_dir,
                 curated_files=curation.source_files(), caches=caches)
