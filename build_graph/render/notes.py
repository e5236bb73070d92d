"""Hand-written notes and "Edit this page" targets for generated pages.

A contributor adds context to a generated page by writing Markdown in
``notes/<papers|authors|venues|techniques>/<id>.md`` (the id is the page's
slug, as in its URL). A note for an id that does not exist fails the build:
it would otherwise silently never appear.

Notes arrive by pull request, and a reviewer skimming Markdown misses a
``<script>``, an ``onerror=`` or a ``javascript:`` link. So a note is
untrusted: ``note_html`` renders its Markdown on its own (not as part of the
page) and passes the HTML through nh3, an allow-list sanitizer (the Rust
``ammonia`` library). What survives is formatting, headings, lists, links,
images, code and tables; scripts, styles, event handlers, inline ``style``,
frames, objects, forms and any URL that is not ``http``, ``https``,
``mailto`` or relative are removed. See docs/untrusted-input.md.

Every generated page also knows which file would change it: its note if it
has one, else the listing or structured entry it came from (papers), the
taxonomy (techniques) or the curated people and venue files.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import markdown
import nh3
from markupsafe import Markup

from ..errors import CurationError
from ..sources.text import decode_listing
from .context import AUTHOR, PAPER, TECHNIQUE, VENUE

KINDS = {"papers": PAPER, "authors": AUTHOR, "venues": VENUE, "techniques": TECHNIQUE}


@dataclass(frozen=True)
class Note:
    path: str          # as shown on the page, e.g. notes/papers/tutel.md
    text: str
    file: Path         # where it is on disk, for "Edit this page"


def load_notes(notes_dir: Path | None, valid: dict[str, set[str]]) -> dict[str, Note]:
    """``{page src_uri: Note}``; ``valid`` maps kind -> existing ids."""
    notes: dict[str, Note] = {}
    if notes_dir is None or not notes_dir.is_dir():
        return notes
    for path in sorted(notes_dir.rglob("*.md")):
        rel = path.relative_to(notes_dir)
        display = f"notes/{rel.as_posix()}"
        if rel.as_posix() == "README.md":
            continue
        if len(rel.parts) != 2 or rel.parts[0] not in KINDS:
            raise CurationError("notes live in notes/<papers|authors|venues|techniques>/<id>.md",
                                file=display)
        kind, ident = rel.parts[0], path.stem
        if ident not in valid.get(kind, set()):
            raise CurationError(f"no {kind[:-1]} with id {ident!r}: this note would never appear",
                                file=display, expected=f"an existing id (the {kind}/<id>/ part of its URL)")
        notes[KINDS[kind].format(ident)] = Note(display, decode_listing(path.read_bytes(), display), path)
    return notes


# What a note may keep. Everything else is dropped: unknown tags lose the tag
# and keep their text; script, style and the like lose their content too.
NOTE_TAGS = frozenset({
    "p", "br", "hr", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote",
    "strong", "em", "b", "i", "del", "s", "sub", "sup", "kbd", "abbr", "code", "pre",
    "ul", "ol", "li", "dl", "dt", "dd", "a", "img",
    "table", "thead", "tbody", "tr", "th", "td",
})
NOTE_ATTRIBUTES = {
    "a": {"href", "title"},
    "img": {"src", "alt", "title", "width", "height"},
    "abbr": {"title"},
    "ol": {"start"},
    "th": {"colspan", "rowspan"},
    "td": {"colspan", "rowspan"},
}
# Removed with everything inside them, so no script or CSS text is left over
# as visible page text either.
NOTE_DROPPED_WITH_CONTENT = frozenset({"script", "style", "iframe", "object", "embed", "template",
                                       "noscript", "svg", "math", "form", "textarea", "select"})
NOTE_URL_SCHEMES = frozenset({"http", "https", "mailto"})   # relative URLs pass; data:, javascript: do not
NOTE_MARKDOWN_EXTENSIONS = ("tables", "fenced_code", "sane_lists")


def note_html(note: Note) -> Markup:
    """The note's Markdown rendered to HTML on its own and sanitized: the one
    piece of HTML the page templates insert as it is (the ``note`` macro)."""
    html = markdown.markdown(note.text, extensions=list(NOTE_MARKDOWN_EXTENSIONS), output_format="html")
    return Markup(nh3.clean(html, tags=set(NOTE_TAGS), attributes={k: set(v) for k, v in NOTE_ATTRIBUTES.items()},
                            clean_content_tags=set(NOTE_DROPPED_WITH_CONTENT), url_schemes=set(NOTE_URL_SCHEMES),
                            link_rel="nofollow noopener noreferrer", strip_comments=True))


def edit_targets(atlas, notes: dict[str, Note]) -> dict[str, Path]:
    """``{page src_uri: the file on disk that would change it}``.

    Paths, not URLs: the plugin turns those inside the site's repository into
    edit links, and gives none for files outside it (the packaged taxonomy
    of a site that installed the atlas from PyPI is not theirs to edit).
    """
    curated = atlas.curated_files
    targets = {}
    for paper in atlas.corpus.papers:
        targets[PAPER.format(paper.slug)] = atlas.seeds_dir / paper.sources[0].file
    for author in atlas.corpus.authors.values():
        targets[AUTHOR.format(author.slug)] = curated["authors.yaml"]
    for venue in atlas.corpus.venues.values():
        targets[VENUE.format(venue.slug)] = curated["venues.yaml"]
    for tid in atlas.taxonomy.techniques:
        targets[TECHNIQUE.format(tid)] = curated["taxonomy.yaml"]
    for src_uri, note in notes.items():
        targets[src_uri] = note.file
    return targets
