"""BibTeX databases (``.bib``), as exported by DBLP, Zotero, Google Scholar or kept by hand.

Sample input::

    @string{osdi = "USENIX Symposium on Operating Systems Design and Implementation"}
    @proceedings{DBLP:conf/osdi/2020,
      title     = {14th {USENIX} Symposium on Operating Systems Design and
                   Implementation, {OSDI} 2020, Virtual Event, November 4-6, 2020},
      year      = {2020},
    }
    @inproceedings{DBLP:conf/osdi/ChenMJZYSCWHCGK18,
      author    = {Tianqi Chen 0001 and Thierry Moreau and Kydl{\\'{\\i}}{\\v{c}}ek, Hynek and others},
      title     = {{TVM:} An Automated End-to-End Optimizing Compiler for Deep Learning},
      booktitle = "13th " # osdi,
      month     = oct,
      year      = {2018},
      crossref  = {DBLP:conf/osdi/2018},
      eprint    = {1802.04799}, archivePrefix = {arXiv},
    }

The syntax (entries, ``@string``, ``@comment``, ``@preamble``, brace and
quote delimiters, line numbers, recovery after a malformed entry) is read by
bibtexparser 2's splitter; this module gives the values their meaning:

* **macros**: ``@string`` definitions and ``#`` concatenation are expanded in
  file order, with BibTeX's month macros (``jan`` .. ``dec``) predefined. A
  macro that is used but never defined is a ``undefined-macro`` warning with
  file and line; its name is kept as written (as BibTeX itself does, minus
  the silence), and the entry is imported.
* **crossref**: an entry inherits venue fields (``booktitle``, ``year``,
  ``publisher``...) it lacks from the entry it cross-references; the parent's
  ``title`` becomes the child's ``booktitle``. Identifiers and the title are
  never inherited: a volume's DOI is not its papers' DOI. When the parent is
  in another ``.bib`` of the seeds folder, the pipeline resolves it
  (``resolve_bibtex``) so ``parse`` stays a pure function of one file.
  Likewise for macros: a ``.bib`` of ``@string`` abbreviations beside the
  one that uses them is honoured, as ``\bibliography{abbrev,refs}`` would.
* **volumes are not papers**: ``@proceedings`` / ``@mvproceedings`` entries
  (DBLP writes one per conference volume for ``crossref``) are skipped with
  that reason in the ledger.
* **names**: ``Last, First``, ``First Last``, ``von Last, Jr, First`` are
  split by bibtexparser's BibTeX name grammar; ``and others`` marks the list
  as truncated; DBLP's homonym numbers (``Tianqi Chen 0001``, and the broken
  ``0001, Tianqi Chen``) are dropped.
* **text**: LaTeX accents, escapes and case-protecting braces become plain
  Unicode (``normalize/latex.py``).
* **identifiers**: ``doi``, ``eprint`` with ``archivePrefix``/``eprinttype``
  arXiv, DBLP's ``CoRR`` volume ``abs/2305.14314``, arXiv and DOI links in ``url``.
* **venue**: ``booktitle`` or ``journal``, named by the venue table's reviewed
  patterns (``data/venues.yaml``) or kept as written; ``CoRR`` and "arXiv
  preprint" journals mean an arXiv preprint, not a venue.

A malformed entry (unbalanced braces) is a ``ParseError`` naming its file and
line, and a skip in the ledger; the entries around it still import.

Recognised from content only: entries start lines with ``@type{`` or ``@type(``.
"""

from __future__ import annotations

import logging
import re
from dataclasses import replace
from functools import lru_cache

from bibtexparser.middlewares.names import (InvalidNameError, parse_single_name_into_parts,
                                            split_multiple_persons_names)
from bibtexparser.model import (DuplicateBlockKeyBlock, DuplicateFieldKeyBlock, Entry,
                                ParsingFailedBlock, String)
from bibtexparser.splitter import Splitter

from ..errors import Finding, ParseError
from ..model import ParsedListing, Provenance, RawEntry, Skip
from ..normalize.latex import bibtex_text
from .links import arxiv_id, doi_of, is_preprint_server

# The splitter logs each malformed block; we report it ourselves, with file and
# line, as a ParseError, so its log line would only be a second, vaguer copy.
logging.getLogger("bibtexparser.splitter").setLevel(logging.CRITICAL)

NAME = "bibtex"
SUMMARY = "a BibTeX database: @inproceedings{key, title = {...}, author = {...}, ...}"

MONTHS = {m[:3]: m for m in ("january", "february", "march", "april", "may", "june", "july",
                             "august", "september", "october", "november", "december")}
