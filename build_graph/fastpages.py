"""Generated pages without Python-Markdown: the build's biggest saving.

Profiling the MkDocs build at 1,000 papers showed Python-Markdown taking half
of it: 4-11 ms for every generated page (a new ``Markdown`` instance, inline
patterns for every link, MkDocs' raw-HTML scan), against 3.7 ms for a whole
minimal page in a plain mkdocs-material build. The generated pages use a small,
fixed part of Markdown, so this module converts exactly that part itself, in
one pass of string operations, producing the HTML Python-Markdown produces
(``tests/test_bench.py`` compares the two on every generated page).

It is a fast path, never a second dialect:

* only pages the hook generated are tried, and only with the Markdown
  extensions and ``toc`` options of this project's ``mkdocs.yml``;
* anything outside the subset (fenced code, ordered or loose lists, images,
  emphasis it cannot pair, a link it cannot resolve...) makes ``convert``
  return ``None`` and the page goes through MkDocs' own Markdown as before, so
  notes written by people, and any construct a renderer adds later, still
  render correctly, only slower;
* internal links are resolved and validated the way MkDocs does it: a link to
  a missing page falls back to MkDocs, which reports it (and fails ``--strict``);
* ``ATLAS_FAST_PAGES=0`` in the environment turns it off, to compare.

The subset: ATX headings (with ``{#id .class key=value}``), paragraphs, tight
``-`` lists (nested by four spaces, lazy continuation lines), ``!!! type
"Title"`` admonitions, pipe tables, raw HTML blocks (``<div markdown>`` with
Markdown inside), and inline escapes, entities, ``**strong**``, ``*em*``,
`` `code` ``, ``[links](target)``, ``<autolinks>``, inline HTML and hard line
breaks.
"""

from __future__ import annotations

import html
import logging
import os
import posixpath
import re
import time
from dataclasses import dataclass, field
from functools import lru_cache, partial
from urllib.parse import urlsplit

from markdown.extensions.toc import nest_toc_tokens, slugify, unique
from markdown.serializers import _escape_attrib, _escape_cdata

log = logging.getLogger("mkdocs.hooks.atlas")

KNOWN_EXTENSIONS = {"toc", "tables", "fenced_code", "attr_list", "md_in_html", "admonition",
                    "pymdownx.details", "pymdownx.superfences"}
TOC_OPTIONS = {"permalink", "permalink_title", "permalink_class"}
ESCAPABLE = set("\\`*_{}[]()>#+-.!|")
BLOCK_TAGS = {"address", "article", "aside", "blockquote", "details", "div", "dl", "fieldset",
              "figcaption", "figure", "footer", "form", "header", "hgroup", "hr", "main", "nav",
              "ol", "p", "pre", "section", "table", "ul", "script", "style", "summary", "canvas",
              "noscript", "video", "iframe", "math", "svg", "h1", "h2", "h3", "h4", "h5", "h6"}

_HEADING = re.compile(r"^(#{1,6})[ \t]+(.*?)[ \t]*$")
_HEADING_ATTRS = re.compile(r"[ \t]*\{:?[ \t]*([^}\n]+?)[ \t]*\}[ \t]*$")
_ITEM = re.compile(r"^((?:    )*)- (.*)$")
_ADMONITION = re.compile(r'^!!! ([a-z]+)(?: "([A-Za-z0-9 ,.\'-]*)")?$')
_HTML_START = re.compile(r"^<([a-zA-Z][a-zA-Z0-9]*)(?=[\s>/])")
_ENTITY = re.compile(r"&(?:#[0-9]+|#[xX][0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*);")
_INLINE_TAG = re.compile(r"</?[a-zA-Z][a-zA-Z0-9-]*(?:\s+[a-zA-Z_:][-a-zA-Z0-9_:.]*"
                         r"(?:\s*=\s*(?:\"[^\"]*\"|'[^']*'|[^\s\"'=<>`]+))?)*\s*/?>")
