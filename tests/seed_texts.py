"""Title and abstract of each seed paper, read straight from ``seeds/``.

The tagging tests must not wait for (or break with) the real listing parsers,
so this is a deliberately small, format-by-format reader that knows only the
five seed files. Keys are ``"<file name>#<1-based entry number>"``, the same
as ``Provenance.ref`` and the gold set.
"""

from __future__ import annotations

import re
from pathlib import Path

SEEDS = Path(__file__).resolve().parent.parent / "seeds"

_DATE_LINE = re.compile(r"^[A-Z]{2}[A-Z][a-z]{2} \d{1,2}, \d{4}(?:Code)?$")
_TALK_TIME = re.compile(r"^\w{3} \d{1,2} \w{3}\. \d{1,2}:\d\d - \d{1,2}:\d\d \w+$")
_NAME = re.compile(r"^[A-Z][\w.'-]*(?: [A-Za-z][\w.'-]*){1,3}$")


def _bare_abstracts(text: str) -> list[tuple[str | None, str]]:
    return [(None, part.strip()) for part in re.split(r"(?m)^Abstract:", text)[1:]]


def _arxiv(text: str) -> list[tuple[str | None, str]]:
    entries = []
    for chunk in re.split(r"(?m)^Created: .*$", text):
        paragraphs = [p.strip() for p in re.split(r"\n\s*\n", chunk) if p.strip()]
        if paragraphs:
            entries.append((None, " ".join(paragraphs[0].split())))
    return entries


def _split_title_authors(line: str) -> str:
    """The title part of "TitleFirst Author, Second Author et al."."""
    for i in range(1, len(line)):
        if line[i].isupper() and (line[i - 1].islower() or line[i - 1] == ")"):
            names = re.sub(r"\s+et al\.?$", "", line[i:]).split(", ")
            if all(_NAME.match(n.strip()) for n in names):
                return line[:i].strip()
    return line.strip()


def _profile(text: str) -> list[tuple[str | None, str]]:
    entries, lines = [], text.splitlines()
    starts = [i for i, line in enumerate(lines) if _DATE_LINE.match(line.strip())]
    for n, i in enumerate(starts):
        end = starts[n + 1] if n + 1 < len(starts) else len(lines)
        title = _split_title_authors(lines[i + 1])
        entries.append((title, " ".join(" ".join(lines[i + 2:end]).split())))
    return entries


def _numbered(text: str) -> list[tuple[str | None, str]]:
    entries = []
    for block in re.split(r"(?m)^(?=#\d+ )", text)[1:]:
        head, _, rest = block.partition("\n")
        title = re.sub(r"^#\d+ ", "", re.split(r" \[PDF", head)[0]).strip()
        body = [p.strip() for p in re.split(r"\n\s*\n", rest) if p.strip()]
        body = [p for p in body if not re.match(r"Authors?:", p)]
        entries.append((title, " ".join(" ".join(body).split())))
    return entries


def _talks(text: str) -> list[tuple[str | None, str]]:
    entries, lines = [], [line.strip() for line in text.splitlines()]
    starts = [i for i, line in enumerate(lines) if _TALK_TIME.match(line)]
    for n, i in enumerate(starts):
        end = starts[n + 1] if n + 1 < len(starts) else len(lines)
        content = [line for line in lines[i + 1:end] if line]
        entries.append((content[0], " ".join(content[2:])))
    return entries


_READERS = {"000": _bare_abstracts, "001": _arxiv, "002": _profile, "003": _numbered, "004": _talks}


def seed_papers(seeds: Path = SEEDS) -> list[tuple[str, str | None, str]]:
    """(key, title, abstract) for every seed entry, in file and entry order."""
    papers = []
    for path in sorted(seeds.glob("*.txt")):
        reader = _READERS[path.name[:3]]
        for number, (title, abstract) in enumerate(reader(path.read_text(encoding="utf-8")), start=1):
            papers.append((f"{path.name}#{number}", title, abstract))
    return papers
