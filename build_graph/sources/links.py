"""Paper identifiers inside links and identifier fields, shared by the structured formats.

BibTeX, CSL-JSON and awesome lists all carry arXiv ids and DOIs in several
spellings: ``https://arxiv.org/abs/2305.14314v2``, ``arxiv.org/pdf/2305.14314.pdf``,
``arXiv:2305.14314``, ``https://doi.org/10.1145/3600006.3613165``,
``doi:10.1145/...``, ACM Digital Library pages (``dl.acm.org/doi/10.1145/...``),
and arXiv's own DOI ``10.48550/arXiv.2305.14314``. One
reader keeps them identical, so the same paper merges whichever file it came from.
The arXiv version suffix (``v2``) is dropped: it names a revision, not a paper.
"""

from __future__ import annotations

import re
from urllib.parse import unquote

_NEW_ID = r"\d{4}\.\d{4,5}"
_OLD_ID = r"[a-z][a-z.\-]*/\d{7}"
ARXIV_ID = re.compile(rf"^(?:arxiv:\s*)?({_NEW_ID}|{_OLD_ID})(?:v\d+)?$", re.IGNORECASE)
_ARXIV_URL = re.compile(
    rf"^https?://(?:www\.|export\.)?arxiv\.org/(?:abs|pdf|html)/({_NEW_ID}|{_OLD_ID})(?:v\d+)?"
    r"(?:\.pdf)?/?(?:[?#].*)?$", re.IGNORECASE)
_DOI = re.compile(r"^(?:doi:\s*|https?://(?:dx\.)?doi\.org/)?(10\.\d{4,9}/\S+)$", re.IGNORECASE)
# Publisher pages whose path is the DOI (the ACM Digital Library).
_DOI_PAGE = re.compile(r"^https?://dl\.acm\.org/doi/(?:abs/|pdf/|full/|epdf/|fullHtml/)?(10\.\d{4,9}/[^?#\s]+)",
                       re.IGNORECASE)
_ARXIV_DOI = re.compile(rf"^10\.48550/arxiv\.({_NEW_ID}|{_OLD_ID})(?:v\d+)?$", re.IGNORECASE)


def arxiv_id(text: str | None) -> str | None:
    """The arXiv id in an id field (``arXiv:2305.14314v2``), a URL or an arXiv DOI."""
    if not text:
        return None
    text = text.strip()
    for pattern in (ARXIV_ID, _ARXIV_URL):
        match = pattern.match(text)
        if match:
            return match.group(1)
    doi = doi_of(text)
    match = _ARXIV_DOI.match(doi) if doi else None
    return match.group(1) if match else None


def doi_of(text: str | None) -> str | None:
    """The DOI in a DOI field or a ``doi.org`` link, without prefix; ``None`` otherwise."""
    if not text:
        return None
    text = unquote(text.strip())
    match = _DOI.match(text) or _DOI_PAGE.match(text)
    return match.group(1).rstrip(".,;/") if match else None


_PREPRINT_VENUE = re.compile(r"^\s*(?:corr|arxiv(?:\.org)?(?:\s+preprint)?\b.*|biorxiv.*|medrxiv.*)$",
                             re.IGNORECASE)


def is_preprint_server(venue: str | None) -> bool:
    """``CoRR``, ``arXiv``, ``arXiv preprint arXiv:2305.14314``: a preprint, not a venue."""
    return bool(venue) and bool(_PREPRINT_VENUE.match(venue))
