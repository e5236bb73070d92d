"""Safe YAML loading that remembers line numbers.

Every curated file (taxonomy, sidecars, aliases, corrections, structured
entries) is reviewed by people, so its errors must name the line. PyYAML's
safe loader forgets positions once it builds Python objects; this loader
keeps them on the mappings and lists it returns.

``Fields`` (below) is the one way a curated format states and checks its
keys and their values.

Only ``yaml.SafeLoader`` is used: no Python object tags, ever. Aliases
(``&a``/``*a``) are refused outright: curated data never needs them, and
they are how a "billion laughs" YAML bomb expands.
"""

from __future__ import annotations

import datetime as dt
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from .errors import CurationError

MAX_YAML_BYTES = 2_000_000


class LineDict(dict):
    """A dict that knows the 1-based line of itself and of each key."""

    line: int = 0
    key_lines: dict

    def line_of(self, key: str) -> int:
        return self.key_lines.get(key, self.line)


class LineList(list):
    line: int = 0
    item_lines: list


# libyaml's C parser when PyYAML has it (same safe constructors, ~10x faster).
_Base = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _Loader(_Base):
    pass


def _construct_mapping(loader: _Loader, node: yaml.MappingNode) -> LineDict:
    result = LineDict()
    result.line = node.start_mark.line + 1
    result.key_lines = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        if not isinstance(key, (str, int, float, bool)) and key is not None:
            raise CurationError("mapping key must be a plain value", line=key_node.start_mark.line + 1,
                                found=str(key)[:60])
        if key in result:
            raise CurationError(f"duplicate key {key!r}", line=key_node.start_mark.line + 1)
        result[key] = loader.construct_object(value_node, deep=True)
        result.key_lines[key] = key_node.start_mark.line + 1
    return result


def _construct_sequence(loader: _Loader, node: yaml.SequenceNode) -> LineList:
    result = LineList(loader.construct_object(child, deep=True) for child in node.value)
    result.line = node.start_mark.line + 1
    result.item_lines = [child.start_mark.line + 1 for child in node.value]
    return result


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)
_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _construct_sequence)


def _refuse_aliases(text: str, file: str) -> None:
    if "*" not in text:                  # no alias can exist without an asterisk
        return
    for event in yaml.parse(text, Loader=_Base):
        if isinstance(event, yaml.AliasEvent):
            raise CurationError("YAML aliases (*name) are not allowed in curated files",
                                file=file, line=event.start_mark.line + 1)


