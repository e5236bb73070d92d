"""Load and check the curated technique taxonomy (``build_graph/data/taxonomy.yaml``).

Contributors change the taxonomy by pull request, so loading doubles as the
review: every problem is reported at once, each with file and line, and an
alias is only accepted if it matches one of its technique's example sentences
(a pattern that matches nothing would silently tag nothing).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from .errors import CurationError, TaxonomyError
from .model import Technique
from .tagging import Sense, find_term, sense_matches
from .yamlio import FLAG, LIST, NONEMPTY_TEXT, TEXTS, Fields, LineDict, LineList, load_yaml_file

_ID = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
_TEXT_LISTS = ("aliases", "acronyms", "examples", "counterexamples", "context", "context_terms", "exclude",
               "covered_by")
_AREA = Fields(dict.fromkeys(("id", "name", "description"), NONEMPTY_TEXT), required=("id", "name", "description"))
_TECHNIQUE = Fields({**dict.fromkeys(("id", "name", "parent", "description"), NONEMPTY_TEXT),
                     **dict.fromkeys(_TEXT_LISTS, TEXTS), "require_strong": FLAG},
                    required=("id", "name", "parent", "description"))
_FILE = Fields({"areas": LIST, "techniques": LIST}, required=("areas", "techniques"))
_CONTEXT_WORD = re.compile(r"^[a-z0-9]+$")
_SINGULAR = {"aliases": "alias", "acronyms": "acronym"}


@dataclass
class Taxonomy:
    """Areas and techniques in file order; areas have ``is_area=True``."""

    techniques: dict[str, Technique]
    examples: dict[str, list[str]] = field(default_factory=dict)
    counterexamples: dict[str, list[str]] = field(default_factory=dict)
    file: str = ""

    def __contains__(self, tid: str) -> bool:
        return tid in self.techniques

    def __getitem__(self, tid: str) -> Technique:
        return self.techniques[tid]

    def areas(self) -> list[Technique]:
        return [t for t in self.techniques.values() if t.is_area]

    def leaves(self) -> list[Technique]:
        """Everything that can be tagged, i.e. all techniques (not areas)."""
        return [t for t in self.techniques.values() if not t.is_area]

    def children(self, tid: str) -> list[str]:
        return [t.id for t in self.techniques.values() if t.parent == tid]

    def ancestors(self, tid: str) -> list[str]:
        """Parent first, area last."""
        chain, parent = [], self.techniques[tid].parent
        while parent is not None:
            chain.append(parent)
            parent = self.techniques[parent].parent
        return chain

    def area_of(self, tid: str) -> str:
        chain = [tid, *self.ancestors(tid)]
        return chain[-1]


class _Problems:
    def __init__(self, file: str):
        self.file = file
        self.items: list[tuple[int, str]] = []

    def add(self, line: int, message: str) -> None:
        self.items.append((line, message))

    def raise_if_any(self) -> None:
        if not self.items:
            return
        items = sorted(self.items)
        if len(items) == 1:
            err = TaxonomyError(items[0][1], file=self.file, line=items[0][0])
        else:
            listing = "\n".join(f"  {self.file}:{line}: {msg}" for line, msg in items)
            err = TaxonomyError(f"{len(items)} problems in the taxonomy:\n{listing}",
                                file=self.file, line=items[0][0])
        err.problems = items  # (line, message) pairs, for tools and tests
        raise err


def _field(fields: Fields, entry: LineDict, key: str, problems: _Problems):
    """The field's value, or None after noting what is wrong with it: the taxonomy
    reports every problem at once, so it collects instead of raising."""
    value, problem = fields.value_problem(entry, key)
    if problem:
        problems.add(problem.line, _message(problem))
    return value


def _message(problem) -> str:
    return problem.message + "".join(f"; {label} {text}" for label, text in
                                     (("expected", problem.expected), ("found", problem.found)) if text)


def _text_list(entry: LineDict, key: str, problems: _Problems) -> list[tuple[str, int]]:
    """The strings of a list field with their lines; [] if absent or broken."""
    value = _field(_TECHNIQUE, entry, key, problems)
    return list(zip(value, entry[key].item_lines)) if value else []


def _read_entry(entry, is_area: bool, seen: dict[str, int], problems: _Problems, tax: Taxonomy) -> None:
    what = "area" if is_area else "technique"
    if not isinstance(entry, LineDict):
        problems.add(getattr(entry, "line", 0) or 1, f"each {what} must be a mapping, found {entry!r:.60}")
        return
    fields = _AREA if is_area else _TECHNIQUE
    for problem in fields.key_problems(entry):
        problems.add(problem.line, f"{_message(problem)} (in {what} {entry.get('id', '')!r})")
    tid = _field(fields, entry, "id", problems)
    if tid and not _ID.match(tid):
        problems.add(entry.line_of("id"), f"id {tid!r} is not kebab-case (a-z, 0-9, single hyphens)")
    if tid in seen:
        problems.add(entry.line_of("id"), f"duplicate id {tid!r} (first defined at line {seen[tid]})")
        return
    name = _field(fields, entry, "name", problems) or ""
    description = _field(fields, entry, "description", problems) or ""
    if not tid:
        return
    seen[tid] = entry.line_of("id")
    if is_area:
        tax.techniques[tid] = Technique(tid, name, None, description, is_area=True, line=entry.line)
        return
    parent = _field(fields, entry, "parent", problems)
    lists = {key: _text_list(entry, key, problems) for key in _TEXT_LISTS}
    tech = Technique(tid, name, parent, description, aliases=[a for a, _ in lists["aliases"]],
                     acronyms=[a for a, _ in lists["acronyms"]], line=entry.line,
                     context=[w for w, _ in lists["context"]], context_terms=[t for t, _ in lists["context_terms"]],
                     exclude=[x for x, _ in lists["exclude"]], covered_by=[c for c, _ in lists["covered_by"]],
                     require_strong=bool(_field(fields, entry, "require_strong", problems)))
    tax.techniques[tid] = tech
    tax.examples[tid] = [e for e, _ in lists["examples"]]
    tax.counterexamples[tid] = [c for c, _ in lists["counterexamples"]]
    _check_patterns(tech, entry, lists, problems)


def _check_sense(tech: Technique, lists: dict, problems: _Problems) -> None:
    for word, line in lists["context"]:
        if not _CONTEXT_WORD.match(word):
            problems.add(line, f"context word {word!r} of {tech.id!r} must be one lower-case word (a-z, 0-9)")
    terms = set(tech.aliases) | set(tech.acronyms)
    for term, line in lists["context_terms"]:
        if term not in terms:
            problems.add(line, f"context term {term!r} of {tech.id!r} is not one of its aliases or acronyms")
    if lists["context_terms"] and not lists["context"]:
        problems.add(lists["context_terms"][0][1], f"{tech.id!r} lists context_terms but no context words")
    for phrase, line in lists["exclude"]:
        if not re.match(r"\w", phrase):
            problems.add(line, f"exclude phrase {phrase!r} of {tech.id!r} must start with a letter or digit")


def _check_patterns(tech: Technique, entry: LineDict, lists: dict, problems: _Problems) -> None:
    if not lists["aliases"] and not lists["acronyms"]:
        problems.add(entry.line, f"technique {tech.id!r} has no aliases or acronyms, so it can never be tagged")
    if not lists["examples"]:
        problems.add(entry.line_of("examples"), f"technique {tech.id!r} needs at least one example")
    _check_sense(tech, lists, problems)
    sense = Sense.of(tech)
    examples = [e for e, _ in lists["examples"]]
    # The tagger's own matcher and sense rules, so what passes here tags the same texts.
    terms = []
    for key, acronym in (("aliases", False), ("acronyms", True)):
        for term, line in lists[key]:
            if not re.match(r"\w", term) or (acronym and re.search(r"\s", term)):
                problems.add(line, f"{_SINGULAR[key]} {term!r} must start with a letter or "
                                   "digit" + (" and contain no spaces" if acronym else ""))
                continue
            if acronym and term == term.lower():
                problems.add(line, f"acronym {term!r} is all lower-case; list it under aliases")
            terms.append((term, acronym))
            if examples and not any(find_term(term, e, acronym) for e in examples):
                problems.add(line, f"{_SINGULAR[key]} {term!r} of {tech.id!r} matches none of its examples")
            elif sense and examples and not any(sense_matches(sense, [(term, acronym)], e) for e in examples):
                problems.add(line, f"{_SINGULAR[key]} {term!r} of {tech.id!r} matches its examples only "
                                   "without its sense (add a context word near it, or drop the exclusion)")
    for text, line in lists["counterexamples"]:
        hit = next(iter(sense_matches(sense, terms, text)), None)
        if hit:
            problems.add(line, f"counterexample of {tech.id!r} is matched (by {text[hit.start:hit.end]!r})")


def _check_graph(tax: Taxonomy, entries: dict[str, LineDict], problems: _Problems) -> None:
    for tid, tech in tax.techniques.items():
        if tech.is_area or tech.parent is None:
            continue
        if tech.parent not in tax.techniques:
            problems.add(entries[tid].line_of("parent"), f"unknown parent {tech.parent!r} of {tid!r}")
            tech.parent = None
    for tid, tech in tax.techniques.items():
        covered = entries[tid].get("covered_by") if not tech.is_area else None
        for i, other in enumerate(tech.covered_by):
            if other not in tax.techniques or tax.techniques[other].is_area or other == tid:
                line = covered.item_lines[i] if isinstance(covered, LineList) else entries[tid].line
                problems.add(line, f"covered_by of {tid!r} names {other!r}, which is not another technique")
    reported: set[str] = set()
    for tid in tax.techniques:
        path, node = [], tid
        while node is not None and node not in path and node not in reported:
            path.append(node)
            node = tax.techniques[node].parent
        if node is not None and node in path:
            cycle = path[path.index(node):]
            reported.update(cycle)
            first = min(cycle, key=lambda c: entries[c].line)
            problems.add(entries[first].line_of("parent"), "parent cycle: " + " -> ".join([*cycle, node]))
        reported.update(path)


def _singular(term: str) -> str:
    # Aliases match their plurals, so "autonomous system" and "autonomous
    # systems" in two techniques would tag the same text twice.
    return re.sub(r"(?:ies|es|s)$", "", term)


def _check_duplicate_terms(tax: Taxonomy, entries: dict[str, LineDict], problems: _Problems) -> None:
    owner: dict[str, str] = {}
    for tid, tech in tax.techniques.items():
        for key, terms, fold in (("aliases", tech.aliases, str.lower), ("acronyms", tech.acronyms, str)):
            lines = entries[tid].get(key)
            for i, term in enumerate(terms):
                norm = (key, _singular(fold(re.sub(r"[\s-]+", " ", term))))
                if norm in owner and owner[norm] != tid:
                    line = lines.item_lines[i] if isinstance(lines, LineList) and i < len(lines.item_lines) else 0
                    problems.add(line, f"{_SINGULAR[key]} {term!r} of {tid!r} is already "
                                       f"used by {owner[norm]!r}")
                owner.setdefault(norm, tid)


def load_taxonomy(path: Path, display: str | None = None) -> Taxonomy:
    """Load, validate and return the taxonomy; raise ``TaxonomyError`` listing every problem."""
    display = display or str(path)
    try:
        data = load_yaml_file(Path(path), display)
    except TaxonomyError:
        raise
    except CurationError as err:
        raise TaxonomyError(err.detail, file=err.file or display, line=err.line) from None
    problems = _Problems(display)
    if not isinstance(data, LineDict):
        raise TaxonomyError("the taxonomy must be a mapping with 'areas' and 'techniques'", file=display, line=1)
    for problem in _FILE.key_problems(data):
        problems.add(problem.line, f"{_message(problem)} (at the top level)")
    tax = Taxonomy(techniques={}, file=display)
    seen: dict[str, int] = {}
    entries: dict[str, LineDict] = {}
    for key, is_area in (("areas", True), ("techniques", False)):
        items = _field(_FILE, data, key, problems)
        if items is None:
            continue
        if not items:
            problems.add(data.line_of(key), f"'{key}' must not be empty")
            continue
        for entry in items:
            before = set(tax.techniques)
            _read_entry(entry, is_area, seen, problems, tax)
            for tid in set(tax.techniques) - before:
                entries[tid] = entry
    _check_graph(tax, entries, problems)
    _check_duplicate_terms(tax, entries, problems)
    problems.raise_if_any()
    return tax
