"""Contributors' notes are untrusted: rendered as Markdown, then sanitized.

A note (``notes/<kind>/<id>.md``) comes in by pull request. Whatever HTML
or Markdown it holds, what reaches the page must not run: no script, no
event handler, no ``javascript:``/``data:``/``vbscript:`` URL, no inline
style, no frame, object or form. Formatting a reviewer would expect to
survive does.
"""

from __future__ import annotations

import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest

from build_graph.render.html import Toc, environment
from build_graph.render.notes import NOTE_URL_SCHEMES, Note, note_html
from build_graph.site_build import SiteBuilder

FORBIDDEN_TAGS = {"script", "style", "iframe", "frame", "frameset", "object", "embed", "form", "input",
                  "button", "textarea", "select", "link", "meta", "base", "svg", "math", "template"}
URL_ATTRIBUTES = {"href", "src", "action", "formaction", "xlink:href", "poster", "background"}


class Elements(HTMLParser):
    """Every start tag with its attributes, as a browser's tokenizer sees them."""

    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []
        self.feed(html)
        self.close()

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    handle_startendtag = handle_starttag

    def handle_data(self, data):
        self.text.append(data)


def problems(html: str) -> list[str]:
    """Everything in ``html`` that could run or restyle the page."""
    found = []
    for tag, attrs in Elements(html).tags:
        if tag in FORBIDDEN_TAGS:
            found.append(f"<{tag}>")
        for name, value in attrs.items():
            if name.startswith("on"):
                found.append(f"{tag} {name}=")
            if name == "style":
                found.append(f"{tag} style=")
            if name in URL_ATTRIBUTES and value is not None:
                scheme = value.strip().partition(":")[0].lower() if ":" in value.split("/")[0] else ""
                if scheme and scheme not in NOTE_URL_SCHEMES:
                    found.append(f"{tag} {name}={value!r}")
    return found


def note(text: str) -> Note:
    return Note("notes/papers/x.md", text, Path("notes/papers/x.md"))


HOSTILE = [
    ("script tag", "Before <script>alert('x')</script> after"),
    ("script, upper case", "<SCRIPT SRC=https://evil.example/x.js></SCRIPT>"),
    ("img onerror", '<img src=x onerror="alert(1)">'),
    ("svg onload", "<svg onload=alert(1)><circle r=1></circle></svg>"),
    ("Markdown javascript link", "[click](javascript:alert(document.cookie))"),
    ("mixed-case scheme", "[click](JaVaScRiPt:alert(1))"),
    ("entity-encoded scheme", '<a href="jav&#x09;ascript:alert(1)">x</a>'),
    ("data URL link", '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>'),
    ("data URL image", "![x](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)"),
    ("vbscript link", "[x](vbscript:msgbox(1))"),
    ("style element", "<style>body { display: none }</style>Text"),
    ("style attribute", '<p style="position:fixed;top:0;left:0;width:100%">cover</p>'),
    ("iframe", '<iframe src="https://evil.example/"></iframe>'),
    ("object and embed", '<object data="x.swf"></object><embed src="x.swf">'),
    ("form", '<form action="https://evil.example/"><input name=p><button>Go</button></form>'),
    ("meta refresh", '<meta http-equiv="refresh" content="0;url=https://evil.example/">'),
    ("base href", '<base href="https://evil.example/">'),
    ("event handler on a kept tag", '<a href="https://ok.example/" onclick="alert(1)">ok</a>'),
    ("raw HTML block", '<div onmouseover="alert(1)">\n\n**bold**\n\n</div>'),
    ("unclosed tag tricks", '<img src="x" alt="<script>alert(1)</script>" onerror=alert(1) '),
    ("HTML comment hiding a script", "<!-- <script>alert(1)</script> -->visible"),
]


@pytest.mark.parametrize("label, text", HOSTILE, ids=[h[0] for h in HOSTILE])
def test_hostile_notes_lose_everything_that_could_run(label, text):
    html = note_html(note(text))
    assert problems(html) == [], html
    assert "<script" not in html.lower(), html


