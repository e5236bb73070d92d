"""One Markdown page per paper, author, venue and technique.

Fixed structure (headings, lists, links we build) is Markdown so MkDocs can
validate every internal link under ``--strict``; every piece of listing text
goes through ``markup.md_text`` or ``markup.html_text``. Titles reach the page
only as the escaped first heading: never as front-matter ``title``, which
mkdocs-material prints into ``<title>`` without escaping.
"""

from __future__ import annotations

from collections import Counter

from ..model import Paper
from ..bibtex import bibtex_entry, bibtex_html
from .context import AUTHOR, BIBTEX_FILE, PAPER, TECHNIQUE, VENUE, PAPERS_INDEX, SiteContext, newest_first
from .markup import html_text, md_link, md_text, rel, safe_href
from . import graphview
from .notes import note_section


# Search holds what a reader searches for: paper titles, authors, venues and
# abstracts, and technique names and descriptions. Lists that repeat other
# pages' titles (related papers, a technique's papers, neighbourhoods), and
# author and venue pages (nothing but such lists), are left out: with them the
# index was 11 MB at 1,000 papers; see docs/performance.md.
NO_SEARCH = " { data-search-exclude }"


SEARCH_ABSTRACT_CHARS = 1000


def abstract_html(abstract: str) -> list[str]:
    """The abstract's paragraphs as HTML; search indexes its first ``SEARCH_ABSTRACT_CHARS``
    characters (cut at a space), the rest is shown but marked ``data-search-exclude``.

    With whole abstracts the index would pass 15 MB near 10,000 papers (real
    abstracts average 1,300 characters); the first 1,000 characters hold the
    problem and the contribution. See docs/performance.md.
    """
    out, budget = [], SEARCH_ABSTRACT_CHARS
    for para in abstract.split("\n\n"):
        text = " ".join(para.split())
        if not text:
            continue
        if budget <= 0:
            out += [f"<p data-search-exclude>{html_text(text)}</p>", ""]
            continue
        cut = len(text) if len(text) <= budget else max(text.rfind(" ", 0, budget), 0)
        head, tail = text[:cut], text[cut:]
        budget = budget - len(head) if head else 0
        if not head:
            out += [f"<p data-search-exclude>{html_text(text)}</p>", ""]
            continue
        rest = f"<span data-search-exclude>{html_text(tail)}</span>" if tail else ""
        out += [f"<p>{html_text(head)}{rest}</p>", ""]
    return out


def _front_matter(kind: str, search: bool = True) -> str:
    lines = ["---", f"atlas: {kind}"]
    if not search:
        lines += ["search:", "  exclude: true"]
    return "\n".join(lines + ["---", ""])


def venue_year(ctx: SiteContext, paper: Paper, here: str) -> str:
    parts = []
    if paper.venue:
        venue = ctx.venues[paper.venue]
        parts.append(md_link(venue.name, rel(here, VENUE.format(venue.slug))))
    if paper.year:
        parts.append(str(paper.year))
    return " ".join(parts)


def paper_line(ctx: SiteContext, paper: Paper, here: str) -> str:
    """``[Title](link) · MLSys 2023`` for lists of papers.

    The same for every page in one folder (links between ``.md`` sources depend
    only on the folders), and a paper is listed on each of its authors' pages,
    its venue's and its techniques': worked out once per folder.
    """
    lines = ctx.__dict__.setdefault("_paper_lines", {})
    key = (here.rpartition("/")[0], paper.slug)
    line = lines.get(key)
    if line is None:
        line = lines[key] = _paper_line(ctx, paper, here)
    return line


def _paper_line(ctx: SiteContext, paper: Paper, here: str) -> str:
    text = md_link(paper.label, rel(here, PAPER.format(paper.slug)))
    if paper.untitled:
        text += " *(untitled)*"
    where = venue_year(ctx, paper, here)
    return text + (f" · {where}" if where else "")