_AUTOLINK = re.compile(r"<(https?://[^>\s]+)>")
_ID_ATTR = re.compile(r"""\s(?:id|name)=["']([^"']+)["']""")
_ATTR_TOKEN = re.compile(r"""([#.]?[\w:-]+)(?:=("[^"]*"|'[^']*'|[^\s}]+))?""")
_QUOTED = re.compile(r""""[^"]*"|'[^']*'""")       # attribute values, to look past them
_MARKDOWN_ATTR = re.compile(r"\smarkdown(?=[\s=/]|$)")
_RAW_HEADING = re.compile(r"<h[1-6][^>]*\sid=", re.IGNORECASE)
_REJECT_LINE = re.compile(r"^\s*(?:```|~~~|\?\?\?|\d+\.\s|\*\s|\+\s|>|=+\s*$|-{3,}\s*$|\t)")


class Unsupported(Exception):
    """The text uses Markdown outside the subset: let MkDocs render it."""


@dataclass
class Rendered:
    html: str
    toc_tokens: list
    title: str | None
    anchors: set[str]
    links_to_anchors: dict = field(default_factory=dict)
    search_html: str | None = None      # ``html`` without its search-excluded sections


class Converter:
    """Markdown subset -> HTML for one page; ``resolve(url)`` rewrites link targets."""

    def __init__(self, resolve, permalink: str = "&para;", permalink_title: str = "Permanent link",
                 permalink_class: str = "headerlink", links: dict | None = None,
                 page_uri: str | None = None):
        self.resolve = resolve
        # Link HTML by Markdown source, shared by pages whose URLs sit at the same
        # place (same folder, same depth): a link gives them the same HTML unless
        # it points at the page itself, which is why the target is kept too.
        self.links = links
        self.page_uri = page_uri
        self.targets: set | None = None     # pages linked from the text being converted
        self.self_link = False
        self.permalink = permalink
        self.permalink_title = permalink_title
        self.permalink_class = permalink_class
        self.headings: list[dict] = []
        self.ids: set[str] = set()          # ids of elements Python-Markdown's tree would hold
        self.raw_ids: set[str] = set()      # ids inside raw HTML (MkDocs scans those too)
        self.counters: dict[str, int] = {}

    # ------------------------------------------------------------------ blocks

    def convert(self, text: str) -> Rendered:
        lines = text.replace("\r\n", "\n").split("\n")
        for line in lines:
            if _REJECT_LINE.match(line):
                raise Unsupported(line)
        parts = self.blocks(lines)
        top = self.headings[0] if parts and self.headings and parts[0] == self.headings[0]["marker"] else None
        # Headings get ids after the whole tree exists (the toc extension runs
        # last and avoids ids already used by other elements).
        out = "\n".join(parts)
        searched = self.search_view(parts)
        for heading in self.headings:
            if heading["id"] is None:
                heading["id"] = unique(slugify(html.unescape(heading["name"]), "-"),
                                       self.ids, self.counters)
            anchor = (f'<a class="{self.permalink_class}" href="#{heading["id"]}" '
                      f'title="{self.permalink_title}">{self.permalink}</a>')
            attrs = "".join(f" {k}" if v is None else f' {k}="{_escape_attrib(v)}"'
                            for k, v in heading["attrs"])
            tag = (f'<h{heading["level"]}{attrs} id="{_escape_attrib(heading["id"])}">'
                   f'{heading["html"]}{anchor}</h{heading["level"]}>')
            out = out.replace(heading["marker"], tag, 1)
            if searched is not None:
                searched = searched.replace(heading["marker"], tag, 1)
        tokens = nest_toc_tokens([{"level": h["level"], "id": h["id"], "name": h["name"],
                                   "html": h["html"], "data-toc-label": ""} for h in self.headings])
        title = top["name"] if top and top["level"] == 1 else None
        return Rendered(out, tokens, title, self.ids | self.raw_ids, search_html=searched)

    def search_view(self, parts: list[str]) -> str | None:
        """The page without its ``data-search-exclude`` sections: what search indexes.

        mkdocs-material's indexer skips such a section (from its heading to the
        next heading with an id) but still feeds every tag of it through a
        pure-Python ``HTMLParser``: on a paper page 85% of the parsing time,
        for text that never reaches the index. Handing the indexer this view
        gives the same index entries (``tests/test_bench.py`` checks it on
        every generated page). ``None`` when a dropped block holds a heading
        of its own, where the indexer would start a new section.
        """
        kept, dropping = [], False
        for part in parts:
            heading = self._marker_heading(part)
            if heading is not None:
                dropping = any(key == "data-search-exclude" for key, _ in heading["attrs"])
            elif dropping and ("\x02H" in part or _RAW_HEADING.search(part)):
                return None
            if not dropping:
                kept.append(part)
        return "\n".join(kept) if len(kept) < len(parts) else None

    def _marker_heading(self, part: str) -> dict | None:
        if part.startswith("\x02H") and part.endswith("\x03"):
            return self.headings[int(part[2:-1])]
        return None

    def blocks(self, lines: list[str]) -> list[str]:
        out: list[str] = []
        i, n = 0, len(lines)
        while i < n:
            line = lines[i]
            if not line.strip():
                i += 1
                continue
            if line.startswith("#"):
                out.append(self.heading(line))
                i += 1
            elif line.startswith("!!! "):
                i = self.admonition(lines, i, out)
            elif _HTML_START.match(line) and _HTML_START.match(line).group(1).lower() in BLOCK_TAGS:
                i = self.raw_html(lines, i, out)
            elif _ITEM.match(line):
                i = self.list_block(lines, i, out)
            elif line.startswith("|"):
                i = self.table(lines, i, out)
            elif line.startswith(" "):
                raise Unsupported("indented block")
            else:
                i = self.paragraph(lines, i, out)
        return out

    def heading(self, line: str) -> str:
        match = _HEADING.match(line)
        if not match:
            raise Unsupported(line)
        level, text = len(match.group(1)), match.group(2)
        attrs: list[tuple[str, str | None]] = []
        ident = None
        found = _HEADING_ATTRS.search(text)
        if found:
            text = text[:found.start()]
            for token, value in _ATTR_TOKEN.findall(found.group(1)):
                if value and value[0] in "\"'":
                    value = value[1:-1]
                if token.startswith("#"):
                    ident = token[1:]
                elif token.startswith("."):
                    raise Unsupported("class in heading attributes")
                else:
                    attrs.append((token, value or None))
            if "{" in text or "}" in text.replace("\\{", "").replace("\\}", ""):
                raise Unsupported(line)
        text = text.rstrip("#").rstrip()
        inner = self.inline(text)
        if ident is not None:
            self.ids.add(ident)
        marker = f"\x02H{len(self.headings)}\x03"
        self.headings.append({"level": level, "id": ident, "html": inner, "attrs": attrs,
                              "name": _strip_tags(inner), "marker": marker})
        return marker

    def paragraph(self, lines: list[str], i: int, out: list[str]) -> int:
        start = i
        while i < len(lines) and lines[i].strip():
            if i > start and (lines[i].startswith(("#", "- ", "|", "!!!", "<", "    "))):
                raise Unsupported("block inside a paragraph")
            i += 1
        text = "\n".join(lines[start:i]).strip()
        out.append(f"<p>{self.inline(text)}</p>")
        return i

    def admonition(self, lines: list[str], i: int, out: list[str]) -> int:
        match = _ADMONITION.match(lines[i])
        if not match:
            raise Unsupported(lines[i])
        kind, title = match.group(1), match.group(2)
        i += 1
        body: list[str] = []
        while i < len(lines) and (lines[i].startswith("    ") or not lines[i].strip()):
            body.append(lines[i][4:])
            i += 1
        while body and not body[-1].strip():
            body.pop()
        if not body:
            raise Unsupported("empty admonition")
        title = kind.capitalize() if title is None else title
        inner = self.blocks(body)
        head = f'<p class="admonition-title">{_escape_cdata(title)}</p>\n' if title else ""
        out.append(f'<div class="admonition {kind}">\n{head}' + "\n".join(inner) + "\n</div>")
        return i

    def raw_html(self, lines: list[str], i: int, out: list[str]) -> int:
        tag = _HTML_START.match(lines[i]).group(1).lower()
        first = lines[i]
        if first.rstrip().endswith(" markdown>") and tag == "div":
            return self.markdown_div(lines, i, out)
        opener, closer, ending = _tag_patterns(tag)
        depth = 0
        start = i
        while i < len(lines):
            line = lines[i]
            if i > start and not line.strip() and depth > 0 and tag != "pre":
                raise Unsupported("blank line inside raw HTML")
            depth += len(opener.findall(line)) - len(closer.findall(line))
            i += 1
            if depth <= 0:
                if not ending.search(line):
                    raise Unsupported("text after raw HTML")
                break
        else:
            raise Unsupported("unclosed raw HTML")
        raw = "\n".join(lines[start:i])
        if _MARKDOWN_ATTR.search(_QUOTED.sub("", raw.split(">", 1)[0])) or "<!--" in raw:
            raise Unsupported("markdown attribute or comment in raw HTML")
        self.raw_ids.update(_ID_ATTR.findall(raw))
        out.append(raw)
        return i

    def markdown_div(self, lines: list[str], i: int, out: list[str]) -> int:
        head = lines[i].rstrip()
        start = i + 1
        i = start
        while i < len(lines) and lines[i].strip() != "</div>":
            if "<div" in lines[i] or "</div" in lines[i]:
                raise Unsupported("nested div in markdown div")
            i += 1
        if i == len(lines):
            raise Unsupported("unclosed markdown div")
        attrs = head[len("<div"):-len(" markdown>")]
        for name, value in re.findall(r'\s([a-zA-Z-]+)="([^"]*)"', attrs):
            if name == "id":
                self.ids.add(html.unescape(value))
        if re.sub(r'\s[a-zA-Z-]+="[^"]*"', "", attrs).strip():
            raise Unsupported("unquoted attributes in markdown div")
        inner = self.blocks(lines[start:i])
        out.append(f"<div{attrs}>\n" + "\n".join(inner) + "\n</div>")
        return i + 1

    def list_block(self, lines: list[str], i: int, out: list[str]) -> int:
        items: list[tuple[int, list[str]]] = []      # (depth, text lines)
        while i < len(lines) and lines[i].strip():
            line = lines[i]
            match = _ITEM.match(line)
            if match:
                depth = len(match.group(1)) // 4
                if depth > (items[-1][0] + 1 if items else 0):
                    raise Unsupported("list skips a level")
                items.append((depth, [match.group(2)]))
            elif line.startswith(" ") and not line.startswith("    ") and items:
                items[-1][1].append(line)               # lazy continuation, kept verbatim
            else:
                raise Unsupported("unexpected line in list")
            i += 1
        j = i
        while j < len(lines) and not lines[j].strip():
            j += 1
        if j < len(lines) and (_ITEM.match(lines[j]) or lines[j].startswith("    ")):
            raise Unsupported("loose list")
        out.append(self.render_items(items, 0)[0])
        return i

    def render_items(self, items, pos: int) -> tuple[str, int]:
        depth = items[pos][0]
        parts = ["<ul>"]
        while pos < len(items) and items[pos][0] == depth:
            text = self.cached_inline("\n".join(items[pos][1]).strip())
            pos += 1
            if pos < len(items) and items[pos][0] > depth:
                nested, pos = self.render_items(items, pos)
                parts.append(f"<li>{text}{nested}\n</li>")
            else:
                parts.append(f"<li>{text}</li>")
        parts.append("</ul>")
        return "\n".join(parts), pos

    def table(self, lines: list[str], i: int, out: list[str]) -> int:
        start = i
        while i < len(lines) and lines[i].startswith("|"):
            i += 1
        rows = [_cells(line) for line in lines[start:i]]
        if len(rows) < 2 or i < len(lines) and lines[i].strip():
            raise Unsupported("table shape")
        header, separator, body = rows[0], rows[1], rows[2:]
        aligns = []
        for cell in separator:
            if not re.fullmatch(r":?-+:?", cell):
                raise Unsupported("table separator")
            left, right = cell.startswith(":"), cell.endswith(":")
            aligns.append("center" if left and right else "left" if left else "right" if right else None)
        if len(header) != len(aligns) or any(len(row) != len(aligns) for row in body):
            raise Unsupported("ragged table")

        def row(cells, tag):
            tds = []
            for cell, align in zip(cells, aligns):
                style = f' style="text-align: {align};"' if align else ""
                tds.append(f"<{tag}{style}>{self.cached_inline(cell)}</{tag}>")
            return "<tr>\n" + "\n".join(tds) + "\n</tr>"

        parts = ["<table>", "<thead>", row(header, "th"), "</thead>", "<tbody>"]
        parts += [row(cells, "td") for cells in body]
        parts += ["</tbody>", "</table>"]
        out.append("\n".join(parts))
        return i

    # ------------------------------------------------------------------ inline

    def cached_inline(self, text: str) -> str:
        """``inline`` for list items and table cells, which repeat across pages (a
        paper's line is on each of its authors' pages): cached like links, with
        the pages they link to, so that a page never reuses a line linking itself."""
        if self.links is None or "#" in text or "<" in text or len(text) > 1000:
            return self.inline(text)
        key = ("inline", text)
        hit = self.links.get(key)
        if hit is not None and self.page_uri not in hit[1]:
            return hit[0]
        self.targets, self.self_link = set(), False
        out = self.inline(text)
        if not self.self_link:
            self.links[key] = (out, frozenset(self.targets))
        self.targets = None
        return out

    def inline(self, text: str) -> str:
        if not _SPECIAL.search(text):               # most link labels and abstracts
            return text
        if _SIMPLE.fullmatch(text) and "\x00" not in text:
            return _ESCAPE.sub(_unescape, text.replace("\\\\", "\x00")).replace("\x00", "\\")
        out: list[str] = []
        append = out.append
        for match in _INLINE.finditer(text):
            kind = match.lastgroup
            if kind == "text":
                append(match.group())
            elif kind == "esc":
                append(_ESCAPED[match.group()[1]])
            elif kind == "link":
                raw = match.group()
                cached = self.links.get(raw) if self.links is not None else None
                if cached is not None and cached[1] != self.page_uri:
                    append(cached[0])
                    if self.targets is not None:
                        self.targets.add(cached[1])
                    continue
                target = match.group("t1")
                if target is None:
                    target = match.group("t2")
                if not target:
                    raise Unsupported("link target")
                href = self.resolve(target)
                if href is None:
                    raise Unsupported("unresolved link")
                label = match.group("label")
                link = f'<a href="{_escape_attrib(href)}">{self.inline(label)}</a>'
                last = getattr(self.resolve, "last_target", None)
                if last is not None and last == self.page_uri:
                    self.self_link = True           # "./": right for this page only
                elif self.links is not None and "#" not in target and "<" not in label:
                    self.links[raw] = (link, last)
                if self.targets is not None:
                    self.targets.add(last)
                append(link)
            elif kind == "entity":
                append(match.group())
            elif kind == "code":
                code = match.group()[1:-1].strip()
                append("<code>" + code.replace("&", "&amp;").replace("<", "&lt;")
                       .replace(">", "&gt;") + "</code>")
            elif kind == "strong":
                append(f"<strong>{self.inline(match.group('strong_in'))}</strong>")
            elif kind == "em":
                append(f"<em>{self.inline(match.group('em_in'))}</em>")
            elif kind == "br":
                append("<br />\n")
            elif kind == "auto":
                url = match.group()[1:-1]
                append(f'<a href="{_escape_attrib(url)}">{_escape_cdata(url)}</a>')
            elif kind == "tag":
                tag = match.group()
                if " id=" in tag or " name=" in tag:
                    self.raw_ids.update(_ID_ATTR.findall(tag))
                append(tag)
            else:                                   # a special character on its own
                c = match.group()
                start = match.start()
                if c[0] == " ":
                    append(c)
                elif c == "<":
                    if text.startswith("<!--", start):
                        raise Unsupported("comment")
                    append("&lt;")
                elif c == ">":
                    append("&gt;")
                elif c == "&":
                    append("&amp;")
                elif c == "\\":
                    append("\\")
                elif c == "!":
                    append("!")                     # "![" is rejected by the pattern below
                elif c == "_":
                    before = text[start - 1] if start else " "
                    after = text[start + 1:start + 2] or " "
                    if not (before.isalnum() and after.isalnum()):
                        raise Unsupported("underscore")
                    append("_")
                elif c == "\n":
                    append("\n")
                else:                               # * ` [ ] { } ![ not part of anything above
                    raise Unsupported(repr(c))
        return "".join(out)


