"""The atlas's data model, shared by every stage.

Two layers, kept apart on purpose:

* ``RawEntry`` is what a parser saw in one entry of one listing. It holds
  strings as written (names in ALL CAPS, venue ``MLSYS``, LaTeX in the
  abstract) so that normalisation can be tested on its own and so that the
  ledger can always point back to the file and entry.
* ``Paper``, ``Author``, ``Venue`` and ``Technique`` are the normalised
  entities the graph and the pages are built from.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .errors import AtlasError, Finding


@dataclass(frozen=True, order=True)
class Provenance:
    """Where an entry came from: file name (relative to the seeds folder),
    1-based entry number within the file, and 1-based first line."""

    file: str
    entry: int
    line: int = 0

    @property
    def ref(self) -> str:
        return f"{self.file}#{self.entry}"


@dataclass(frozen=True)
class TechniqueOverride:
    """A curator's decision to add or remove a technique, with the reason."""

    technique: str
    action: str                       # "add" or "remove"
    reason: str
    file: str
    line: int


@dataclass(frozen=True)
class FieldCorrection:
    """Where one field of a paper comes from when a curator corrected it.

    ``listed`` is what the listings said before (``None``: they said
    nothing), so a page or a report can tell "the listing gives no title"
    from "the listing's title was wrong". ``file``/``line`` point at the
    entry of ``data/corrections.yaml`` that states it.
    """

    field: str
    source: str
    file: str
    line: int
    listed: object = None
    note: str | None = None


@dataclass
class RawEntry:
    """One entry of a listing, as the listing wrote it."""

    source: Provenance
    title: str | None = None
    authors: list[str] = field(default_factory=list)
    authors_truncated: bool = False
    abstract: str = ""
    venue: str | None = None          # raw venue text: header, comment or proceedings
    container: str | None = None      # where a structured source says it appeared (booktitle,
                                      # journal, container-title): a venue, kept as written if unknown
    year: int | None = None
    date: str | None = None           # ISO date, only when the listing gives a full one
    date_text: str | None = None      # a partial date as written, e.g. "Tue 30 Aug"
    arxiv: str | None = None
    doi: str | None = None
    proceedings: str | None = None
    comments: list[str] = field(default_factory=list)
    has_code: bool = False
    categories: list[str] = field(default_factory=list)
    session: str | None = None
    urls: list[str] = field(default_factory=list)
    technique_overrides: list[TechniqueOverride] = field(default_factory=list)
    # A curated list's heading paths the entry is filed under, each outermost first:
    # the headings above it, plus any section it says it is "also in".
    headings: list[list[str]] = field(default_factory=list)
    crossref: str | None = None       # BibTeX: key of the entry it inherits fields from, when
                                      # that entry is not in the same file (resolved by the pipeline)


@dataclass(frozen=True)
class Skip:
    """An entry that could not become a paper, and why."""

    source: Provenance
    reason: str


@dataclass
class ParsedListing:
    """Everything one parser got out of one file."""

    file: str
    format: str
    entries: list[RawEntry]
    declared_total: int | None = None
    findings: list[Finding] = field(default_factory=list)
    skipped: list[Skip] = field(default_factory=list)
    # Errors in single entries (a malformed BibTeX entry): reported with file and line
    # while the file's other entries still import. The entry is also a ``Skip``.
    errors: list[AtlasError] = field(default_factory=list)
    # BibTeX only: every entry's expanded fields by lower-cased citation key, so
    # that a ``crossref`` into this file from another file can be resolved.
    records: dict[str, dict[str, str]] = field(default_factory=dict)
    # BibTeX only: own fields of entries whose crossref parent is not in this file,
    # by entry number; the file's @string macros; the macros it uses but does not
    # define, with its text, so the pipeline's second pass can re-read it with
    # macros from the other .bib files (as ``\bibliography{abbrev,refs}`` would).
    unresolved: dict[int, dict[str, str]] = field(default_factory=dict)
    macros: dict[str, str] = field(default_factory=dict)
    undefined_macros: frozenset[str] = frozenset()
    text: str | None = None

    @property
    def detected(self) -> int:
        return len(self.entries) + len(self.skipped)


@dataclass(frozen=True)
class FieldValue:
    """One source's value for one field of a paper, kept even when not displayed."""

    value: str
    source: Provenance
    kind: str                         # "correction", "structured" or "listing"


@dataclass(frozen=True)
class TechniqueTag:
    """A paper-technique assignment with the sentence that justifies it."""

    technique: str                    # technique id
    evidence: str                     # the sentence of the title or abstract that matched
    field: str = "abstract"           # "title", "abstract", "curation" or "heading"
    matched: str = ""                 # the text the pattern matched
    strength: str = "strong"          # "strong" (title, contribution sentence, 3+ sentences, curation) or "weak"


@dataclass
class Author:
    key: str                          # identity: normalised, case-folded name
    name: str                         # display name
    slug: str
    spellings: set[str] = field(default_factory=set)


@dataclass
class Venue:
    key: str                          # canonical short name, e.g. "MLSys"
    name: str
    full_name: str
    slug: str


@dataclass
class Technique:
    id: str
    name: str
    parent: str | None
    description: str
    is_area: bool = False
    aliases: list[str] = field(default_factory=list)
    acronyms: list[str] = field(default_factory=list)
    line: int = 0                     # line in the taxonomy file, for error messages
    context: list[str] = field(default_factory=list)        # words one of which must be near an ambiguous match
    context_terms: list[str] = field(default_factory=list)  # the aliases/acronyms needing context ([] = all)
    exclude: list[str] = field(default_factory=list)        # phrases that, near a match, mean another sense
    covered_by: list[str] = field(default_factory=list)     # more specific techniques that make this one redundant
    require_strong: bool = False      # never tag from a single abstract sentence (workload-like techniques)


@dataclass
class Paper:
    slug: str
    title: str | None                 # None when no listing gives a title
    label: str                        # what to call it: the title, or a label from the text
    authors: list[str] = field(default_factory=list)   # author keys, in order
    authors_truncated: bool = False
    venue: str | None = None          # venue key
    year: int | None = None
    date: str | None = None
    arxiv: str | None = None
    doi: str | None = None
    urls: list[str] = field(default_factory=list)
    has_code: bool = False
    abstract: str = ""                # readable text: LaTeX rendered, whitespace tidied
    session: str | None = None
    categories: list[str] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)
    sources: list[Provenance] = field(default_factory=list)
    techniques: list[TechniqueTag] = field(default_factory=list)
    technique_overrides: list[TechniqueOverride] = field(default_factory=list)
    corrections: list[FieldCorrection] = field(default_factory=list)   # in field order
    label_from_text: bool = False     # the label was taken from the abstract
    merged_ids: list[str] = field(default_factory=list)   # ids that a correction merged into this one
    unidentified_reason: str | None = None   # untitled, and a curator recorded why

    def corrected(self, name: str) -> FieldCorrection | None:
        """The correction that set field ``name``, if one did."""
        return next((c for c in self.corrections if c.field == name), None)
    # Every source's value of title, authors, venue and year (see normalize/papers.py
    # for the rule that picks the displayed one), and the curated lists' headings
    # the paper is listed under: (heading path, file).
    field_values: dict[str, list[FieldValue]] = field(default_factory=dict)
    listed_under: list[tuple[str, str]] = field(default_factory=list)

    @property
    def untitled(self) -> bool:
        return self.title is None

    @property
    def node_id(self) -> str:
        return f"paper:{self.slug}"
