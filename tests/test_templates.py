"""One escaping discipline: untrusted text reaches a page only through the
templates' autoescaping or ``render.html.json_attr``.

The hostile fixtures put script tags, event-handler attributes, Markdown,
Jinja syntax and quote-breaking text into every field a listing has. Whatever
a page holds that can run (a ``<script>``, an ``on…=`` attribute) must be
written in a template, never come out of the data; and no template may turn
the escaping off.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from build_graph.render.html import TEMPLATES, Html, environment
from site_pages import SITES, Tags, pages

PACKAGE = Path(__file__).resolve().parent.parent / "build_graph"


def executable(html: str) -> set[tuple[str, str]]:
    """(tag, "script") for every script element, (tag, attribute) for every event handler."""
    found = set()
    for tag, attrs in Tags.of(html):
        if tag == "script":
            found.add((tag, "script"))
        found |= {(tag, name) for name in attrs if name.startswith("on")}
    return found


def in_templates() -> set[tuple[str, str]]:
    found = set()
    for template in TEMPLATES.glob("*.html"):
        text = re.sub(r"\{#.*?#\}", "", template.read_text(encoding="utf-8"), flags=re.S)
        found |= executable(text)
    return found


@pytest.mark.parametrize("site", sorted(SITES))
def test_no_script_or_event_handler_that_no_template_wrote(site):
    allowed = in_templates()
    rendered = pages(site)
    assert sum(isinstance(p, Html) for p in rendered.values()) > 10
    for path, page in rendered.items():
        if isinstance(page, Html):
            assert executable(page.body) <= allowed, path
            assert executable(page.title) == set(), path
            assert "<" not in page.title, path              # the title is escaped text


def test_hostile_text_did_reach_the_pages():
    """The test above is not vacuous: the hostile fixtures' markup is on the pages, as text."""
    bodies = "".join(p.body for p in pages("hostile").values() if isinstance(p, Html))
    assert "&lt;script&gt;window.__pwned" in bodies and "&lt;img src=x onerror=" in bodies
    assert "<script" not in bodies and "onerror=" not in re.sub(r"&lt;img src=x onerror=", "", bodies)


def test_templates_never_turn_escaping_off():
    assert environment().autoescape is True
    for template in TEMPLATES.glob("*.html"):
        text = template.read_text(encoding="utf-8")
        assert not re.search(r"\|\s*safe\b|autoescape\s+false|Markup\(", text), template.name


def test_only_the_html_module_and_notes_make_markup():
    """``Markup(...)`` declares a string already safe: only ``render/html.py`` (the
    templates' output, ``json_attr``), ``render/notes.py`` (a note's HTML) and
    ``render/svg.py`` (a chart, every text in it escaped: tests/test_svg.py) may."""
    makers = {path.relative_to(PACKAGE).as_posix() for path in PACKAGE.rglob("*.py")
              if "Markup(" in path.read_text(encoding="utf-8")}
    assert makers <= {"render/html.py", "render/notes.py", "render/svg.py"}
