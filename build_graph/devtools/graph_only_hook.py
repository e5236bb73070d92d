"""MkDocs hook for ``graph_bench``'s quick build: drop the per-entity pages.

The graph page does not depend on the 25,000 paper/author/venue/technique
pages of a 5,000-paper atlas, and MkDocs needs many minutes to render them.
``graph_bench`` adds this file to a throw-away config's ``hooks:`` (by its
absolute path) unless ``--full`` is given; nothing else loads it.
"""

from __future__ import annotations

import re

ENTITY_PAGE = re.compile(r"^(papers|authors|venues|techniques)/(?!index\.md$)[^/]+\.md$")


def on_files(files, config):
    """Keep the graph page, the indexes and everything in the nav; drop the entity pages."""
    for file in list(files):
        if ENTITY_PAGE.match(file.src_uri):
            files.remove(file)
    return files
