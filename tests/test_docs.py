"""The documentation's examples run: every ```python block of README.md and docs/ is a test.

A block whose first line starts with ``>>>`` is a doctest (its printed results are checked);
any other ```python block is run as a script and must not raise. ```sh, ```json and ```text
blocks are never run. The README stays an index into docs/, its links lead to files that
exist, and the test command it quotes is the one CI runs; ``mkdocs build --strict`` (in that
command) checks the links between the pages of docs/.
"""

from __future__ import annotations

import doctest
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
PAGES = [README, *sorted((ROOT / "docs").rglob("*.md"))]

#: Blocks that are whole programs for something else to run, with the test that runs them.
NOT_HERE = {
    "docs/bot-protocol.md": "a bot reading its requests on stdin: tests/test_bot_protocol.py",
}

FENCE = re.compile(r"^```(\w*)[^\n]*\n(.*?)^```", re.M | re.S)


def python_blocks() -> Iterator[tuple[str, int, str]]:
    """(page, line of the block's first line of code, code) for every ```python block."""
    for path in PAGES:
        page = path.relative_to(ROOT).as_posix()
        if page in NOT_HERE:
            continue
        text = path.read_text(encoding="utf-8")
        for match in FENCE.finditer(text):
            if match.group(1) == "python":
                line = text.count("\n", 0, match.start(2)) + 1
                yield page, line, match.group(2)


BLOCKS = list(python_blocks())


def test_the_pages_have_python_examples() -> None:
    pages = {page for page, _line, _code in BLOCKS}
    assert {"README.md", "docs/library.md", "docs/research.md", "docs/solver.md"} <= pages


@pytest.mark.parametrize(
    ("page", "line", "code"), BLOCKS, ids=[f"{page}:{line}" for page, line, _ in BLOCKS]
)
def test_example_runs(
    page: str, line: int, code: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # an example that writes a file writes it here
    monkeypatch.setenv("DUDO_HOME", str(tmp_path))
    name = f"{page}:{line}"
    if code.lstrip().startswith(">>>"):
        test = doctest.DocTestParser().get_doctest(code, {}, name, page, line - 1)
        report: list[str] = []
        runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
        result = runner.run(test, out=report.append)
        assert result.failed == 0, "".join(report)
    else:
        exec(compile(code, name, "exec"), {"__name__": "__docs__"})


def test_the_readme_is_an_index() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 200, "the README points into docs/; a manual's text goes there"


def test_the_readme_links_lead_somewhere() -> None:
    text = README.read_text(encoding="utf-8")
    targets = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text)
    local = [t for t in targets if "://" not in t]
    assert "docs/rules.md" in local and "docs/bot-protocol.md" in local
    for target in local:
        assert (ROOT / target).exists(), f"README links to {target}, which does not exist"


def test_the_readme_quotes_the_ci_command() -> None:
    readme = " ".join(README.read_text(encoding="utf-8").split())
    quoted = re.search(r"then runs `([^`]+)`", readme)
    assert quoted is not None, "the README quotes the test command after 'then runs'"
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert quoted.group(1) in ci
    assert "mkdocs build --strict" in quoted.group(1)