ENTRY_TYPES = frozenset({
    "article", "book", "booklet", "conference", "inbook", "incollection", "inproceedings",
    "manual", "mastersthesis", "misc", "phdthesis", "proceedings", "techreport", "unpublished",
    "online", "report", "thesis", "collection", "mvproceedings", "mvbook", "mvcollection",
    "software", "dataset", "patent", "electronic", "www", "preprint",
})
VOLUME_TYPES = frozenset({"proceedings", "mvproceedings"})
# Venue-side fields a child takes from its crossref parent when it lacks them.
INHERITED = ("booktitle", "journal", "year", "date", "month", "publisher", "address", "series",
             "volume", "organization", "institution", "school", "eventtitle", "editor")
_ENTRY_START = re.compile(r"^[ \t]*@[ \t]*([A-Za-z]+)[ \t]*[{(]", re.MULTILINE)
_BARE_TOKEN = re.compile(r"[^\s#]+")             # a number or a macro name in a field value
_YEAR = re.compile(r"(?<!\d)(1[89]\d\d|20\d\d)(?!\d)")
_DBLP_NUMBER = re.compile(r"^\d{4}$")
_CORR_VOLUME = re.compile(r"^abs/(.+)$")
_REPORT_KINDS = {"techreport": "Technical report", "report": "Report",
                 "phdthesis": "PhD thesis", "mastersthesis": "Master's thesis"}


def sniff(text: str) -> float:
    types = [m.group(1).lower() for m in _ENTRY_START.finditer(text)]
    if not any(t in ENTRY_TYPES or t == "string" for t in types):   # a file of @strings only:
        return 0.0                                                  # an abbreviations .bib
    for line in text.split("\n"):
        stripped = line.strip()
        if stripped and not stripped.startswith("%"):
            return 0.95 if stripped.startswith("@") else 0.6
    return 0.0


# --- values: delimiters, macros and concatenation ---------------------------------

class _Values:
    """Expands field values of one file; records undefined macros as findings."""

    def __init__(self, file: str, findings: list[Finding], shared: dict[str, str] | None = None):
        self.file = file
        self.findings = findings
        self.macros: dict[str, str] = {**MONTHS, **(shared or {})}
        self.own: dict[str, str] = {}
        self.undefined: set[str] = set()

    def expand(self, raw: str, line: int, where: str) -> str:
        out, i, n = [], 0, len(raw)
        while i < n:
            char = raw[i]
            if char.isspace() or char == "#":
                i += 1
            elif char == "{":
                end = _closing_brace(raw, i)
                out.append(raw[i + 1:end])
                i = end + 1
            elif char == '"':
                end = _closing_quote(raw, i)
                out.append(raw[i + 1:end])
                i = end + 1
            else:
                match = _BARE_TOKEN.match(raw, i)
                token = match.group(0)
                i = match.end()
                if token.isdigit():
                    out.append(token)
                elif token.lower() in self.macros:
                    out.append(self.macros[token.lower()])
                else:
                    self.undefined.add(token.lower())
                    self.findings.append(Finding(
                        self.file, line, "undefined-macro",
                        f"{where} uses the macro {token!r}, which no @string defines; "
                        "kept as written"))
                    out.append(token)
        return "".join(out)


def _closing_brace(text: str, start: int) -> int:
    depth = 0
    for i in range(start, len(text)):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return i
    return len(text)


def _closing_quote(text: str, start: int) -> int:
    depth = 0
    for i in range(start + 1, len(text)):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
        elif text[i] == '"' and depth == 0:
            return i
    return len(text)


# --- parse --------------------------------------------------------------------------

