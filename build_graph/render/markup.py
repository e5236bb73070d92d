"""Putting untrusted text into Markdown and HTML so it shows verbatim and never runs.

Every string that comes from a listing (titles, names, abstracts, venue
strings, comments) goes through exactly one of these functions on its way to
a page:

* ``md_text`` for Markdown context: HTML special characters become entities
  and every character Python-Markdown gives meaning to is backslash-escaped,
  so ``# x``, ``[a](javascript:...)``, ``|``, backticks and ``{: attr}``
  are shown as typed. Newlines become spaces so text can't start a block.
* ``html_text`` / ``html_attr`` for raw HTML blocks (which Markdown leaves
  untouched): standard HTML escaping.
* ``json_attr`` for data handed to scripts in a ``data-*`` attribute: JSON,
  then attribute-escaped, so no ``</script>`` or quote can break out.

MkDocs runs no template engine over page Markdown, so ``{{ }}`` and
``{% %}`` are inert text here; the escaping above keeps them verbatim.
"""

from __future__ import annotations

import html
import json
import posixpath
import re
from functools import lru_cache

# Python-Markdown's ESCAPED_CHARS with the tables extension enabled.
_MD_SPECIAL = set("\\`*_{}[]()>#+-.!|")


_MD_ESCAPE = re.compile("([" + re.escape("".join(sorted(_MD_SPECIAL))) + "])")


@lru_cache(maxsize=65536)
def md_text(text: str | None) -> str:
    """(Cached: names and titles are written on many pages.)"""
    if not text:
        return ""
    # Entities first: neither "&amp;" nor "&lt;" holds a character escaped next.
    text = " ".join(str(text).split()).replace("&", "&amp;").replace("<", "&lt;")
    return _MD_ESCAPE.sub(r"\\\1", text)


def html_text(text: str | None) -> str:
    return html.escape(text or "", quote=False)


def html_attr(text: str | None) -> str:
    return html.escape(text or "", quote=True)


def json_attr(data) -> str:
    return html.escape(json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True),
                       quote=True)


def md_link(text: str, target: str) -> str:
    """A Markdown link whose text is untrusted and whose target we built."""
    return f"[{md_text(text)}]({target})"


def _relpath(target: str, start: str) -> str:
    """``posixpath.relpath`` for the site's relative paths, without the file system.

    ``posixpath.relpath`` makes both paths absolute, asking the OS for the
    working directory each time; pages make about a million links at 10,000
    papers, and that alone took seconds. Same result for paths without ``..``.
    """
    to = [part for part in target.split("/") if part and part != "."]
    here = [part for part in start.split("/") if part and part != "."]
    if ".." in to or ".." in here:
        return posixpath.relpath(target, start)
    same = 0
    while same < len(to) and same < len(here) and to[same] == here[same]:
        same += 1
    return "/".join([".."] * (len(here) - same) + to[same:]) or "."


@lru_cache(maxsize=4096)
def _folder_link(to_folder: str, from_folder: str) -> str:
    return _relpath(to_folder or ".", from_folder or ".")


def rel(from_page: str, to_page: str) -> str:
    """Relative link between two ``.md`` source paths (MkDocs resolves and validates it).

    Worked out once per pair of folders: pages make about 130 links each.
    """
    to_folder, _, name = to_page.rpartition("/")
    if name in ("", ".", ".."):
        return _relpath(to_page, from_page.rpartition("/")[0] or ".")
    prefix = _folder_link(to_folder, from_page.rpartition("/")[0])
    return name if prefix == "." else f"{prefix}/{name}"


def url_of(src_uri: str) -> str:
    """The directory URL MkDocs gives ``src_uri`` (``papers/x.md`` -> ``papers/x/``)."""
    if src_uri.endswith("index.md"):
        return src_uri[: -len("index.md")]
    return src_uri[: -len(".md")] + "/"


def rel_url(from_page: str, to_page: str) -> str:
    """Relative URL for raw HTML, between the *built* locations of two pages."""
    here = url_of(from_page)
    target = url_of(to_page) if to_page.endswith(".md") else to_page
    out = _relpath(target, here or ".")
    return out + ("/" if target.endswith("/") and not out.endswith("/") else "")


def safe_href(url: str | None) -> str | None:
    """Only http(s) links leave the site; anything else (javascript:, data:) is dropped."""
    if url and url.lower().startswith(("https://", "http://")):
        return url
    return None
