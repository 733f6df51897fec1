"""Strategy files and checkpoints: what a solve leaves on disk, and reading it back.

Both are numpy ``.npz`` archives with one JSON entry, ``meta``, that says what the file is
(``format`` and ``version``), which round it solves (``rules`` as ``Rules.to_dict()``,
``position`` as ``Position.to_dict()``, the tree's size), how (algorithm, iterations,
seconds), how good the result is (value, best responses, exploitability, value bounds) and
the convergence ``history`` (iteration, seconds, exploitability, value, and the value
bounds) for plotting.

A **strategy file** (``dudo-solver-strategy``, compressed) holds the average strategy in
float32, only its meaningful entries: with ``s = second`` (the first of player 1's nodes,
see :meth:`~dudo.solver.round.Round.region`) and ``h0``, ``h1`` the players' signal counts,

* ``p0_bid  = sigma_in[s:, :h0]``   player 0's bids (the edges into player 1's nodes),
* ``p0_call = sigma_call[1:s, :h0]`` player 0's calls (the root has none),
* ``p1_bid  = sigma_in[1:s, :h1]``  player 1's bids,
* ``p1_call = sigma_call[s:, :h1]`` player 1's calls.

Everything else in the solver's arrays is zero (padding) or has no meaning. The numbers in
``meta`` are those of the stored float32 strategy, so evaluating a loaded file gives them
back. A **checkpoint** (``dudo-solver-checkpoint``, uncompressed for speed) holds
:meth:`RoundSolver.state() <dudo.solver.cfr.RoundSolver.state>` in full precision, so a
resumed run computes exactly what an uninterrupted one would.

Files are written atomically (a temporary file in the same folder, then ``os.replace``):
an interrupted write never leaves a half file under the real name.
"""

from __future__ import annotations

import json
import os
import tempfile
import zipfile
import zlib
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, NamedTuple

import numpy as np
import numpy.typing as npt

from dudo.engine import DudoError, Rules
from dudo.engine.rules import PRESETS, from_mapping
from dudo.solver.cfr import Algorithm, RoundSolver, Strategy, choose_dtype, parse_algorithm
from dudo.solver.evaluate import Evaluation
from dudo.solver.position import Position, SolverError, heads_up_problem
from dudo.solver.round import Round, build_round

STRATEGY_FORMAT = "dudo-solver-strategy"
CHECKPOINT_FORMAT = "dudo-solver-checkpoint"
VERSION = 1

#: The stored strategy arrays and what each one is (also written into ``meta``).
STRATEGY_ARRAYS: dict[str, str] = {
    "p0_bid": "sigma_in[second:, :hands0]: player 0's bid probabilities (edges into player 1's nodes)",
    "p0_call": "sigma_call[1:second, :hands0]: player 0's call probabilities",
    "p1_bid": "sigma_in[1:second, :hands1]: player 1's bid probabilities (edges into player 0's nodes)",
    "p1_call": "sigma_call[second:, :hands1]: player 1's call probabilities",
}
STATE_ARRAYS = ("regret_in", "regret_call", "avg_in", "avg_call")


class HistoryRow(NamedTuple):
    """One exact evaluation during a run: when, and how good the average strategy was."""

    iteration: int
    seconds: float
    exploitability: float
    value: float
    lower: float  # the bounds on the game's value
    upper: float


#: The columns of the convergence history.
HISTORY_COLUMNS: tuple[str, ...] = HistoryRow._fields

#: How far a stored node's probabilities may sum from 1 (float32 rounding is ~1e-7).
SUM_TOLERANCE = 1e-4


@dataclass
class History:
    """The convergence of a run: one row per exact evaluation."""

    rows: list[HistoryRow] = field(default_factory=list)

    def add(self, iteration: int, seconds: float, evaluation: Evaluation) -> None:
        low, high = evaluation.value_bounds
        self.rows.append(
            HistoryRow(iteration, seconds, evaluation.exploitability, evaluation.value, low, high)
        )

    @property
    def last(self) -> HistoryRow | None:
        return self.rows[-1] if self.rows else None

    def column(self, name: str) -> list[float]:
        return [float(getattr(row, name)) for row in self.rows]

    def to_dict(self) -> dict[str, list[int] | list[float]]:
        out: dict[str, list[int] | list[float]] = {
            name: self.column(name) for name in HISTORY_COLUMNS
        }
        out["iteration"] = [row.iteration for row in self.rows]
        return out

    @classmethod
    def from_dict(cls, data: object) -> History:
        if not isinstance(data, Mapping):
            raise SolverError("history is not a table of columns")
        columns = []
        for name in HISTORY_COLUMNS:
            values = data.get(name)
            if not isinstance(values, list) or not all(isinstance(v, int | float) for v in values):
                raise SolverError(f"history column {name!r} is missing or not numbers")
            columns.append(values)
        if len({len(c) for c in columns}) > 1:
            raise SolverError("history columns have different lengths")
        rows = [
            HistoryRow(int(it), float(sec), float(ex), float(val), float(low), float(high))
            for it, sec, ex, val, low, high in zip(*columns, strict=True)
        ]
        return cls(rows)


