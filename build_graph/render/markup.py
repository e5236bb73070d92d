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

# Python-Markdown's ESCAPED_CHARS with the tables extension enabled.
_MD_SPECIAL = set("\\`*_{}[]()>#+-.!|")


def md_text(text: str | None) -> str:
    if not text:
        return ""
    out = []
    for char in " ".join(str(text).split()):
        if char in _MD_SPECIAL:
            out.append("\\" + char)
        elif char == "&":
            out.append("&amp;")
        elif char == "<":
            out.append("&lt;")
        else:
            out.append(char)
    return "".join(out)


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


def rel(from_page: str, to_page: str) -> str:
    """Relative link between two ``.md`` source paths (MkDocs resolves and validates it)."""
    return posixpath.relpath(to_page, posixpath.dirname(from_page) or ".")


def url_of(src_uri: str) -> str:
    """The directory URL MkDocs gives ``src_uri`` (``papers/x.md`` -> ``papers/x/``)."""
    if src_uri.endswith("index.md"):
        return src_uri[: -len("index.md")]
    return src_uri[: -len(".md")] + "/"


def rel_url(from_page: str, to_page: str) -> str:
    """Relative URL for raw HTML, between the *built* locations of two pages."""
    here = url_of(from_page)
    target = url_of(to_page) if to_page.endswith(".md") else to_page
    out = posixpath.relpath(target, here or ".")
    return out + ("/" if target.endswith("/") and not out.endswith("/") else "")


def safe_href(url: str | None) -> str | None:
    """Only http(s) links leave the site; anything else (javascript:, data:) is dropped."""
    if url and url.lower().startswith(("https://", "http://")):
        return url
    return None
