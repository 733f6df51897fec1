"""Books: whole heads-up games solved bottom-up for one rule set, kept on disk for play.

A book is a folder holding

* ``book.json`` (format ``dudo-solver-book``): the rules (``Rules.to_dict()``), the most
  dice per player it was built for, the start positions asked for, the budget, every game
  value the solve found (canonical position, value for its opener) and one entry per solved
  round (label, position, value, exploitability, iterations, seconds, file name);
* one strategy file per solved round (``round-<label>.npz``): a dudo strategy file
  (:mod:`dudo.solver.store`) whose metadata says ``"payoff": "game"``: the calls of that
  round were paid the game value of the position they lead to, not +1/-1. Its value and
  exploitability are those of the stored float32 strategy.

:func:`solve_book` builds one, :meth:`Book.open` reads and checks one, :meth:`Book.value`
and :meth:`Book.policy` answer from it (the round's tree is rebuilt from the rules, cheaply,
without payoffs, and the strategy is loaded when first asked for and cached).

Books live in ``$DUDO_HOME/strategies`` (else the user data folder's ``strategies``) and in
the folder ``books`` shipped inside this package; a book's folder is named by
:func:`rules_id`, a short hash of its rules. :func:`find_book` looks in that order, for a
book of exactly the rules in play, then for one whose positions stand for theirs
(:mod:`dudo.solver.book_key`: a game of fewer dice each where dice never rise).
"""

from __future__ import annotations

import functools
import json
import logging
import math
import os
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import platformdirs

from dudo.engine import DudoError, Game, Rules
from dudo.engine.rules import PRESETS, from_mapping
from dudo.solver.abstract_strategy import AbstractStrategy
from dudo.solver.book_key import book_id
from dudo.solver.book_key import rules_id as rules_id  # named here by its callers
from dudo.solver.cfr import Strategy
from dudo.solver.evaluate import evaluate
from dudo.solver.game import Abstraction, Budget, GameSolver, Progress, _key, starting_positions
from dudo.solver.position import Position, SolverError, heads_up_problem
from dudo.solver.round import Outcome, Round, build_round
from dudo.solver.store import (
    STRATEGY_ARRAYS,
    STRATEGY_FORMAT,
    VERSION,
    atomic_file,
    compact,
    evaluation_metadata,
    expand,
    read_archive,
    round_metadata,
)

BOOK_FORMAT = "dudo-solver-book"
BOOK_VERSION = 1
BOOK_FILE = "book.json"

#: Environment variable naming the program's data folder (books go in ``strategies/``).
HOME_ENV = "DUDO_HOME"

#: How many bytes of loaded rounds and strategies a book keeps (the least recently used
#: go first, but the last one asked for always stays). A whole-tree 2v1 round of six-sided
#: dice takes about 120 MB, a 5v5 abstract round 26 MB, the shipped liars-dice book up to
#: 5v5 about 310 MB: it all stays, since reading a round back costs up to a second.
CACHE_BYTES = 1024 * 2**20

Reporter = Callable[[str], None]


def book_root() -> Path:
    """Where books are written and looked for first: ``$DUDO_HOME/strategies`` if
    ``DUDO_HOME`` is set and not empty, else ``strategies`` in the user data folder."""
    return book_roots()[0]


def shipped_root() -> Path:
    """The books shipped with dudo (inside the package)."""
    return book_roots()[1]


def book_roots() -> tuple[Path, ...]:
    """The folders :func:`find_book` looks in, in order."""
    env = os.environ
    return _roots(env.get(HOME_ENV, "").strip(), env.get("XDG_DATA_HOME"), env.get("HOME"))


@functools.lru_cache(maxsize=16)
def _roots(home: str, _xdg: str | None, _home: str | None) -> tuple[Path, Path]:
    """The book folders for ``DUDO_HOME`` (and the variables the user data folder comes from):
    remembered, since a bot asks on every move and finding them costs file-system calls."""
    base = Path(home).expanduser() if home else Path(platformdirs.user_data_dir("dudo"))
    return base / "strategies", Path(__file__).resolve().parent / "books"


_OPENED: dict[Path, tuple[int, Book]] = {}
_OPENED_LOCK = threading.Lock()