@pytest.mark.parametrize("html, expected", [
    ('<script>alert(1)</script>', ["<script>"]),
    ('<img src="x" onerror="y">', ["img onerror="]),
    ('<a href=" JavaScript:alert(1)">x</a>', ["a href=' JavaScript:alert(1)'"]),
    ('<a href="data:text/html,x">x</a>', ["a href='data:text/html,x'"]),
    ('<p style="color:red">x</p>', ["p style="]),
    ('<a href="https://x.org/a:b">x</a><a href="../papers/p/">y</a><a href="mailto:a@b.org">z</a>', []),
])
def test_the_checker_itself_sees_what_it_should(html, expected):
    """The check must be able to fail: each unsanitized payload is reported."""
    assert problems(html) == expected


BENIGN = [
    ("emphasis", "Start with *the survey* and **this** one.", ["<em>the survey</em>", "<strong>this</strong>"]),
    ("heading", "## Further reading\n\ntext", ["<h2>Further reading</h2>"]),
    ("http link", "[the paper](https://arxiv.org/abs/2405.00002 \"arXiv\")",
     ['href="https://arxiv.org/abs/2405.00002"', 'title="arXiv"', ">the paper</a>"]),
    ("relative link", "See [TACCL](../papers/taccl/).", ['href="../papers/taccl/"']),
    ("mailto link", "<mailto:maintainers@example.org>", ['href="mailto:maintainers@example.org"']),
    ("image", "![A diagram](https://example.org/d.png)", ['src="https://example.org/d.png"', 'alt="A diagram"']),
    ("inline code keeps markup as text", "Use `<script>` tags sparingly.", ["<code>&lt;script&gt;</code>"]),
    ("fenced code", "```python\nif a < b:\n    print('<b>')\n```",
     ["<pre><code>", "if a &lt; b:", "print('&lt;b&gt;')"]),
    ("table", "| a | b |\n| --- | --- |\n| 1 | 2 |", ["<table>", "<th>a</th>", "<td>2</td>"]),
    ("lists", "1. one\n2. two\n\n- x\n- y", ["<ol>", "<li>one</li>", "<ul>", "<li>y</li>"]),
    ("quote", "> quoted", ["<blockquote>", "quoted"]),
    ("template syntax stays text", "{{ config.site_name }} {% if x %}", ["{{ config.site_name }} {% if x %}"]),
]


@pytest.mark.parametrize("label, text, kept", BENIGN, ids=[b[0] for b in BENIGN])
def test_benign_formatting_survives(label, text, kept):
    html = note_html(note(text))
    for fragment in kept:
        assert fragment in html, (fragment, html)
    assert problems(html) == []


def note_section(notes: dict, src_uri: str) -> str:
    """The "Notes" section of a page, as the page templates write it (the ``note`` macro)."""
    found = notes.get(src_uri)
    template = environment().from_string('{% import "_macros.html" as m with context %}'
                                         "{{ m.note(note_html, note_path) }}")
    return template.render(toc=Toc(), url=str, note_html=note_html(found) if found else None,
                           note_path=found.path if found else None).strip()


def test_note_section_embeds_the_sanitized_html_once():
    body = note_section({"papers/x.md": note("Hi <img src=x onerror=alert(1)> *there*")}, "papers/x.md")
    assert body.startswith('<h2 id="notes">Notes<')
    assert "onerror" not in body and "<em>there</em>" in body and body.count("<em>there</em>") == 1
    assert '<div class="atlas-note">' in body and "<em>From <code>notes/papers/x.md</code>.</em>" in body
    assert note_section({}, "papers/x.md") == ""


def test_a_hostile_note_is_sanitized_on_the_generated_page(root, tmp_path):
    """End to end through the site builder: the page the plugin hands MkDocs."""
    data = tmp_path / "data"
    shutil.copytree(root / "data", data)
    seeds = tmp_path / "seeds"
    seeds.mkdir()
    shutil.copy(root / "tests" / "fixtures" / "curation" / "listing.txt", seeds / "listing.txt")
    notes = tmp_path / "notes" / "techniques"
    notes.mkdir(parents=True)
    payload = "\n\n".join(text for _, text in HOSTILE) + "\n\nKeep *this*.\n"
    (notes / "quantization.md").write_text(payload, encoding="utf-8")
    page = SiteBuilder().build(seeds, data, tmp_path / "notes")["techniques/quantization.md"].body
    notes_part = page[page.index('id="notes"'):]
    assert problems(notes_part) == [], notes_part
    assert "<em>this</em>" in notes_part
    # Payload words may remain as escaped, visible text (``&lt;img ... onerror=``); tags may not.
    for needle in ("<script", "<iframe", "<style", "<object", "<form", "<svg"):
        assert needle not in notes_part.lower(), needle