def parse(text: str, file: str, shared_macros: dict[str, str] | None = None) -> ParsedListing:
    """Entries of one ``.bib`` text. ``shared_macros`` are @string macros of the
    other ``.bib`` files in the seeds folder (the pipeline's second pass)."""
    listing = ParsedListing(file=file, format=NAME, entries=[])
    values = _Values(file, listing.findings, shared_macros)
    try:
        library = Splitter(text).split()
    except Exception as err:     # the splitter's own "invalid state" bug: name the file, not crash
        raise ParseError(f"the BibTeX reader gave up on this file ({type(err).__name__})",
                         file=file) from err
    items: list[tuple[Provenance, str, dict[str, str], str]] = []     # source, type, fields, key
    number = 0
    for block in library.blocks:
        line = (block.start_line or 0) + 1
        if isinstance(block, String):
            value = values.expand(block.value, line, f"@string {block.key!r}")
            values.macros[block.key.lower()] = values.own[block.key.lower()] = value
            continue
        if isinstance(block, (DuplicateBlockKeyBlock, DuplicateFieldKeyBlock)):
            number += 1
            entry = block.ignore_error_block
            what = ("another entry already uses the key" if isinstance(block, DuplicateBlockKeyBlock)
                    else "a field is given twice in the entry")
            listing.findings.append(Finding(file, line, "duplicate-key",
                                            f"{what} {getattr(entry, 'key', '')!r}; read anyway"))
            items.append(_fields(entry, Provenance(file, number, line), values))
            continue
        if isinstance(block, ParsingFailedBlock):
            number += 1
            source = Provenance(file, number, line)
            reason = _failure(block)
            listing.errors.append(ParseError(
                f"malformed BibTeX entry ({reason}); the file's other entries are still imported",
                file=file, line=line, expected="balanced braces and 'name = value' fields"))
            listing.skipped.append(Skip(source, f"malformed entry: {reason}"))
            continue
        if isinstance(block, Entry):
            number += 1
            items.append(_fields(block, Provenance(file, number, line), values))
    listing.records = {key.lower(): fields for _, _, fields, key in items if key}
    listing.macros = values.own
    if values.undefined:
        listing.undefined_macros, listing.text = frozenset(values.undefined), text
    for source, kind, fields, key in items:
        parent_key = fields.get("crossref", "").strip()
        parent = listing.records.get(parent_key.lower()) if parent_key else None
        if parent is not None:
            fields = inherit(fields, parent)
        if kind in VOLUME_TYPES:
            listing.skipped.append(Skip(source, f"@{kind} {key!r} is a volume, not a paper; "
                                                "entries cross-reference it for their venue"))
            continue
        entry = entry_from_fields(fields, kind, source, listing.findings)
        if entry is None:
            listing.skipped.append(Skip(source, f"@{kind} {key!r} has no title"))
            continue
        if parent_key and parent is None:
            entry.crossref = parent_key
            listing.unresolved[source.entry] = fields
        listing.entries.append(entry)
    return listing


def _failure(block: ParsingFailedBlock) -> str:
    error = block.error
    detail = (getattr(error, "abort_reason", None) or getattr(error, "message", None)
              or str(error) or "unreadable entry")
    return " ".join(str(detail).split()).rstrip(".")


def _fields(entry: Entry, source: Provenance, values: _Values):
    fields = {}
    for field in entry.fields:
        line = (field.start_line + 1) if field.start_line is not None else source.line
        fields[field.key.lower()] = values.expand(str(field.value), line,
                                                  f"field {field.key!r} of {entry.key!r}")
    fields["__type__"] = entry.entry_type.lower()
    return source, entry.entry_type.lower(), fields, entry.key


def inherit(child: dict[str, str], parent: dict[str, str]) -> dict[str, str]:
    """``child`` with the venue fields it lacks taken from its crossref ``parent``."""
    merged = dict(child)
    for name in INHERITED:
        if name in parent and not merged.get(name):
            merged[name] = parent[name]
    if not merged.get("booktitle") and not merged.get("journal") and parent.get("title"):
        merged["booktitle"] = parent["title"]
    return merged


def resolve_bibtex(listings: list[ParsedListing]) -> list[ParsedListing]:
    """Second pass over all listings: what one ``.bib`` takes from the others.

    1. macros: a file that uses a macro it does not define is re-read with the
       @string macros of the other ``.bib`` files (first definition in file
       order wins), as BibTeX does for ``\bibliography{abbrev,refs}``;
    2. crossrefs: entries inherit from parents in other files.

    Returns new listings (the parsed ones may be cached and are not changed).
    Only what no file defines stays an ``undefined-macro`` / ``missing-crossref``
    warning.
    """
    shared: dict[str, str] = {}
    for listing in sorted(listings, key=lambda l: l.file):
        for name, value in listing.macros.items():
            shared.setdefault(name, value)
    reread = []
    for listing in listings:
        if listing.undefined_macros & set(shared) and listing.text is not None:
            listing = parse(listing.text, listing.file,
                            {k: v for k, v in shared.items() if k not in listing.macros})
        reread.append(listing)
    return resolve_crossrefs(reread)


