"""Everything ``build_graph`` imports is declared in ``pyproject.toml``.

A developer's machine has packages a user's does not (numpy arrived here
only because the machine had it, and a fresh install failed). So: parse
every import in the package, map each top-level module to the distribution
that provides it, and require that distribution among the declared
dependencies. Development tools (files under ``build_graph/devtools/``:
benchmarks, synthetic data, evaluation) may also use what the optional
extras declare; the pipeline may not.
"""

from __future__ import annotations

import ast
import functools
import re
import sys
import tomllib
from importlib.metadata import packages_distributions as _packages_distributions
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "build_graph"
# Development tools, run by developers only: they may use the optional extras.
DEV_TOOLS = PACKAGE / "devtools"


packages_distributions = functools.cache(_packages_distributions)     # reads every installed dist


def canonical(name: str) -> str:
    """PEP 503: ``PyYAML``, ``pyyaml`` and ``py_yaml`` are one distribution."""
    return re.sub(r"[-_.]+", "-", name).lower()


def requirement_name(requirement: str) -> str:
    return canonical(re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", requirement).group(1))


def declared() -> tuple[set[str], set[str]]:
    """(runtime dependencies, everything the optional extras add)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    runtime = {requirement_name(r) for r in project["dependencies"]}
    extras = {requirement_name(r) for reqs in project.get("optional-dependencies", {}).values() for r in reqs}
    return runtime, extras


def imported_modules(source: str) -> set[str]:
    """Top-level names of every absolute import, at any depth (lazy imports count)."""
    names = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name.partition(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.partition(".")[0])
    return names


def undeclared(modules: set[str], allowed: set[str], providers: dict[str, list[str]]) -> list[str]:
    """Modules that are neither the standard library, nor ours, nor provided by
    an allowed distribution. A module no installed distribution provides is
    reported too: it cannot be declared correctly from here."""
    missing = []
    for module in sorted(modules):
        if module in sys.stdlib_module_names or module in {"build_graph", "__future__"}:
            continue
        dists = {canonical(d) for d in providers.get(module, [])}
        if not dists & allowed:
            missing.append(f"{module} (from {', '.join(sorted(dists)) or 'no installed distribution'})")
    return missing


def package_sources() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


@pytest.mark.parametrize("path", package_sources(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_import_is_declared(path):
    runtime, extras = declared()
    allowed = runtime | extras if path.is_relative_to(DEV_TOOLS) else runtime
    missing = undeclared(imported_modules(path.read_text("utf-8")), allowed, packages_distributions())
    assert not missing, (f"{path.relative_to(ROOT)} imports what pyproject.toml does not declare: "
                         + "; ".join(missing))


@pytest.mark.parametrize("source, allowed, missing", [
    ("import numpy as np\n", {"networkx"}, ["numpy (from numpy)"]),
    ("import numpy as np\n", {"numpy"}, []),
    ("def f():\n    from yaml import safe_load\n", set(), ["yaml (from pyyaml)"]),
    ("from yaml import safe_load\n", {"pyyaml"}, []),
    ("import os, json\nfrom . import model\nfrom build_graph.errors import AtlasError\n", set(), []),
    ("import no_such_module_anywhere\n", {"no-such-module-anywhere"},
     ["no_such_module_anywhere (from no installed distribution)"]),
])
def test_the_check_catches_what_it_should(source, allowed, missing):
    """The check itself, on small sources: a lazy import counts, the standard
    library and our own package never do, and names are compared canonically."""
    assert undeclared(imported_modules(source), allowed, packages_distributions()) == missing


def test_declared_names_are_canonical():
    assert requirement_name("PyYAML>=6.0.1,<7") == "pyyaml"
    assert requirement_name("mkdocs-material>=9.5") == requirement_name("mkdocs_material")
    runtime, _ = declared()
    assert {"numpy", "scipy", "jinja2", "markdown", "networkx", "pyvis", "pyyaml", "mkdocs"} <= runtime


def lower_bound(requirement: str) -> str | None:
    found = re.search(r">=\s*([0-9][^,;\s]*)", requirement)
    return found.group(1) if found else None


def test_lowest_constraints_pin_every_direct_dependency_at_its_lower_bound():
    """``.ci/lowest`` tests these versions, so they must be the bounds we declare."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    requirements = [*project["dependencies"], *project["optional-dependencies"]["test"]]
    bounds = {requirement_name(r): lower_bound(r) for r in requirements}
    assert all(bounds.values()), f"every direct dependency needs a lower bound: {bounds}"
    pins = {}
    for line in (ROOT / ".ci" / "lowest-constraints.txt").read_text("utf-8").splitlines():
        line = line.split("#")[0].strip()
        if line:
            name, _, version = line.partition("==")
            pins[canonical(name)] = version
    assert {name: release(v) for name, v in pins.items()} == {name: release(b) for name, b in bounds.items()}


def release(version: str) -> tuple[int, ...]:
    """``3.4`` and ``3.4.0`` are one release; ``1.10`` is not ``1.1``."""
    parts = [int(p) for p in version.split(".")]
    while parts and parts[-1] == 0:
        parts.pop()
    return tuple(parts)