def find_book(rules: Rules, roots: Sequence[Path] | None = None) -> Book | None:
    """The book for ``rules``, or None: the folder :func:`rules_id` (a book built for
    exactly these rules), else the folder :func:`~dudo.solver.book_key.book_id` (a book whose
    positions stand for these rules' ones, such as the ``liars-dice`` book of 5 dice each for
    a game of 3), each in the first of ``roots`` (default :func:`book_roots`) that has it.

    Opened books are cached (one per folder, reopened when its ``book.json`` changes), so
    asking on every move is cheap. A book folder that exists but is broken raises
    :class:`SolverError`.
    """
    folders = [
        root / name
        for name in dict.fromkeys((rules_id(rules), book_id(rules)))
        for root in (book_roots() if roots is None else roots)
    ]
    for folder in folders:
        name = folder.name
        try:
            stamp = (folder / BOOK_FILE).stat().st_mtime_ns
        except OSError:
            continue
        with _OPENED_LOCK:
            known = _OPENED.get(folder)
            if known is not None and known[0] == stamp:
                return known[1]
        book = Book.open(folder)
        if rules_id(book.rules) != name:
            raise SolverError(f"{folder}: the book was built for other rules ({book.id})")
        with _OPENED_LOCK:
            _OPENED[folder] = (stamp, book)
        return book
    return None


def preload_books() -> list[Book]:
    """Load the book of every preset that has one (see :meth:`Book.preload`); a broken book
    is logged and skipped. A server calls this once, in the background, as it starts."""
    loaded = []
    for name, rules in PRESETS.items():
        try:
            book = find_book(rules)
            if book is not None and book not in loaded:
                book.preload()
                loaded.append(book)
        except (SolverError, OSError) as error:
            logging.getLogger(__name__).warning("book for %s not loaded: %s", name, error)
    return loaded


@dataclass(frozen=True)
class BookRound:
    """One solved round of a book (its canonical position) and its strategy file."""

    position: Position
    label: str
    value: float
    exploitability: float | None  # None for an abstract round (no whole tree to measure on)
    iterations: int
    seconds: float
    file: str
    kind: str = "tree"  # "tree": the whole round's strategy; "abstract": an abstraction's

    def to_dict(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "position": self.position.to_dict(),
            "kind": self.kind,
            "value": self.value,
            "exploitability": self.exploitability,
            "iterations": self.iterations,
            "seconds": self.seconds,
            "file": self.file,
        }


PLAY_RECALL = 2
"""The fewest bids an abstract round must remember for ``hard`` to play it (a book's default
``min_recall``). The books ``solve-game`` builds up to 5v5 remember at least the last 2 bids,
so heads-up ``hard`` plays its book at every position they hold.

The bar was 3, which left the 2-bid rounds (from 7 dice in all) to the lookahead. The
lookahead wins more against the bots it exploits, but loses to the book head to head, and a
local best response wins far more from it at 4v4 under ``dudo``. On common deals, 5 dice
each, paired difference in points [95% interval], 2,000 games with seed 14 / 4,000 with seed
15:

- ``hard`` playing every round of its book against ``hard`` with the bar of 3:
  ``liars-dice`` +4.6 [+0.5, +8.7] / +8.2 [+5.2, +11.1]; ``dudo`` +7.6 [+3.4, +11.8] / +9.8
  [+7.0, +12.7].
- Against the pool (seed 14; ``medium`` / ``easy`` / ``caller`` / ``bluffer``): under
  ``liars-dice`` +16.7 / +1.8 / +15.4 / +51.9 with every round, +23.0 / +50.6 / +72.7 /
  +57.3 with the bar of 3; under ``dudo`` +22.0 / +12.0 / +19.3 / +65.1 against +20.0 /
  +37.5 / +65.3 / +53.0. A bar by the dice in play (2-bid rounds up to N dice, the lookahead
  above) lands in between at every N (under ``dudo`` up to 8 dice: +27.0 / +24.1 / +45.0 /
  +61.2); a bar of 4 gave +15.8 / +41.5 / +73.9 / +52.2 there.
- A local best response (``dudo exploit``, 400 rounds, +1/-1 a round): at 4v4 under ``dudo``
  0.140 ± 0.097 from the book's round against 0.550 ± 0.082 from the lookahead; at 5v5 under
  ``liars-dice`` 0.155 ± 0.097, where it wins nothing from the lookahead (-0.142 ± 0.060:
  LBR's one-step look-ahead is no match for a long round there, so that says little). The
  3-bid rounds: at 3v3 0.078 ± 0.062 from the book against 0.414 ± 0.056 from the lookahead
  under ``liars-dice``, 0.125 ± 0.097 against 0.600 ± 0.079 under ``dudo``
  (``bench/claims_recall.py``).

Also measured and not taken: the book's raises with the call decided from the beliefs over
the whole round (which the abstraction cannot see), calling what they make less likely than
not. It won more against the pool (``liars-dice`` +29.1 / +12.7 / +23.0 / +49.9, ``dudo``
+21.0 / +18.8 / +26.6 / +62.2) and was level with the book head to head (-1.1 [-4.0, +1.8],
+0.3 [-2.7, +3.3]), but a local best response won twice as much or more from it: 0.310 ±
0.093 at 5v5 under ``liars-dice``, 0.415 ± 0.089 at 4v4 and 0.493 ± 0.085 at 5v5 under
``dudo``. Calling with the bidding model's own soft answer instead (a sigmoid of 8 times
the margin) played much like the book: +3.6 against ``easy`` under ``liars-dice``, -3.2
[-7.3, +0.9] against the book under ``dudo``."""


