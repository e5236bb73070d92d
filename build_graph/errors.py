"""One error family for everything the atlas can reject.

Every message names the file, the line (when there is one), what was expected
and what was found, in the style of networkx's GML parser, so that a
contributor can go straight to the offending line of their pull request.

Errors stop the build. Findings (warnings) are collected and reported; they
never stop the build on their own.
"""

from __future__ import annotations

from dataclasses import dataclass


class AtlasError(Exception):
    """Base class: input the atlas cannot accept.

    ``file`` is the path as the user would type it (relative to the project
    where possible); ``line`` is 1-based or ``None`` when the problem concerns
    the whole file.
    """

    def __init__(self, message: str, *, file: str | None = None, line: int | None = None,
                 expected: str | None = None, found: str | None = None):
        self.file = file
        self.line = line
        self.expected = expected
        self.found = found
        self.detail = message
        super().__init__(self.format())

    def format(self) -> str:
        where = ""
        if self.file:
            where = self.file + (f":{self.line}" if self.line else "")
            where += ": "
        text = where + self.detail
        if self.expected:
            text += f"; expected {self.expected}"
        if self.found is not None:
            text += f", found {self.found!r}" if self.expected else f"; found {self.found!r}"
        return text


class UnknownFormatError(AtlasError):
    """No registered listing parser recognises the file."""


class ParseError(AtlasError):
    """A recognised listing has an entry that breaks its format."""


class EncodingError(AtlasError):
    """The bytes are not text we can read (not UTF-8, binary, too large)."""


class CurationError(AtlasError):
    """A curated data file (taxonomy, aliases, corrections, sidecars) is invalid."""


class TaxonomyError(CurationError):
    """The technique taxonomy is invalid."""


@dataclass(frozen=True)
class Finding:
    """A warning about the input that does not stop the build.

    ``code`` is a short stable identifier (``truncated-authors``,
    ``non-name``, ...) so reports can group and tests can assert on it.
    """

    file: str
    line: int | None
    code: str
    message: str

    def format(self) -> str:
        where = self.file + (f":{self.line}" if self.line else "")
        return f"{where}: [{self.code}] {self.message}"

    def sort_key(self) -> tuple:
        return (self.file, self.line or 0, self.code, self.message)


class SearchIndexError(AtlasError):
    """Pagefind could not index the built site (``build_graph/search.py``);
    ``file`` is the site folder, the message holds Pagefind's own output."""
