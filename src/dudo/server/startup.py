"""What ``dudo serve`` checks before it listens, so that a server that cannot work says why in
one line (and exits with code 2) instead of a traceback or, worse, starting anyway.

- The data folder exists or can be made, and is a folder.
- Only one server uses a SQLite file: each takes an OS lock (``flock``) on a lock file next to
  the database and holds it while it runs. The kernel drops the lock when the process ends,
  however it ends, so a killed server never blocks the next one. Two servers on one file would
  each hold their own live tables and overwrite each other's games. PostgreSQL is shared by
  design and is not locked.
- The database opens and its schema migrates.
"""

from __future__ import annotations

import errno
import fcntl
import os
import tempfile
from pathlib import Path

from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, SQLAlchemyError

from dudo.server.storage import Store

#: Errors that mean "this user may not write here".
_NOT_WRITABLE = (errno.EACCES, errno.EPERM, errno.EROFS)


class StartupError(Exception):
    """The server cannot start; the message says why and what to do, in one line."""


def prepare_folder(folder: Path) -> None:
    """Make the data folder (and its parents) if needed."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise StartupError(f"{folder} is a file, not a folder; give --data-dir a folder") from None
    except NotADirectoryError:
        file = next((p for p in folder.parents if p.exists() and not p.is_dir()), folder.parent)
        raise StartupError(
            f"cannot make the data folder {folder}: {file} is a file, not a folder; "
            "give --data-dir a folder"
        ) from None
    except OSError as exc:
        raise StartupError(f"cannot make the data folder {folder}: {_reason(exc)}") from None
    if not folder.is_dir():
        raise StartupError(f"{folder} is not a folder; give --data-dir a folder")


def sqlite_file(url: str) -> Path | None:
    """The file of a SQLite database URL (None: not SQLite, or an in-memory database)."""
    try:
        parsed = make_url(url)
    except ArgumentError:
        return None
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return None
    if parsed.database.startswith("file:"):  # a URI filename: its own rules, not checked here
        return None
    return Path(parsed.database).absolute()


class DatabaseLock:
    """The lock on one SQLite file, held while this object is open (and the process lives)."""

    def __init__(self, database: Path, other_place: str) -> None:
        """Take the lock, or raise :class:`StartupError` naming the server holding it.

        ``other_place`` is the option a second server should be given instead (``--data-dir``
        or ``--database-url``)."""
        self.path = database.with_name(database.name + ".lock")
        folder = database.parent
        try:
            self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except FileNotFoundError:
            if folder.is_dir():  # e.g. /proc: a folder where no file can be made
                raise StartupError(
                    f"cannot make files in {folder}; give another {other_place}"
                ) from None
            raise StartupError(
                f"the folder {folder} does not exist; create it, or give another {other_place}"
            ) from None
        except NotADirectoryError:
            raise StartupError(f"{folder} is not a folder; give another {other_place}") from None
        except OSError as exc:
            if exc.errno in _NOT_WRITABLE:
                raise StartupError(
                    f"cannot write in {folder} ({_reason(exc)}); the server needs a folder it "
                    f"can write to: make it writable, or give another {other_place}"
                ) from None
            raise StartupError(f"cannot use {self.path}: {_reason(exc)}") from None
        try:
            fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _read_pid(self.fd)
            os.close(self.fd)
            who = f"another dudo server (pid {holder})" if holder else "another dudo server"
            raise StartupError(
                f"{who} is using {database}; stop it, or give this one another {other_place}"
            ) from None
        except OSError as exc:  # e.g. a file system without locks
            os.close(self.fd)
            raise StartupError(f"cannot lock {self.path}: {_reason(exc)}") from None
        # Who holds it, for the message of the next server that tries.
        os.ftruncate(self.fd, 0)
        os.pwrite(self.fd, f"{os.getpid()}\n".encode(), 0)

    def release(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)  # closing the last descriptor drops the lock
            self.fd = -1


def open_database(url: str, other_place: str) -> None:
    """Open the database and bring its schema up to date, as the server will on start."""
    path = sqlite_file(url)
    shown = str(path) if path is not None else url.split("@")[-1]
    if path is not None:
        _check_writable(path, other_place)
    try:
        Store(url).close()
    except SQLAlchemyError as exc:
        reason = str(getattr(exc, "orig", None) or exc).splitlines()[0]
        if "not a database" in reason:
            raise StartupError(
                f"{shown} is not a SQLite database ({reason}); move it away, or give another "
                f"{other_place}"
            ) from None
        raise StartupError(f"cannot use the database {shown}: {reason}") from None
    except Exception as exc:  # a migration that cannot run (e.g. a database of a newer dudo)
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise StartupError(f"cannot use the database {shown}: {reason}") from None


def _check_writable(database: Path, other_place: str) -> None:
    """SQLite opens a file it may not write read-only without a word, and the server would
    fail at the first move; so check the folder and the files the way SQLite will use them."""
    if database.is_dir():
        raise StartupError(
            f"{database} is a folder, not a database file; move it away, or give another "
            f"{other_place}"
        )
    folder = database.parent
    try:  # the journal files (-wal, -shm) are made next to the database
        tempfile.TemporaryFile(dir=folder).close()
    except OSError as exc:
        raise StartupError(
            f"cannot write in {folder} ({_reason(exc)}); the server needs a folder it can "
            f"write to: make it writable, or give another {other_place}"
        ) from None
    for file in (database, *(database.with_name(database.name + e) for e in ("-wal", "-shm"))):
        try:
            os.close(os.open(file, os.O_RDWR))
        except FileNotFoundError:
            pass
        except OSError as exc:
            raise StartupError(
                f"cannot write to {file} ({_reason(exc)}); make it writable, or give another "
                f"{other_place}"
            ) from None


def _read_pid(fd: int) -> int | None:
    text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    return int(text) if text.isdigit() else None


def _reason(exc: OSError) -> str:
    return (exc.strerror or str(exc)).lower()
