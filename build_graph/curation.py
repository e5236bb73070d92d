"""Curated data files, loaded and validated together.

Everything a person decided is reviewable YAML, in two layers:

* *Reference data* about the field ships with the package, in
  ``build_graph/data/``, so any site that installs the plugin has it:

  * ``taxonomy.yaml``     techniques (loaded by ``taxonomy.py``);
  * ``venues.yaml``       canonical venues and their spellings;
  * ``non_names.yaml``    author-list tokens that are not people;
  * ``headings.yaml``     paper-list headings that name techniques (``headings.py``).

* *Site data* is about one atlas's own papers, in the site's data folder
  (``data/`` here; the plugin's ``curation`` option elsewhere):

  * ``authors.yaml``      aliases (several spellings, one person) and splits
                          (one spelling, several people);
  * ``corrections.yaml``  facts from public records, keyed by paper id, each
                          entry with the ``source`` that states them; and the
                          untitled papers a curator looked up but could not
                          identify, each with the reason (``unidentified``).

A site may also put its own copy of any of these in its data folder; each replaces the packaged file
whole (never merged, so what a page shows is what one file says).

This module is the one place that knows those file names, so the pipeline,
the CLI and the tests load curation the same way. Everything is validated
on load with file and line; ids that refer to papers are checked once the
papers exist (``check_references``).
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from pathlib import Path

from .errors import CurationError
from .model import TechniqueOverride
from .normalize.names import clean_spacing, name_key
from .normalize.nonnames import NonNames, load_non_names
from .normalize.venues import VenueTable, load_venues
from .yamlio import (ANY, DATE, LIST, NONEMPTY_TEXT, NONEMPTY_TEXTS, YEAR, Fields, LineDict, LineList,
                     load_yaml_file)

REFERENCE_DIR = Path(__file__).resolve().parent / "data"
_ID = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
# Fields a correction may set. ``title``, ``arxiv`` and ``doi`` are identity:
# they can make two entries one paper (see normalize/papers.py).
CORRECTABLE = ("title", "authors", "venue", "year", "date", "arxiv", "doi")
IDENTITY_FIELDS = ("title", "arxiv", "doi")
_ARXIV_NEW = re.compile(r"^\d{4}\.\d{4,5}$")
_ARXIV_OLD = re.compile(r"^[a-z][a-z.\-]*/\d{7}$")
_ARXIV_VERSION = re.compile(r"v\d+$")
_DOI = re.compile(r"^10\.\d{4,9}/\S+$")
# Files every build needs: the site's own copy, else the packaged one.
REFERENCE_FILES = ("taxonomy.yaml", "venues.yaml", "non_names.yaml", "headings.yaml")
# Files only a site can have; both are optional.
SITE_FILES = ("authors.yaml", "corrections.yaml")


def curated_file(data_dir: Path | None, name: str) -> Path:
    """Where ``name`` is read from: the site's data folder, or for reference
    files the package's own when the site has none."""
    if data_dir is not None and (Path(data_dir) / name).is_file():
        return Path(data_dir) / name
    if name in REFERENCE_FILES:
        return REFERENCE_DIR / name
    return Path(data_dir or REFERENCE_DIR) / name


@dataclass
class AuthorAlias:
    name: str
    spellings: list[str]
    source: str | None
    line: int


@dataclass
class SplitPerson:
    id: str
    display: str
    papers: list[str]
    line: int


@dataclass
class AuthorSplit:
    name: str
    people: list[SplitPerson]
    source: str | None
    line: int


@dataclass
class Correction:
    """One entry of corrections.yaml: the facts one ``source`` states about one paper.

    A paper may have several entries (one per source), as long as no field is
    set twice. ``author_lines`` holds the line of each name in ``authors`` so
    a name that is not a person can be reported where it was written.
    """

    paper: str
    values: dict
    source: str
    overrides: list[TechniqueOverride]
    line: int
    note: str | None = None
    author_lines: list[int] = field(default_factory=list)
    value_lines: dict = field(default_factory=dict)


