"""The site's search index: Pagefind, run over the built site.

mkdocs-material's search builds one lunr index of every page, and a visitor
downloads all of it before the first result: 12.8 MB at 10,000 papers.
Pagefind indexes the built HTML into many small files (word index chunks,
one fragment per page, filter indexes); a search fetches only the chunks for
its words and the fragments of the results it shows. The ``pagefind``
package bundles the Pagefind binary (its ``bin`` extra), so no Node
toolchain is needed.

What is indexed is decided by the templates: on an entity page only the
element marked ``data-pagefind-body`` (a paper's title, authors, venue and
abstract; a technique's, author's or venue's name), with its type, venue, year
and techniques as ``data-pagefind-filter`` values; hand-written pages whole
(theme/main.html); list and index pages not at all.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from .errors import SearchIndexError

FOLDER = "pagefind"
UNUSED = ("pagefind-ui.js", "pagefind-ui.css", "pagefind-modular-ui.js", "pagefind-modular-ui.css",
          "pagefind-component-ui.js", "pagefind-component-ui.css", "pagefind-highlight.js")
"""Pagefind's ready-made interfaces, which the site does not use
(assets/atlas-search.js works in Material's own dialog): 350 KB not published."""


def index_site(site: Path) -> None:
    """Write the search index into ``site/pagefind/`` (replacing an older one)."""
    target = site / FOLDER
    if target.exists():
        shutil.rmtree(target)
    result = subprocess.run([sys.executable, "-m", "pagefind", "--site", str(site), "--output-subdir", FOLDER],
                            capture_output=True, text=True)
    if result.returncode != 0:
        raise SearchIndexError("Pagefind could not index the built site:\n" + (result.stdout + result.stderr).strip(),
                               file=str(site))
    for name in UNUSED:
        (target / name).unlink(missing_ok=True)
