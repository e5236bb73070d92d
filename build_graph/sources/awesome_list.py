"""Awesome lists: a GitHub README of papers, one list item each, under topic headings.

Sample input::

    # Awesome System for Machine Learning
    ## 2. Training System
    ### 2.3 GPU sharing
    - [OSDI'20] [AntMan: Dynamic Scaling on GPU Clusters for Deep Learning](https://www.usenix.org/...)
    - [NSDI 2023] Transparent GPU Sharing in Container Clouds for Deep Learning Workloads [[paper]](https://arxiv.org/abs/2302.00001) [[code]](https://github.com/...)
    **Inference**
    - [ES-FoMo @ ICML'24, Oral] [A Workshop Paper](https://openreview.net/forum?id=...)
    - [arxiv'24] [A Preprint](https://arxiv.org/abs/2401.00001) (also in §2.1)
    - [Zeus: Understanding and Optimizing GPU Energy Consumption of DNN Training](https://github.com/...) NSDI'23

The Markdown structure (headings, nested lists, emphasis, links) is read with
markdown-it-py, a CommonMark parser, so the many ways people write the same
list (``*`` or ``-``, nesting, bold sub-headers, links around titles or
beside them) all come out as the same tree. Within one item:

* **venue tag**: ``[Venue'YY]``, ``[Venue YYYY]`` before the title, or the same
  without brackets after it (``... NSDI'23``). Words after the year
  (``Spotlight``, ``Oral``, ``poster``) are annotations, not venue.
  ``arxiv'24`` is an arXiv preprint of 2024; ``ES-FoMo @ ICML'24`` names a
  workshop and its host. The venue is kept as written; the normaliser maps
  it through ``data/venues.yaml`` and reports what it does not know.
* **title**: the text before the first link when there is some, else the
  first link's text; resource links (``[paper]``, ``[code]``, ``[pdf]``) are never titles.
* **ids**: arxiv.org links give the arXiv id, DOI links the DOI; other links
  are kept as the paper's links.
* **headings**: every heading above the item (``#`` levels, a paragraph that is
  only bold text, a list item that only labels a nested list) is recorded,
  outermost first, so ``headings.yaml`` can turn them into techniques.
  An item that says it is "also in §2.1" (or "see also 2.1") is filed under
  the heading numbered 2.1 too; entries listed twice merge into one paper.
  A single top-level ``#`` heading is the list's own name, not a topic.

Every list item is detected. An item with neither a venue tag nor a link to
something other than this document (a table of contents, "Contributing"
instructions) is skipped with that reason. Table rows are not read; a
finding counts them.

Recognised from content only: Markdown headings plus list items that start
with a venue tag or a link.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from markdown_it import MarkdownIt

from ..errors import Finding
from ..model import ParsedListing, Provenance, RawEntry, Skip
from .links import arxiv_id, doi_of
from .text import tidy

NAME = "awesome-list"
SUMMARY = "Markdown list of papers under headings: - [OSDI'23] [Title](link)"

_MD = MarkdownIt("commonmark").enable("table")
_HEADING_LINE = re.compile(r"^#{1,6}\s+\S", re.MULTILINE)
_ITEM_LINE = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+(.*)$", re.MULTILINE)
_TAG_BODY = (r"(?P<venue>[A-Za-z][^\[\]()]*?)\s*(?:['’‘`](?P<yy>\d{2})|\s(?P<yyyy>(?:19|20)\d{2}))"
             r"(?P<note>(?![\d])[^\[\]]*)")
_LEADING_TAG = re.compile(r"^\s*[\[(【]\s*" + _TAG_BODY + r"\s*[\])】]\s*[:\-–|]?\s*")
_TRAILING_TAG = re.compile(r"(?:^|[\s(\[,])(?P<venue>[A-Za-z][\w\-.]{1,24}(?:\s?@\s?[A-Za-z][\w\-.]{1,24})?)"
                           r"\s?(?:['’](?P<yy>\d{2})|\s(?P<yyyy>(?:19|20)\d{2}))(?=[\s)\],.;]|$)")
_TAG_CLOSING_TITLE = re.compile(r"[\s(\[,]+(?P<venue>[A-Za-z][\w\-.]{1,24})['’](?P<yy>\d{2})(?P<yyyy>)"
                                r"[)\]]?\s*$")
_BRACKET = re.compile(r"^\s*\[([^\[\]]{1,60})\]\s*[:\-–|]?\s*")
_ALSO_IN = re.compile(r"[(\[]?\s*\b(?:also|see also|cross-listed)\s+(?:in|under|listed\s+(?:in|under))\s+"
                      r"[^()\[\]]{1,60}?[)\]]?\s*$", re.IGNORECASE)
_ARXIV_TEXT = re.compile(r"\barxiv:\s?(\d{4}\.\d{4,5})", re.IGNORECASE)
_RESOURCE = re.compile(r"^\W*(?:paper|pdf|code|github|arxiv|project|page|homepage|blog|slides?|"
                       r"video|talk|poster|website|link|doi|openreview|demo|bib|bibtex|"
                       r"dataset|data|model|weights|docs?|html|abs|acm|ieee|usenix)\W*$",
                       re.IGNORECASE)
_PREPRINT = re.compile(r"^arxiv(?:\s+preprint)?$", re.IGNORECASE)
_NUMBERING = re.compile(r"^\s*(?:\d+(?:\.\d+)*\.?|[IVX]+\.|[A-Z]\.)\s+")


def sniff(text: str) -> float:
    items = _ITEM_LINE.findall(text)
    papers = sum(1 for item in items if _LEADING_TAG.match(item) or "](" in item)
    if papers < 2 or papers * 3 < len(items):
        return 0.0
    return 0.9 if _HEADING_LINE.search(text) else 0.6


@dataclass
class _Item:
    line: int
    text: str = ""
    links: list[tuple[int, int, str, str]] = field(default_factory=list)  # start, end, text, href
    has_children: bool = False


def _inline(token) -> _Item:
    """Plain text of an inline token, with the span and target of each link."""
    item = _Item(line=token.map[0] + 1 if token.map else 0)
    parts: list[str] = []
    open_link: list[tuple[int, str]] = []
    for child in token.children or []:
        if child.type in ("text", "code_inline", "html_inline"):
            parts.append(child.content)           # inline HTML is kept as written, never run
        elif child.type in ("softbreak", "hardbreak"):
            parts.append(" ")
        elif child.type == "link_open":
            open_link.append((len("".join(parts)), str(child.attrs.get("href", ""))))
        elif child.type == "link_close" and open_link:
            start, href = open_link.pop()
            end = len("".join(parts))
            item.links.append((start, end, "".join(parts)[start:end], href))
        elif child.type == "image":
            parts.append("")
    item.text = "".join(parts)
    return item


def _heading_text(text: str) -> str:
    return tidy(_NUMBERING.sub("", text)).strip(" :*_#")


def _bold_only(token) -> str | None:
    children = [c for c in token.children or [] if not (c.type == "text" and not c.content.strip())]
    if (len(children) >= 3 and children[0].type in ("strong_open", "em_open")
            and children[-1].type in ("strong_close", "em_close")
            and all(c.type in ("text", "strong_open", "strong_close", "em_open", "em_close",
                               "softbreak") for c in children)):
        return "".join(c.content for c in children if c.type == "text")
    return None


def parse(text: str, file: str) -> ParsedListing:
    listing = ParsedListing(file=file, format=NAME, entries=[])
    tokens = _MD.parse(text)
    h1_count = sum(1 for t in tokens if t.type == "heading_open" and t.tag == "h1")
    numbered = _numbered_headings(tokens, h1_count)
    headings: list[tuple[int, str]] = []          # (level, text); bold paragraphs are level 7
    groups: list[tuple[int, str]] = []            # (list depth, label) of labelling list items
    depth = 0
    table_rows, in_table_body = 0, False
    number = 0
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if token.type == "heading_open":
            level = int(token.tag[1])
            title = _heading_text(_inline(tokens[i + 1]).text)
            headings = [h for h in headings if h[0] < level]
            if not (level == 1 and h1_count == 1):
                headings.append((level, title))
            i += 3
            continue
        if token.type == "paragraph_open" and depth == 0:
            bold = _bold_only(tokens[i + 1])
            if bold:
                headings = [h for h in headings if h[0] < 7] + [(7, _heading_text(bold))]
            i += 3
            continue
        if token.type in ("bullet_list_open", "ordered_list_open"):
            depth += 1
        elif token.type in ("bullet_list_close", "ordered_list_close"):
            depth -= 1
            groups = [g for g in groups if g[0] < depth]
        elif token.type in ("tbody_open", "tbody_close"):
            in_table_body = token.type == "tbody_open"
        elif token.type == "tr_open" and in_table_body:
            table_rows += 1
        elif token.type == "list_item_open":
            inline = next((t for t in tokens[i + 1:i + 3] if t.type == "inline"), None)
            has_children = any(t.type in ("bullet_list_open", "ordered_list_open")
                               and t.level > token.level for t in _item_tokens(tokens, i))
            item = _inline(inline) if inline is not None else _Item(
                line=(token.map[0] + 1) if token.map else 0)
            label = _group_label(item) if has_children else None
            if label is not None:
                groups = [g for g in groups if g[0] < depth] + [(depth, label)]
            else:
                number += 1
                path = [h for _, h in headings] + [label for level, label in groups if level < depth]
                also = [numbered[n] for n in _also_in(item.text) if n in numbered
                        and numbered[n] != path]
                _read_item(listing, item, Provenance(file, number, item.line), [path, *also])
        i += 1
    if table_rows:
        listing.findings.append(Finding(file, None, "table-not-read",
                                        f"{table_rows} table rows are not read as papers; "
                                        "write papers as list items"))
    return listing


_SECTION_NUMBER = re.compile(r"^\s*(\d+(?:\.\d+)*)\.?\s+\S")
_ALSO_REF = re.compile(r"\b(?:also|see also|cross-listed)\s+(?:in|under|at|listed\s+(?:in|under))?\s*"
                       r"(?:§|section\s+|sec\.\s*)?(\d+(?:\.\d+)*)", re.IGNORECASE)


def _numbered_headings(tokens, h1_count: int) -> dict[str, list[str]]:
    """``{"2.1": ["Training System", "Parallelism"]}`` for every numbered heading."""
    numbered, stack = {}, []
    for i, token in enumerate(tokens):
        if token.type != "heading_open":
            continue
        level, raw = int(token.tag[1]), _inline(tokens[i + 1]).text
        stack = [h for h in stack if h[0] < level]
        if not (level == 1 and h1_count == 1):
            stack.append((level, _heading_text(raw)))
        number = _SECTION_NUMBER.match(raw)
        if number:
            numbered.setdefault(number.group(1).rstrip("."), [h for _, h in stack])
    return numbered


def _also_in(text: str) -> list[str]:
    return [m.group(1) for m in _ALSO_REF.finditer(text)]


def _item_tokens(tokens, start: int):
    level = tokens[start].level
    for token in tokens[start + 1:]:
        if token.type == "list_item_close" and token.level == level:
            return
        yield token


def _group_label(item: _Item) -> str | None:
    """A list item that only labels its nested list (no tag, no outside link)."""
    if any(not href.startswith("#") for *_, href in item.links) or _LEADING_TAG.match(item.text):
        return None
    return _heading_text(item.text) or None


def _year(match: re.Match) -> int:
    if match.group("yyyy"):
        return int(match.group("yyyy"))
    yy = int(match.group("yy"))
    return 2000 + yy if yy < 70 else 1900 + yy


def _read_item(listing: ParsedListing, item: _Item, source: Provenance,
               paths: list[list[str]]) -> None:
    text = item.text
    outside = [link for link in item.links if link[3] and not link[3].startswith("#")]
    tag = _LEADING_TAG.match(text)
    start = tag.end() if tag else 0
    if not tag:
        bracket = _BRACKET.match(text)
        if bracket and not any(s == bracket.start(1) - 1 for s, *_ in item.links):
            start = bracket.end()                    # "[Survey] Title": a label, not a venue
            listing.findings.append(Finding(source.file, source.line, "unread-tag",
                                            f"tag [{bracket.group(1)}] has no year; not read as a venue"))
    if not tag and not outside:
        listing.skipped.append(Skip(source, "list item has no venue tag and no link to a paper "
                                            "(a table of contents or a note)"))
        return
    title, rest_start = _title(text, start, item.links)
    if not title:
        listing.skipped.append(Skip(source, "list item has no title"))
        return
    entry = RawEntry(source=source, title=title, headings=[p for p in paths if p])
    if not tag:
        tag = _TRAILING_TAG.search(text, rest_start)
    if not tag:                      # "[Title vldb'24](link)": the tag closes the link text
        tag = _TAG_CLOSING_TITLE.search(title)
        if tag:
            entry.title = title[:tag.start()].rstrip(" ,;:-–(")
    if tag:
        venue = tidy(tag.group("venue")).rstrip(",;:")
        entry.year = _year(tag)
        if not _PREPRINT.match(venue):
            entry.venue = venue
    for _, _, _, href in outside:
        entry.arxiv = entry.arxiv or arxiv_id(href)
        entry.doi = entry.doi or doi_of(href)
        if not arxiv_id(href) and not doi_of(href):
            entry.urls.append(href)
    found = _ARXIV_TEXT.search(text)
    if found and not entry.arxiv:
        entry.arxiv = found.group(1)
    entry.urls = list(dict.fromkeys(entry.urls))
    listing.entries.append(entry)


def _title(text: str, start: int, links) -> tuple[str, int]:
    """(title, offset after it): text before the first link, or the first title-like link."""
    following = [link for link in links if link[0] >= start]
    first = following[0] if following else None
    before = text[start:first[0]] if first else text[start:]
    before = _ALSO_IN.sub("", before).strip(" -–:|*[(")
    if first is None or len(before.split()) >= 2:
        cut = _TRAILING_TAG.search(before)
        title = before[:cut.start()] if cut and cut.start() > 0 else before
        return tidy(title).rstrip(" ,.;:-–([") , start + len(text[start:first[0]] if first else text[start:])
    for link_start, end, link_text, _ in following:
        if not _RESOURCE.match(link_text) and link_text.strip():
            return tidy(_ALSO_IN.sub("", link_text)).strip(" [](){}"), end
    return tidy(before), first[0]
