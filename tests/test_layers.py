"""The package's parts depend inward, toward the engine (docs/layout.md).

The allowances form no cycle: no part depends, even through others, on a part that depends
on it. Every ``import`` of every module under ``src/dudo/`` is read (function-level imports
included) and checked against :data:`ALLOWED`: which other parts each part may import. The
engine imports no other part, nothing below the interfaces imports a terminal, web or database library, and a
part that starts importing one further out fails here with the module and the import named.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

import dudo

PACKAGE = Path(dudo.__file__).parent

#: The parts of ``dudo`` each part may import (besides itself). ``cli`` wires everything, and
#: ``__init__``/``__main__`` are the package's own entry points.
ALLOWED: dict[str, frozenset[str]] = {
    "engine": frozenset(),
    "notation": frozenset({"engine"}),
    "records": frozenset({"engine", "notation"}),
    "learn": frozenset({"engine", "notation"}),
    "cup": frozenset({"engine"}),
    "probability": frozenset({"engine"}),
    "web": frozenset(),  # the browser client's files, and where they are
    # bots play from the solver's books; the solver knows no bots
    "bots": frozenset({"engine", "notation", "probability", "records", "solver"}),
    "solver": frozenset({"engine"}),
    # bots' exploitability: the solver's best responses to what bots play
    "exploit": frozenset({"engine", "bots", "solver"}),
    "odds": frozenset({"engine", "probability"}),
    "review": frozenset({"engine", "bots", "odds"}),
    "research": frozenset({"engine", "bots"}),
    "arena": frozenset({"engine", "bots", "records"}),
    "terminal": frozenset(
        {
            "engine",
            "notation",
            "records",
            "cup",
            "probability",
            "bots",
            "solver",
            "exploit",
            "odds",
            "review",
        }
    ),
    "server": frozenset(
        {
            "engine",
            "notation",
            "records",
            "cup",
            "probability",
            "bots",
            "solver",
            "odds",
            "review",
            "learn",
        }
    ),
}

#: Libraries of the interfaces: only the terminal, the server, the arena's report and the
#: command line may use them.
INTERFACE_LIBRARIES = frozenset(
    {
        "rich",
        "typer",
        "fastapi",
        "starlette",
        "uvicorn",
        "sqlalchemy",
        "redis",
        "prometheus_client",
        "segno",
    }
)
CORE = frozenset(
    {
        "engine",
        "notation",
        "records",
        "cup",
        "probability",
        "bots",
        "solver",
        "exploit",
        "odds",
        "review",
    }
)


def part_of(path: Path) -> str:
    first = path.relative_to(PACKAGE).parts[0]
    return first.removesuffix(".py")


def imports(path: Path) -> Iterator[tuple[int, str]]:
    """(line, module) of every absolute import in a module, wherever it stands."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom) and node.module is not None and node.level == 0:
            yield node.lineno, node.module


MODULES = sorted(p for p in PACKAGE.rglob("*.py") if part_of(p) in ALLOWED)


def cycle_in(allowed: dict[str, frozenset[str]]) -> list[str] | None:
    """A cycle of parts each allowed to import the next (first part repeated at the end)."""
    done: set[str] = set()

    def walk(part: str, path: list[str]) -> list[str] | None:
        if part in path:
            return [*path[path.index(part) :], part]
        if part in done:
            return None
        for target in sorted(allowed.get(part, frozenset())):
            found = walk(target, [*path, part])
            if found is not None:
                return found
        done.add(part)
        return None

    for part in sorted(allowed):
        found = walk(part, [])
        if found is not None:
            return found
    return None


def test_parts_form_no_cycle() -> None:
    # A cycle would make two parts one: neither could be read, tested or replaced alone.
    cycle = cycle_in(ALLOWED)
    assert cycle is None, "the parts import each other in a cycle: " + " -> ".join(cycle or [])


def test_a_cycle_is_found() -> None:
    assert cycle_in({"a": frozenset({"b"}), "b": frozenset({"c"}), "c": frozenset({"a"})}) == [
        "a",
        "b",
        "c",
        "a",
    ]
    assert cycle_in({"a": frozenset({"b"}), "b": frozenset()}) is None


def test_every_part_is_listed() -> None:
    parts = {part_of(p) for p in PACKAGE.rglob("*.py")}
    assert parts - {"cli", "__init__", "__main__"} == set(ALLOWED)


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_imports_point_inward(path: Path) -> None:
    part = part_of(path)
    wrong = []
    for line, module in imports(path):
        top, _, rest = module.partition(".")
        if top == "dudo":
            target = rest.partition(".")[0] or "__init__"
            if target != part and target not in ALLOWED[part]:
                wrong.append(f"line {line}: {module} ({part} may import {sorted(ALLOWED[part])})")
        elif top in INTERFACE_LIBRARIES and part in CORE:
            wrong.append(f"line {line}: {module} (an interface library, in {part})")
    assert not wrong, f"{path.relative_to(PACKAGE)}: " + "; ".join(wrong)


#: Libraries of the optional extras (pyproject) and the only modules that may import them, each
#: inside the function that needs it: ``pip install -e .`` and ``dudo serve`` go without them.
EXTRA_LIBRARIES: dict[str, frozenset[str]] = {
    "matplotlib": frozenset({"arena/chart.py", "solver/plots.py"}),
}


def module_level_imports(tree: ast.Module) -> set[str]:
    """Top modules imported where the module is loaded (not inside a function)."""
    found: set[str] = set()
    functions = (ast.FunctionDef, ast.AsyncFunctionDef)
    nested = {id(n) for f in ast.walk(tree) if isinstance(f, functions) for n in ast.walk(f)}
    for node in ast.walk(tree):
        if id(node) in nested:
            continue
        if isinstance(node, ast.Import):
            found.update(alias.name.partition(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module is not None and node.level == 0:
            found.add(node.module.partition(".")[0])
    return found


def test_extras_are_imported_only_where_used_and_lazily() -> None:
    wrong = []
    for path in PACKAGE.rglob("*.py"):
        name = path.relative_to(PACKAGE).as_posix()
        used = {module.partition(".")[0] for _, module in imports(path)} & set(EXTRA_LIBRARIES)
        for library in sorted(used):
            if name not in EXTRA_LIBRARIES[library]:
                wrong.append(f"{name} imports {library} (only {sorted(EXTRA_LIBRARIES[library])})")
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for library in sorted(module_level_imports(tree) & set(EXTRA_LIBRARIES)):
            wrong.append(f"{name} imports {library} when loaded, not in the function using it")
    assert not wrong, "; ".join(wrong)
