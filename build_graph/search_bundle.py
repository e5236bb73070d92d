"""Pagefind's bundle, byte-identical from one build to the next.

Pagefind (1.3 on) writes the same fragment and word-index files for the same
pages, but it lists each filter's values in hash-map order, which changes
from run to run (its issue 638: "other files will still change, such as the
filter/metadata indexes"). A filter file is named after a hash of its
content, the language's metadata file names the filter files, and
``pagefind-entry.json`` names the metadata file; so two builds of the same
site differed in a handful of files and their names, a deploy uploaded them
again, and a site kept in git churned.

``stable_filters`` rewrites those files in one order: each filter's values
sorted, the metadata's filter list sorted by name, every rewritten file named
after a hash of its new content (Pagefind's form: the language, ``_``, hex
digits) and the entry file naming the new metadata. The search reads them as
before: the names are only looked up, never checked against the content.

The files are gzipped CBOR after Pagefind's ``pagefind_dcd`` signature. Only
what Pagefind writes there is read (unsigned integers, text, byte strings,
arrays and maps of definite length), and a file is rewritten only if
encoding what was read gives its bytes back; otherwise the bundle stays as
Pagefind wrote it (still correct, only not stable).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import struct
from pathlib import Path

SIGNATURE = b"pagefind_dcd"
ENTRY = "pagefind-entry.json"


class _Unexpected(Exception):
    """Not the CBOR or the layout this module knows: leave the bundle alone."""


def stable_filters(bundle: Path) -> bool:
    """Rewrite ``bundle``'s filter indexes in a fixed order; False if it was left as it was."""
    entry_path = bundle / ENTRY
    try:
        text = entry_path.read_text(encoding="utf-8")
        entry = json.loads(text)
        if _json(entry) != text:
            raise _Unexpected("entry file")
        writes: dict[Path, bytes] = {}
        removals: list[Path] = []
        for language in entry["languages"].values():
            meta_path = bundle / f"pagefind.{language['hash']}.pf_meta"
            meta = _read(meta_path)
            if not (isinstance(meta, list) and len(meta) >= 4 and isinstance(meta[3], list)):
                raise _Unexpected("metadata layout")
            prefix = language["hash"].split("_")[0]
            filters = []
            for name, file_hash in meta[3]:
                path = bundle / "filter" / f"{file_hash}.pf_filter"
                content = _read(path)
                if not (isinstance(content, list) and len(content) == 2 and content[0] == name):
                    raise _Unexpected(f"filter {name}")
                content = [name, sorted(content[1], key=lambda value: value[0])]
                raw = _raw(content)
                new_hash = f"{prefix}_{hashlib.sha256(raw).hexdigest()[:7]}"
                writes[bundle / "filter" / f"{new_hash}.pf_filter"] = raw
                removals.append(path)
                filters.append([name, new_hash])
            meta[3] = sorted(filters)
            raw = _raw(meta)
            language["hash"] = f"{prefix}_{hashlib.sha256(raw).hexdigest()[:10]}"
            writes[bundle / f"pagefind.{language['hash']}.pf_meta"] = raw
            removals.append(meta_path)
    except (OSError, ValueError, KeyError, TypeError, _Unexpected):
        return False
    for path in removals:
        path.unlink(missing_ok=True)
    for path, raw in writes.items():
        path.write_bytes(gzip.compress(raw, compresslevel=9, mtime=0))
    entry_path.write_text(_json(entry), encoding="utf-8")
    return True


def _json(value) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _read(path: Path):
    raw = gzip.decompress(path.read_bytes())
    if not raw.startswith(SIGNATURE):
        raise _Unexpected(path.name)
    value, end = _decode(raw, len(SIGNATURE))
    if end != len(raw) or _raw(value) != raw:
        raise _Unexpected(path.name)
    return value


def _raw(value) -> bytes:
    return SIGNATURE + _encode(value)


def _decode(data: bytes, at: int):
    head = data[at]
    major, info = head >> 5, head & 31
    at += 1
    if info < 24:
        number = info
    elif info in (24, 25, 26, 27):
        size = 1 << (info - 24)
        number = int.from_bytes(data[at:at + size], "big")
        at += size
    else:
        raise _Unexpected("indefinite length or simple value")
    if major == 0:
        return number, at
    if major == 2:
        return bytes(data[at:at + number]), at + number
    if major == 3:
        return data[at:at + number].decode("utf-8"), at + number
    if major == 4:
        items = []
        for _ in range(number):
            item, at = _decode(data, at)
            items.append(item)
        return items, at
    if major == 5:
        mapping = {}
        for _ in range(number):
            key, at = _decode(data, at)
            mapping[key], at = _decode(data, at)
        return mapping, at
    raise _Unexpected(f"CBOR major type {major}")


def _head(major: int, number: int) -> bytes:
    if number < 24:
        return bytes([major << 5 | number])
    for info, size, form in ((24, 1, ">B"), (25, 2, ">H"), (26, 4, ">I"), (27, 8, ">Q")):
        if number < 1 << (8 * size):
            return bytes([major << 5 | info]) + struct.pack(form, number)
    raise _Unexpected("integer too large")


def _encode(value) -> bytes:
    if isinstance(value, bool) or value is None:
        raise _Unexpected("simple value")
    if isinstance(value, int):
        if value < 0:
            raise _Unexpected("negative integer")
        return _head(0, value)
    if isinstance(value, bytes):
        return _head(2, len(value)) + value
    if isinstance(value, str):
        encoded = value.encode("utf-8")
        return _head(3, len(encoded)) + encoded
    if isinstance(value, list):
        return _head(4, len(value)) + b"".join(_encode(item) for item in value)
    if isinstance(value, dict):
        return _head(5, len(value)) + b"".join(_encode(k) + _encode(v) for k, v in value.items())
    raise _Unexpected(type(value).__name__)
