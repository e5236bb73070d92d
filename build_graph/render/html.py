"""From data to HTML in one step: the Jinja environment, the page object, links.

Every generated page is a Jinja template in ``build_graph/templates/`` rendered
with autoescaping on, so untrusted text (titles, names, abstracts, venue
strings) reaches HTML in exactly two ways:

* as a template variable, escaped by Jinja (``{{ paper.label }}``);
* as data for a script, through ``json_attr`` (the one JSON-in-attribute helper).

Nothing is written as Markdown and nothing is parsed again: the plugin hands
``Html.body`` to MkDocs as the page's content (``plugin.AtlasPage``).

Links are worked out here too, once: ``url_of`` is the directory URL MkDocs
gives a source path (``papers/x.md`` -> ``papers/x/``) and ``relative`` the
link between two such URLs, so a link in a template is the final relative
URL that a browser follows, and ``tests/test_links.py`` checks that every one
of them lands on a page or file the build makes.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined
from markupsafe import Markup, escape

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"


@dataclass(frozen=True)
class Html:
    """A generated page: its HTML body and what MkDocs needs to know about it.

    ``title`` is HTML text (escaped by the template), as MkDocs' own
    ``Page.title`` is: the theme prints it into the header and ``<title>``.
    ``toc`` holds the headings as MkDocs' ``get_toc`` takes them. ``meta`` is
    the page's metadata (``hide: [navigation]``), as
    front matter would have given it. ``parts`` are named pieces of the body
    that a hand-written page may take instead (the home page's dashboard).
    """

    body: str
    title: str
    toc: tuple = ()
    meta: dict = field(default_factory=dict)
    parts: dict = field(default_factory=dict, compare=False)
    search: str = field(default="", compare=False)   # the part search indexes (``search.py``); in ``body`` too

    def __str__(self) -> str:
        return self.body

    @property
    def anchors(self) -> set[str]:
        return set(_ids(self.toc))


def _ids(tokens):
    for token in tokens:
        yield token["id"]
        yield from _ids(token["children"])


class Toc:
    """The headings a template writes, collected as it writes them.

    The page template calls ``toc.heading(level, id, text)`` (through the
    ``heading`` macro) for every heading that belongs in the table of
    contents; ids are made unique the way Python-Markdown's toc does it
    (``x``, ``x_1``, ...), so two venues' "2023" never share an anchor.
    """

    def __init__(self):
        self.tokens: list[dict] = []
        self._stack: list[dict] = []
        self._seen: set[str] = set()

    def heading(self, level: int, ident, text: str) -> str:
        ident = str(ident)
        unique, n = ident, 0
        while unique in self._seen:
            n += 1
            unique = f"{ident}_{n}"
        self._seen.add(unique)
        token = {"level": level, "id": unique, "name": str(text), "children": []}
        while self._stack and self._stack[-1]["level"] >= level:
            self._stack.pop()
        (self._stack[-1]["children"] if self._stack else self.tokens).append(token)
        self._stack.append(token)
        return unique

    def freeze(self) -> tuple:
        return tuple(self.tokens)


def json_attr(data) -> Markup:
    """``data`` as JSON for an HTML attribute value written in *single* quotes:
    ``data-graph='{{ data | json_attr }}'``; never inside double quotes.

    The one way data for a script enters a page. Safe with any string in
    ``data``: a single-quoted value ends only at ``'``, written ``&#39;``;
    ``&`` becomes ``&amp;`` first, so the browser's decoding gives back exactly
    the JSON text; ``<`` and ``>`` become ``&lt;``/``&gt;``, so no tag-like
    text (``</div>``, ``<script>``, ``<!--``) appears in the page source at
    all. JSON itself escapes ``"``, ``\\`` and every control character inside
    strings, so the value is one line. JSON's many ``"`` stay as they are: at
    5,000 papers a local graph per page made ``&quot;`` (six bytes each) a
    third of every page. Keys keep the order given.
    """
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return Markup(text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
                  .replace("'", "&#39;"))


@lru_cache(maxsize=1 << 17)
def url_of(src_uri: str) -> str:
    """The directory URL MkDocs gives ``src_uri`` (``papers/x.md`` -> ``papers/x/``);
    files that are not pages keep their path."""
    if not src_uri.endswith(".md"):
        return src_uri
    if src_uri == "index.md" or src_uri.endswith("/index.md"):
        return src_uri[: -len("index.md")]
    return src_uri[: -len(".md")] + "/"


@lru_cache(maxsize=1 << 16)
def _relative(from_dir: str, to: str) -> str:
    here = [part for part in from_dir.split("/") if part]
    there = to.split("/")
    same = 0
    while same < len(here) and same < len(there) - 1 and here[same] == there[same]:
        same += 1
    return "/".join([".."] * (len(here) - same) + there[same:]) or "./"


def href(here: str, target: str) -> str:
    """The relative URL from page ``here`` to page or file ``target`` (source paths).

    The one relative-link helper of the package. Computed from strings only
    (``posixpath.relpath`` asks the OS for the working directory on every
    call; pages make about 130 links each). A link to anything outside
    ``here``'s own URL is ``../`` plus the link from the folder above it,
    which all pages of a folder share: that part is remembered.
    """
    here_url, there = url_of(here), url_of(target)
    if not here_url or there.startswith(here_url):       # the home page, or itself and below
        return _relative(here_url, there)
    up = _relative(here_url[:-1].rpartition("/")[0], there)
    return "../" if up == "./" else "../" + up


@lru_cache(maxsize=1)
def environment() -> Environment:
    # auto_reload off: the templates are package files, and checking them on
    # every import of _macros.html was a stat() per page.
    env = Environment(loader=FileSystemLoader(str(TEMPLATES)), autoescape=True, auto_reload=False,
                      undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                      keep_trailing_newline=True)
    env.filters["json_attr"] = json_attr
    env.filters["plural"] = lambda n, word: f"{n} {word}{'' if n == 1 else 's'}"
    return env


def render(template: str, here: str, meta: dict | None = None, **values) -> Html:
    """Render one page template for the page at source path ``here``.

    The template sets ``title`` (``{% set title %}…{% endset %}``: escaped
    like everything else it writes) and, on a page that search indexes,
    ``search`` (the ``data-pagefind-body`` element, also printed in the page);
    it writes its headings through the ``heading`` macro, which fills the
    table of contents.
    """
    toc = Toc()
    module = environment().get_template(template).make_module(
        {"here": here, "url": lambda target: href(here, target), "toc": toc, **values})
    return Html(body=str(module), title=str(module.title), toc=toc.freeze(), meta=meta or {},
                search=str(getattr(module, "search", "")))


def fragment(template: str, **values) -> Markup:
    """A piece of HTML shared by many pages (a paper's line in a list)."""
    return Markup(environment().get_template(template).render(**values).strip())


def shared_link(cache: dict, here: str, target: str, text: str) -> Markup:
    """``<a href="…">text</a>`` from page ``here`` to ``target``, from ``link.html``.

    An author is linked from every co-author's page, a technique from every
    paper that uses it: the link's HTML is the same on every page of a folder
    (``href``), so it is rendered once per folder and kept in ``cache`` (one
    per build, on the ``SiteContext``).
    """
    if target == here:                      # a link to the page it is on is only its text
        return escape(text)
    folder, _, name = here.rpartition("/")
    key = (folder, name == "index.md", target, text)
    found = cache.get(key)
    if found is None:
        found = cache[key] = fragment("link.html", href=href(here, target), text=text)
    return found


EXCLUDED = {"search": {"exclude": True}}
