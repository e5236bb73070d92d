"""Author-profile listing: category+date line, glued title+authors, abstract.

Sample input (``seeds/002_...txt``)::

    LGNov 6, 2019Code
    A Programmable Approach to Neural Network CompressionVinu Joseph, Saurav Muralidharan, Animesh Garg et al.
    Deep neural networks (DNNs) frequently contain far more weights, ...
    CRJun 19, 2023
    ArctyrEX : Accelerated Encrypted Execution of General-Purpose ApplicationsCharles Gouert, ...

The first line holds an arXiv category (``LG``, ``CR``...), the date and an
optional ``Code`` marker (the paper has code). The page lost the separator
between the title and the author list, so ``split_title_authors`` has to find
it: the leftmost lower->upper boundary after which the rest reads as a list
of names. Titles with inner capitals (``AdaBatch``, ``ArctyrEX``) are safe
because the text after *their* boundary does not read as names. A trailing
``et al.`` marks a truncated author list.
"""

from __future__ import annotations

import datetime as dt
import re

from ..errors import Finding
from ..model import ParsedListing, Provenance, RawEntry, Skip
from .text import Line, lines_of, urls_in

NAME = "author-profile"
SUMMARY = "'LGNov 6, 2019Code' lines, then 'TitleFirst Author, Second Author et al.', then the abstract"

_MONTHS = "Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec"
_META = re.compile(rf"^([A-Z]{{2}})((?:{_MONTHS})[a-z]* [0-9]{{1,2}}, [0-9]{{4}})(Code)?$")
_MONTH_NUMBER = {m: i for i, m in enumerate(_MONTHS.split("|"), start=1)}
_ET_AL = re.compile(r",?\s+et\s+al\.?$")
_NAME_TOKEN = re.compile(
    r"^(?:[A-Z][\w'’.\-]*|(?:de|da|del|della|der|den|di|du|dos|la|le|van|von|bin|al|el|y|zu|ter|ten)"
    r"|[A-Z]\.(?:[A-Z]\.)*-?)$")


def sniff(text: str) -> float:
    lines = [line for line in lines_of(text) if line.text]
    metas = [i for i, line in enumerate(lines) if _META.match(line.text)]
    if not metas:
        return 0.0
    return 1.0 if metas[0] == 0 else 0.7


_INNER_CAPITAL = re.compile(r"[a-z][A-Z]")


def _is_name_token(token: str) -> bool:
    """A name word: capitalised, an initial, or a particle. Inner capitals are
    allowed only after a short prefix (McDonald, DeVito, XiaoBing, HoYuen), so a
    glued ``OptimizationsJohn`` is not mistaken for a name."""
    if not _NAME_TOKEN.match(token):
        return False
    inner = _INNER_CAPITAL.search(token)
    return inner is None or inner.start() < 4


def looks_like_author_list(text: str) -> bool:
    names = [n.strip() for n in text.split(",")]
    if not names or any(not n for n in names):
        return False
    for name in names:
        tokens = name.split()
        if not 1 <= len(tokens) <= 5 or not all(_is_name_token(t) for t in tokens):
            return False
        if not tokens[0][:1].isupper():
            return False
    return True


def split_title_authors(glued: str) -> tuple[str, list[str], bool] | None:
    """Split ``'TitleFirst Author, Second et al.'``; ``None`` if no split reads right."""
    truncated = bool(_ET_AL.search(glued))
    body = _ET_AL.sub("", glued).strip()
    strong: list[int] = []      # lower/digit/punctuation -> capital: "ApplicationsCharles"
    weak: list[int] = []        # acronym -> capitalised word: "GPTJohn"
    for i in range(1, len(body)):
        before, here = body[i - 1], body[i]
        if not here.isupper() or before.isspace():
            continue
        if before.islower() or before.isdigit() or before in ")]}.?!'\"’”":
            strong.append(i)
        elif before.isupper() and i + 1 < len(body) and body[i + 1].islower():
            weak.append(i)
    for i in strong + weak:
        title, rest = body[:i].strip(), body[i:].strip()
        if title and looks_like_author_list(rest):
            return title, [n.strip() for n in rest.split(",")], truncated
    return None


def parse(text: str, file: str) -> ParsedListing:
    listing = ParsedListing(file=file, format=NAME, entries=[])
    blocks: list[list[Line]] = []
    for line in lines_of(text):
        if _META.match(line.text):
            blocks.append([line])
        elif blocks:
            blocks[-1].append(line)
        elif line.text:
            listing.findings.append(Finding(file, line.number, "stray-text",
                                            "text before the first category/date line is ignored"))
    for number, block in enumerate(blocks, start=1):
        _add_entry(listing, number, block)
    return listing


def _add_entry(listing: ParsedListing, number: int, block: list[Line]) -> None:
    file = listing.file
    head, rest = block[0], [line for line in block[1:] if line.text]
    meta = _META.match(head.text)
    source = Provenance(file, number, head.number)
    if not rest:
        listing.skipped.append(Skip(source, "category/date line with no title, authors or abstract"))
        return
    category, date_text, code = meta.group(1), meta.group(2), meta.group(3)
    month, day, year = re.match(r"(\w+) (\d+), (\d{4})", date_text).groups()
    entry = RawEntry(source=source, categories=[category], has_code=bool(code), year=int(year))
    try:
        entry.date = dt.date(int(year), _MONTH_NUMBER[month[:3]], int(day)).isoformat()
    except ValueError:
        listing.findings.append(Finding(file, head.number, "bad-date",
                                        f"{date_text!r} is not a real date; only the year is kept"))
    split = split_title_authors(rest[0].text)
    if split is None:
        listing.findings.append(Finding(
            file, rest[0].number, "unsplittable-title",
            "could not find where the title ends and the author list begins; "
            "the whole line is kept as the title and no authors are recorded"))
        entry.title = rest[0].text
    else:
        entry.title, entry.authors, entry.authors_truncated = split
    entry.abstract = " ".join(line.text for line in rest[1:])
    entry.urls = urls_in(entry.abstract)
    listing.entries.append(entry)