@dataclass
class Unidentified:
    """An untitled paper a curator looked up and could not identify, and why."""

    paper: str
    reason: str
    line: int


@dataclass
class Curation:
    data_dir: Path | None
    venues: VenueTable
    non_names: NonNames
    aliases: list[AuthorAlias] = field(default_factory=list)
    splits: list[AuthorSplit] = field(default_factory=list)
    corrections: list[Correction] = field(default_factory=list)
    unidentified: list[Unidentified] = field(default_factory=list)
    authors_file: str = "data/authors.yaml"
    corrections_file: str = "data/corrections.yaml"

    @property
    def taxonomy_file(self) -> Path:
        return curated_file(self.data_dir, "taxonomy.yaml")

    def source_files(self) -> dict[str, Path]:
        """Every curated file this build reads, by name (for edit links)."""
        return {name: curated_file(self.data_dir, name) for name in (*REFERENCE_FILES, *SITE_FILES)}

    def alias_map(self) -> dict[str, str]:
        """spelling key -> canonical display name."""
        return {name_key(s): a.name for a in self.aliases for s in a.spellings}

    def split_map(self) -> dict[str, AuthorSplit]:
        return {name_key(s.name): s for s in self.splits}


def _display(path: Path) -> str:
    try:
        return path.relative_to(Path.cwd()).as_posix()
    except ValueError:
        return str(path)


# The fields of each curated file, top level and items (yamlio.Fields).
_AUTHORS_FILE = Fields({"aliases": LIST, "splits": LIST})
_CORRECTIONS_FILE = Fields({"corrections": LIST, "unidentified": LIST})
_SECTIONS = {"aliases": _AUTHORS_FILE, "splits": _AUTHORS_FILE,
             "corrections": _CORRECTIONS_FILE, "unidentified": _CORRECTIONS_FILE}
ALIAS = Fields({"name": NONEMPTY_TEXT, "spellings": NONEMPTY_TEXTS, "source": NONEMPTY_TEXT},
               required=("name", "spellings"))
SPLIT = Fields({"name": NONEMPTY_TEXT, "people": LIST, "source": NONEMPTY_TEXT}, required=("name", "people"))
SPLIT_PERSON = Fields({"id": NONEMPTY_TEXT, "display": NONEMPTY_TEXT, "papers": NONEMPTY_TEXTS},
                      required=("id", "display", "papers"))
CORRECTION = Fields({"paper": NONEMPTY_TEXT, "source": NONEMPTY_TEXT, "note": NONEMPTY_TEXT, "techniques": ANY,
                     "title": NONEMPTY_TEXT, "authors": NONEMPTY_TEXTS, "venue": NONEMPTY_TEXT, "year": YEAR,
                     "date": DATE, "arxiv": ANY, "doi": ANY},      # arxiv, doi: _identifier; techniques: _overrides
                    required=("paper", "source"))
UNIDENTIFIED = Fields({"paper": NONEMPTY_TEXT, "reason": NONEMPTY_TEXT}, required=("paper", "reason"))


def _mapping_list(data, key: str, file: str, fields: Fields) -> list[tuple[LineDict, int]]:
    """The items of the top-level list ``key``, each checked against ``fields``' keys."""
    if data is None:
        return []
    top = _SECTIONS[key]
    top.check(data, file, "the file", line=1)
    items = top.get(data, key, file)
    if items is None:
        return []
    return [(fields.check(item, file, f"each item of '{key}'", line), line)
            for item, line in zip(items, items.item_lines)]


def _text(item: LineDict, key: str, file: str, fields: Fields) -> str | None:
    value = fields.get(item, key, file)
    return clean_spacing(value) if value is not None else None


def _texts(item: LineDict, key: str, file: str, fields: Fields) -> list[str]:
    return [clean_spacing(v) for v in fields.get(item, key, file)]