def resolve_crossrefs(listings: list[ParsedListing]) -> list[ParsedListing]:
    """Entries whose crossref parent is in another file inherit from it.

    A crossref that no file defines is a ``missing-crossref`` warning.
    """
    records: dict[str, dict[str, str]] = {}
    for listing in listings:
        for key, fields in listing.records.items():
            records.setdefault(key, fields)
    result = []
    for listing in listings:
        pending = [e for e in listing.entries if e.crossref]
        if not pending:
            result.append(listing)
            continue
        findings, entries = list(listing.findings), []
        for entry in listing.entries:
            if not entry.crossref:
                entries.append(entry)
                continue
            own = _own_fields(listing, entry)
            parent = records.get(entry.crossref.lower())
            if parent is None or own is None:
                findings.append(Finding(listing.file, entry.source.line or None, "missing-crossref",
                                        f"crossref {entry.crossref!r} is not in any .bib file of "
                                        "the seeds folder; the entry keeps only its own fields"))
                entries.append(replace(entry, crossref=None))
                continue
            resolved = entry_from_fields(inherit(own, parent), own["__type__"], entry.source, findings)
            entries.append(resolved or entry)
        result.append(replace(listing, entries=entries, findings=findings))
    return result


def _own_fields(listing: ParsedListing, entry: RawEntry) -> dict[str, str] | None:
    return listing.unresolved.get(entry.source.entry)


# --- fields -> RawEntry ---------------------------------------------------------------

def _names(raw: str, source: Provenance, findings: list[Finding]) -> tuple[list[str], bool]:
    names, truncated = [], False
    for person in split_multiple_persons_names(raw):
        if person.strip().lower() == "others":
            truncated = True
            continue
        name = _person(person)
        if name is None:
            findings.append(Finding(source.file, source.line, "bad-name",
                                    f"{person!r} does not follow BibTeX's name grammar; kept whole"))
            name = bibtex_text(person)
        if name:
            names.append(name)
    return names, truncated


@lru_cache(maxsize=1 << 16)
def _person(person: str) -> str | None:
    """``First von Last Jr`` display form of one BibTeX name; ``None`` if it breaks the grammar.
    Cached: a database names the same people again and again. A pure function
    of one name string, so it holds no build state (see caches.py)."""
    try:
        parts = parse_single_name_into_parts(person)
    except InvalidNameError:
        return None
    words = [w for w in parts.first + parts.von + parts.last if not _DBLP_NUMBER.match(w)]
    name = bibtex_text(" ".join(words))
    if parts.jr:
        name += " " + bibtex_text(" ".join(parts.jr))
    return name


def entry_from_fields(fields: dict[str, str], kind: str, source: Provenance,
                      findings: list[Finding]) -> RawEntry | None:
    """One paper entry from expanded fields, or ``None`` when it has no title."""
    title = bibtex_text(fields.get("title", ""))
    if not title:
        return None
    entry = RawEntry(source=source, title=title, abstract=bibtex_text(fields.get("abstract", "")))
    if fields.get("author"):
        entry.authors, entry.authors_truncated = _names(fields["author"], source, findings)
    year = _YEAR.search(fields.get("year", "")) or _YEAR.search(fields.get("date", ""))
    entry.year = int(year.group(1)) if year else None
    date = re.match(r"^\s*(\d{4}-\d{2}-\d{2})\s*$", fields.get("date", ""))
    if date:
        entry.date = date.group(1)
    container = bibtex_text(fields.get("booktitle") or fields.get("journal")
                            or fields.get("eventtitle") or "")
    if is_preprint_server(container):
        corr = _CORR_VOLUME.match(fields.get("volume", "").strip())
        entry.arxiv = arxiv_id(corr.group(1)) if corr else arxiv_id(container.split()[-1])
        container = ""
    entry.container = container or None
    prefix = (fields.get("archiveprefix") or fields.get("eprinttype") or "").strip().lower()
    eprint = fields.get("eprint", "").strip()
    if eprint and (prefix == "arxiv" or not prefix):
        entry.arxiv = arxiv_id(eprint) or entry.arxiv
    entry.doi = doi_of(fields.get("doi"))
    urls = [bibtex_text(u).replace(" ", "") for u in (fields.get("url", ""),) if u.strip()]
    howpublished = re.search(r"\\url\{([^{}]+)\}", fields.get("howpublished", ""))
    if howpublished:
        urls.append(howpublished.group(1).strip())
    for url in urls:
        entry.arxiv = entry.arxiv or arxiv_id(url)
        entry.doi = entry.doi or doi_of(url)
    entry.urls = [u for u in dict.fromkeys(urls)
                  if not arxiv_id(u) and not doi_of(u)]         # the id already links there
    if entry.doi and arxiv_id(entry.doi):
        entry.arxiv = entry.arxiv or arxiv_id(entry.doi)
    if kind in _REPORT_KINDS:
        where = bibtex_text(fields.get("institution") or fields.get("school") or "")
        number = bibtex_text(fields.get("number", ""))
        entry.comments.append(" ".join(filter(None, [_REPORT_KINDS[kind], number]))
                              + (f", {where}" if where else ""))
    return entry
