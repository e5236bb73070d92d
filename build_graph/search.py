"""The site's search index: Pagefind, run on the other core while MkDocs writes the site.

mkdocs-material's search builds one lunr index of every page, and a visitor
downloads all of it before the first result: 12.8 MB at 10,000 papers.
Pagefind indexes HTML into many small files (word index chunks, one fragment
per page, filter indexes); a search fetches only the chunks for its words and
the fragments of the results it shows. The ``pagefind`` package bundles the
Pagefind binary (its ``bin`` extra), so no Node toolchain is needed.

What is indexed is decided by the templates: on an entity page only the
element marked ``data-pagefind-body`` (a paper's title, authors, venue and
abstract; a technique's, author's or venue's name), with its type, venue, year
and techniques as ``data-pagefind-filter`` values; hand-written pages whole
(``hand_written_document``, the same element theme/main.html writes); list and
index pages not at all.

Why not run Pagefind over the built site: it then reads every page whole,
theme and all, after MkDocs has written the last one (17 s of a 70 s build at
4,300 papers). Everything it indexes is known before MkDocs writes a page:
a generated page's template hands over the element it marks for search
(``Html.search``), and a hand-written page's content is rendered when the
plugin's ``on_env`` runs. So ``SearchIndexer.start``
writes each indexed page's searchable HTML into a scratch folder, under the
path the page will have in the site (Pagefind takes a result's URL from it),
and runs Pagefind over that folder in the background, writing its bundle
straight into the site; ``finish`` waits for it in ``on_post_build``. The
bundle is the one a crawl of the built site gives (same fragments, same
filters), written while the main process renders the pages.
"""

from __future__ import annotations

import html
import re
import shutil
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterable
from pathlib import Path

from markupsafe import escape

from .errors import SearchIndexError
from .search_bundle import stable_filters

FOLDER = "pagefind"
UNUSED = ("pagefind-ui.js", "pagefind-ui.css", "pagefind-modular-ui.js", "pagefind-modular-ui.css",
          "pagefind-component-ui.js", "pagefind-component-ui.css", "pagefind-highlight.js")
"""Pagefind's ready-made interfaces, which the site does not use
(assets/atlas-search.js works in Material's own dialog): 350 KB not published."""

HAND_WRITTEN_WEIGHT = "0.5"
"""A hand-written page is indexed whole, weighted down, so that a paper or
technique that names the words ranks above a long page that mentions them."""


def hand_written_document(content: str, title: str | None) -> str:
    """The searchable part of a hand-written page, as theme/main.html writes it.

    mkdocs-material puts the page title in an ``<h1>`` when the content has
    none (its ``content.html``); Pagefind takes a result's title from the
    first ``<h1>``, so the document has it too. ``title`` is HTML text, as
    MkDocs' page titles are: its tags are dropped and the text escaped once.
    """
    heading = "" if "<h1" in content else f"<h1>{escape(_plain_text(title or ''))}</h1>"
    return f'<div data-pagefind-body data-pagefind-weight="{HAND_WRITTEN_WEIGHT}">{heading}{content}</div>'


def _plain_text(html_text: str) -> str:
    """HTML text as the text it shows: tags dropped, entities read, white space collapsed."""
    return " ".join(html.unescape(_TAG.sub("", html_text)).split())


_TAG = re.compile(r"<!--.*?-->|<[^>]*>", re.DOTALL)


def _document(body: str, lang: str) -> str:
    return f'<!doctype html><html lang="{escape(lang)}"><head><meta charset="utf-8"></head><body>{body}</body></html>'


class SearchIndexer:
    """One Pagefind run at a time, in the background; owned by the plugin.

    ``start`` hands over ``(dest_uri, html)`` for every indexed page and
    returns at once; a thread writes the documents and runs Pagefind;
    ``finish`` waits and raises ``SearchIndexError`` if Pagefind failed;
    ``cancel`` stops a run whose build failed.
    """

    def __init__(self):
        self._thread: threading.Thread | None = None
        self._process: subprocess.Popen | None = None
        self._scratch: Path | None = None
        self._error: str | None = None
        self._target: Path | None = None
        self._cancelled = False
        self._lock = threading.Lock()           # between starting Pagefind and ``cancel`` killing it

    @property
    def running(self) -> bool:
        return self._thread is not None

    def start(self, documents: Iterable[tuple[str, str]], site: Path, lang: str = "en") -> None:
        """Index ``documents`` into ``site/pagefind/`` (replacing an older bundle) in the background."""
        self.cancel()
        self._target = Path(site) / FOLDER
        if self._target.exists():
            shutil.rmtree(self._target)
        self._scratch = Path(tempfile.mkdtemp(prefix="atlas-search-"))
        self._error = None
        self._cancelled = False
        pages = [(uri, _document(html, lang)) for uri, html in documents]
        self._thread = threading.Thread(target=self._run, args=(pages,), name="atlas-search", daemon=True)
        self._thread.start()

    def _run(self, pages: list[tuple[str, str]]) -> None:
        scratch, target = self._scratch, self._target
        try:
            for uri, document in pages:
                path = scratch / uri
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(document, encoding="utf-8")
            log = scratch / "pagefind.log"
            with open(log, "wb") as out:
                with self._lock:
                    if self._cancelled:
                        return
                    self._process = subprocess.Popen(
                        [sys.executable, "-m", "pagefind", "--site", str(scratch), "--output-path", str(target)],
                        stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
                code = self._process.wait()
            if code != 0 and not self._cancelled:
                self._error = ("Pagefind could not index the site's pages:\n"
                               + log.read_text(encoding="utf-8", errors="replace").strip())
        except OSError as err:
            self._error = f"Pagefind could not run: {err}"

    def finish(self) -> None:
        """Wait for the run ``start`` began; drop the interfaces the site does not use
        and put the filter indexes in one order (``search_bundle.py``)."""
        if self._thread is None:
            return
        self._thread.join()
        error, target = self._error, self._target
        self._cleanup()
        if error:
            raise SearchIndexError(error, file=str(target.parent))
        for name in UNUSED:
            (target / name).unlink(missing_ok=True)
        stable_filters(target)

    def cancel(self) -> None:
        """Stop a run (the build failed, or ``mkdocs serve`` stops); its output is left incomplete."""
        if self._thread is None:
            return
        with self._lock:
            self._cancelled = True
            if self._process is not None and self._process.poll() is None:
                self._process.kill()
        self._thread.join()
        self._cleanup()

    def _cleanup(self) -> None:
        if self._scratch is not None:
            shutil.rmtree(self._scratch, ignore_errors=True)
        self._thread = self._process = self._scratch = None

