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
* ``json_attr_single`` for the same in a single-quoted attribute
  (``data-x='…'``), where JSON's ``"`` need no escaping: much smaller when
  the data is mostly short strings (the local graphs on every entity page).

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


def json_attr_single(data) -> str:
    """``data`` as JSON for an HTML attribute value written in *single* quotes.

    Use it as ``f"<div data-x='{json_attr_single(data)}'>"``, never inside
    double quotes. Why this is safe with untrusted strings in ``data``:

    * a single-quoted attribute value ends only at ``'``, and every ``'`` is
      written ``&#39;``, so nothing in the data can end the value early, start
      another attribute or close the tag (``"`` and ``>`` inside a single-quoted
      value are plain characters; ``>`` is escaped anyway, see below);
    * ``&`` becomes ``&amp;`` first, so text that looks like an entity
      (``&amp;``, ``&lt;``) is not decoded: the browser's decoding of the
      value gives back exactly the JSON text, and the script's ``JSON.parse``
      (of ``getAttribute``, which is already decoded) gives back the strings
      verbatim;
    * ``<`` and ``>`` become ``&lt;``/``&gt;``, so no tag-like text (``</div>``,
      ``<script>``, ``<!--``) appears in the page source for anything that
      scans HTML with regular expressions rather than a parser (Python-Markdown's
      raw-HTML block finder, ``build_graph.fastpages``);
    * ``=`` becomes ``&#61;``: a label ending in `` id=`` would otherwise put
      `` id=","`` in the source, which ``fastpages._ID_ATTR`` (a regular
      expression, unlike MkDocs' HTML parser) would take for an ``id``
      attribute. Labels almost never hold ``=``, so this costs nothing;
    * JSON itself escapes ``"``, ``\\`` and every control character (newlines,
      NUL) inside strings, so the value is one line and HTML's input
      preprocessing (CR/LF, NUL) never changes it.

    Nothing else needs escaping: an HTML parser decodes character references
    in the value and nothing more. Keys are kept in the order given (not
    sorted), so the caller decides how the data reads.
    """
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace("'", "&#39;").replace("=", "&#61;"))


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
