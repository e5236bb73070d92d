"""Normalisation: people, venues, dates, LaTeX, labels, slugs, identity."""

from .papers import Corpus, LedgerRow, normalize

__all__ = ["Corpus", "LedgerRow", "normalize"]
