"""BibTeX for every paper: one entry per paper page and one ``.bib`` for the atlas.

Citation keys
-------------
A key is read from the paper itself: first author's family name, year and
first significant title word, in lower-case ASCII, each word at most 20
characters (``kwon2023xrbench``).
Untitled papers use their label instead of a title; missing parts are
``anon`` (no authors) and ``nd`` (no year).

Keys must survive the atlas growing: a LaTeX document that cites
``kwon2023xrbench`` must keep compiling to the same paper after someone adds
an unrelated listing. So collisions are never settled by order ("first comer
keeps the plain key, the next gets ``b``"), which would let a new paper
steal or shift a key. Instead, when two or more papers share a base key,
*every* one of them gets a suffix from a hash of its own slug
(``smith2023deep-1a2b``), and the plain key stops existing. Consequences:

* adding a paper whose base key is new to the atlas changes no other key;
* adding a paper that collides with an existing key retires that key, and a
  document citing it gets an "undefined citation" warning instead of silently
  citing a different paper; that is the only way an old key ever changes
  apart from the paper's own author, year or title being corrected;
* in the astronomically rare case of two suffixes meeting, the colliding
  papers get longer hashes (still a function of the colliding slugs only).

Entries
-------
The entry type follows the data and nothing is invented:
``@inproceedings`` with ``booktitle`` when a venue is known, ``@misc`` with
``eprint`` for arXiv-only papers, ``@misc`` with a ``note`` otherwise. An
untitled paper has no ``title`` field (its label is not its title) but a
``note`` saying so. Values are escaped so that nothing in them is
interpreted by (La)TeX or breaks BibTeX's brace counting, which ignores
backslashes: braces become ``\\textbraceleft{}``/``\\textbraceright{}``, not
``\\{``. Unicode is kept as is (biblatex and biber read UTF-8).
"""

from __future__ import annotations

import html
import re

from .normalize.slugs import ascii_words, short_hash

_STOP_WORDS = {"a", "an", "the", "on", "of", "in", "for", "to", "towards", "toward", "and",
               "with", "via", "from", "by", "at", "is", "are", "do", "does", "when", "why",
               "how", "what", "as"}
_NAME_SUFFIXES = {"jr", "sr", "ii", "iii", "iv"}
_SUFFIX_LENGTHS = (4, 8, 40)
_PART = 20

_TEX_ESCAPES = {
    "\\": r"\textbackslash{}",
    "{": r"\textbraceleft{}",
    "}": r"\textbraceright{}",
    "%": r"\%",
    "&": r"\&",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "^": r"\textasciicircum{}",
    "~": r"\textasciitilde{}",
}
_TEX_TABLE = str.maketrans(_TEX_ESCAPES)


# --- keys --------------------------------------------------------------------------

def _family_name(display: str) -> str:
    tokens = [ascii_words(t).replace("-", "") for t in display.split()]
    tokens = [t for t in tokens if t]
    while len(tokens) > 1 and tokens[-1] in _NAME_SUFFIXES:
        tokens.pop()
    return tokens[-1] if tokens else ""


def _first_word(text: str) -> str:
    # Split on spaces first, so "X-RLFlow" and "Co-design" stay one word.
    words = [w for w in (ascii_words(t).replace("-", "") for t in text.split()) if w]
    for word in words:
        if word not in _STOP_WORDS:
            return word
    return words[0] if words else ""


def base_key(paper, corpus) -> str:
    first = corpus.authors[paper.authors[0]].name if paper.authors else ""
    # Each part is capped so a junk "name" in a listing can't make a 60-character key.
    return ((_family_name(first)[:_PART] or "anon") + (str(paper.year) if paper.year else "nd")
            + (_first_word(paper.title or paper.label)[:_PART] or "untitled"))


