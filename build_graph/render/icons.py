"""Theme icons drawn once per site, not once per page.

mkdocs-material writes every icon of its frame into every page as inline
SVG: the logo twice (header and drawer), the menu, search and back-to-top
arrows, and each palette toggle, whose weather icons alone are 1.6 KB.
That is about 2.9 KB of every page, the same bytes on all of them, and an
atlas has two pages or more per paper (issue 13). ``IconSprite`` moves each
such icon into one cached file, ``assets/atlas-icons.svg``, as a
``<symbol>``, and leaves ``<svg viewBox=…><use xlink:href=…#id/></svg>`` (about 85
bytes) in the page. The icon looks the same: the outer ``<svg>`` keeps the
theme's classes' size and ``fill: currentcolor``, which the ``<use>`` copy
inherits. (``xlink:href``, not ``href``: mkdocs-material's instant navigation
rewrites the ``href`` property of every element with an ``href`` attribute,
and a ``<use>`` element's is read-only; ``xlink:href`` is in another
namespace, so the theme's ``[href]`` selector passes it by.)

Only *icons* are moved: an ``<svg>`` whose attributes are exactly ``xmlns``
and ``viewBox`` and whose content is nothing but ``<path d="…"/>`` elements
(the form of every icon in the theme's ``.icons`` folder). A drawing with a
role, a title, classes or shapes of its own (a chart, a figure in a note)
stays in its page. The symbol's id is a hash of the icon, so the sprite and
every page are the same bytes on every build, in any order of pages.
"""

from __future__ import annotations

import hashlib
import posixpath
import re

SPRITE = "assets/atlas-icons.svg"

_ICON = re.compile(r'<svg xmlns="http://www\.w3\.org/2000/svg" viewBox="([0-9. -]+)">'
                   r'((?:\s*<path d="[^"<>]*"\s*/>)+)\s*</svg>')


class IconSprite:
    """The icons seen so far (``{id: (viewBox, paths)}``); one lives as long as the plugin."""

    def __init__(self):
        self.symbols: dict[str, tuple[str, str]] = {}
        self._keys: dict[tuple[str, str], str] = {}     # (viewBox, paths) -> id: one hash per icon, not per use

    def replace(self, html: str, page_url: str) -> str:
        """``html`` (a page at ``page_url``, e.g. ``papers/x/``) with its icons
        referring to the sprite."""
        folder = page_url if page_url.endswith("/") else posixpath.dirname(page_url)
        href = relative_url(SPRITE, folder)

        def use(match: re.Match) -> str:
            view_box, paths = match.group(1), match.group(2).strip()
            key = self._keys.get((view_box, paths))
            if key is None:
                key = "i" + hashlib.sha1(f"{view_box}|{paths}".encode("utf-8")).hexdigest()[:10]
                self._keys[(view_box, paths)] = key
                self.symbols.setdefault(key, (view_box, paths))
            return f'<svg viewBox="{view_box}"><use xlink:href="{href}#{key}"/></svg>'

        return _ICON.sub(use, html)

    def sprite(self) -> str:
        """The sprite file: every icon seen, as a ``<symbol>``, in id order."""
        body = "".join(f'<symbol id="{key}" viewBox="{view_box}">{paths}</symbol>'
                       for key, (view_box, paths) in sorted(self.symbols.items()))
        return f'<svg xmlns="http://www.w3.org/2000/svg">{body}</svg>\n'


def relative_url(target: str, folder: str) -> str:
    """``posixpath.relpath(target, folder)`` for two site paths (relative, "/"-separated),
    without the working directory that ``relpath`` reads on every call (a system
    call per page)."""
    here = [part for part in folder.split("/") if part]
    there = target.split("/")
    common = 0
    while common < min(len(here), len(there) - 1) and here[common] == there[common]:
        common += 1
    return "/".join([".."] * (len(here) - common) + there[common:])
