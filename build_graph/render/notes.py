"""Hand-written notes and "Edit this page" targets for generated pages.

A contributor adds context to a generated page by writing Markdown in
``notes/<papers|authors|venues|techniques>/<id>.md`` (the id is the page's
slug, as in its URL). A note is Markdown, converted on its own (``note_html``)
and placed in its page's template as one piece of HTML. A note for an id that does not exist fails
the build: it would otherwise silently never appear.

Every generated page also knows which file would change it: its note if it
has one, else the listing or structured entry it came from (papers), the
taxonomy (techniques) or the curated people and venue files.
"""

from __future__ import annotations

from dataclasses import dataclass

import markdown
from markupsafe import Markup
from pathlib import Path

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


def note_html(note: Note) -> Markup:
    """The note's Markdown as HTML, for the ``note`` macro of the page templates.

    The one place a note's HTML is made: the page template inserts exactly this.
    """
    return Markup(markdown.markdown(note.text.strip(), extensions=["tables", "attr_list"]))


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