_ESCAPED = {c: _escape_cdata(c) for c in ESCAPABLE}
_SPECIAL = re.compile(r"[\\`*_\[\]<>&!{}\n]|  ")
_SIMPLE = re.compile(r"(?:[^\\`*_\[\]<>&!{}\n]|\\[\\`*_{}\[\]()>#+\-.!|]"
                     r"|&(?:#[0-9]+|#[xX][0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*);)*")
_ESCAPE = re.compile(r"\\([`*_{}\[\]()>#+\-.!|])")


def _unescape(match: re.Match) -> str:
    return _ESCAPED[match.group(1)]


_INLINE = re.compile(r"""
    (?P<text>(?:[^\\`*_\[\]<>&!{}\n ]|[ ](?![ ]*\n))+)
  | (?P<esc>\\[\\`*_{}\[\]()>\#+\-.!|])
  | (?P<link>\[(?P<label>(?:\\.|[^\\\[\]])*)\]
        \((?:<(?P<t1>[^<>\s()"'\\]*)>|(?P<t2>[^\s()<>"'\\]+))\))
  | (?P<entity>&(?:\#[0-9]+|\#[xX][0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*);)
  | (?P<code>`[^`\n]+`)
  | (?P<strong>\*\*(?P<strong_in>[^\s*](?:[^*\n]*[^\s*])?)\*\*(?!\*))
  | (?P<em>\*(?P<em_in>[^\s*](?:[^*\n]*[^\s*])?)\*(?!\*))
  | (?P<br>[ ]{2,}\n)
  | (?P<auto><https?://[^>\s]+>)
  | (?P<tag></?[a-zA-Z][a-zA-Z0-9-]*(?:\s+[a-zA-Z_:][-a-zA-Z0-9_:.]*
        (?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*\s*/?>)
  | (?P<image>!\[)
  | (?P<special>[ ]+|[\\`*_\[\]<>&!{}\n])
""", re.VERBOSE)