def load_yaml_text(text: str, file: str) -> Any:
    """Parse YAML text safely; errors carry ``file`` and the line."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_YAML_BYTES:
        raise CurationError(f"YAML file is larger than {MAX_YAML_BYTES} bytes", file=file)
    try:
        _refuse_aliases(text, file)
        return yaml.load(text, Loader=_Loader)  # noqa: S506 - _Loader derives from SafeLoader
    except CurationError as err:
        if err.file is None:
            raise CurationError(err.detail, file=file, line=err.line,
                                expected=err.expected, found=err.found) from None
        raise
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        line = mark.line + 1 if mark else None
        raise CurationError(f"invalid YAML: {err.problem or err}", file=file, line=line) from None
    except yaml.YAMLError as err:
        raise CurationError(f"invalid YAML: {err}", file=file) from None
    except RecursionError:
        raise CurationError("invalid YAML: nested too deeply", file=file) from None
    except (ValueError, TypeError, AttributeError, OverflowError) as err:
        # PyYAML's safe constructors raise these for values that match a tag's pattern but
        # are not valid: ``2022-02-30``, ``!!timestamp foo``, an int of 5000 digits.
        raise CurationError(f"invalid YAML value: {str(err)[:200]}", file=file) from None


def load_yaml_file(path: Path, display: str | None = None) -> Any:
    display = display or str(path)
    if path.stat().st_size > MAX_YAML_BYTES:      # before reading: a 50 MB file is never loaded
        raise CurationError(f"YAML file is larger than {MAX_YAML_BYTES} bytes", file=display)
    raw = path.read_bytes()
    if len(raw) > MAX_YAML_BYTES:
        raise CurationError(f"YAML file is larger than {MAX_YAML_BYTES} bytes", file=display)
    bom = 3 if raw.startswith(b"\xef\xbb\xbf") else 0
    try:
        text = raw[bom:].decode("utf-8")
    except UnicodeDecodeError as err:
        offset = bom + err.start                   # in the file, BOM included
        raise CurationError(f"not UTF-8 (byte offset {offset}, byte 0x{raw[offset]:02x})",
                            file=display, line=raw.count(b"\n", 0, offset) + 1) from None
    return load_yaml_text(unicodedata.normalize("NFC", text), display)   # as listings: NFC


# ---- one way to check a mapping's fields -----------------------------------------------
#
# Every curated YAML format (sidecars, structured papers, corrections and author
# aliases, venues, heading rules, the taxonomy) is a mapping, or a list of them,
# with a fixed set of keys. ``Fields`` states that set once per format, with what
# each key holds, so an unknown key, a missing one or a value of the wrong type is
# reported the same way everywhere: ``unknown key 'colour'``, ``missing required
# key 'source'``, ``'year' must be a four-digit number``, each with file and line.
# Checks that belong to one format (an arXiv id's shape, a date within its year)
# stay with that format.

@dataclass(frozen=True)
class Kind:
    """What a field holds: ``describe`` completes "'key' must be ..."; ``read``
    returns the value to use, or raises ``ValueError`` if it is not one."""

    describe: str
    read: Callable[[Any], Any]
    item_ok: Callable[[Any], bool] | None = None     # lists: names the first bad item's line


def _text(value):
    if not isinstance(value, str):
        raise ValueError
    return value.strip() or None


def _nonempty_text(value):
    if not isinstance(value, str) or not value.strip():
        raise ValueError
    return value.strip()


def _text_items(value, nonempty: bool):
    if not isinstance(value, list) or (nonempty and not value) or not all(
            isinstance(v, str) and v.strip() for v in value):
        raise ValueError
    return [v.strip() for v in value]


def _year(value):
    if not isinstance(value, int) or isinstance(value, bool) or not 1900 <= value <= 2100:
        raise ValueError
    return value


def _date(value):
    text = value.isoformat() if isinstance(value, dt.date) else str(value)
    dt.date.fromisoformat(text)             # ValueError if it is not YYYY-MM-DD
    return text


def _flag(value):
    if not isinstance(value, bool):
        raise ValueError
    return value


def _shape(kind: type):
    def read(value):
        if not isinstance(value, kind):
            raise ValueError
        return value
    return read


TEXT = Kind("text", _text)                                   # "" reads as None
NONEMPTY_TEXT = Kind("non-empty text", _nonempty_text)
def _is_text(item) -> bool:
    return isinstance(item, str) and bool(item.strip())


TEXTS = Kind("a list of non-empty text", lambda v: _text_items(v, nonempty=False), _is_text)
NONEMPTY_TEXTS = Kind("a non-empty list of text", lambda v: _text_items(v, nonempty=True), _is_text)
YEAR = Kind("a four-digit number", _year)                    # 1900..2100
DATE = Kind("YYYY-MM-DD", _date)                             # a YAML date or text; read as text
FLAG = Kind("true or false", _flag)
LIST = Kind("a list", _shape(LineList))
MAPPING = Kind("a mapping", _shape(LineDict))
ANY = Kind("any value", lambda v: v)                         # checked by the format itself


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a mapping, before it becomes an error (the taxonomy
    collects every problem; the other formats raise the first)."""

    line: int
    message: str
    expected: str | None = None
    found: str | None = None

    def error(self, file: str, cls: type[CurationError] = CurationError) -> CurationError:
        return cls(self.message, file=file, line=self.line, expected=self.expected, found=self.found)


class Fields:
    """The keys one kind of YAML mapping may have, which it must have, and what each holds."""

    def __init__(self, kinds: dict[str, Kind], required: tuple[str, ...] = ()):
        unknown = set(required) - set(kinds)
        if unknown:
            raise ValueError(f"required keys without a kind: {sorted(unknown)}")
        self.kinds = dict(kinds)
        self.required = tuple(required)

    @property
    def allowed(self) -> str:
        return "one of " + ", ".join(sorted(self.kinds))

    def key_problems(self, mapping: LineDict) -> list[Problem]:
        """Unknown keys, in file order (values are not looked at)."""
        return [Problem(mapping.line_of(key), f"unknown key {key!r}", self.allowed)
                for key in mapping if key not in self.kinds]

    def value_problem(self, mapping: LineDict, key: str) -> tuple[Any, Problem | None]:
        """``(value, None)`` with the value read as its kind (None if absent and
        optional), or ``(None, problem)``."""
        kind = self.kinds[key]
        value = mapping.get(key)
        if value is None:
            if key in self.required:
                return None, Problem(mapping.line, f"missing required key {key!r}", kind.describe)
            return None, None
        try:
            return kind.read(value), None
        except ValueError:
            line, found = mapping.line_of(key), value
            if kind.item_ok and isinstance(value, LineList):
                bad = next((i for i, item in enumerate(value) if not kind.item_ok(item)), None)
                if bad is not None:
                    line, found = value.item_lines[bad], value[bad]
            return None, Problem(line, f"{key!r} must be {kind.describe}", found=repr(found)[:60])

    def check(self, mapping: Any, file: str, what: str, line: int | None = None) -> LineDict:
        """``mapping`` itself, once it is a mapping with no unknown keys; else
        ``CurationError`` naming ``what`` should have been there."""
        if not isinstance(mapping, LineDict):
            raise CurationError(f"{what} must be a mapping of keys to values", file=file,
                                line=line or getattr(mapping, "line", 0) or 1)
        problems = self.key_problems(mapping)
        if problems:
            raise problems[0].error(file)
        return mapping

    def get(self, mapping: LineDict, key: str, file: str) -> Any:
        """The field's value read as its kind; ``CurationError`` with file and line if it is not."""
        value, problem = self.value_problem(mapping, key)
        if problem:
            raise problem.error(file)
        return value
