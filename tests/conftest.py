"""Shared fixtures: the real atlas, built once per test session."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def pytest_configure(config):
    # Registered here rather than in pyproject.toml: it only concerns the optional corpus tests.
    config.addinivalue_line("markers", "corpus: needs the shared systems corpus (opt-in via ATLAS_CORPUS)")


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


@pytest.fixture(scope="session")
def listed_atlas(tmp_path_factory):
    """The real seeds as their listings state them: the project's data/ without
    corrections.yaml, for tests of what parsing and normalisation alone do
    (untitled papers, venues from comments). ``atlas`` is the published one."""
    import shutil

    from build_graph.pipeline import build_atlas
    data = tmp_path_factory.mktemp("listed") / "data"
    shutil.copytree(ROOT / "data", data)
    (data / "corrections.yaml").unlink()
    return build_atlas(ROOT / "seeds", data, strict=True)


@pytest.fixture(scope="session")
def listed_export(listed_atlas):
    import json

    from build_graph.graph import export_json
    return json.loads(export_json(listed_atlas.graph))
