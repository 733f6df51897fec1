"""The size of the parts: no module of ``src/`` (Python or the web client's JavaScript) over
800 lines, no Python function over 80.

A module or function already over its limit is listed below with its present size as a ceiling:
it may shrink (then lower its ceiling, or drop it once under the limit) but never grow, and
nothing new joins the list. The engine's ``game.py`` (one core type, as python-chess's board)
is the lasting exception; the others are to be split along their concerns. (Words are not
code: the messages live in the catalogue ``web/i18n/*.json``, which has no limit here.)
"""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
MODULE_LINES = 800
FUNCTION_LINES = 80

#: Modules over the limit, with the most lines each may have.
MODULE_CEILINGS = {
    "dudo/engine/game.py": 1128,
}

#: Functions over the limit ("module:qualified name"), with the most lines each may have: none
#: today. A measured fast path kept whole would be listed here, with a comment at the function
#: saying what was measured.
FUNCTION_CEILINGS: dict[str, int] = {}


def modules() -> list[Path]:
    return sorted((SRC / "dudo").rglob("*.py"))


def sources() -> list[Path]:
    return sorted([*modules(), *(SRC / "dudo").rglob("*.js")])


def name_of(path: Path) -> str:
    return path.relative_to(SRC).as_posix()


def functions(path: Path) -> dict[str, int]:
    """Each function of a module by its qualified name, with its length in lines."""
    found: dict[str, int] = {}

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                name = prefix + child.name
                assert child.end_lineno is not None
                found[name] = child.end_lineno - child.lineno + 1
                visit(child, name + ".")
            elif isinstance(child, ast.ClassDef):
                visit(child, prefix + child.name + ".")
            else:
                visit(child, prefix)

    visit(ast.parse(path.read_text(encoding="utf-8")), "")
    return found


def test_no_module_is_over_its_limit() -> None:
    over = []
    for path in sources():
        lines = len(path.read_text(encoding="utf-8").splitlines())
        ceiling = MODULE_CEILINGS.get(name_of(path), MODULE_LINES)
        if lines > ceiling:
            over.append(f"{name_of(path)}: {lines} lines (at most {ceiling})")
    assert not over, "split by concern instead: " + "; ".join(over)


def test_no_function_is_over_its_limit() -> None:
    over = []
    for path in modules():
        for name, lines in functions(path).items():
            key = f"{name_of(path)}:{name}"
            ceiling = FUNCTION_CEILINGS.get(key, FUNCTION_LINES)
            if lines > ceiling:
                over.append(f"{key}: {lines} lines (at most {ceiling})")
    assert not over, "; ".join(over)


def test_the_ceilings_name_what_exists() -> None:
    """A ceiling for a module or function that is gone, or back under the limit, is dropped:
    the lists show only what is still to be split."""
    sizes = {name_of(p): len(p.read_text(encoding="utf-8").splitlines()) for p in sources()}
    stale = [m for m, _ in MODULE_CEILINGS.items() if sizes.get(m, 0) <= MODULE_LINES]
    lengths = {f"{name_of(p)}:{n}": lines for p in modules() for n, lines in functions(p).items()}
    stale += [f for f in FUNCTION_CEILINGS if lengths.get(f, 0) <= FUNCTION_LINES]
    assert not stale, f"drop these ceilings: {stale}"
