"""``dudo replay FILE``: print a recorded game round by round, or its final state as JSON.

A replay shows everything, every hand included, since the game is over (or abandoned): the
seating, each round's opener, dice counts and dealt hands, each action in order with the
player's name, every reveal with all hands and the count that decided it, dice lost and
won, eliminations, obliging rounds and the winner, in the language given (``--lang``).

The record is checked in full before anything is printed, so a bad record prints only
``error: <what is wrong, naming the first bad entry>`` and returns exit code 1.

Entry point for the CLI: :func:`replay_command`.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text

from dudo.engine.errors import RecordError
from dudo.engine.events import Eliminated, Event, RoundStarted, VisibilityChosen
from dudo.engine.game import Game, Phase
from dudo.engine.rules import Seating
from dudo.notation import LANGUAGES
from dudo.records import Record, read_record, replay, replay_steps
from dudo.terminal.narration import Narrator, rules_label
from dudo.terminal.texts import counted
from dudo.terminal.texts import text as message

__all__ = ["final_state", "print_replay", "replay_command"]


def replay_command(
    path: Path,
    as_json: bool,
    console: Console,
    lang: str = "en",
    err_console: Console | None = None,
) -> int:
    """``dudo replay FILE [--json]``: print the recorded game (or, with ``as_json``, its final
    state as JSON) on ``console``. Returns the exit code: 0 done, 1 the record is bad (the
    message goes to ``err_console``, default ``console``), 2 unknown language."""
    err = err_console if err_console is not None else console
    if lang not in LANGUAGES:
        unknown = message("en", "unknown_language", lang=repr(lang), languages=", ".join(LANGUAGES))
        err.print(Text(message("en", "error", error=unknown)), style="red")
        return 2
    try:
        record = read_record(Path(path))
        game = replay(record)  # check everything before printing anything
    except RecordError as exc:
        err.print(Text(message(lang, "error", error=exc)), style="red", soft_wrap=True)
        return 1
    if as_json:
        text = json.dumps(final_state(record, game), ensure_ascii=False, indent=2)
        console.print(text, markup=False, highlight=False, soft_wrap=True)
    else:
        print_replay(record, console, lang)
    return 0


def final_state(record: Record, game: Game) -> dict[str, Any]:
    """The final state of a replayed game, JSON-ready (what ``--json`` prints)."""
    eliminated = [e.player for e in game.events if isinstance(e, Eliminated)]
    names = _names(record)
    return {
        "players": list(names),
        "preset": record.preset,
        "dice": list(game.counts),
        "over": game.is_over,
        "winner": game.winner,
        "winner_name": None if game.winner is None else names[game.winner],
        "rounds": game.round_number,
        "eliminated": eliminated,
        "actions": len(game.history),
        "chance_outcomes": len(game.chance_log),
        "to_move": None if game.is_over else game.to_move,
        "standing_bid": None if game.bid is None else str(game.bid),
    }


def _names(record: Record) -> tuple[str, ...]:
    return tuple(info.name.strip() or f"Player {p + 1}" for p, info in enumerate(record.players))


# Names that read as "you" in the game's languages. A replay has no viewer to speak to, so
# such a name is narrated in the third person like any other, and labelled so that it does
# not read as a pronoun ("Player 1 (You) loses 1 die", never "You loses 1 die").
_PRONOUNS = frozenset({"you", "tu", "tú"})


def _narrated_names(record: Record, lang: str) -> tuple[str, ...]:
    names = []
    for p, info in enumerate(record.players):
        name = info.name.strip()
        if not name:
            name = message(lang, "player_number", number=p + 1)
        elif name.casefold() in _PRONOUNS:
            name = message(lang, "player_label", number=p + 1, name=name)
        names.append(name)
    return tuple(names)


class _Printer(Narrator):
    """Narrates a replay in the third person, every hand shown (the game is over)."""

    def __init__(self, record: Record, game: Game, console: Console, lang: str) -> None:
        seating = ""
        if record.setup.order is not None:
            seating = message(lang, "seating_set")
        elif record.rules.seating is Seating.RANDOM:
            seating = message(lang, "seating_random")
        super().__init__(
            console,
            _narrated_names(record, lang),
            record.rules,
            lang,
            hidden_dice=lambda seat: game.hidden[seat],
            round_counts=True,
            seating=seating,
        )
        self.record = record
        self.game = game

    def header(self) -> None:
        record = self.record
        title = self.t("replay_title", players=len(record.players))
        self.console.print(Text(title, style="bold"))
        rules = rules_label(record.rules, record.preset, self.lang)
        self.line(self.t("rules_title", rules=rules), indent=0)
        for p, info in enumerate(record.players):
            if info.kind == "human":
                kind = self.t("kind_human")
            else:
                kind = self.t("kind_bot", level=info.bot) if info.bot else self.t("kind_bot_any")
            self.line(self.t("replay_player", name=self.name(p), seat=p, kind=kind))
        meta = {k: v for k, v in record.meta.items() if isinstance(v, str | int | float)}
        if meta:
            self.line(", ".join(f"{k}: {v}" for k, v in meta.items()), style="dim", indent=0)
        setup = record.setup
        if setup.dice is not None:
            counts = ", ".join(f"{self.name(p)} {c}" for p, c in enumerate(setup.dice))
            self.line(self.t("starting_dice", counts=counts), indent=0)
        if setup.start_total is not None:
            self.line(self.t("start_total", total=setup.start_total), indent=0)
        if setup.obliged:
            who = ", ".join(self.name(p) for p in sorted(setup.obliged))
            self.line(self.t("already_obliged", names=who), indent=0)

    def events(self, events: Sequence[Event]) -> None:
        """Narrate ``events``, then the hands of a new deal (a replay shows every hand)."""
        for e in events:
            self.event(e)
        game = self.game
        if game.phase is Phase.BIDDING and any(
            isinstance(e, RoundStarted | VisibilityChosen) for e in events
        ):
            self.hands([game.hand(p) for p in range(game.players)])


def print_replay(record: Record, console: Console, lang: str = "en") -> Game:
    """Print ``record`` round by round on ``console`` and return the replayed game.

    Raises :class:`RecordError` if the record is bad (part of it may be printed by then:
    check it with :func:`dudo.records.replay` first to print nothing in that case).
    """
    steps = replay_steps(record)
    game = steps.game
    printer = _Printer(record, game, console, lang)
    printer.header()
    printer.events(game.events)
    for step in steps:
        printer.events(step.events)
    console.print()
    names = printer.names
    if game.winner is not None:
        won = message(
            lang,
            "replay_winner",
            name=names[game.winner],
            rounds=counted(lang, "games.rounds", game.round_number),
            actions=counted(lang, "actions", len(game.history)),
        )
        console.print(Text(won, style="bold"))
    else:
        counts = ", ".join(f"{names[p]} {c}" for p, c in enumerate(game.counts) if c)
        console.print(
            Text(message(lang, "replay_unfinished", round=game.round_number, counts=counts))
        )
    return game
