"""Drop the indentation the theme's templates leave in every page.

mkdocs-material's templates are indented for their authors, and Jinja keeps
that indentation: about 4 KB of every page is spaces at the start of lines
and empty lines (a fifth of an author page). A browser treats a run of
white space between tags as one space, so removing a line's leading white
space and empty lines changes nothing it shows, except inside ``<pre>`` and
``<textarea>``, where white space is the content; those, and ``<script>`` and
``<style>`` (whose text we do not parse), are kept byte for byte.
"""

from __future__ import annotations

import json
import re

_VERBATIM = re.compile(r"(<(pre|textarea|script|style)\b.*?</\2\s*>)", re.IGNORECASE | re.DOTALL)
_INDENT = re.compile(r"\n[ \t\r\n]+")     # "+": a line break alone is left, not replaced by itself


def compact_html(html: str) -> str:
    """``html`` with each line's leading white space and every empty line removed,
    outside ``<pre>``, ``<textarea>``, ``<script>`` and ``<style>``."""
    return compact_part(html).lstrip()


def compact_part(html: str) -> str:
    """``compact_html`` for a piece of a page, keeping a leading line break: the
    page it goes into, compacted, is then the same as if the piece had not
    been (a run of white space that starts a line becomes one line break,
    whichever side of the piece's edge it began)."""
    parts = _VERBATIM.split(html)
    # split() with two groups yields: text, whole verbatim element, its tag name, text, ...
    out = []
    for index, part in enumerate(parts):
        kind = index % 3
        if kind == 0:
            out.append(_INDENT.sub("\n", part))
        elif kind == 1:
            out.append(part)
    return "".join(out)


_CONFIG = re.compile(r'(<script id="__config" type="application/json">)(.*?)(</script>)', re.DOTALL)


def drop_lunr_translations(html: str, cache: dict | None = None) -> str:
    """The theme's page config without the texts of its own search's results.

    mkdocs-material puts a JSON config in every page for its scripts; seven of
    its ten translations (``search.result.*``) are the result texts of its
    lunr search, which this site does not run (``search.py``: Pagefind; the
    dialog's texts come from ``theme/partials/search.html``). They were 360
    bytes of every page. The rest of the config is kept as it is.
    """
    match = _CONFIG.search(html)
    if match is None:
        return html
    found = match.group(2)
    if cache is None:
        text = _without_lunr_texts(found)
    else:                                    # pages of one folder depth carry the same config
        text = cache[found] if found in cache else cache.setdefault(found, _without_lunr_texts(found))
    return html if text is None else html[:match.start(2)] + text + html[match.end(2):]


def _without_lunr_texts(config_text: str) -> str | None:
    """The config's JSON without ``search.result.*``; None if it is not the theme's
    config as we know it."""
    try:
        config = json.loads(config_text)
    except ValueError:
        return None
    translations = config.get("translations") if isinstance(config, dict) else None
    if not isinstance(translations, dict):
        return None
    config["translations"] = {k: v for k, v in translations.items() if not k.startswith("search.result.")}
    return json.dumps(config, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")
