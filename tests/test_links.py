"""Every internal link of every generated page lands on something the build makes.

The templates write final relative URLs (MkDocs' directory URLs), which MkDocs
does not check, so the package checks them itself: each ``href``/``src`` that
is not an external URL is resolved against its page's URL and must be a
generated page, a generated file, one of the atlas's own assets or a
hand-written docs page; a ``#fragment`` must be an id on the target page.
"""

from __future__ import annotations

import posixpath
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from build_graph.plugin import _own_assets
from build_graph.render.explorer import vendor_files
from build_graph.render.html import Html, url_of
from site_pages import ROOT, SITES, Tags, pages


def targets(rendered: dict) -> dict[str, set[str] | None]:
    """URL -> ids on it (``None`` for files, which have no ids we know of)."""
    out: dict[str, set[str] | None] = {}
    for path, page in rendered.items():
        if isinstance(page, Html):
            out[url_of(path)] = {attrs["id"] for _, attrs in Tags.of(page.body) if "id" in attrs}
        else:
            out[path] = None
    for path in [*vendor_files(), *_own_assets()]:
        out.setdefault(path, None)
    for doc in (ROOT / "docs").rglob("*.md"):
        out.setdefault(url_of(doc.relative_to(ROOT / "docs").as_posix()), set())
    return out


def links(html: str):
    for tag, attrs in Tags.of(html):
        for name in ("href", "src", "data-src", "data-authors-src"):
            if attrs.get(name):
                yield tag, name, attrs[name]


def resolve(page_url: str, link: str) -> tuple[str, str]:
    path, _, fragment = link.partition("#")
    if not path:
        return page_url, fragment
    joined = posixpath.normpath(posixpath.join(page_url or ".", path))
    joined = "" if joined == "." else joined
    return joined + ("/" if path.endswith("/") and joined else ""), fragment


@pytest.mark.parametrize("site", sorted(SITES))
def test_every_internal_link_lands_on_a_generated_page(site):
    rendered = pages(site)
    known = targets(rendered)
    checked = 0
    for path, page in rendered.items():
        if not isinstance(page, Html):
            continue
        here = url_of(path)
        for tag, name, link in links(page.body):
            if urlsplit(link).scheme:
                assert urlsplit(link).scheme in ("http", "https"), (path, link)
                continue
            assert not link.startswith("/"), (path, link)          # relative: the site may live in a folder
            target, fragment = resolve(here, link)
            assert target in known, f"{path}: {tag} {name}={link!r} -> {target!r} is not generated"
            if fragment and known[target] is not None and target != "" :
                assert fragment in known[target], f"{path}: {link!r}: no id {fragment!r} on {target!r}"
            checked += 1
    assert checked > 100


def test_a_broken_link_would_be_found():
    """The check above can fail: a link to a page nobody made is reported."""
    known = targets(pages("seeds"))
    assert resolve("papers/x/", "../../authors/nobody/")[0] not in known
    assert resolve("papers/x/", "../../authors/")[0] in known
