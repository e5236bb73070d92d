"""The theme's frame, rendered once for the thousands of pages that share it.

mkdocs-material renders its whole frame into every page: the header, the
site navigation (the left sidebar, which is also the mobile drawer), the
table of contents beside it, and the JSON config its scripts read. A
generated entity page is outside the site's ``nav`` and, in the atlas's
templates, has no contents of its own to list, so on every such page of one
folder these parts come out the same (the header but for the page's title):
no nav item is active, and every link in them is relative to the page's
folder. Rendering them was about a millisecond a page, a sixth of a
4,300-paper build.

theme/main.html asks ``key(page)``: ``None`` when the page must have its own
frame (it is hand-written or in the nav, lists contents, or a nav page lies
inside its folder, so a relative link would differ); otherwise a key that
every page with the same frame shares. The HTML rendered for the first page
of a key is reused (``get``/``put``); the header is kept as the text around
the page title, and each page gets its own title in it. Where the header is
not laid out as expected (another theme version), it is not shared. Sharing
never changes a byte of a page (tests/test_shared_parts.py builds a site
both ways). One ``SharedParts`` lives per build (``on_env`` makes a new one):
the nav and the config are fixed within a build, not between two under
``mkdocs serve``.
"""

from __future__ import annotations

import posixpath

PARTS = ("styles", "libs", "fonts", "analytics", "header", "site_nav", "footer", "config", "scripts")
"""The blocks of mkdocs-material's ``base.html`` that theme/main.html shares:
every one but those that name the page (its meta tags, title and content)."""

_TOPIC = 'data-md-component="header-topic">'
_TITLE_OPENS = '<span class="md-ellipsis">'


class SharedParts:
    def __init__(self, nav=None, enabled: bool = True, finish=None):
        """``finish(html, page)``: what ``on_post_page`` would do to the part on
        its way out (the icons: ``render/icons.py``), done once for a shared part."""
        self._html: dict[tuple, str | tuple[str, str]] = {}
        self.reused: dict[str, int] = dict.fromkeys(PARTS, 0)      # pages that got a part from another
        self._nav_urls = tuple(page.url for page in (nav.pages if nav is not None else ()))
        self._enabled = enabled
        self._finish = finish
        self._last: tuple = (None, None)      # (page, its key): a page asks once per part

    def has(self, part: str, page) -> bool:
        key = self._key_of(page)
        return key is not None and (part, key) in self._html

    def _key_of(self, page) -> tuple | None:
        if not self._enabled or not page:
            return None
        if self._last[0] is not page:
            self._last = (page, self.key(page))
        return self._last[1]

    def key(self, page) -> tuple | None:
        file = getattr(page, "file", None)
        if file is None or file.generated_by is None or not file.inclusion.is_not_in_nav():
            return None
        if _contents(page.toc):
            return None
        url = page.url
        folder = url if url.endswith("/") else posixpath.dirname(url) + "/"
        if any(target.startswith(folder) for target in self._nav_urls):
            return None
        hide = tuple(sorted((page.meta or {}).get("hide") or ()))
        return posixpath.dirname(folder.rstrip("/")), folder.count("/"), hide

    def get(self, part: str, page) -> str | None:
        found = self._html.get((part, self._key_of(page)))
        if found is None:
            return None
        self.reused[part] += 1
        if isinstance(found, tuple):
            return found[0] + _printed_title(page) + found[1]
        return found

    def put(self, part: str, page, html: str) -> str:
        """Keep ``html``, the part as rendered for ``page`` (if the page shares its
        parts); return it unchanged."""
        key = self._key_of(page)
        if key is None:
            return html
        done = self._finish(str(html), page) if self._finish else str(html)
        if part == "header":
            around = _around_title(done, _printed_title(page))
            if around is not None:
                self._html[(part, key)] = around
        else:
            self._html[(part, key)] = done
        return html


def _printed_title(page) -> str:
    """The title as the theme's header prints it (``page.meta.title`` or ``page.title``)."""
    return str((page.meta or {}).get("title") or page.title)


def _around_title(header: str, title: str) -> tuple[str, str] | None:
    """``header`` split around the page title in its topic, or None if it is not where expected."""
    at = header.find(_TOPIC)
    if at < 0 or not title:
        return None
    opens = at + len(_TOPIC)
    rest = header[opens:].lstrip()
    if not rest.startswith(_TITLE_OPENS):
        return None
    after = rest[len(_TITLE_OPENS):]
    index = len(header) - len(after.lstrip())
    end = index + len(title)
    if not header.startswith(title, index) or not header[end:].lstrip().startswith("</span>"):
        return None
    return header[:index], header[end:]


def _contents(toc) -> list:
    """The entries the theme's table of contents lists (its ``partials/toc.html``:
    a page's single top heading stands for the page, and its children are listed)."""
    items = list(toc or ())
    if items and items[0].level == 1:
        items = list(items[0].children)
    return items
