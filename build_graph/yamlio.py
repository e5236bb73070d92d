"""Safe YAML loading that remembers line numbers.

Every curated file (taxonomy, sidecars, aliases, corrections, structured
entries) is reviewed by people, so its errors must name the line. PyYAML's
safe loader forgets positions once it builds Python objects; this loader
keeps them on the mappings and lists it returns.

Only ``yaml.SafeLoader`` is used: no Python object tags, ever. Aliases
(``&a``/``*a``) are refused outright: curated data never needs them, and
they are how a "billion laughs" YAML bomb expands.
"""

from __future__ import annotations

import unicodedata
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
