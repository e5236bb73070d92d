"""Theme icons move to one shared sprite; anything else drawn in SVG stays put."""

from __future__ import annotations

import re

import pytest

from build_graph.render.icons import SPRITE, IconSprite

MENU = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path d="M3 6h18v2H3zm0 5h18v2H3z"/></svg>'
TWO_PATHS = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512"><path d="M1 1h2"/>'
             '<path d="M5 5h1"/></svg>')

KEPT = [
    ("a chart with a role and a title",
     '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" role="img"><title>x</title><path d="M1 1"/></svg>'),
    ("a class", '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" class="c"><path d="M1 1"/></svg>'),
    ("other shapes", '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><rect width="2"/></svg>'),
    ("a path with a style", '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path d="M1" fill="red"/></svg>'),
    ("no viewBox", '<svg xmlns="http://www.w3.org/2000/svg"><path d="M1 1"/></svg>'),
    ("text that only looks like an icon", "&lt;svg xmlns=&quot;http://www.w3.org/2000/svg&quot;&gt;"),
]


@pytest.mark.parametrize("name, html", KEPT, ids=[k[0] for k in KEPT])
def test_what_is_not_an_icon_stays_in_the_page(name, html):
    sprite = IconSprite()
    assert sprite.replace(f"<p>{html}</p>", "papers/x/") == f"<p>{html}</p>"
    assert sprite.symbols == {}


@pytest.mark.parametrize("page_url, href", [
    ("", "assets/atlas-icons.svg"),
    ("papers/", "../assets/atlas-icons.svg"),
    ("papers/tutel/", "../../assets/atlas-icons.svg"),
    ("graph/t/compilers/2/", "../../../../assets/atlas-icons.svg"),
    ("quality.html", "assets/atlas-icons.svg"),           # use_directory_urls: false
])
def test_icons_refer_to_the_sprite_from_where_the_page_is(page_url, href):
    sprite = IconSprite()
    out = sprite.replace(f"<header>{MENU}<a>{MENU}</a></header>", page_url)
    (key,) = sprite.symbols
    use = f'<svg viewBox="0 0 24 24"><use xlink:href="{href}#{key}"/></svg>'
    assert out == f"<header>{use}<a>{use}</a></header>"


def test_the_sprite_holds_each_icon_once_with_its_view_box_in_a_stable_order():
    first, second = IconSprite(), IconSprite()
    first.replace(MENU + TWO_PATHS, "")
    second.replace(TWO_PATHS, "a/")
    second.replace(MENU + MENU, "b/")
    assert first.sprite() == second.sprite()
    symbols = re.findall(r'<symbol id="(i[0-9a-f]{10})" viewBox="([^"]+)">(.*?)</symbol>', first.sprite())
    assert [(view_box, paths) for _, view_box, paths in symbols] == sorted(
        [("0 0 24 24", '<path d="M3 6h18v2H3zm0 5h18v2H3z"/>'),
         ("0 0 512 512", '<path d="M1 1h2"/><path d="M5 5h1"/>')],
        key=lambda item: [k for k, v, p in symbols if (v, p) == item][0])
    assert first.sprite().startswith('<svg xmlns="http://www.w3.org/2000/svg">') and SPRITE.endswith(".svg")


@pytest.mark.parametrize("folder", ["", "papers/x/", "papers/x", "assets/", "assets", "assets/graph/", "a/b/c/",
                                    "assets-old/x/"])
def test_the_sprite_url_is_the_one_relpath_gives(folder):
    import posixpath
    from build_graph.render.icons import SPRITE, relative_url
    assert relative_url(SPRITE, folder) == posixpath.relpath(SPRITE, folder or ".")