def round_metadata(round_: Round, algorithm: Algorithm) -> dict[str, Any]:
    """What identifies a solve: the rules, the position, the tree and the algorithm."""
    return {
        "rules": round_.rules.to_dict(),
        "position": round_.position.to_dict(),
        "label": round_.position.label(),
        "algorithm": algorithm.value,
        "tree": {
            "nodes": round_.nodes,
            "second": round_.second,
            "hands": [round_.hands(0), round_.hands(1)],
            "bids": [str(b) for b in round_.bids],
        },
        "signals": [list(round_.signals[0]), list(round_.signals[1])],
    }


def evaluation_metadata(evaluation: Evaluation) -> dict[str, Any]:
    return {
        "value": evaluation.value,
        "best_response": list(evaluation.best_response),
        "exploitability": evaluation.exploitability,
        "value_bounds": list(evaluation.value_bounds),
    }


# --- the strategy in compact form ----------------------------------------------------------


def _check_regions(round_: Round) -> None:
    s = round_.second
    if not (np.all(round_.actor[:s] == 0) and np.all(round_.actor[s:] == 1)):
        raise SolverError("the round's nodes are not split into player 0's then player 1's")


def compact(round_: Round, strategy: Strategy) -> dict[str, npt.NDArray[np.float32]]:
    """The meaningful entries of ``strategy``, as float32 (see the module docstring)."""
    _check_regions(round_)
    s, h0, h1 = round_.second, round_.hands(0), round_.hands(1)
    parts = {
        "p0_bid": strategy.sigma_in[s:, :h0],
        "p0_call": strategy.sigma_call[1:s, :h0],
        "p1_bid": strategy.sigma_in[1:s, :h1],
        "p1_call": strategy.sigma_call[s:, :h1],
    }
    return {name: np.ascontiguousarray(part, dtype=np.float32) for name, part in parts.items()}


def expand(
    round_: Round,
    arrays: Mapping[str, npt.NDArray[np.generic]],
    dtype: type[np.floating] | None = None,
) -> Strategy:
    """The full strategy arrays of ``round_`` from :func:`compact` ones (padding is 0).

    Raises :class:`SolverError` if an array is missing, has the wrong shape, or is not a
    behaviour strategy (probabilities in [0, 1] summing to 1 at every decision)."""
    _check_regions(round_)
    s, n, h0, h1 = round_.second, round_.nodes, round_.hands(0), round_.hands(1)
    shapes = {
        "p0_bid": (n - s, h0),
        "p0_call": (s - 1, h0),
        "p1_bid": (s - 1, h1),
        "p1_call": (n - s, h1),
    }
    for name, shape in shapes.items():
        if name not in arrays:
            raise SolverError(f"the strategy array {name!r} is missing")
        array = arrays[name]
        if array.shape != shape:
            raise SolverError(
                f"the strategy array {name!r} has shape {array.shape}, but this round needs "
                f"{shape} (was the file written for another version of the rules engine?)"
            )
        if array.dtype.kind != "f":
            raise SolverError(f"the strategy array {name!r} holds {array.dtype}, not floats")
        low, high = array.min(initial=0), array.max(initial=0)
        if not (np.all(np.isfinite(array)) and low >= 0 and high <= 1 + SUM_TOLERANCE):
            raise SolverError(f"the strategy array {name!r} holds values outside [0, 1]")
    dtype = dtype or choose_dtype(round_)
    shape = (n, max(h0, h1))
    sigma_in = np.zeros(shape, dtype)
    sigma_call = np.zeros(shape, dtype)
    sigma_in[s:, :h0] = arrays["p0_bid"]
    sigma_call[1:s, :h0] = arrays["p0_call"]
    sigma_in[1:s, :h1] = arrays["p1_bid"]
    sigma_call[s:, :h1] = arrays["p1_call"]
    strategy = Strategy(sigma_in, sigma_call)
    _check_sums(round_, strategy)
    return strategy


def _check_sums(round_: Round, strategy: Strategy) -> None:
    """Every decision's probabilities (its bids and its call) must sum to 1."""
    total = strategy.sigma_call.astype(np.float64)
    for layer in round_.layers:
        total[layer.parents] += strategy.sigma_in[layer.nodes]
    for p in (0, 1):
        mine = total[round_.region(p), : round_.hands(p)]
        worst = float(np.max(np.abs(mine - 1.0), initial=0.0))
        if worst > SUM_TOLERANCE:
            raise SolverError(
                f"player {p}'s probabilities do not sum to 1 at every decision "
                f"(off by up to {worst:.3g}): not a strategy of this round"
            )


