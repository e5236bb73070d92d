"""The package's layout is its architecture: the pipeline never depends on the development tools.

``build_graph/devtools/`` holds benchmarks, synthetic data and evaluation
scripts; they may use the optional extras (playwright, ...) and may change
without notice. A build (sources, normalize, tagging, graph, render, the
MkDocs plugin) must not import them, or a user's ``mkdocs build`` would pull
in developer-only code. Only the command line may, lazily, inside the
functions of its developer commands (``bench``, ``evaluate``,
``suggest --corpus``).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "build_graph"
DEVTOOLS = "build_graph.devtools"
# May import dev tools, but only inside a function (a lazy import for a developer command).
LAZY_ONLY = {"build_graph.cli"}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports(source: str, module: str, is_package: bool = False) -> list[tuple[str, bool]]:
    """Every module ``source`` imports, as (absolute dotted name, at module level?).
    Relative imports are resolved against ``module``; ``from X import y`` yields
    both ``X`` and ``X.y`` since ``y`` may be a submodule."""
    package = module if is_package else module.rpartition(".")[0]
    found = []

    def visit(node, top: bool):
        for child in ast.iter_child_nodes(node):
            inner = top and not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            if isinstance(child, ast.Import):
                found.extend((alias.name, top) for alias in child.names)
            elif isinstance(child, ast.ImportFrom):
                if child.level:
                    base = package.split(".")
                    base = base[:len(base) - (child.level - 1)]
                    target = ".".join(base + ([child.module] if child.module else []))
                else:
                    target = child.module or ""
                found.append((target, top))
                found.extend((f"{target}.{alias.name}", top) for alias in child.names)
            visit(child, inner)

    visit(ast.parse(source), True)
    return found


def is_devtools(name: str) -> bool:
    return name == DEVTOOLS or name.startswith(DEVTOOLS + ".")


def pipeline_sources() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "devtools" not in p.relative_to(PACKAGE).parts)


@pytest.mark.parametrize("path", pipeline_sources(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_pipeline_module_imports_the_development_tools(path):
    module = module_name(path)
    found = imports(path.read_text("utf-8"), module, path.name == "__init__.py")
    if module in LAZY_ONLY:
        bad = [name for name, top in found if is_devtools(name) and top]
        assert not bad, f"{module} imports {bad} at module level; import dev tools inside the command"
    else:
        bad = sorted({name for name, _ in found if is_devtools(name)})
        assert not bad, f"{module} is part of the pipeline and must not import {bad}"


@pytest.mark.parametrize("source, module, expected", [
    ("from .devtools import bench\n", "build_graph.cli", [("build_graph.devtools", True),
                                                          ("build_graph.devtools.bench", True)]),
    ("from ..devtools.synth import x\n", "build_graph.render.site",
     [("build_graph.devtools.synth", True), ("build_graph.devtools.synth.x", True)]),
    ("from . import devtools\n", "build_graph", [("build_graph", True), ("build_graph.devtools", True)]),
    ("def f():\n    import build_graph.devtools.bench\n", "build_graph.cli",
     [("build_graph.devtools.bench", False)]),
    ("class C:\n    from .devtools import synth\n", "build_graph.x",
     [("build_graph.devtools", True), ("build_graph.devtools.synth", True)]),
])
def test_the_import_reader_resolves_relative_and_lazy_imports(source, module, expected):
    """The check itself: relative imports at any depth resolve to the dev tools,
    and an import inside a function is told apart from one at module level."""
    assert imports(source, module, is_package=module == "build_graph") == expected


def test_the_development_tools_are_where_the_docs_say():
    names = {p.stem for p in (PACKAGE / "devtools").glob("*.py")}
    assert {"bench", "graph_bench", "synth", "corpus_eval", "blind_eval", "import_bench"} <= names
    assert not [p.name for p in PACKAGE.glob("*.py")
                if p.stem in {"bench", "graph_bench", "synth", "corpus_eval", "blind_eval"}]