def author_links(ctx: SiteContext, paper: Paper, here: str) -> str:
    links = [md_link(ctx.authors[k].name, rel(here, AUTHOR.format(ctx.authors[k].slug)))
             for k in paper.authors]
    text = ", ".join(links)
    if paper.authors_truncated:
        text += (", *et al.* (the listing truncates the author list)" if links
                 else "*et al.*")
    return text


def paper_page(ctx: SiteContext, paper: Paper) -> str:
    here = PAPER.format(paper.slug)
    out = [_front_matter("paper"), f"# {md_text(paper.label)}", ""]
    if paper.untitled:
        out += ['!!! info "Untitled paper"',
                f"    The listing gives no title for this paper. “{md_text(paper.label)}” is a "
                "label taken from its abstract, not a title.", ""]
    title_fix = paper.corrected("title")
    if title_fix:
        said = ("gives no title" if title_fix.listed is None
                else f"gives the title “{md_text(str(title_fix.listed))}”")
        out += ['!!! note "Title from a correction"',
                f"    The listing {said}; this title is recorded in `data/corrections.yaml` "
                f"from {_source_link(title_fix.source)}.", ""]
    facts = []
    if paper.authors or paper.authors_truncated:
        facts.append("**Authors:** " + author_links(ctx, paper, here))
    if paper.venue or paper.year:
        facts.append("**Venue:** " + venue_year(ctx, paper, here)
                     if paper.venue else f"**Year:** {paper.year}")
    if paper.date:
        facts.append(f"**Date:** {paper.date}")
    if paper.session:
        facts.append("**Session:** " + md_text(paper.session))
    links = []
    if paper.arxiv:
        links.append(f"[arXiv:{md_text(paper.arxiv)}](https://arxiv.org/abs/{paper.arxiv})")
    if paper.doi:
        links.append(f"[DOI {md_text(paper.doi)}](https://doi.org/{paper.doi})")
    for url in paper.urls:
        href = safe_href(url)
        if href:
            links.append(f"[{md_text(url)}](<{href}>)")
    if paper.has_code and not paper.urls:
        links.append("code available (the listing marks it, without a link)")
    if links:
        facts.append("**Links:** " + " · ".join(links))
    if paper.comments:
        facts.append("**Comments:** " + "; ".join(md_text(c) for c in paper.comments))
    out += ["  \n".join(facts), ""]
    if paper.abstract:
        # A heading without an id: the search index then keeps title, authors and
        # abstract as one entry per paper instead of two (1.2 MB less at 10,000
        # papers; docs/performance.md). It is left out of the page's contents.
        out += ['<h2 class="atlas-abstract">Abstract</h2>', ""]
        out += abstract_html(paper.abstract)
    out += ["## Techniques" + NO_SEARCH, ""]
    if paper.techniques:
        for tag in paper.techniques:
            name = ctx.technique_name(tag.technique)
            out.append(f"- {md_link(name, rel(here, TECHNIQUE.format(tag.technique)))} — "
                       f"“{md_text(tag.evidence)}” *({tag.field}{', weak' if tag.strength == 'weak' else ''})*")
    else:
        out.append("No technique of the taxonomy matches this paper yet.")
    out.append("")
    related = ctx.atlas.related.get(paper.slug, [])
    if related:
        out += ["## Related papers" + NO_SEARCH, ""]
        for item in related:
            other = ctx.papers[item.slug]
            reason = item.reason(ctx.technique_name, ctx.author_name)
            out.append(f"- {paper_line(ctx, other, here)} — {md_text(reason)}")
        out.append("")
    out += note_section(ctx.notes, here)
    out += graphview.local_graph_section(ctx, paper.node_id, here)
    entry = bibtex_entry(paper, ctx.corpus, ctx.citation_keys[paper.slug])
    out += ["## Cite" + NO_SEARCH, "", bibtex_html(entry), "",
            f"All entries: [atlas.bib]({rel(here, BIBTEX_FILE)}).", ""]
    if paper.corrections:
        out += ["## Corrections" + NO_SEARCH, ""]
        by_source: dict[tuple, list[str]] = {}
        for c in paper.corrections:
            by_source.setdefault((c.source, c.note), []).append(c.field)
        out += [f"- {md_text(', '.join(fields))}: from {_source_link(source)}"
                + (f" — {md_text(note)}" if note else "")
                for (source, note), fields in by_source.items()] + [""]
    out += ["## Sources" + NO_SEARCH, ""]
    for source in paper.sources:
        out.append(f"- `{source.ref}`" + (f" (line {source.line})" if source.line else ""))
    out.append("")
    for name, values in paper.field_values.items():       # which source said what, when they differ
        if len({v.value for v in values}) > 1:
            said = "; ".join(f"{md_text(v.value)} (`{v.source.ref}`, {v.kind})" for v in values)
            shown = {"title": paper.title, "venue": paper.venue, "year": paper.year,
                     "authors": ", ".join(ctx.corpus.authors[a].name for a in paper.authors)}.get(name)
            out += [f"Sources disagree on the {name}: {said}. Shown: {md_text(str(shown))}.", ""]
    return "\n".join(out)


