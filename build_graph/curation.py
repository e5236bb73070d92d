"""Curated data files, loaded and validated together.

Everything a human decided (venue names, non-name rules, the technique
taxonomy) lives in ``data/`` as reviewable YAML. This module is the single
place that knows the file names, so the pipeline, the CLI and the tests load
curation the same way.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .normalize.nonnames import NonNames, load_non_names
from .normalize.venues import VenueTable, load_venues

DATA_DIR = Path(__file__).resolve().parent.parent / "data"


@dataclass
class Curation:
    data_dir: Path
    venues: VenueTable
    non_names: NonNames


def _display(path: Path) -> str:
    try:
        return path.relative_to(Path.cwd()).as_posix()
    except ValueError:
        return str(path)


def load_curation(data_dir: Path | None = None) -> Curation:
    data_dir = Path(data_dir or DATA_DIR)
    venues = data_dir / "venues.yaml"
    non_names = data_dir / "non_names.yaml"
    return Curation(
        data_dir=data_dir,
        venues=load_venues(venues, _display(venues)),
        non_names=load_non_names(non_names, _display(non_names)),
    )