def load_authors(path: Path, file: str) -> tuple[list[AuthorAlias], list[AuthorSplit]]:
    if not path.exists():
        return [], []
    data = load_yaml_file(path, file)
    aliases, seen = [], {}
    for item, line in _mapping_list(data, "aliases", file, ALIAS):
        alias = AuthorAlias(_text(item, "name", file, ALIAS), _texts(item, "spellings", file, ALIAS),
                            _text(item, "source", file, ALIAS), line)
        for spelling in alias.spellings:
            key = name_key(spelling)
            if key == name_key(alias.name):
                raise CurationError(f"spelling {spelling!r} is the name itself", file=file, line=line)
            if key in seen:
                raise CurationError(f"spelling {spelling!r} is already an alias (line {seen[key]})",
                                    file=file, line=line)
            seen[key] = line
        aliases.append(alias)
    splits, split_names, ids = [], {}, {}
    for item, line in _mapping_list(data, "splits", file, SPLIT):
        name = _text(item, "name", file, SPLIT)
        if name_key(name) in split_names:
            raise CurationError(f"{name!r} is already split (line {split_names[name_key(name)]})",
                                file=file, line=line)
        split_names[name_key(name)] = line
        people_items = SPLIT.get(item, "people", file)
        if len(people_items) < 2:
            raise CurationError("'people' must list at least two people", file=file,
                                line=item.line_of("people"))
        people = []
        for person, person_line in zip(people_items, people_items.item_lines):
            person = SPLIT_PERSON.check(person, file, "each person", person_line)
            pid = _text(person, "id", file, SPLIT_PERSON)
            if not _ID.match(pid):
                raise CurationError(f"id {pid!r} must be kebab-case (a-z, 0-9, hyphens)",
                                    file=file, line=person.line_of("id"))
            if pid in ids:
                raise CurationError(f"duplicate person id {pid!r} (line {ids[pid]})", file=file,
                                    line=person.line_of("id"))
            ids[pid] = person.line_of("id")
            people.append(SplitPerson(pid, _text(person, "display", file, SPLIT_PERSON),
                                      _texts(person, "papers", file, SPLIT_PERSON), person_line))
        splits.append(AuthorSplit(name, people, _text(item, "source", file, SPLIT), line))
    return aliases, splits


def _overrides(value, file: str, line: int) -> list[TechniqueOverride]:
    from .sources.structured import _overrides as parse_overrides
    return parse_overrides(value, file, line)


def _identifier(item: LineDict, key: str, file: str) -> str:
    value = item[key]
    line = item.line_of(key)
    if key == "arxiv":
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            raise CurationError('quote the arXiv id ("2301.00001"): as a number it loses zeros',
                                file=file, line=line)
        text = value.strip() if isinstance(value, str) else ""
        if _ARXIV_VERSION.search(text) and _ARXIV_NEW.match(_ARXIV_VERSION.sub("", text)):
            raise CurationError("give the arXiv id without its version", file=file, line=line,
                                expected="2301.12030, not 2301.12030v2", found=text)
        if not (_ARXIV_NEW.match(text) or _ARXIV_OLD.match(text)):
            raise CurationError("'arxiv' is not an arXiv id", file=file, line=line,
                                expected="YYMM.NNNNN or archive/NNNNNNN", found=str(value)[:60])
        return text
    text = value.strip() if isinstance(value, str) else ""
    for prefix in ("https://doi.org/", "http://doi.org/", "doi:"):
        if text.lower().startswith(prefix):
            raise CurationError("give the DOI itself, not a link or 'doi:'", file=file, line=line,
                                expected="10.NNNN/suffix", found=text[:80])
    if not _DOI.match(text):
        raise CurationError("'doi' is not a DOI", file=file, line=line,
                            expected="10.NNNN/suffix", found=str(value)[:80])
    return text


def _correction_value(item: LineDict, key: str, file: str):
    if key in ("arxiv", "doi"):
        return _identifier(item, key, file)
    if key == "authors":
        return _texts(item, key, file, CORRECTION)
    if key in ("year", "date"):
        return CORRECTION.get(item, key, file)
    return _text(item, key, file, CORRECTION)


