"""``dudo replay FILE``: print a recorded game round by round, or its final state as JSON.

A replay shows everything, every hand included, since the game is over (or abandoned): the
seating, each round's opener, dice counts and dealt hands, each action in order with the
player's name, every reveal with all hands and the count that decided it, dice lost and
won, eliminations, obliging rounds and the winner.

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

from dudo.engine.actions import (
    CALL,
    DOUBT_PASS,
    PASS,
    SPOT_ON,
    Action,
    Bid,
    ObligeChoice,
    RevealBid,
)
from dudo.engine.errors import NotationError, RecordError
from dudo.engine.events import (
    BidMade,
    Called,
    DiceLost,
    DieWon,
    Eliminated,
    Event,
    GameOver,
    ObligingRound,
    PassDoubted,
    Passed,
    Revealed,
    RoundCancelled,
    RoundStarted,
    SeatingDecided,
    SeatingRolled,
    SpotOnClaimed,
    VisibilityChosen,
)
from dudo.engine.game import Game, Phase
from dudo.engine.rules import PRESETS, Rules, Seating
from dudo.notation import LANGUAGES, face_name, format_action
from dudo.records import Record, read_record, replay, replay_steps

__all__ = ["final_state", "print_replay", "replay_command"]

_PASS_HAND_TEXT = {
    "full_house": "a full house",
    "five_kind": "five of a kind",
    "five_different": "five different faces",
}

_VISIBILITY_TEXT = {
    "normal": "everyone sees their own dice",
    "closed": "closed: only players holding one die see their own dice",
    "open": "open: everyone sees every hand but their own",
}


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
        err.print(
            Text(f"error: unknown language {lang!r}; languages are {', '.join(LANGUAGES)}"),
            style="red",
        )
        return 2
    try:
        record = read_record(Path(path))
        game = replay(record)  # check everything before printing anything
    except RecordError as exc:
        err.print(Text(f"error: {exc}"), style="red", soft_wrap=True)
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


def _dice(count: int) -> str:
    return f"{count} {'die' if count == 1 else 'dice'}"


def _hand(dice: Sequence[int]) -> str:
    return " ".join(str(d) for d in dice) if dice else "-"


def _rules_line(record: Record) -> str:
    """The rules as a preset plus house rules: the named preset, else the closest one."""
    rules = record.rules
    name = record.preset if record.preset in PRESETS else None
    if name is None:
        name = min(PRESETS, key=lambda n: len(rules.differences(PRESETS[n])))
    changes = rules.differences(PRESETS[name])
    text = f"Rules: {name}"
    if record.preset is not None and record.preset not in PRESETS:
        text = f"Rules: {record.preset} (closest preset: {name})"
    if changes:
        shown = ", ".join(f"{k}={_option_text(v)}" for k, (v, _) in changes.items())
        text += f" with house rules {shown}"
    return text


def _option_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return ",".join(str(v) for v in value) or "none"
    if value is None:
        return "none"
    return str(value)


class _Printer:
    """Narrates the events of a replay, with the live game for the hands as dealt."""

    def __init__(self, record: Record, console: Console, lang: str) -> None:
        self.record = record
        self.console = console
        self.lang = lang
        self.rules: Rules = record.rules
        self.names = _names(record)
        self.claim: Called | SpotOnClaimed | None = None  # what the next reveal decides
        self.seating_rolls = 0

    # ------------------------------------------------------------------ output helpers

    def line(self, text: str, style: str = "", indent: int = 2) -> None:
        self.console.print(Text(" " * indent + text, style=style), soft_wrap=False)

    def name(self, player: int) -> str:
        return self.names[player]

    def action_text(self, action: Action) -> str:
        try:
            if isinstance(action, RevealBid):  # the reveal is narrated with the re-roll
                action = action.bid
            short = format_action(action, self.lang)
            if isinstance(action, Bid):
                return f"{short} ({format_action(action, self.lang, 'long')})"
            return short
        except NotationError:  # pragma: no cover - every recorded action can be printed
            return str(action)

    # --------------------------------------------------------------------- the parts

    def header(self) -> None:
        record = self.record
        n = len(record.players)
        title = Text(f"Dudo game record: {n} players", style="bold")
        self.console.print(title)
        self.line(_rules_line(record), indent=0)
        for p, info in enumerate(record.players):
            kind = f"bot: {info.bot}" if info.kind == "bot" and info.bot else info.kind
            self.line(f"{self.name(p)} (player {p}, {kind})")
        meta = {k: v for k, v in record.meta.items() if isinstance(v, str | int | float)}
        if meta:
            self.line(", ".join(f"{k}: {v}" for k, v in meta.items()), style="dim", indent=0)
        setup = record.setup
        if setup.dice is not None:
            counts = ", ".join(f"{self.name(p)} {c}" for p, c in enumerate(setup.dice))
            self.line(f"Starting dice: {counts}", indent=0)
        if setup.start_total is not None:
            self.line(f"Dice at the start of the game (for spot-on): {setup.start_total}", indent=0)
        if setup.obliged:
            who = ", ".join(self.name(p) for p in setup.obliged)
            self.line(f"Already obliged: {who}", indent=0)

    def hands(self, game: Game) -> None:
        """The hands as dealt (a replay shows every hand)."""
        width = max(len(n) for n in self.names)
        for p in range(game.players):
            if game.counts[p]:
                self.line(f"{self.name(p):<{width}}  {_hand(game.hand(p))}", style="cyan", indent=4)

    def event(self, e: Event, game: Game, action: Action | None) -> None:
        name = self.name
        if isinstance(e, SeatingRolled):
            self.seating_rolls += 1
            label = "Seating roll" if self.seating_rolls == 1 else "Tie re-roll"
            rolls = ", ".join(f"{name(p)} {v}" for p, v in e.rolls)
            self.line(f"{label}: {rolls}", indent=0)
        elif isinstance(e, SeatingDecided):
            how = ""
            if self.record.setup.order is not None:
                how = ", set by the table"
            elif self.rules.seating is Seating.RANDOM:
                how = ", drawn at random"
            order = ", ".join(name(p) for p in e.order)
            self.line(f"Play order ({e.direction}{how}): {order}", indent=0)
        elif isinstance(e, RoundStarted):
            self.console.print()
            self.console.rule(Text(f"Round {e.number}", style="bold"))
            counts = ", ".join(f"{name(p)} {c}" for p, c in enumerate(e.dice_counts) if c)
            total = sum(e.dice_counts)
            self.line(f"{name(e.opener)} opens. Dice: {counts} ({total} in play)", indent=0)
        elif isinstance(e, ObligingRound):
            how = (
                f"{name(e.player)} chooses open or closed"
                if e.visibility is None
                else _VISIBILITY_TEXT.get(e.visibility, e.visibility)
            )
            self.line(
                f"Obliging round: {name(e.player)} obliges; aces are not wild; {how}",
                style="magenta",
                indent=0,
            )
        elif isinstance(e, VisibilityChosen):
            shown = format_action(ObligeChoice(e.open), self.lang)
            how = _VISIBILITY_TEXT["open" if e.open else "closed"]
            self.line(f"{name(e.player)}: {shown} ({how})")
        elif isinstance(e, BidMade):
            shown = self.action_text(action if action is not None else e.bid)
            text = f"{name(e.player)}: {shown}"
            if e.revealed:
                text += (
                    f"; sets aside {_hand(e.revealed)} and re-rolls {_dice(e.rerolled)}: "
                    f"{_hand(game.hidden[e.player])}"
                )
            self.line(text)
        elif isinstance(e, Passed):
            self.line(f"{name(e.player)}: {self.action_text(action or PASS)}")
        elif isinstance(e, Called):
            self.claim = e
            how = " out of turn" if e.out_of_turn else ""
            call = format_action(CALL, self.lang)
            self.line(f"{name(e.player)}: {call} (calls {name(e.bidder)}'s {e.bid}{how})")
        elif isinstance(e, SpotOnClaimed):
            self.claim = e
            spot = format_action(SPOT_ON, self.lang)
            self.line(f"{name(e.player)}: {spot} (claims {name(e.bidder)}'s {e.bid} is exact)")
        elif isinstance(e, PassDoubted):
            self.claim = None
            doubt = format_action(DOUBT_PASS, self.lang)
            self.line(f"{name(e.player)}: {doubt} (doubts {name(e.passer)}'s pass)")
        elif isinstance(e, Revealed):
            self.reveal(e)
        elif isinstance(e, DiceLost):
            self.line(f"{name(e.player)} loses {_dice(e.count)} ({e.remaining} left)", "yellow")
        elif isinstance(e, DieWon):
            self.line(f"{name(e.player)} wins a die ({e.remaining} now)", "green")
        elif isinstance(e, RoundCancelled):
            self.line("Exactly right: nobody loses a die and the round is re-dealt", "green")
        elif isinstance(e, Eliminated):
            self.line(f"{name(e.player)} is out of the game", "red")
        elif isinstance(e, GameOver):
            self.console.print()
            self.line(f"Winner: {name(e.winner)}", "bold green", indent=0)

    def reveal(self, e: Revealed) -> None:
        self.line("All dice:")
        width = max(len(n) for n in self.names)
        for p, hand in enumerate(e.hands):
            if hand:
                self.line(f"{self.name(p):<{width}}  {_hand(hand)}", "cyan", indent=4)
        if e.bid is not None and e.count is not None:
            bid = e.bid
            faces = face_name(bid.face, self.lang, plural=True)
            if not e.wild_aces or bid.face == 1:
                counting = "aces not wild" if bid.face != 1 else "aces only"
            elif self.rules.wild_needs_natural:
                counting = "aces wild beside a natural"
            else:
                counting = "aces wild"
            if isinstance(self.claim, SpotOnClaimed):
                verdict = "exactly right" if e.count == bid.quantity else "not exact"
            else:
                verdict = "the bid stands" if e.count >= bid.quantity else "the bid fails"
            self.line(f"Count of {faces} ({counting}): {e.count} for {bid}: {verdict}", "bold")
        elif e.passer is not None:
            passer = self.name(e.passer)
            if e.pass_hand is not None:
                hand_name = _PASS_HAND_TEXT.get(str(e.pass_hand), str(e.pass_hand))
                self.line(f"{passer} holds {hand_name}: the pass was good", "bold")
            else:
                self.line(f"{passer} holds no special hand: the pass was a bluff", "bold")
        self.claim = None


def print_replay(record: Record, console: Console, lang: str = "en") -> Game:
    """Print ``record`` round by round on ``console`` and return the replayed game.

    Raises :class:`RecordError` if the record is bad (part of it may be printed by then:
    check it with :func:`dudo.records.replay` first to print nothing in that case).
    """
    printer = _Printer(record, console, lang)
    printer.header()
    steps = replay_steps(record)
    game = steps.game
    for e in game.events:
        printer.event(e, game, None)
    if game.phase is Phase.BIDDING:
        printer.hands(game)
    for step in steps:
        dealt = False
        for e in step.events:
            printer.event(e, game, step.action)
            if isinstance(e, RoundStarted | VisibilityChosen):
                dealt = True
        if dealt and game.phase is Phase.BIDDING:
            printer.hands(game)
    console.print()
    names = printer.names
    if game.winner is not None:
        console.print(
            Text(
                f"{names[game.winner]} wins after {game.round_number} rounds "
                f"and {len(game.history)} actions.",
                style="bold",
            )
        )
    else:
        counts = ", ".join(f"{names[p]} {c}" for p, c in enumerate(game.counts) if c)
        console.print(
            Text(
                f"The record ends in round {game.round_number}; the game is not finished. "
                f"Dice: {counts}."
            )
        )
    return game
