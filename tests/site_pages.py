"""The generated part of a site, rendered in process for tests that read every page."""

from __future__ import annotations

from functools import lru_cache
from html.parser import HTMLParser
from pathlib import Path

from build_graph.pipeline import build_atlas
from build_graph.render.notes import Note
from build_graph.render.site import render_site

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data"
FIXTURES = Path(__file__).resolve().parent / "fixtures"
# The seed site, and the fixtures whose every text field is hostile.
SITES = {"seeds": ROOT / "seeds", "hostile": FIXTURES / "hostile" / "seeds", "graph": FIXTURES / "graph"}
HOSTILE_NOTE = "A note with *emphasis*, a [link](https://example.org/) and `code`.\n"


@lru_cache(maxsize=None)
def pages(site: str) -> dict:
    atlas = build_atlas(SITES[site], DATA, strict=True)
    paper = atlas.corpus.papers[0]
    # One note, so the note's insertion point is covered too.
    notes = {f"papers/{paper.slug}.md": Note(f"notes/papers/{paper.slug}.md", HOSTILE_NOTE,
                                             Path("notes") / "papers" / f"{paper.slug}.md")}
    return render_site(atlas, notes)


class Tags(HTMLParser):
    """Every start tag with its attributes, as a browser's parser sees them."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    @classmethod
    def of(cls, html: str) -> list[tuple[str, dict]]:
        parser = cls()
        parser.feed(html)
        parser.close()
        return parser.tags


def search_fragments(site: Path) -> dict[str, dict]:
    """What the built site's search index (Pagefind) holds per page: ``{url: fragment}``.

    A fragment is one indexed page: its ``content`` (the indexed text),
    ``meta`` (``title``) and ``filters``. Pagefind stores it gzipped, as JSON
    after a ``pagefind_dcd`` signature.
    """
    import gzip
    import json
    out = {}
    for path in sorted((site / "pagefind" / "fragment").glob("*.pf_fragment")):
        raw = gzip.decompress(path.read_bytes())
        assert raw.startswith(b"pagefind_dcd"), path
        fragment = json.loads(raw[len(b"pagefind_dcd"):])
        out[fragment["url"]] = fragment
    return out