class Book:
    """A heads-up game solved for one rule set (see the module docstring).

    Positions may be given in any labelling: they are made canonical (the opener is
    player 0) and, as in :class:`~dudo.solver.game.GameSolver`, obliged marks are dropped
    under rules without obliging rounds.
    """

    def __init__(
        self,
        directory: Path,
        rules: Rules,
        max_dice: int,
        starts: Sequence[Position],
        values: Mapping[Position, float],
        rounds: Mapping[Position, BookRound],
        value_changes: Sequence[float] = (),
        min_recall: int = PLAY_RECALL,
    ) -> None:
        self.directory = directory
        self.min_recall = min_recall  # abstract rounds remembering fewer bids are not played
        # The largest change of a value in each sweep of GameSolver.refine (where a right
        # spot-on's gained die makes values go round in a cycle).
        self.value_changes = tuple(value_changes)
        self.rules = rules
        self.id = rules_id(rules)
        self.max_dice = max_dice
        self.starts = tuple(starts)
        self.values = dict(values)
        self.rounds = dict(rounds)
        self._policies: OrderedDict[Position, tuple[Round, Strategy] | AbstractStrategy] = (
            OrderedDict()
        )
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"<Book {self.id} at {self.directory}: {len(self.rounds)} rounds>"

    # ------------------------------------------------------------------------ reading

    @classmethod
    def open(cls, directory: Path) -> Book:
        """Read and check the book in ``directory`` (its strategies are read on demand).

        Raises :class:`SolverError` naming the problem: no such folder, no or a foreign
        ``book.json``, another version, bad rules or positions, a missing strategy file."""
        directory = Path(directory)
        path = directory / BOOK_FILE
        if not directory.is_dir():
            raise SolverError(f"{directory}: no such folder (a book is a folder)")
        if not path.is_file():
            raise SolverError(f"{directory} is not a dudo solver book: it has no {BOOK_FILE}")
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError) as error:
            raise SolverError(f"{path} cannot be read: {error}") from None
        except json.JSONDecodeError as error:
            raise SolverError(f"{path} is not JSON ({error})") from None
        try:
            return cls._from_data(directory, data)
        except SolverError as error:
            raise SolverError(f"{path}: {error}") from None

    @classmethod
    def _from_data(cls, directory: Path, data: object) -> Book:
        if not isinstance(data, dict):
            raise SolverError("not a dudo solver book (not a JSON object)")
        kind = data.get("format")
        if kind != BOOK_FORMAT:
            raise SolverError(f"this is of format {kind!r}, not a dudo solver book")
        if data.get("version") != BOOK_VERSION:
            raise SolverError(
                f"book version {data.get('version')!r}; this dudo reads version {BOOK_VERSION}"
            )
        rules = _rules(data.get("rules"))
        problem = heads_up_problem(rules, Position((1, 1)))
        if problem is not None:
            raise SolverError(f"the book's rules cannot be solved: {problem}")
        max_dice = data.get("max_dice")
        if not (
            isinstance(max_dice, int)
            and not isinstance(max_dice, bool)
            and 1 <= max_dice <= rules.dice_per_player
        ):
            raise SolverError(f"max_dice {max_dice!r} is not in 1..{rules.dice_per_player}")
        starts = [_position(item) for item in _list(data, "starts")]
        values: dict[Position, float] = {}
        for item in _list(data, "values"):
            if not isinstance(item, dict):
                raise SolverError(f"a value entry is not an object: {item!r}")
            values[_position(item.get("position"))] = _number(item, "value", -1.0, 1.0)
        rounds: dict[Position, BookRound] = {}
        for item in _list(data, "rounds"):
            entry = _book_round(item)
            if entry.position in rounds:
                raise SolverError(f"the round {entry.label} is listed twice")
            if entry.position not in values:
                raise SolverError(f"the round {entry.label} has no game value")
            if not (directory / entry.file).is_file():
                raise SolverError(f"the strategy file {entry.file} of {entry.label} is missing")
            rounds[entry.position] = entry
        changes = data.get("value_changes", [])
        if not (
            isinstance(changes, list)
            and all(isinstance(c, int | float) and not isinstance(c, bool) for c in changes)
        ):
            raise SolverError(f"value_changes {changes!r} is not a list of numbers")
        min_recall = data.get("min_recall", PLAY_RECALL)
        if not (
            isinstance(min_recall, int) and not isinstance(min_recall, bool) and min_recall > 0
        ):
            raise SolverError(f"min_recall {min_recall!r} is not a positive count")
        return cls(
            directory,
            rules,
            max_dice,
            starts,
            values,
            rounds,
            [float(c) for c in changes],
            min_recall,
        )

    # ------------------------------------------------------------------------ answers

    def key(self, position: Position) -> Position:
        """The form of ``position`` the book is indexed by: canonical, and without obliged
        marks when two players can have no obliging round (they could only matter then)."""
        position = _key(self.rules, position.canonical())
        if position.obliged and self.rules.oblige_min_players > 2:
            position = Position(position.dice, 0, frozenset(), False, None)
        return position

    def has_value(self, position: Position) -> bool:
        return self.key(position) in self.values

    def value(self, position: Position) -> float:
        """The game value of ``position`` for its opener (win probability minus loss
        probability); a :class:`SolverError` if the book does not reach it."""
        key = self.key(position)
        found = self.values.get(key)
        if found is None:
            raise SolverError(f"the book {self.id} has no value for {key.label()}")
        return found

    def solved(self, position: Position) -> bool:
        """Does the book hold a strategy for the round at ``position``?"""
        return self.key(position) in self.rounds

    def continuation(self, outcome: Outcome, game: Game) -> float:
        """Player 0's payoff for what a call leads to, from the book's values (as
        :meth:`GameSolver.continuation <dudo.solver.game.GameSolver.continuation>`)."""
        if isinstance(outcome, int):
            return 1.0 if outcome == 0 else -1.0
        value = self.value(outcome)
        return value if outcome.opener == 0 else -value

    def preload(self) -> None:
        """Load every round's strategy now (a few seconds for a book up to 5v5), so that no
        decision in play waits for a file."""
        for position, entry in self.rounds.items():
            if entry.kind == "tree":
                self.policy(position)
            else:
                self.abstract(position)

    def kind(self, position: Position) -> str | None:
        """``"tree"`` or ``"abstract"``: how the book solved the round at ``position``
        (None if it has no strategy for it)."""
        entry = self.rounds.get(self.key(position))
        return None if entry is None else entry.kind

    def policy(self, position: Position) -> tuple[Round, Strategy]:
        """The round at ``position`` (canonical, rebuilt without payoffs) and the book's
        strategy for it. Loaded on first use and kept while they fit in :data:`CACHE_BYTES`."""
        found = self._cached(position, "tree")
        assert not isinstance(found, AbstractStrategy)
        return found

    def abstract(self, position: Position) -> AbstractStrategy:
        """The book's abstract strategy for the round at ``position`` (cached as
        :meth:`policy`'s)."""
        found = self._cached(position, "abstract")
        assert isinstance(found, AbstractStrategy)
        return found

    def _cached(self, position: Position, kind: str) -> tuple[Round, Strategy] | AbstractStrategy:
        key = self.key(position)
        entry = self.rounds.get(key)
        if entry is None:
            raise SolverError(f"the book {self.id} has no strategy for the round {key.label()}")
        if entry.kind != kind:
            raise SolverError(f"the book's round {key.label()} is {entry.kind}, not {kind}")
        with self._lock:
            found = self._policies.get(key)
            if found is not None:
                self._policies.move_to_end(key)
                return found
            found = self._load(entry) if kind == "tree" else self._load_abstract(entry)
            self._policies[key] = found
            while len(self._policies) > 1 and self.cached_bytes() > CACHE_BYTES:
                self._policies.popitem(last=False)
            return found

    def cached_bytes(self) -> int:
        """The memory held by the loaded rounds and strategies (their arrays)."""
        total = 0
        for item in self._policies.values():
            if isinstance(item, AbstractStrategy):
                total += item.edge_prob.nbytes + item.call_prob.nbytes + item.keys.nbytes
                total += item.edge_bid.nbytes + item.edge_target.nbytes
                continue
            round_, strategy = item
            total += strategy.sigma_in.nbytes + strategy.sigma_call.nbytes
            total += sum(a.nbytes for a in (round_.parent, round_.bid, round_.actor))
            total += round_.child_count.nbytes + round_.payoff.nbytes
        return total

    def game_round(self, position: Position) -> Round:
        """The round at ``position`` with its calls paid the book's game values (to evaluate
        a strategy the way it was solved)."""
        return build_round(self.rules, self.key(position), self.continuation)

    def _load_abstract(self, entry: BookRound) -> AbstractStrategy:
        path = self.directory / entry.file
        strategy, meta = AbstractStrategy.load(path)
        if meta.get("payoff") != "game":
            raise SolverError(f"{path}: not a strategy of a book (its payoffs are not game values)")
        if strategy.rules != self.rules or strategy.position != entry.position:
            raise SolverError(f"{path}: it holds another round or rules than the book says")
        return strategy

    def _load(self, entry: BookRound) -> tuple[Round, Strategy]:
        path = self.directory / entry.file
        meta, arrays = read_archive(path, (STRATEGY_FORMAT,))
        try:
            round_ = build_round(self.rules, entry.position, payoffs=False)
            _check_meta(meta, self.rules, round_)
            strategy = expand(round_, arrays)
        except SolverError as error:
            raise SolverError(f"{path}: {error}") from None
        return round_, strategy