# --- writing ---------------------------------------------------------------------------------


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


@contextmanager
def atomic_file(path: Path) -> Iterator[IO[bytes]]:
    """A binary file that appears at ``path`` only once it is completely written."""
    folder = path.parent
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(handle, "wb") as out:
            yield out
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temporary, 0o666 & ~_umask())  # mkstemp makes it private; be like open()
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _meta_entry(meta: Mapping[str, Any]) -> npt.NDArray[np.str_]:
    """The metadata as JSON text, one top-level key a line."""
    lines = [f" {json.dumps(key)}: {json.dumps(value)}" for key, value in meta.items()]
    return np.array("{\n" + ",\n".join(lines) + "\n}")


def save_strategy(path: Path, round_: Round, strategy: Strategy, meta: Mapping[str, Any]) -> None:
    """Write a strategy file (compact, compressed, atomically). ``meta`` is completed with
    the format, the round's description and the layout of the arrays."""
    full = {"format": STRATEGY_FORMAT, "version": VERSION, **meta, "arrays": STRATEGY_ARRAYS}
    entries: dict[str, Any] = {"meta": _meta_entry(full), **compact(round_, strategy)}
    with atomic_file(path) as out:
        np.savez_compressed(out, allow_pickle=False, **entries)


def save_checkpoint(path: Path, solver: RoundSolver, meta: Mapping[str, Any]) -> None:
    """Write a checkpoint of ``solver`` (its whole state, full precision, atomically)."""
    state = solver.state()
    full = {
        "format": CHECKPOINT_FORMAT,
        "version": VERSION,
        **meta,
        "iterations": solver.iteration,
        "dtype": np.dtype(solver.dtype).name,
    }
    entries: dict[str, Any] = {"meta": _meta_entry(full), **state}
    with atomic_file(path) as out:
        np.savez(out, allow_pickle=False, **entries)


# --- reading ---------------------------------------------------------------------------------


ABSTRACT_FORMAT = "dudo-abstract-strategy"
"""The format of an abstract round's strategy (:mod:`dudo.solver.abstract_strategy`)."""

_WHAT = {
    STRATEGY_FORMAT: "strategy file",
    CHECKPOINT_FORMAT: "checkpoint",
    ABSTRACT_FORMAT: "abstract strategy file",
}


def read_archive(
    path: Path, accept: tuple[str, ...], arrays: bool = True
) -> tuple[dict[str, Any], dict[str, npt.NDArray[np.generic]]]:
    """The metadata and (if ``arrays``) the arrays of a file whose format is one of
    ``accept``, or a clear SolverError."""
    what = " or ".join(f"dudo {_WHAT[f]}" for f in accept)
    if not path.exists():
        raise SolverError(f"{path}: no such file")
    if path.is_dir():
        raise SolverError(f"{path} is a folder, not a {what}")
    try:
        with path.open("rb") as handle:
            magic = handle.read(6)
        if magic == b"\x93NUMPY":
            raise SolverError(f"{path} is a single numpy array, not a {what}")
        if not magic.startswith(b"PK\x03\x04"):
            raise SolverError(f"{path} is not a {what} (not a numpy .npz archive)")
        loaded = np.load(path, allow_pickle=False)
        if not isinstance(loaded, np.lib.npyio.NpzFile):
            raise SolverError(f"{path} is a single numpy array, not a {what}")
        with loaded as archive:
            names = list(archive.files)
            if "meta" not in names:
                raise SolverError(f"{path} has no 'meta' entry: not a {what}")
            raw = archive["meta"]
            found = {name: archive[name] for name in names if name != "meta" and arrays}
    except SolverError:
        raise
    except (OSError, ValueError, EOFError, KeyError, zipfile.BadZipFile, zlib.error) as error:
        raise SolverError(f"{path} is not a {what} (unreadable: {error})") from None
    if raw.dtype.kind != "U" or raw.shape != ():
        raise SolverError(f"{path}: the 'meta' entry is not text: not a {what}")
    try:
        meta = json.loads(str(raw[()]))
    except json.JSONDecodeError as error:
        raise SolverError(f"{path}: the 'meta' entry is not JSON ({error})") from None
    if not isinstance(meta, dict):
        raise SolverError(f"{path}: the 'meta' entry is not a JSON object")
    kind = meta.get("format")
    if kind not in accept:
        named = f"a dudo {_WHAT[kind]}" if kind in _WHAT else f"of format {kind!r}"
        raise SolverError(f"{path} is {named}, not a {what}")
    version = meta.get("version")
    if version != VERSION:
        raise SolverError(
            f"{path} is {kind} version {version!r}; this dudo reads version {VERSION}"
        )
    return meta, found