def _source_link(source: str) -> str:
    """A correction's source: a link when it is a safe URL, escaped text otherwise."""
    href = safe_href(source)
    if href and not any(c.isspace() or c in "<>" for c in href):
        return f"[{md_text(source)}](<{href}>)"
    return md_text(source)


def author_page(ctx: SiteContext, key: str) -> str:
    author = ctx.authors[key]
    here = AUTHOR.format(author.slug)
    papers = ctx.papers_by_author.get(key, [])
    out = [_front_matter("author", search=False), f"# {md_text(author.name)}", ""]
    out += [f"{len(papers)} paper{'s' if len(papers) != 1 else ''} in the atlas.", ""]
    variants = sorted(author.spellings - {author.name})
    if variants:
        out += ["Also written as: " + ", ".join(md_text(v) for v in variants) + ".", ""]
    out += ["## Papers", ""] + [f"- {paper_line(ctx, p, here)}" for p in papers] + [""]
    coauthors = ctx.coauthors(key)
    if coauthors:
        out += ["## Co-authors", ""]
        for other, count in coauthors:
            o = ctx.authors[other]
            out.append(f"- {md_link(o.name, rel(here, AUTHOR.format(o.slug)))}"
                       + (f" ({count} papers)" if count > 1 else ""))
        out.append("")
    techniques = Counter(t.technique for p in papers for t in p.techniques)
    if techniques:
        out += ["## Techniques", ""]
        for tid, count in sorted(techniques.items(), key=lambda kv: (-kv[1], kv[0])):
            out.append(f"- {md_link(ctx.technique_name(tid), rel(here, TECHNIQUE.format(tid)))} ({count})")
        out.append("")
    out += note_section(ctx.notes, here)
    out += graphview.local_graph_section(ctx, f"author:{author.slug}", here)
    return "\n".join(out)


def venue_page(ctx: SiteContext, key: str) -> str:
    venue = ctx.venues[key]
    here = VENUE.format(venue.slug)
    papers = ctx.papers_by_venue.get(key, [])
    out = [_front_matter("venue", search=False), f"# {md_text(venue.name)}", ""]
    if venue.full_name != venue.name:
        out += [md_text(venue.full_name) + ".", ""]
    out += [f"{len(papers)} paper{'s' if len(papers) != 1 else ''} in the atlas.", ""]
    by_year: dict[int | None, list[Paper]] = {}
    for paper in papers:
        by_year.setdefault(paper.year, []).append(paper)
    for year in sorted(by_year, key=lambda y: -(y or 0)):
        out += [f"## {year or 'Year unknown'}", ""]
        out += [f"- {paper_line(ctx, p, here)}" for p in by_year[year]] + [""]
    out += note_section(ctx.notes, here)
    out += graphview.local_graph_section(ctx, f"venue:{venue.slug}", here)
    return "\n".join(out)