# --------------------------------------------------------------------------- building


def solve_book(
    rules: Rules,
    max_dice: int,
    budget: Budget | None = None,
    directory: Path | None = None,
    report: Reporter | None = None,
    *,
    starts: Sequence[Position] | None = None,
    abstraction: Abstraction | None = None,
    progress: Progress | None = None,
    sweeps: int = 3,
) -> Book:
    """Solve the heads-up game under ``rules`` bottom-up and write it as a book.

    ``starts`` are the positions to solve (default: every start with at most ``max_dice``
    dice each, :func:`~dudo.solver.game.starting_positions`); each brings the rounds it
    leads to. Every round is solved to ``budget`` (default :class:`Budget`). ``directory``
    defaults to ``book_root() / rules_id(rules)``. Strategy files are written as their
    rounds are solved; ``book.json`` last, so an interrupted build leaves no book.
    ``report`` gets a line per round. Rounds with more than ``abstraction.whole_tree_dice``
    dice are solved under that abstraction, if one is given (``progress`` follows their
    iterations). Where a right spot-on wins a die, values go round in a cycle: the
    positions concerned are solved ``sweeps`` more times (:meth:`GameSolver.refine`), with
    a quarter of the abstraction's iterations but in the last sweep; the largest change of
    a value in each sweep is recorded (``value_changes``).
    Returns the book, opened from disk."""
    budget = budget if budget is not None else Budget()
    starts = _checked_starts(rules, max_dice, starts)
    folder = _book_folder(rules, directory)
    solver = GameSolver(
        rules, budget, keep_rounds=True, report=report, abstraction=abstraction, progress=progress
    )
    entries: dict[Position, BookRound] = {}

    def write_solved() -> None:
        for position, solved in list(solver.rounds.items()):
            entries[position] = _write_round(
                folder, solved.round, solved.strategy, solved.iterations, solved.seconds, budget
            )
            del solver.rounds[position]  # written: free its tree and strategy
        for position, abstract in list(solver.abstract_rounds.items()):
            entries[position] = _write_abstract_round(folder, abstract.strategy)
            del solver.abstract_rounds[position]

    if abstraction is not None and sweeps > 0:
        solver.rough = max(1, abstraction.iterations // 4)
    for start in starts:
        solver.value(start)
        write_solved()
    changes = solver.refine(sweeps, write_solved)
    data = {
        "format": BOOK_FORMAT,
        "version": BOOK_VERSION,
        "id": rules_id(rules),
        "rules": rules.to_dict(),
        "max_dice": max_dice,
        "starts": [s.to_dict() for s in starts],
        "budget": _budget_json(budget),
        "abstraction": None if abstraction is None else abstraction.to_dict(),
        "value_changes": changes,
        "min_recall": PLAY_RECALL,
        "values": [
            {"label": p.label(), "position": p.to_dict(), "value": v}
            for p, v in sorted(solver.values.items(), key=lambda pv: _order(pv[0]))
        ],
        "rounds": [e.to_dict() for e in sorted(entries.values(), key=lambda e: _order(e.position))],
    }
    write_book_json(folder, data)
    return Book.open(folder)


def _checked_starts(
    rules: Rules, max_dice: int, starts: Sequence[Position] | None
) -> list[Position]:
    """The starts to solve (every start up to ``max_dice`` dice each if None), each checked
    to be a heads-up position within ``max_dice`` (itself checked either way)."""
    wanted = starting_positions(rules, max_dice)
    chosen = list(wanted if starts is None else starts)
    for start in chosen:
        problem = heads_up_problem(rules, start)
        if problem is not None:
            raise SolverError(f"start {start.label()}: {problem}")
        if max(start.dice) > max_dice:
            raise SolverError(f"start {start.label()} has more than max_dice={max_dice} dice")
    return chosen


def _book_folder(rules: Rules, directory: Path | None) -> Path:
    """The book's folder (by default under :func:`book_root`, named by the rules), made."""
    folder = Path(directory) if directory is not None else book_root() / rules_id(rules)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise SolverError(f"cannot make the book folder {folder}: {error}") from None
    return folder


def _budget_json(budget: Budget) -> dict[str, Any]:
    """The budget the rounds were solved to, as ``book.json`` records it."""
    return {
        "target": budget.target,
        "iterations": budget.iterations,
        "seconds": budget.seconds if math.isfinite(budget.seconds) else None,
        "every": budget.every,
        "algorithm": budget.algorithm.value,
    }


def write_book_json(folder: Path, data: Mapping[str, Any]) -> None:
    """Write ``book.json`` atomically: one top-level key a line, one list entry a line."""
    lines = []
    for key, value in data.items():
        if isinstance(value, list) and value:
            items = ",\n".join(f"  {json.dumps(item)}" for item in value)
            lines.append(f" {json.dumps(key)}: [\n{items}\n ]")
        else:
            lines.append(f" {json.dumps(key)}: {json.dumps(value)}")
    text = "{\n" + ",\n".join(lines) + "\n}\n"
    with atomic_file(folder / BOOK_FILE) as out:
        out.write(text.encode("utf-8"))


def _order(position: Position) -> tuple[int, tuple[int, int], str]:
    return (sum(position.dice), position.dice, position.label())


def _write_abstract_round(folder: Path, strategy: AbstractStrategy) -> BookRound:
    """Write one abstract round's strategy file; its entry in ``book.json``."""
    label = strategy.position.label()
    name = f"round-{label}.npz"
    strategy.save(folder / name, {"payoff": "game", "book": rules_id(strategy.rules)})
    return BookRound(
        strategy.position,
        label,
        max(-1.0, min(1.0, strategy.value)),
        None,
        strategy.iterations,
        strategy.seconds,
        name,
        "abstract",
    )


def _write_round(
    folder: Path,
    round_: Round,
    strategy: Strategy,
    iterations: int,
    seconds: float,
    budget: Budget,
) -> BookRound:
    """Write one solved round's strategy file; its entry in ``book.json``."""
    arrays = compact(round_, strategy)
    stored = evaluate(round_, expand(round_, arrays))  # the numbers of what is on disk
    label = round_.position.label()
    name = f"round-{label}.npz"
    meta = {
        "format": STRATEGY_FORMAT,
        "version": VERSION,
        **round_metadata(round_, budget.algorithm),
        "payoff": "game",
        "book": rules_id(round_.rules),
        "iterations": iterations,
        "seconds": seconds,
        **evaluation_metadata(stored),
        "arrays": STRATEGY_ARRAYS,
    }
    lines = [f" {json.dumps(k)}: {json.dumps(v)}" for k, v in meta.items()]
    entries: dict[str, Any] = {"meta": np.array("{\n" + ",\n".join(lines) + "\n}"), **arrays}
    with atomic_file(folder / name) as out:
        np.savez_compressed(out, allow_pickle=False, **entries)
    return BookRound(
        round_.position, label, stored.value, stored.exploitability, iterations, seconds, name
    )


# --------------------------------------------------------------------------- checking


def _rules(data: object) -> Rules:
    if not isinstance(data, dict):
        raise SolverError("the book has no rules")
    try:
        return from_mapping(data, base=PRESETS["dudo"])
    except (DudoError, TypeError, ValueError) as error:
        raise SolverError(f"the book's rules are not valid: {error}") from None


def _list(data: Mapping[str, object], name: str) -> list[object]:
    found = data.get(name)
    if not isinstance(found, list):
        raise SolverError(f"{name!r} is missing or not a list")
    return found


def _position(data: object) -> Position:
    if not isinstance(data, dict):
        raise SolverError(f"not a position: {data!r}")
    try:
        position = Position.from_dict(data)
    except (KeyError, TypeError, ValueError) as error:
        raise SolverError(f"not a position: {data!r} ({error})") from None
    if position.opener != 0 or position.visibility not in (None, "open", "closed"):
        raise SolverError(f"not a canonical position: {data!r}")
    return position


def _number(data: Mapping[str, object], name: str, low: float, high: float) -> float:
    value = data.get(name)
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise SolverError(f"{name!r} is missing or not a number in {dict(data)!r}")
    if not (math.isfinite(value) and low <= value <= high):
        raise SolverError(f"{name!r} = {value!r} is outside [{low}, {high}]")
    return float(value)


def _book_round(item: object) -> BookRound:
    if not isinstance(item, dict):
        raise SolverError(f"a round entry is not an object: {item!r}")
    position = _position(item.get("position"))
    name = item.get("file")
    if not isinstance(name, str) or not name.endswith(".npz") or Path(name).name != name:
        raise SolverError(f"the round {position.label()} names no plain .npz file: {name!r}")
    iterations = item.get("iterations")
    if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 0:
        raise SolverError(f"the round {position.label()}: iterations {iterations!r}")
    kind = item.get("kind", "tree")
    if kind not in ("tree", "abstract"):
        raise SolverError(f"the round {position.label()}: kind {kind!r} is not tree or abstract")
    exploitability = (
        None
        if kind == "abstract" and item.get("exploitability") is None
        else _number(item, "exploitability", -1e-6, 2.0)
    )
    return BookRound(
        position,
        position.label(),
        _number(item, "value", -1.0, 1.0),
        exploitability,
        iterations,
        _number(item, "seconds", 0.0, math.inf),
        name,
        kind,
    )


def _check_meta(meta: Mapping[str, Any], rules: Rules, round_: Round) -> None:
    """Does a strategy file's metadata describe ``round_`` of a book under ``rules``?"""
    kind, version = meta.get("format"), meta.get("version")
    if kind != STRATEGY_FORMAT:
        raise SolverError(f"of format {kind!r}, not a dudo strategy file")
    if version != VERSION:
        raise SolverError(f"strategy file version {version!r}; this dudo reads version {VERSION}")
    if meta.get("payoff") != "game":
        raise SolverError("not a strategy of a book (its payoffs are not game values)")
    if meta.get("position") != round_.position.to_dict():
        raise SolverError(
            f"it holds the round {meta.get('label')!r}, not {round_.position.label()}"
        )
    stored_rules = meta.get("rules")
    if not isinstance(stored_rules, dict) or _rules(stored_rules) != rules:
        raise SolverError("it was solved under other rules than the book's")
    tree = meta.get("tree")
    found = (
        (tree.get("nodes"), tree.get("second"), tree.get("hands"))
        if isinstance(tree, dict)
        else None
    )
    built = (round_.nodes, round_.second, [round_.hands(0), round_.hands(1)])
    if found != built:
        raise SolverError(
            f"the stored tree (nodes, second, hands) = {found} differs from the one these "
            f"rules build now, {built} (another version of the rules engine?)"
        )
    signals = json.loads(json.dumps([list(round_.signals[0]), list(round_.signals[1])]))
    if meta.get("signals") != signals:
        raise SolverError("the stored signals differ from the ones these rules deal now")