def citation_keys(papers, corpus) -> dict[str, str]:
    """``{paper slug: citation key}``; see the module docstring for why it is stable."""
    groups: dict[str, list[str]] = {}
    for paper in papers:
        groups.setdefault(base_key(paper, corpus), []).append(paper.slug)
    keys: dict[str, str] = {}
    for base, slugs in groups.items():
        if len(slugs) == 1:
            keys[slugs[0]] = base
            continue
        for length in _SUFFIX_LENGTHS:
            suffixed = {slug: f"{base}-{short_hash(slug, length)}" for slug in slugs}
            if len(set(suffixed.values())) == len(slugs):
                break
        keys.update(suffixed)
    return keys


# --- values ------------------------------------------------------------------------

def escape(text: str) -> str:
    """A BibTeX field value that (La)TeX prints verbatim; braces always balance."""
    return " ".join(str(text).split()).translate(_TEX_TABLE)


def _verbatim(text: str) -> str:
    """For ``doi``/``url``/``eprint``, which biblatex reads verbatim: nothing is
    escaped, so the few characters that would break the entry are percent-encoded."""
    return re.sub(r"[{}\\\s%]", lambda m: "%{:02X}".format(ord(m.group())), str(text))


def _person(display: str) -> str:
    # BibTeX splits author lists on " and " and reads "A, B" as "Last, First";
    # a name holding either is kept whole inside braces.
    name = escape(display)
    if re.search(r"\s+and\s+|,", name, re.IGNORECASE):
        return "{" + name + "}"
    return name


def _booktitle(venue) -> str:
    if venue.full_name and venue.full_name != venue.key:
        return f"{venue.full_name} ({venue.key})"
    return venue.full_name or venue.key


def bibtex_entry(paper, corpus, key: str) -> str:
    venue = corpus.venues.get(paper.venue) if paper.venue else None
    fields: list[tuple[str, str]] = []
    if paper.title:
        fields.append(("title", escape(paper.title)))
    if paper.authors:
        names = [_person(corpus.authors[a].name) for a in paper.authors]
        if paper.authors_truncated:
            names.append("others")
        fields.append(("author", " and ".join(names)))
    if venue:
        kind = "inproceedings"
        fields.append(("booktitle", escape(_booktitle(venue))))
    else:
        kind = "misc"
    if paper.year:
        fields.append(("year", str(paper.year)))
    if paper.doi:
        fields.append(("doi", _verbatim(paper.doi)))
    if paper.arxiv:
        fields += [("eprint", _verbatim(paper.arxiv)), ("archivePrefix", "arXiv")]
        fields.append(("url", _verbatim(f"https://arxiv.org/abs/{paper.arxiv}")))
    notes = []
    if not paper.title:
        notes.append(f"Untitled in the source listing; label: {escape(paper.label)}")
    if not venue and not paper.arxiv:
        notes.append("Venue not stated in the source listings")
    if notes:
        fields.append(("note", ". ".join(notes)))
    width = max(len(name) for name, _ in fields)
    body = ",\n".join(f"  {name.ljust(width)} = {{{value}}}" for name, value in fields)
    return f"@{kind}{{{key},\n{body}\n}}\n"


def bibtex_file(atlas) -> str:
    corpus = atlas.corpus
    keys = citation_keys(corpus.papers, corpus)
    by_key = sorted((keys[p.slug], p) for p in corpus.papers)
    header = (f"% MLSys Atlas: {len(by_key)} papers, generated from the listings in seeds/.\n"
              "% Encoding: UTF-8. Citation keys are stable; see build_graph/bibtex.py.\n")
    return header + "".join("\n" + bibtex_entry(p, corpus, key) for key, p in by_key)


def bibtex_html(entry: str) -> str:
    """A raw HTML code block: mkdocs-material gives every ``pre > code`` in the
    page content a copy button (``content.code.copy``), and Markdown leaves a
    raw HTML block alone, so the entry is shown and copied byte for byte."""
    return f'<pre class="atlas-bibtex"><code>{html.escape(entry.rstrip(chr(10)))}</code></pre>\n'
