"""The layers: the runtime (``rag``) imports neither the front ends (``ui``, ``rag.cli``) nor the evaluation
tools (``rag.evaluation``); no module grows past ~300 lines."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from rag.settings import PROJECT_ROOT

RAG = PROJECT_ROOT / "rag"
FRONT_ENDS = {"rag/cli.py"}
RUNTIME = sorted(p for p in RAG.rglob("*.py")
                 if "evaluation" not in p.relative_to(RAG).parts and str(p.relative_to(PROJECT_ROOT)) not in FRONT_ENDS)


def imported_modules(path: Path) -> set[str]:
    modules = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            modules |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            modules.add(node.module)
    return modules


@pytest.mark.parametrize("path", RUNTIME, ids=lambda p: str(p.relative_to(PROJECT_ROOT)))
def test_the_runtime_imports_no_front_end_and_no_tool(path: Path) -> None:
    bad = {m for m in imported_modules(path)
           if m == "ui" or m.startswith(("ui.", "rag.evaluation", "rag.cli"))}
    assert not bad, f"{path.name} imports {sorted(bad)}"


def test_the_check_sees_the_runtime() -> None:
    names = {p.name for p in RUNTIME}
    assert {"engine.py", "pipeline.py", "hybrid.py"} <= names and "cli.py" not in names


@pytest.mark.parametrize("path", sorted([*RAG.rglob("*.py"), *(PROJECT_ROOT / "ui").rglob("*.py")]),
                         ids=lambda p: str(p.relative_to(PROJECT_ROOT)))
def test_modules_stay_small(path: Path) -> None:
    assert len(path.read_text(encoding="utf-8").splitlines()) <= 300
