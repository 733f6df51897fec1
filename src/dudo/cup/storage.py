"""Keep the dice cup in a small JSON file between sessions.

The file is ``cup.json`` in ``$DUDO_HOME`` when that is set, else in the per-user data
directory (``platformdirs.user_data_dir("dudo")``). Writes are atomic: a temporary file in
the same directory is written, flushed to disk and moved over the old one, so a program killed
mid-write leaves either the old cup or the new one, never half a file.

A missing file is a fresh cup of 5 dice. A corrupt file is never overwritten or dropped
silently: :func:`load_cup` raises :class:`CorruptCupFileError` and the caller decides, usually
by asking the player and then calling :func:`set_aside_corrupt` to keep it as
``cup.json.corrupt``.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

import platformdirs

from dudo.cup import Cup, CupCode, CupError

__all__ = [
    "CUP_FILE",
    "HOME_ENV",
    "CorruptCupFileError",
    "cup_path",
    "data_dir",
    "load_cup",
    "save_cup",
    "set_aside_corrupt",
]

#: Environment variable naming the directory that holds the cup file.
HOME_ENV = "DUDO_HOME"
#: Name of the cup file in that directory.
CUP_FILE = "cup.json"


class CorruptCupFileError(CupError):
    """The cup file exists but cannot be read as a cup. ``path`` and ``reason`` say why."""

    def __init__(self, path: Path, reason: str, why: CupError | None = None) -> None:
        super().__init__(
            f"the cup file {path} is damaged: {reason}", CupCode.DAMAGED, path=str(path)
        )
        self.path = path
        self.reason = reason
        #: The error found inside the file, when it has a code a front end can word.
        self.why = why


def data_dir() -> Path:
    """The directory for the cup file: ``$DUDO_HOME`` if set and not empty, else the user's
    data directory for ``dudo``."""
    home = os.environ.get(HOME_ENV, "").strip()
    if home:
        return Path(home).expanduser()
    return Path(platformdirs.user_data_dir("dudo"))


def cup_path() -> Path:
    """Where the cup is kept: ``data_dir() / "cup.json"``."""
    return data_dir() / CUP_FILE


def load_cup(path: Path | None = None) -> Cup:
    """Read the cup from ``path`` (default :func:`cup_path`).

    A missing file gives a fresh cup of 5 dice. A file that is not a valid cup raises
    :class:`CorruptCupFileError`; one that cannot be read at all (e.g. no permission)
    raises :class:`CupError`. Nothing is written either way.
    """
    path = cup_path() if path is None else path
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return Cup.fresh()
    except OSError as err:
        detail = str(err.strerror or err)
        raise CupError(
            f"cannot read the cup file {path}: {detail}",
            CupCode.CANNOT_READ,
            path=str(path),
            detail=detail,
        ) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        not_text = CupError("it is not UTF-8 text", CupCode.NOT_UTF8)
        raise CorruptCupFileError(path, str(not_text), not_text) from None
    try:
        return Cup.from_json(text)
    except CupError as err:
        raise CorruptCupFileError(path, str(err), err) from None


def save_cup(cup: Cup, path: Path | None = None) -> Path:
    """Write ``cup`` to ``path`` (default :func:`cup_path`) atomically; return the path.

    Missing directories are created. A failure raises :class:`CupError` and leaves the old
    file as it was.
    """
    path = cup_path() if path is None else path
    tmp: str | None = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        # The temporary file must be in the same directory for os.replace to be atomic.
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(cup.to_json())
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
        tmp = None
    except OSError as err:
        detail = str(err.strerror or err)
        raise CupError(
            f"cannot save the cup to {path}: {detail}",
            CupCode.CANNOT_SAVE,
            path=str(path),
            detail=detail,
        ) from None
    finally:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
    return path


def set_aside_corrupt(path: Path | None = None) -> Path:
    """Rename a damaged cup file to ``cup.json.corrupt`` (or ``.corrupt.2``, ``.3``, ... if an
    older one is already kept) and return the new name, so a fresh cup can be saved without
    losing the damaged one."""
    path = cup_path() if path is None else path
    target = path.with_name(path.name + ".corrupt")
    n = 2
    while target.exists():
        target = path.with_name(f"{path.name}.corrupt.{n}")
        n += 1
    try:
        os.replace(path, target)
    except OSError as err:
        detail = str(err.strerror or err)
        raise CupError(
            f"cannot rename the damaged cup file {path}: {detail}",
            CupCode.CANNOT_RENAME,
            path=str(path),
            detail=detail,
        ) from None
    return target