@lru_cache(maxsize=None)
def _tag_patterns(tag: str) -> tuple[re.Pattern, re.Pattern, re.Pattern]:
    """Opening tags, closing tags, and a line that ends the element, for one tag name."""
    return (re.compile(rf"<{tag}(?=[\s>/])", re.IGNORECASE), re.compile(rf"</{tag}\s*>", re.IGNORECASE),
            re.compile(rf"</{tag}\s*>\s*$|/>\s*$", re.IGNORECASE))


def _cells(line: str) -> list[str]:
    body = line.strip()
    if not body.startswith("|") or not body.endswith("|") or body.endswith("\\|"):
        raise Unsupported("table row")
    cells, current, i = [], [], 1
    in_code = False
    while i < len(body) - 1:
        c = body[i]
        if c == "\\" and i + 1 < len(body) - 1:
            current.append(body[i:i + 2])
            i += 2
            continue
        if c == "`":
            in_code = not in_code
        if c == "|" and not in_code:
            cells.append("".join(current).strip())
            current = []
        else:
            current.append(c)
        i += 1
    cells.append("".join(current).strip())
    return cells


def _strip_tags(text: str) -> str:
    """MkDocs' ``_strip_tags``: drop tags, keep entities, collapse whitespace."""
    while (start := text.find("<")) != -1 and (end := text.find(">", start)) != -1:
        text = text[:start] + text[end + 1:]
    return " ".join(text.split())