def load_corrections(path: Path, file: str) -> tuple[list[Correction], list[Unidentified]]:
    if not path.exists():
        return [], []
    data = load_yaml_file(path, file)
    out, seen = [], {}                      # (paper, field) -> line that set it
    for item, line in _mapping_list(data, "corrections", file, CORRECTION):
        paper = _text(item, "paper", file, CORRECTION)
        source = _text(item, "source", file, CORRECTION)
        values, value_lines = {}, {}
        for key in CORRECTABLE:
            if key not in item:
                continue
            if (paper, key) in seen:
                raise CurationError(f"'{key}' of paper {paper!r} is already corrected at line "
                                    f"{seen[paper, key]}; one source per fact", file=file,
                                    line=item.line_of(key))
            seen[paper, key] = item.line_of(key)
            values[key] = _correction_value(item, key, file)
            value_lines[key] = item.line_of(key)
        if "year" in values and "date" in values and int(values["date"][:4]) != values["year"]:
            raise CurationError(f"'date' {values['date']} is not in 'year' {values['year']}",
                                file=file, line=item.line_of("date"))
        author_lines = []
        if "authors" in values:
            names = item["authors"]
            author_lines = list(names.item_lines) if isinstance(names, LineList) else \
                [item.line_of("authors")] * len(values["authors"])
            keys: dict[str, int] = {}
            for name, name_line in zip(values["authors"], author_lines):
                if name_key(name) in keys:
                    raise CurationError(f"{name!r} is listed twice in 'authors' (line "
                                        f"{keys[name_key(name)]})", file=file, line=name_line)
                keys[name_key(name)] = name_line
        overrides = (_overrides(item["techniques"], file, item.line_of("techniques"))
                     if "techniques" in item else [])
        if "techniques" in item:
            if (paper, "techniques") in seen:
                raise CurationError(f"the techniques of paper {paper!r} are already corrected at "
                                    f"line {seen[paper, 'techniques']}", file=file,
                                    line=item.line_of("techniques"))
            seen[paper, "techniques"] = item.line_of("techniques")
        if not values and not overrides:
            raise CurationError("a correction must change at least one of "
                                + ", ".join([*CORRECTABLE, "techniques"]), file=file, line=line)
        out.append(Correction(paper, values, source, overrides, line,
                              note=_text(item, "note", file, CORRECTION),
                              author_lines=author_lines, value_lines=value_lines))
    unidentified, listed = [], {}
    for item, line in _mapping_list(data, "unidentified", file, UNIDENTIFIED):
        paper = _text(item, "paper", file, UNIDENTIFIED)
        if paper in listed:
            raise CurationError(f"paper {paper!r} is already listed at line {listed[paper]}",
                                file=file, line=line)
        listed[paper] = line
        unidentified.append(Unidentified(paper, _text(item, "reason", file, UNIDENTIFIED), line))
    return out, unidentified


def load_curation(data_dir: Path | None = None) -> Curation:
    """``data_dir``: the site's data folder; ``None`` or a missing folder means
    the packaged reference data and no site curation."""
    data_dir = Path(data_dir) if data_dir is not None else None
    paths = {name: curated_file(data_dir, f"{name}.yaml")
             for name in ("venues", "non_names", "authors", "corrections")}
    aliases, splits = load_authors(paths["authors"], _display(paths["authors"]))
    corrections, unidentified = load_corrections(paths["corrections"], _display(paths["corrections"]))
    return Curation(
        data_dir=data_dir,
        venues=load_venues(paths["venues"], _display(paths["venues"])),
        non_names=load_non_names(paths["non_names"], _display(paths["non_names"])),
        aliases=aliases,
        splits=splits,
        corrections=corrections,
        unidentified=unidentified,
        authors_file=_display(paths["authors"]),
        corrections_file=_display(paths["corrections"]),
    )
