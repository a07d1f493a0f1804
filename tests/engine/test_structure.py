"""The shape of the code: imports point one way, no cycles, the engine knows no I/O or JSON.

Read from the source with ``ast`` (module-level imports; those under
``TYPE_CHECKING`` are for type hints only and do not count).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SERVER = ROOT / "server"

# What each layer may import of ours (STYLE.md: engine <- bots, records <- tables <- api, db).
ALLOWED = {
    "server.engine": {"server.engine"},
    "server.wire": {"server.engine", "server.wire"},
    "server.bots": {"server.engine", "server.bots"},
    "server.records": {"server.engine", "server.wire", "server.records"},
    "server.analysis": {"server.engine", "server.bots", "server.records", "server.analysis"},
    "server.tables": {
        "server.engine",
        "server.wire",
        "server.bots",
        "server.records",
        "server.tables",
    },
}
# Nothing in the engine does I/O, runs an event loop or writes JSON.
ENGINE_FORBIDDEN = {"asyncio", "json", "orjson", "socket", "sqlalchemy", "pydantic", "io", "os"}
MAX_LINES = 600


def module_name(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def top_level_imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            continue
        for sub in ast.walk(node) if not isinstance(node, ast.FunctionDef) else ():
            if isinstance(sub, ast.Import):
                out.update(a.name for a in sub.names)
            elif isinstance(sub, ast.ImportFrom) and sub.module and sub.level == 0:
                out.add(sub.module)
                out.update(f"{sub.module}.{a.name}" for a in sub.names)
    return out


MODULES = {module_name(p): p for p in SERVER.rglob("*.py")}


def ours(imports: set[str]) -> set[str]:
    """The imported names that are modules of this project."""
    return {i for i in imports if i in MODULES}


@pytest.mark.parametrize("layer", sorted(ALLOWED))
def test_imports_point_one_way(layer: str) -> None:
    bad = []
    for name, path in MODULES.items():
        if not (name == layer or name.startswith(layer + ".")):
            continue
        for imp in ours(top_level_imports(path)):
            if not any(imp == a or imp.startswith(a + ".") for a in ALLOWED[layer]):
                bad.append(f"{name} imports {imp}")
    assert not bad, bad


def test_the_engine_knows_no_io_and_no_json() -> None:
    bad = []
    for name, path in MODULES.items():
        if name.startswith("server.engine"):
            for imp in top_level_imports(path):
                if imp.split(".")[0] in ENGINE_FORBIDDEN:
                    bad.append(f"{name} imports {imp}")
    assert not bad, bad


def test_no_import_cycles() -> None:
    graph = {name: ours(top_level_imports(path)) - {name} for name, path in MODULES.items()}
    # A package's __init__ re-exporting its modules is not a cycle of ideas: an
    # import of a package's submodule runs the package first, but does not
    # depend on it, so edges into a package from its own submodules are dropped.
    for name in graph:
        graph[name] = {d for d in graph[name] if not name.startswith(d + ".")}
    seen: dict[str, int] = {}  # 1 = on the stack, 2 = done
    stack: list[str] = []

    def visit(n: str) -> None:
        seen[n] = 1
        stack.append(n)
        for d in sorted(graph.get(n, ())):
            if seen.get(d) == 1:
                cycle = [*stack[stack.index(d) :], d]
                raise AssertionError("import cycle: " + " -> ".join(cycle))
            if d not in seen:
                visit(d)
        stack.pop()
        seen[n] = 2

    for n in sorted(graph):
        if n not in seen:
            visit(n)


def test_modules_stay_small() -> None:
    long = []
    for path in SERVER.rglob("*.py"):
        rel = str(path.relative_to(ROOT))
        n = len(path.read_text(encoding="utf-8").splitlines())
        if n > MAX_LINES:
            long.append(f"{rel}: {n} lines")
    assert not long, long
