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

from .errors import Finding


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


@dataclass
class RawEntry:
    """One entry of a listing, as the listing wrote it."""

    source: Provenance
    title: str | None = None
    authors: list[str] = field(default_factory=list)
    authors_truncated: bool = False
    abstract: str = ""
    venue: str | None = None          # raw venue text: header, comment or proceedings
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

    @property
    def detected(self) -> int:
        return len(self.entries) + len(self.skipped)


@dataclass(frozen=True)
class TechniqueTag:
    """A paper-technique assignment with the sentence that justifies it."""

    technique: str                    # technique id
    evidence: str                     # the sentence of the title or abstract that matched
    field: str = "abstract"           # "title", "abstract" or "curation"
    matched: str = ""                 # the text the pattern matched
    strength: str = "strong"          # "strong" (title, 2+ sentences, curation) or "weak" (one abstract sentence)


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
    corrections: list[tuple[str, str]] = field(default_factory=list)   # (field, source)
    label_from_text: bool = False     # the label was taken from the abstract

    @property
    def untitled(self) -> bool:
        return self.title is None

    @property
    def node_id(self) -> str:
        return f"paper:{self.slug}"