def technique_page(ctx: SiteContext, tid: str) -> str:
    technique = ctx.taxonomy.techniques[tid]
    here = TECHNIQUE.format(tid)
    out = [_front_matter("technique"), f"# {md_text(technique.name)}", ""]
    out += [md_text(technique.description), ""]
    facts = []
    if technique.parent:
        facts.append("**Part of:** " + md_link(ctx.technique_name(technique.parent),
                                                 rel(here, TECHNIQUE.format(technique.parent))))
    children = ctx.taxonomy.children(tid)
    if children:
        facts.append("**Narrower:** " + ", ".join(
            md_link(ctx.technique_name(c), rel(here, TECHNIQUE.format(c)))
            + f" ({ctx.subtree_counts.get(c, 0)})" for c in children))
    terms = [*technique.aliases, *technique.acronyms]
    if terms:
        facts.append("**Matched by:** " + ", ".join(f"“{md_text(t)}”" for t in terms))
    if facts:
        out += ["  \n".join(facts), ""]
    papers = ctx.papers_by_technique.get(tid, [])
    total = ctx.subtree_counts.get(tid, 0)
    out += [f"{len(papers)} paper{'s' if len(papers) != 1 else ''} tagged directly"
            + (f", {total} including narrower techniques." if total != len(papers) else "."), ""]
    if papers:
        out += ["## Papers" + NO_SEARCH, ""]
        for paper in papers:
            tag = ctx.evidence(paper, tid)
            weak = " *(weak: named in one sentence)*" if tag.strength == "weak" else ""
            out.append(f"- {paper_line(ctx, paper, here)}  \n  “{md_text(tag.evidence)}”{weak}")
        out.append("")
        years = Counter(p.year for p in papers if p.year)
        if years:
            out += ["## Papers per year" + NO_SEARCH, "", "| Year | Papers |", "| ---: | ---: |"]
            out += [f"| {y} | {years[y]} |" for y in sorted(years, reverse=True)] + [""]
        cooccur = ctx.cooccurring(tid)[:12]
        if cooccur:
            out += ["## Often together with" + NO_SEARCH, ""]
            out += [f"- {md_link(ctx.technique_name(o), rel(here, TECHNIQUE.format(o)))} ({n})"
                    for o, n in cooccur] + [""]
        authors = Counter(a for p in papers for a in dict.fromkeys(p.authors))
        top = sorted(authors.items(), key=lambda kv: (-kv[1], ctx.author_name(kv[0]).casefold()))[:10]
        if top:
            out += ["## Most frequent authors" + NO_SEARCH, ""]
            out += [f"- {md_link(ctx.author_name(a), rel(here, AUTHOR.format(ctx.authors[a].slug)))} ({n})"
                    for a, n in top] + [""]
    out += note_section(ctx.notes, here)
    out += graphview.local_graph_section(ctx, f"technique:{tid}", here)
    out += ["", f"[All papers]({rel(here, PAPERS_INDEX)})", ""]
    return "\n".join(out)


def all_pages(ctx: SiteContext) -> dict[str, str]:
    pages = {}
    for paper in ctx.corpus.papers:
        pages[PAPER.format(paper.slug)] = paper_page(ctx, paper)
    for key in sorted(ctx.authors):
        pages[AUTHOR.format(ctx.authors[key].slug)] = author_page(ctx, key)
    for key in sorted(ctx.venues):
        pages[VENUE.format(ctx.venues[key].slug)] = venue_page(ctx, key)
    for tid in ctx.taxonomy.techniques:
        pages[TECHNIQUE.format(tid)] = technique_page(ctx, tid)
    return pages


__all__ = ["all_pages", "newest_first"]
