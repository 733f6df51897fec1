"""``dudo serve`` refuses to start where it cannot work, in one clear line and with exit code 2:
a second server on a SQLite file another server is using, a data folder that is a file or
read-only, a database file that is a folder, read-only or not a database. Real processes, real
files; the read-only cases use ``chattr +i`` when run as root (permissions do not bind root)."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from .conftest import HOST, ServerFactory, free_port, get_table, new_table

#: Long enough for a refusal; a server that starts instead runs until this and fails the test.
REFUSAL_SECONDS = 30.0


def serve(*where: str) -> subprocess.CompletedProcess[str]:
    """Run ``dudo serve`` on a free port with ``where`` (its data options); it must exit."""
    env = {k: v for k, v in os.environ.items() if k != "DUDO_DATABASE_URL"}
    command = [sys.executable, "-m", "dudo", "serve", "--host", HOST, "--port", str(free_port())]
    try:
        return subprocess.run(
            [*command, *where],
            capture_output=True,
            text=True,
            env=env,
            timeout=REFUSAL_SECONDS,
            check=False,
        )
    except subprocess.TimeoutExpired as exc:
        raise AssertionError(f"dudo serve {' '.join(where)} started instead of refusing") from exc


def assert_refused(result: subprocess.CompletedProcess[str], *words: str) -> str:
    """The process exited with code 2 and one line on stderr naming ``words``; that line."""
    output = result.stderr.strip()
    assert result.returncode == 2, f"exit code {result.returncode}:\n{result.stderr}"
    assert "Traceback" not in result.stderr + result.stdout, result.stderr
    assert len(output.splitlines()) == 1, f"not one line:\n{output}"
    assert output.startswith("dudo serve: "), output
    for word in words:
        assert word in output, f"{word!r} not in {output!r}"
    return output


def test_a_second_server_on_the_same_sqlite_file_refuses_to_start(
    live_server: ServerFactory,
) -> None:
    first = live_server()
    assert first.process is not None
    code = new_table(first)["code"]
    second = serve("--data-dir", str(first.data_dir))
    assert_refused(
        second,
        f"another dudo server (pid {first.process.pid}) is using {first.sqlite_path}",
        "stop it, or give this one another --data-dir",
    )
    by_url = serve("--database-url", f"sqlite:///{first.sqlite_path}")
    assert_refused(by_url, f"(pid {first.process.pid})", "another --database-url")
    assert get_table(first, code)["code"] == code, "the first server was not disturbed"

    # The lock dies with the process: after kill -9 a new server starts on the same file.
    first.kill()
    first.start()
    assert get_table(first, code)["code"] == code


@contextlib.contextmanager
def read_only(path: Path) -> Iterator[None]:
    """``path`` may not be written, even by root (``chattr +i``, skipped where unsupported)."""
    if os.geteuid() != 0:
        mode = path.stat().st_mode
        path.chmod(0o555 if path.is_dir() else 0o444)
        try:
            yield
        finally:
            path.chmod(mode)
        return
    chattr = shutil.which("chattr")
    if chattr is None:
        pytest.skip("running as root without chattr: a read-only file cannot be made")
    made = subprocess.run([chattr, "+i", str(path)], capture_output=True, text=True, check=False)
    if made.returncode != 0:
        pytest.skip(f"chattr +i does not work here: {made.stderr.strip()}")
    try:
        yield
    finally:
        subprocess.run([chattr, "-i", str(path)], check=True)


Case = Callable[[Path], tuple[list[str], list[str]]]


def a_file_as_data_folder(tmp: Path) -> tuple[list[str], list[str]]:
    (tmp / "data").write_text("not a folder")
    return ["--data-dir", str(tmp / "data")], [str(tmp / "data"), "not a folder"]


def a_data_folder_under_a_file(tmp: Path) -> tuple[list[str], list[str]]:
    (tmp / "file").write_text("not a folder")
    return ["--data-dir", str(tmp / "file" / "data")], [str(tmp / "file"), "not a folder"]


def a_folder_as_database(tmp: Path) -> tuple[list[str], list[str]]:
    (tmp / "data" / "dudo.sqlite3").mkdir(parents=True)
    return ["--data-dir", str(tmp / "data")], [str(tmp / "data" / "dudo.sqlite3"), "a folder"]


def a_file_that_is_no_database(tmp: Path) -> tuple[list[str], list[str]]:
    (tmp / "data").mkdir()
    (tmp / "data" / "dudo.sqlite3").write_bytes(b"these are my notes, not a database\n" * 200)
    return ["--data-dir", str(tmp / "data")], [
        str(tmp / "data" / "dudo.sqlite3"),
        "not a SQLite database",
        "move it away",
    ]


def a_database_url_in_a_missing_folder(tmp: Path) -> tuple[list[str], list[str]]:
    missing = tmp / "missing" / "deeper"
    return ["--database-url", f"sqlite:///{missing / 'dudo.sqlite3'}"], [
        str(missing),
        "does not exist",
        "--database-url",
    ]


@pytest.mark.parametrize(
    "case",
    [
        a_file_as_data_folder,
        a_data_folder_under_a_file,
        a_folder_as_database,
        a_file_that_is_no_database,
        a_database_url_in_a_missing_folder,
    ],
)
def test_an_unusable_data_folder_or_database_is_one_clear_line(tmp_path: Path, case: Case) -> None:
    where, words = case(tmp_path)
    assert_refused(serve(*where), *words)


def test_a_read_only_data_folder_is_one_clear_line(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    with read_only(folder):
        assert_refused(serve("--data-dir", str(folder)), str(folder), "cannot write")


def test_a_read_only_database_is_one_clear_line(live_server: ServerFactory) -> None:
    # A database a server used and left: read-only since, the folder or the file itself.
    server = live_server()
    server.stop()
    with read_only(server.data_dir):
        assert_refused(serve("--data-dir", str(server.data_dir)), str(server.data_dir), "write")
    with read_only(server.sqlite_path):
        assert_refused(
            serve("--data-dir", str(server.data_dir)), str(server.sqlite_path), "cannot write to"
        )
    server.start()  # writable again: it starts