# ------------------------------------------------------------------ MkDocs side

def fast_path_options(config) -> dict | None:
    """Converter options if this config's Markdown is the subset's, else ``None``."""
    names = []
    for ext in config.markdown_extensions:
        if not isinstance(ext, str):
            return None
        names.append(ext)
    if not set(names) <= KNOWN_EXTENSIONS or "toc" not in names:
        return None
    toc = dict((config.mdx_configs or {}).get("toc") or {})
    if not set(toc) <= TOC_OPTIONS or not toc.get("permalink"):
        return None
    permalink = toc["permalink"]
    return {"permalink": "&para;" if permalink is True else str(permalink),
            "permalink_title": toc.get("permalink_title", "Permanent link"),
            "permalink_class": toc.get("permalink_class", "headerlink")}


_MISSING = object()


def _resolver(page, files, anchors: dict, cache: dict | None = None):
    """MkDocs' link rewriting (``_RelativePathTreeprocessor.path_to_url``) for plain cases.

    ``cache`` (one per build) remembers targets per folder and split URLs, which
    most of a build's 150 links per page share.
    """
    cache = {} if cache is None else cache
    targets = cache.setdefault("targets", {})
    split_urls = cache.setdefault("parts", {})
    folder = posixpath.dirname(page.file.src_uri)
    here = page.file.url
    head, tail = posixpath.split(here)
    start = [part for part in (head if "." in tail else here).split("/") if part]
    plain_start = "." not in start and ".." not in start
    by_uri = files.src_uris

    def resolve(url: str) -> str | None:
        resolve.last_target = None              # external and same-page links: no page
        if "/" in url[:1] or "\\" in url or "%" in url or "?" in url:
            return None                             # absolute, quoted or query: MkDocs decides
        path, _, fragment = url.partition("#")
        if ":" in path:
            scheme, netloc = urlsplit(url)[:2]
            if scheme or netloc:
                return url                          # external
            return None
        if not path:
            if fragment:
                anchors.setdefault(page.file, {}).setdefault(fragment, url)
            return url
        key = (folder, path)
        target = targets.get(key, _MISSING)
        if target is _MISSING:
            target = targets[key] = by_uri.get(_join(folder, path))
        if target is None or target.inclusion.is_excluded():
            return None                             # MkDocs reports it, or knows better
        if fragment:
            anchors.setdefault(target, {}).setdefault(fragment, url)
        resolve.last_target = target.src_uri
        to = split_urls.get(target.url)
        if to is None:
            to = split_urls[target.url] = [part for part in target.url.split("/") if part]
        if not plain_start or "." in to or ".." in to:
            rel = _relative_url(target.url, here)
        else:
            same = 0
            while same < len(to) and same < len(start) and to[same] == start[same]:
                same += 1
            rel = "/".join([".."] * (len(start) - same) + to[same:]) or "."
            if target.url.endswith("/"):
                rel += "/"
        return f"{rel}#{fragment}" if fragment else rel

    return resolve


