"""From raw entries to papers: clean every field, then merge by identity.

One paper may appear in several listings. Entries are the same paper when
they share an arXiv id, a DOI or a normalised title; the merged paper keeps
every provenance. The first entry (in file, then entry order) *makes* the
paper and later ones are *merged* into it, which is what the ledger counts.

Corrections (``data/corrections.yaml``) are keyed by the paper id the
listings alone give, so an id never moves when a correction is added. A
correction of an identity field (title, arXiv id, DOI) is applied to the
entries *before* merging, because it can reveal that two entries are one
paper; the merged paper keeps the id of its earliest entry that had a title
of its own, and the ledger and ``diff`` show the merge. All other corrected
fields are applied to the merged paper, each with a ``FieldCorrection``
saying where it came from.

Which value is displayed when sources disagree
----------------------------------------------
The paper keeps every source's title, authors, venue and year with its
provenance (``Paper.field_values``). The displayed value is, in order:

1. a curated correction (``data/corrections.yaml``), always;
2. else the first *structured* source that has the field: BibTeX, CSL-JSON
   and hand-written YAML, whose fields are named by the person who wrote
   them (``STRUCTURED_FORMATS``);
3. else the first *listing* (scraped pages, awesome lists, corpora), in file
   then entry order.

Two refinements: the year goes with the venue (the year of the source that
gave the displayed venue), and a complete author list beats a truncated one
("et al.", ``and others``) whatever its source. Disagreements on year, venue
and the spelling of an author are ``conflicting-*`` findings in the report.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from ..errors import AtlasError, CurationError, Finding
from ..model import (Author, FieldCorrection, FieldValue, Paper, ParsedListing, Provenance, RawEntry, Skip,
                     TechniqueOverride, Venue)
from ..sources.sidecar import Sidecar
from ..sources.text import tidy
from .dates import candidate_years, complete_date, years_mentioned
from .labels import label_for
from .latex import render_latex
from .names import ascii_fold, clean_spacing, name_key, proper_case
from .slugs import ascii_words, short_hash, stable_slug, title_key
from .venues import VenueTable


@dataclass
class LedgerRow:
    """Per listing: detected = made + merged + skipped."""

    file: str
    format: str
    detected: int
    made: int = 0
    merged: int = 0
    skipped: list[Skip] = field(default_factory=list)
    declared_total: int | None = None

    @property
    def balanced(self) -> bool:
        return self.detected == self.made + self.merged + len(self.skipped)


@dataclass
class Corpus:
    papers: list[Paper]
    authors: dict[str, Author]
    venues: dict[str, Venue]
    findings: list[Finding]
    ledger: list[LedgerRow]


_TRAILING_KEY = re.compile(r"\(([^()]+)\)\s*$")
STRUCTURED_FORMATS = frozenset({"bibtex", "csl-json", "structured-yaml"})
HEADING_SEPARATOR = " › "


@dataclass
class _Draft:
    """One entry with its fields cleaned, before merging."""

    source: Provenance
    title: str | None
    authors: list[tuple[str, str]]      # (key, display) in order
    authors_truncated: bool
    abstract: str
    venue: str | None
    year: int | None
    date: str | None
    arxiv: str | None
    doi: str | None
    urls: list[str]
    has_code: bool
    session: str | None
    categories: list[str]
    comments: list[str]
    overrides: list[TechniqueOverride]
    listed_id: str = ""                 # the paper id the listings alone give this entry
    listed: dict = field(default_factory=dict)   # title/arxiv/doi as listed, before corrections
    headings: list[list[str]] = field(default_factory=list)
    structured: bool = False

    @property
    def kind(self) -> str:
        return "structured" if self.structured else "listing"

    def identity_keys(self) -> list[str]:
        keys = []
        if self.arxiv:
            keys.append("arxiv:" + self.arxiv.lower())
        if self.doi:
            keys.append("doi:" + self.doi.lower())
        if self.title and title_key(self.title):
            keys.append("title:" + title_key(self.title))
        return keys


def clean_text(text: str) -> str:
    return tidy(render_latex(text)) if text else ""


def clean_abstract(text: str) -> str:
    return "\n\n".join(clean_text(p) for p in text.split("\n\n") if p.strip())


class _Normaliser:
    def __init__(self, curation, findings: list[Finding]):
        self.venues: VenueTable = curation.venues
        self.non_names = curation.non_names
        self.aliases = curation.alias_map()
        self.findings = findings

    def warn(self, source: Provenance, code: str, message: str) -> None:
        self.findings.append(Finding(source.file, source.line or None, code, message))

    def person(self, raw: str) -> tuple[str, str]:
        """``(key, display)`` of one name: case repaired, aliases applied."""
        display = proper_case(clean_spacing(raw))
        key = name_key(display)
        if key in self.aliases:                          # data/authors.yaml: same person
            display = self.aliases[key]
            key = name_key(display)
        return key, display

    def authors(self, entry: RawEntry) -> list[tuple[str, str]]:
        result, seen = [], set()
        for raw in entry.authors:
            cleaned = clean_spacing(raw)
            reason = self.non_names.reason(cleaned)
            if reason:
                self.warn(entry.source, "non-name",
                          f"{cleaned!r} in the author list of entry {entry.source.entry} is not "
                          f"a person ({reason}); it is left out")
                continue
            key, display = self.person(cleaned)
            if key in seen:
                self.warn(entry.source, "duplicate-author",
                          f"{display!r} appears twice in the author list of entry "
                          f"{entry.source.entry}; counted once")
                continue
            seen.add(key)
            result.append((key, display))
        return result

    def venue_and_year(self, entry: RawEntry, sidecar: Sidecar | None) -> tuple[str | None, int | None]:
        stated = entry.venue or (sidecar.venue if sidecar else None)
        if stated:
            key = self.venues.canonical(stated) or self.venues.workshop(stated)
            if key is None:
                key = tidy(stated)
                self.warn(entry.source, "unknown-venue",
                          f"venue {key!r} is not in venues.yaml; kept as written")
            year = entry.year if entry.venue and entry.year else (sidecar.year if sidecar else None)
            return key, year or entry.year
        if entry.container:
            return self.container_venue(entry)
        for text in [*entry.comments, entry.proceedings or ""]:
            found = self.venues.find_in_text(text) if text else None
            if found:
                return found[0], found[1] or entry.year
        return None, entry.year

    def container_venue(self, entry: RawEntry) -> tuple[str, int | None]:
        """A structured source's booktitle/journal: a known venue, or kept as written.

        The entry's own year wins over a year inside the proceedings name
        (they agree for a conference; a journal volume name may not).
        """
        text = tidy(entry.container)
        key = self.venues.canonical(text) or self.venues.workshop(text)
        if key:
            return key, entry.year
        named = _TRAILING_KEY.search(text)      # "Full Name (KEY)", as assets/atlas.bib writes it
        key = named and (self.venues.canonical(named.group(1)) or self.venues.workshop(named.group(1)))
        if key:
            return key, entry.year
        found = self.venues.find_in_text(text)
        if found:
            return found[0], entry.year or found[1]
        self.warn(entry.source, "unknown-venue",
                  f"venue {text!r} is not in venues.yaml; kept as written")
        return text, entry.year

    def date(self, entry: RawEntry, sidecar: Sidecar | None, years_in_listing: list[int],
             year: int | None) -> tuple[str | None, int | None]:
        if entry.date:
            return entry.date, year
        if sidecar and sidecar.date:
            return sidecar.date, year or int(sidecar.date[:4])
        if not entry.date_text:
            return None, year
        if sidecar and sidecar.year:
            completed = complete_date(entry.date_text, sidecar.year)
            if completed and candidate_years(entry.date_text, [sidecar.year]) != [sidecar.year]:
                self.warn(entry.source, "weekday-mismatch",
                          f"{entry.date_text!r} is not that weekday in {sidecar.year}")
            return completed, year or sidecar.year
        matches = candidate_years(entry.date_text, years_in_listing)
        if len(matches) == 1:
            return complete_date(entry.date_text, matches[0]), year or matches[0]
        self.warn(entry.source, "ambiguous-date",
                  f"date {entry.date_text!r} has no year and the listing does not settle it; "
                  "state 'year:' or 'date:' in a sidecar (<listing>.meta.yaml)")
        return None, year

    def draft(self, entry: RawEntry, sidecar: Sidecar | None, years_in_listing: list[int],
              structured: bool = False) -> _Draft:
        venue, year = self.venue_and_year(entry, sidecar)
        date, year = self.date(entry, sidecar, years_in_listing, year)
        title = clean_text(entry.title) if entry.title else None
        return _Draft(
            source=entry.source, title=title or None, authors=self.authors(entry),
            authors_truncated=entry.authors_truncated, abstract=clean_abstract(entry.abstract),
            venue=venue, year=year, date=date, arxiv=entry.arxiv, doi=entry.doi,
            urls=list(entry.urls), has_code=entry.has_code,
            session=(sidecar.session if sidecar and sidecar.session else entry.session),
            categories=list(entry.categories), comments=list(entry.comments),
            overrides=list(entry.technique_overrides), headings=[list(p) for p in entry.headings],
            structured=structured)


def _groups(drafts: list[_Draft]) -> list[list[_Draft]]:
    """Union-find over shared identity keys; groups in first-appearance order."""
    parent = list(range(len(drafts)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    owner: dict[str, int] = {}
    for i, draft in enumerate(drafts):
        for key in draft.identity_keys():
            if key in owner:
                a, b = find(owner[key]), find(i)
                parent[max(a, b)] = min(a, b)
            else:
                owner[key] = i
    groups: dict[int, list[_Draft]] = {}
    for i, draft in enumerate(drafts):
        groups.setdefault(find(i), []).append(draft)
    return [groups[k] for k in sorted(groups)]


def _first(values):
    return next((v for v in values if v), None)


def paper_slug(title: str | None, label: str, arxiv: str | None, doi: str | None,
               abstract: str) -> str:
    if title:
        return stable_slug(title_key(title))
    base = ascii_words(label)[:40].strip("-") or "untitled"
    if arxiv:
        return f"{base}-{ascii_words(arxiv)}"
    identity = f"doi:{doi.lower()}" if doi else "abstract:" + " ".join(abstract.split())
    return f"{base}-{short_hash(identity, 8)}"


def _group_slug(group: list[_Draft]) -> str:
    """The id the merged paper of ``group`` gets from its entries' own fields, in
    the order that picks the displayed ones (``_by_rank``)."""
    ranked = _by_rank(group)
    title = _first(d.title for d in ranked)
    abstract = max((d.abstract for d in group), key=len)
    return paper_slug(title, title or label_for(abstract), _first(d.arxiv for d in ranked),
                      _first(d.doi for d in ranked), abstract)


def _by_rank(group: list[_Draft]) -> list[_Draft]:
    """Structured sources first, then listings; each in file then entry order."""
    return sorted(group, key=lambda d: not d.structured)


def _values(group: list[_Draft]) -> dict[str, list[FieldValue]]:
    values: dict[str, list[FieldValue]] = {}
    for d in group:
        for name, value in (("title", d.title), ("venue", d.venue),
                            ("year", str(d.year) if d.year else None),
                            ("authors", ", ".join(display for _, display in d.authors)
                             + (", et al." if d.authors_truncated else "") if d.authors else None)):
            if value:
                values.setdefault(name, []).append(FieldValue(value, d.source, d.kind))
    return values


def _conflicts(group: list[_Draft], paper: Paper, normaliser: _Normaliser) -> None:
    def listed(pairs) -> str:
        return "; ".join(f"{value} ({', '.join(refs)})" for value, refs in pairs.items())

    for name, shown in (("venue", paper.venue), ("year", paper.year)):
        pairs: dict[str, list[str]] = {}
        for d in group:
            value = getattr(d, name)
            if value and (name == "venue" or d.venue):     # a preprint's year is not a venue's
                pairs.setdefault(str(value), []).append(d.source.ref)
        if len(pairs) > 1:
            normaliser.warn(group[0].source, f"conflicting-{name}",
                            f"{paper.label!r}: sources disagree on the {name}: {listed(pairs)}; "
                            f"showing {shown}")
    spellings: dict[str, dict[str, list[str]]] = {}
    for d in group:
        for key, display in d.authors:
            spellings.setdefault(ascii_fold(key), {}).setdefault(display, []).append(d.source.ref)
    for folded, pairs in spellings.items():
        if len(pairs) > 1:
            normaliser.warn(group[0].source, "conflicting-author",
                            f"{paper.label!r}: sources spell an author differently: "
                            f"{listed(pairs)}")


def _merge(group: list[_Draft], normaliser: _Normaliser, slug: str) -> Paper:
    ranked = _by_rank(group)
    with_authors = [d for d in ranked if d.authors]
    chosen = min(with_authors, key=lambda d: (d.authors_truncated, not d.structured, -len(d.authors)),
                 default=ranked[0])
    title = _first(d.title for d in ranked)
    abstract = max((d.abstract for d in group), key=len)
    venue = _first(d.venue for d in ranked)
    year = _first(d.year for d in ranked if d.venue == venue) or _first(d.year for d in ranked)
    arxiv = _first(d.arxiv for d in ranked)
    doi = _first(d.doi for d in ranked)
    label = title or label_for(abstract)
    urls = list(dict.fromkeys(u for d in group for u in d.urls))
    paper = Paper(
        slug=slug, title=title, label=label,
        authors=[key for key, _ in chosen.authors], authors_truncated=chosen.authors_truncated,
        venue=venue, year=year, date=_first(d.date for d in ranked), arxiv=arxiv, doi=doi,
        urls=urls, has_code=any(d.has_code for d in group) or bool(urls), abstract=abstract,
        session=_first(d.session for d in ranked),
        categories=list(dict.fromkeys(c for d in group for c in d.categories)),
        comments=list(dict.fromkeys(c for d in group for c in d.comments)),
        sources=[d.source for d in group],
        technique_overrides=[o for d in group for o in d.overrides],
        label_from_text=title is None,
        field_values=_values(group),
        listed_under=list(dict.fromkeys((HEADING_SEPARATOR.join(path), d.source.file)
                                        for d in group for path in d.headings if path)))
    _conflicts(group, paper, normaliser)
    return paper


def _apply_splits(papers: list[Paper], curation, displays: dict[str, Counter],
                  slugs: dict[str, str], findings: list[Finding]) -> None:
    """One spelling, several people: re-key the author on the papers each person wrote."""
    by_slug = {p.slug: p for p in papers}
    for split in curation.splits:
        for person in split.people:
            for slug in person.papers:
                if slug not in by_slug:
                    raise CurationError(f"split of {split.name!r}: unknown paper id {slug!r}",
                                        file=curation.authors_file, line=person.line)
    splits = curation.split_map()
    for paper in papers:
        for i, key in enumerate(paper.authors):
            split = splits.get(key)
            if split is None:
                continue
            person = next((p for p in split.people if paper.slug in p.papers), None)
            if person is None:
                first = paper.sources[0]
                findings.append(Finding(first.file, first.line or None, "unassigned-split",
                                        f"{split.name!r} is split in {curation.authors_file} but "
                                        f"paper {paper.slug!r} is assigned to none of its people"))
                continue
            new_key = f"{key}#{person.id}"
            paper.authors[i] = new_key
            displays.setdefault(new_key, Counter())[person.display] += 1
            slugs[new_key] = person.id


@dataclass
class _Curated:
    """The corrections and 'unidentified' entries that name a paper of these seeds."""

    corrections: list
    unidentified: list
    file: str


def _curated_for(curation, ids: set[str], findings: list[Finding]) -> _Curated:
    """Keep the entries whose paper id these seeds give; report the others.

    Not an error: ``data/`` is shared by every seeds folder the atlas is built
    from (a diff of a revision that removed a listing, a benchmark), so an
    entry can name a paper that is not in this one. A typo shows up here.
    """
    file = curation.corrections_file
    for item in [*curation.corrections, *curation.unidentified]:
        if item.paper not in ids:
            findings.append(Finding(file, item.line, "unknown-paper-id",
                                    f"{item.paper!r} is not the id of any paper in these seeds "
                                    "(papers/<id>/); the entry is not applied"))
    return _Curated([c for c in curation.corrections if c.paper in ids],
                    [u for u in curation.unidentified if u.paper in ids], file)


def _correct_identities(drafts: list[_Draft], curated: _Curated) -> bool:
    """Title, arXiv id and DOI corrections, applied to the entries before merging."""
    changed = False
    for correction in curated.corrections:
        for key in ("title", "arxiv", "doi"):
            if key not in correction.values:
                continue
            value = correction.values[key]
            value = clean_text(value) if key == "title" else value
            for draft in drafts:
                if draft.listed_id == correction.paper:
                    setattr(draft, key, value)
                    changed = True
    return changed


def _surviving_id(group: list[_Draft]) -> str:
    """Of several listed ids now one paper: the earliest that had a title of its own
    (its id comes from that title, which is what other listings will match), else
    the earliest."""
    titled = [d.listed_id for d in group if d.listed.get("title")]
    return titled[0] if titled else group[0].listed_id


def _merge_findings(paper: Paper, curated: _Curated) -> list[Finding]:
    ids = {paper.slug, *paper.merged_ids}
    lines = sorted({c.value_lines[k] for c in curated.corrections if c.paper in ids
                    for k in ("title", "arxiv", "doi") if k in c.values})
    where = ", ".join(f"{curated.file}:{n}" for n in lines)
    first = paper.sources[0]
    return [Finding(first.file, first.line or None, "merged-by-correction",
                    f"paper {old!r} is the same paper as {paper.slug!r} once corrected "
                    f"({where}); its entries now belong to {paper.slug!r}")
            for old in paper.merged_ids]


def _listed_value(paper: Paper, key: str, listed: list[_Draft], names: dict[str, str]):
    """What the listings said of ``key`` before the correction: for identity fields,
    the entries of the corrected id (``listed``); otherwise the merged paper."""
    if key in ("title", "arxiv", "doi"):
        return _first(d.listed.get(key) for d in listed)
    if key == "authors":
        return [names.get(k, k) for k in paper.authors] or None
    return getattr(paper, key)


def _corrected_authors(correction, normaliser: _Normaliser, file: str) -> list[tuple[str, str]]:
    """A curated author list, through the same normalisation as a listing's; a name
    that is not a person, or one person twice, is an error (a curator wrote it)."""
    result, seen = [], {}
    for raw, line in zip(correction.values["authors"], correction.author_lines):
        reason = normaliser.non_names.reason(clean_spacing(raw))
        if reason:
            raise CurationError(f"{raw!r} in 'authors' is not a person ({reason})",
                                file=file, line=line)
        key, display = normaliser.person(raw)
        if key in seen:
            raise CurationError(f"{raw!r} is the same person as line {seen[key]} "
                                f"(data/authors.yaml alias {display!r})", file=file, line=line)
        seen[key] = line
        result.append((key, display))
    return result


def _apply_corrections(papers: list[Paper], listed_ids: dict[str, list[_Draft]], curated: _Curated,
                       normaliser: _Normaliser, displays: dict[str, Counter]) -> None:
    file = curated.file
    owner = {pid: p for p in papers for pid in (p.slug, *p.merged_ids)}
    names = {key: counts.most_common(1)[0][0] for key, counts in displays.items()}
    set_by: dict[tuple[str, str], object] = {}
    for correction in curated.corrections:
        paper = owner[correction.paper]
        for key, value in correction.values.items():
            prior = set_by.get((paper.slug, key))
            if prior is not None:
                if prior.values[key] != value:
                    raise CurationError(
                        f"{prior.paper!r} and {correction.paper!r} are one paper, and their "
                        f"corrections disagree on '{key}' (line {prior.value_lines[key]})",
                        file=file, line=correction.value_lines[key])
                continue
            set_by[paper.slug, key] = correction
            listed = _listed_value(paper, key, listed_ids[correction.paper], names)
            if key == "title":
                paper.title = clean_text(value)
                paper.label = paper.title
                paper.label_from_text = False
            elif key == "venue":
                canonical = normaliser.venues.canonical(value)
                if canonical is None:
                    raise CurationError(f"venue {value!r} is not in venues.yaml", file=file,
                                        line=correction.value_lines[key],
                                        expected="a venue key or alias (add the venue first)")
                paper.venue = canonical
            elif key == "authors":
                people = _corrected_authors(correction, normaliser, file)
                for person_key, display in people:
                    displays.setdefault(person_key, Counter())[display] += 1
                paper.authors = [person_key for person_key, _ in people]
                paper.authors_truncated = False
            else:
                setattr(paper, key, value)
            paper.corrections.append(FieldCorrection(key, correction.source, file,
                                                     correction.value_lines[key], listed,
                                                     correction.note))
            if key in ("title", "venue", "year"):
                shown = paper.title if key == "title" else getattr(paper, key)
                paper.field_values.setdefault(key, []).insert(0, FieldValue(
                    str(shown), Provenance(file, 0, correction.line), "correction"))
        paper.technique_overrides.extend(correction.overrides)
    order = {"title": 0, "authors": 1, "venue": 2, "year": 3, "date": 4, "arxiv": 5, "doi": 6}
    for paper in papers:
        paper.corrections.sort(key=lambda c: order.get(c.field, 99))


def _mark_unidentified(papers: list[Paper], curated: _Curated) -> None:
    owner = {pid: p for p in papers for pid in (p.slug, *p.merged_ids)}
    for item in curated.unidentified:
        paper = owner[item.paper]
        if not paper.untitled:
            raise CurationError(f"paper {item.paper!r} has a title ({paper.title!r}); remove it "
                                "from 'unidentified'", file=curated.file, line=item.line)
        paper.unidentified_reason = item.reason


def normalize(listings: list[ParsedListing], sidecars: dict[str, Sidecar], curation,
              listing_years: dict[str, list[int]] | None = None) -> Corpus:
    """Clean every entry, merge entries that are one paper, apply curation."""
    findings: list[Finding] = []
    venues = curation.venues
    normaliser = _Normaliser(curation, findings)
    ledger = {l.file: LedgerRow(l.file, l.format, l.detected, skipped=list(l.skipped),
                                declared_total=l.declared_total) for l in listings}
    drafts = []
    for listing in sorted(listings, key=lambda l: l.file):
        findings.extend(listing.findings)
        years = (listing_years or {}).get(listing.file, [])
        structured = listing.format in STRUCTURED_FORMATS
        for entry in listing.entries:
            drafts.append(normaliser.draft(entry, sidecars.get(listing.file), years, structured))
    displays: dict[str, Counter] = {}
    for draft in drafts:
        draft.listed = {"title": draft.title, "arxiv": draft.arxiv, "doi": draft.doi}
        for key, display in draft.authors:
            displays.setdefault(key, Counter())[display] += 1
    groups = _groups(drafts)
    listed_ids: dict[str, list[_Draft]] = {}
    for group in groups:
        slug = _group_slug(group)
        if slug in listed_ids:
            other = listed_ids[slug][0].source
            raise AtlasError(f"two different papers share the slug {slug!r} "
                             f"({other.ref} and {group[0].source.ref})",
                             file=group[0].source.file, line=group[0].source.line)
        listed_ids[slug] = group
        for draft in group:
            draft.listed_id = slug
    curated = _curated_for(curation, set(listed_ids), findings)
    if _correct_identities(drafts, curated):
        groups = _groups(drafts)
    papers = []
    for group in groups:
        ledger[group[0].source.file].made += 1
        for draft in group[1:]:
            ledger[draft.source.file].merged += 1
        paper = _merge(group, normaliser, _surviving_id(group))
        paper.merged_ids = [i for i in dict.fromkeys(d.listed_id for d in group) if i != paper.slug]
        findings.extend(_merge_findings(paper, curated))
        papers.append(paper)
    author_slugs: dict[str, str] = {}
    _apply_corrections(papers, listed_ids, curated, normaliser, displays)
    _apply_splits(papers, curation, displays, author_slugs, findings)
    _mark_unidentified(papers, curated)
    used = {key for paper in papers for key in paper.authors}
    authors, taken = {}, {}
    for key in sorted(used):
        counts = displays[key]
        name = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[0][0]
        slug = author_slugs.get(key) or stable_slug(key, name)
        if slug in taken:
            raise CurationError(f"author page {slug!r} would belong to both {taken[slug]!r} and "
                                f"{name!r}; choose another split id", file=curation.authors_file)
        taken[slug] = name
        authors[key] = Author(key=key, name=name, slug=slug, spellings=set(counts))
    venue_objs = {}
    for key in sorted({p.venue for p in papers if p.venue}):
        venue_objs[key] = Venue(key=key, name=key, full_name=venues.full_name(key),
                                slug=stable_slug(key.casefold(), key))
    return Corpus(papers=sorted(papers, key=lambda p: p.slug), authors=authors, venues=venue_objs,
                  findings=findings, ledger=[ledger[f] for f in sorted(ledger)])


def listing_years(text: str) -> list[int]:
    return years_mentioned(text)