def rules_from_metadata(meta: Mapping[str, Any]) -> Rules:
    data = meta.get("rules")
    if not isinstance(data, dict):
        raise SolverError("the metadata has no rules")
    try:
        return from_mapping(data, base=PRESETS["dudo"])
    except (DudoError, TypeError, ValueError) as error:
        raise SolverError(f"the stored rules are not valid: {error}") from None


def position_from_metadata(meta: Mapping[str, Any]) -> Position:
    data = meta.get("position")
    if not isinstance(data, dict):
        raise SolverError("the metadata has no position")
    try:
        return Position.from_dict(data)
    except (KeyError, TypeError, ValueError) as error:
        raise SolverError(f"the stored position is not valid: {error}") from None


def _round_of(path: Path, meta: Mapping[str, Any]) -> Round:
    try:
        rules = rules_from_metadata(meta)
        position = position_from_metadata(meta)
        problem = heads_up_problem(rules, position)
        if problem is not None:
            raise SolverError(f"the stored round cannot be solved: {problem}")
        if meta.get("payoff") == "game":
            # A round of a whole-game book: its calls pay the book's game values.
            from dudo.solver.book import Book

            folder = meta.get("book")
            book = Book.open(Path(folder) if isinstance(folder, str) else path.parent)
            round_ = book.game_round(position)
        else:
            round_ = build_round(rules, position)
        tree = meta.get("tree")
        if isinstance(tree, dict):
            found = (tree.get("nodes"), tree.get("second"), tree.get("hands"))
            built = (round_.nodes, round_.second, [round_.hands(0), round_.hands(1)])
            if found != built:
                raise SolverError(
                    f"the stored tree (nodes, second, hands) = {found} differs from the one "
                    f"these rules build now, {built} (another version of the rules engine?)"
                )
    except SolverError as error:
        raise SolverError(f"{path}: {error}") from None
    return round_


def load_strategy(path: Path) -> tuple[Round, Strategy, dict[str, Any]]:
    """Read a strategy file: the round rebuilt from its metadata, the strategy (float64
    unless the tree is huge) and the metadata."""
    meta, arrays = read_archive(path, (STRATEGY_FORMAT,))
    round_ = _round_of(path, meta)
    try:
        strategy = expand(round_, arrays)
    except SolverError as error:
        raise SolverError(f"{path}: {error}") from None
    return round_, strategy, meta


def load_checkpoint(path: Path) -> tuple[Round, dict[str, npt.NDArray[np.generic]], dict[str, Any]]:
    """Read a checkpoint: the round rebuilt from its metadata, the solver state for
    :meth:`RoundSolver.restore() <dudo.solver.cfr.RoundSolver.restore>` and the metadata."""
    meta, arrays = read_archive(path, (CHECKPOINT_FORMAT,))
    round_ = _round_of(path, meta)
    shape = (round_.nodes, max(round_.hands(0), round_.hands(1)))
    for name in STATE_ARRAYS:
        array = arrays.get(name)
        if array is None:
            raise SolverError(f"{path}: the solver array {name!r} is missing")
        if array.shape != shape or array.dtype.kind != "f":
            raise SolverError(
                f"{path}: the solver array {name!r} is {array.dtype} {array.shape}, "
                f"this round needs floats {shape}"
            )
    iteration = arrays.get("iteration")
    if iteration is None or iteration.shape != () or iteration.dtype.kind not in "iu":
        raise SolverError(f"{path}: the iteration count is missing")
    try:
        parse_algorithm(str(meta.get("algorithm")))
    except SolverError as error:
        raise SolverError(f"{path}: {error}") from None
    return round_, arrays, meta


def file_format(path: Path) -> str:
    """The format a solver file declares (:data:`STRATEGY_FORMAT` or
    :data:`CHECKPOINT_FORMAT`), reading only its metadata; a SolverError for anything else."""
    meta, _ = read_archive(path, (STRATEGY_FORMAT, CHECKPOINT_FORMAT), arrays=False)
    return str(meta["format"])


def solver_from_checkpoint(
    path: Path,
) -> tuple[RoundSolver, dict[str, Any]]:
    """A solver restored from a checkpoint, exactly as it was, and the checkpoint's metadata."""
    round_, state, meta = load_checkpoint(path)
    algorithm = parse_algorithm(str(meta["algorithm"]))
    dtype = np.float32 if state["regret_in"].dtype == np.float32 else np.float64
    solver = RoundSolver(round_, algorithm, dtype=dtype)
    solver.restore(state)
    return solver, meta
