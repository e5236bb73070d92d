"""Shared fixtures: the real atlas, built once per test session."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT


@pytest.fixture(scope="session")
def atlas():
    from build_graph.pipeline import build_atlas
    return build_atlas(ROOT / "seeds", ROOT / "data", strict=True)


@pytest.fixture(scope="session")
def export(atlas):
    import json

    from build_graph.graph import export_json
    return json.loads(export_json(atlas.graph))