def _join(folder: str, path: str) -> str:
    """``posixpath.normpath(posixpath.join(folder, path))`` for a relative link."""
    parts = folder.split("/") if folder else []
    for part in path.split("/"):
        if part == "..":
            if parts:
                parts.pop()
            else:
                return posixpath.normpath(posixpath.join(folder, path))
        elif part and part != ".":
            parts.append(part)
    return "/".join(parts) or "."


def _relative_url(url: str, other: str) -> str:
    """``mkdocs.utils.get_relative_url``, for the links the fast path cannot shortcut."""
    from mkdocs.utils import get_relative_url
    return get_relative_url(url, other)


def _walk(tokens):
    for token in tokens:
        yield token
        yield from _walk(token["children"])


def _render(page, result: Rendered, config, files) -> None:
    from mkdocs.structure.toc import get_toc
    page.content = result.html
    page.toc = get_toc(result.toc_tokens)
    page._title_from_render = result.title
    page.present_anchor_ids = set(result.anchors)
    page.links_to_anchors = result.links_to_anchors
    page.atlas_search_html = result.search_html


def supported() -> bool:
    """Does this MkDocs render pages the way ``_render`` replaces?"""
    try:
        from mkdocs.structure.pages import Page
    except ImportError:                             # pragma: no cover
        return False
    return all(hasattr(Page, name) for name in ("render", "present_anchor_ids", "links_to_anchors")) \
        and "_title_from_render" in Page.__init__.__code__.co_names


INSTANCES: list = []                    # for the benchmark's in-build measurement


class FastPages:
    """The hook's helper: ``on_page_markdown`` swaps in the fast render when it can."""

    def __init__(self):
        self.enabled = supported() and os.environ.get("ATLAS_FAST_PAGES", "1") != "0"
        self.fast = 0                   # pages converted here
        self.fallback = 0               # pages left to MkDocs' Markdown
        self.seconds = 0.0              # time spent converting (the benchmark reports it)
        self.cpu_seconds = 0.0
        self._cache: dict = {}
        self._files = None
        # Across builds (``mkdocs serve``): each page's result by its Markdown,
        # kept while the site has the same pages; see ``convert_page``.
        self._previous: dict[str, tuple[str, Rendered]] = {}
        self._current: dict[str, tuple[str, Rendered]] = {}
        self._site_key: tuple | None = None
        self.reused = 0
        # Only ``mkdocs serve`` builds again; a one-off build holding every
        # result for a next build that never comes only slows the GC.
        self.keep_between_builds = False
        INSTANCES.append(self)

    def on_page_markdown(self, markdown: str, page, config, files) -> str:
        if not self.enabled or page.file.generated_by is None:
            return markdown
        start, cpu = time.perf_counter(), time.process_time()
        try:
            return self._try(markdown, page, config, files)
        finally:
            self.seconds += time.perf_counter() - start
            self.cpu_seconds += time.process_time() - cpu

    def _try(self, markdown: str, page, config, files) -> str:
        result = self.convert_page(markdown, page, config, files)
        if result is None:
            self.fallback += 1
            return markdown
        self.fast += 1
        page.render = partial(_render, page, result)    # instance attribute: this page only
        return markdown

    # The search plugin indexes ``page.content`` in ``on_page_context``; the hook
    # calls ``show_search_view`` before it and ``show_whole_page`` after it.
    @staticmethod
    def show_search_view(page) -> None:
        view = getattr(page, "atlas_search_html", None)
        if view is not None and page.content is not None:
            page.atlas_whole_html, page.content = page.content, view

    @staticmethod
    def show_whole_page(page) -> None:
        whole = getattr(page, "atlas_whole_html", None)
        if whole is not None:
            page.content, page.atlas_whole_html = whole, None

    def convert_page(self, markdown: str, page, config, files) -> Rendered | None:
        """The page's HTML, table of contents, title and anchors, or ``None``."""
        options = fast_path_options(config)
        if options is None:
            return None
        if files is not self._files:                # a new build: forget the last one's files
            self._new_build(files, options)
        kept = self._previous.get(page.file.src_uri)
        if kept is not None and kept[0] == markdown:
            self.reused += 1
            self._current[page.file.src_uri] = kept
            return _with_files(kept[1], files)
        result = self._convert(markdown, page, files, options)
        if result is not None and self.keep_between_builds:
            # The Markdown itself is the key: MkDocs keeps it in memory for the
            # whole build anyway, and comparing it costs less than hashing it.
            self._current[page.file.src_uri] = (markdown, _portable(result))
        return result

    def _new_build(self, files, options: dict) -> None:
        """A page's HTML depends on its Markdown, its place and the pages that
        exist (links resolve against them), nothing else: a rebuild where only
        some listings changed reuses every page whose Markdown is unchanged,
        as long as the set of pages is the same."""
        self._files, self._cache = files, {}
        site_key = (tuple(sorted(options.items())),
                    tuple(sorted((f.src_uri, f.url, f.inclusion.value) for f in files)))
        self._previous = self._current if site_key == self._site_key else {}
        self._current, self._site_key = {}, site_key

    def _convert(self, markdown: str, page, files, options: dict) -> Rendered | None:
        anchors: dict = {}
        scope = ("links", posixpath.dirname(page.file.src_uri), page.file.url.count("/"))
        try:
            result = Converter(_resolver(page, files, anchors, self._cache), **options,
                               links=self._cache.setdefault(scope, {}),
                               page_uri=page.file.src_uri).convert(markdown)
        except Unsupported as why:
            log.debug("MLSys Atlas: %s rendered by MkDocs' Markdown (%s)", page.file.src_uri, why)
            return None
        for token in _walk(result.toc_tokens):   # MkDocs counts the permalinks as links too
            anchors.setdefault(page.file, {}).setdefault(token["id"], "#" + token["id"])
        result.links_to_anchors = anchors
        return result


def _portable(result: Rendered) -> Rendered:
    """The result with its anchor links keyed by page path, not by this build's
    ``File`` (which would keep the whole previous build alive)."""
    links = {target.src_uri: found for target, found in result.links_to_anchors.items()}
    return Rendered(result.html, result.toc_tokens, result.title, result.anchors, links, result.search_html)


def _with_files(kept: Rendered, files) -> Rendered:
    links = {files.get_file_from_path(uri): dict(found) for uri, found in kept.links_to_anchors.items()}
    return Rendered(kept.html, kept.toc_tokens, kept.title, set(kept.anchors), links, kept.search_html)


def convert(markdown: str, resolve=lambda url: url, **options) -> Rendered | None:
    """Convert outside MkDocs (tests, tools); ``None`` when outside the subset."""
    try:
        return Converter(resolve, **options).convert(markdown)
    except Unsupported:
        return None
