"""``dudo play``: you against computer players in the terminal.

The screen reads the game only through ``game.view(you)``; each bot gets ``game.view(seat)``
for its own seat. Everything is printed as plain lines (rich styles only add colour), so the
game works the same with input piped in and output redirected.

What is shown
    At the start: the rules (preset and house rules), the players, the seating rolls and the
    play order. Every round: a header (round number, obliging round and its visibility), the
    table (every player in play order from the opener: dice held, what they did this round,
    ``>`` before whoever acts, ``out`` when eliminated) and your dice with their face names
    (or why you cannot see them in a closed or open obliging round, and the dice you see of
    others). Every action by anyone. At your turn: the table again, your dice, the bids of
    this round, the standing bid, the lowest few legal bids and the other legal actions, then
    the prompt. Every reveal: all hands, the bid, the count that decided it, who lost or won
    dice, eliminations, the next obliging round, and at the end the winner.

What you type
    A bid or call in any of the notations of :mod:`dudo.notation` (``5x3``, ``five trains``,
    ``cinco trenes``, ``call``, ``dudo``, ``calzo``, ``paso``, ``dudo el paso``, ``open``,
    ``cerrado``, ``5x3 reveal 3,3`` ...), whatever the display language; or a command:
    ``?``/``help`` (your legal actions explained), ``hint``/``odds`` (the odds from what you
    see: the standing bid true and exactly right, the expected count of each face, the safest
    raises), ``moves``/``all`` (every legal action), ``rules`` (the options in play),
    ``table`` (show the table again), ``quit`` (asks for confirmation; the record of the
    unfinished game is saved too). Anything else gets a message saying what is wrong (the
    notation's or the engine's reason) and a new prompt.

Out-of-turn calls (``cruzado``)
    After every action by someone else that leaves a bid standing, if you may call it out of
    turn you are asked first (empty line: play on; a call word: call now). Then the bots are
    asked in play order from the bidder. So under cruzado there is one extra prompt after
    each bot's bid; without cruzado there is none.

Language
    Everything on the screen is in the chosen language (``--lang``): face names, bids in
    words, call words, labels, help, hint, review and messages, from the message catalogue
    the web client shares (:mod:`dudo.terminal.texts`). The default name "You" is shown as
    the language's "you" (Tú, Tu); the record keeps "You". Two things stay as typed on the
    command line: rule option names and values (``rules``) and bot levels. Why a move is
    illegal, or typed text no move, is the engine's or the notation's code worded in the
    language, as the web client words it (:meth:`_Screen.reason`, :meth:`_Screen.unread`).

End of the game
    When you are eliminated the bots play on with a one-line summary per round until the
    winner. When the game ends or you quit, a short review lists your riskiest decisions
    (:mod:`dudo.terminal.review`): the round, what you did, the odds you faced, and what the
    ``hard`` bot would have done in your place (not at the end of input or on Ctrl-C). At the
    end, on ``quit``, at the end of input (piped input exhausted) or on Ctrl-C the record is
    saved to ``record_dir`` (default ``$DUDO_HOME/records``, else
    ``platformdirs.user_data_dir("dudo")/records``) as ``dudo-YYYYMMDD-HHMMSS.json`` and its
    path is printed. A bot's pause before acting (so you can follow) happens only when the
    output is a terminal.

:func:`play_game` plays a game the caller has set up (any position, any bots), for tests and
other front ends; it does not save anything.

Entry point for the CLI: :func:`play_command`. Exit codes: 0 the game ended or you quit (also
at end of input), 1 the record could not be saved, 2 bad options (preset, ``--set``,
language, bot level, number of players), 130 interrupted by Ctrl-C (the record is saved).
"""

from __future__ import annotations

import os
import random
import secrets
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import platformdirs
from rich.console import Console
from rich.text import Text

from dudo.bots import Bot, make_bot, out_of_turn_call
from dudo.engine.actions import (
    CALL,
    DOUBT_PASS,
    PASS,
    SPOT_ON,
    Action,
    Bid,
    Call,
    DoubtPass,
    ObligeChoice,
    Pass,
    RevealBid,
    SpotOn,
)
from dudo.engine.errors import (
    DudoError,
    IllegalActionError,
    NotationCode,
    NotationError,
    Reason,
)
from dudo.engine.events import Eliminated, RoundStarted, VisibilityChosen
from dudo.engine.game import Game
from dudo.engine.rules import (
    AcesFrom,
    AcesTo,
    Direction,
    RaiseMode,
    Rules,
    rules_from_settings,
)
from dudo.engine.view import PlayerView
from dudo.notation import LANGUAGES, face_name, format_action, parse_action
from dudo.records import PlayerInfo, write_record
from dudo.review import REVIEWER, Decision, review
from dudo.terminal.commands import PlayCommand, normalize, parse_play_command
from dudo.terminal.narration import Narrator, hand_text, option_text, rules_label
from dudo.terminal.review import show_hint, show_review
from dudo.terminal.texts import counted, has, placeholders, template
from dudo.terminal.texts import dice as dice_words
from dudo.terminal.texts import text as message

__all__ = [
    "BOT_NAMES",
    "HOME_ENV",
    "InputFn",
    "build_rules",
    "default_record_dir",
    "play_command",
    "play_game",
]

#: Reads one line after showing a prompt, like :func:`input`; raises :class:`EOFError` at
#: the end of input.
InputFn = Callable[[str], str]

#: Environment variable naming the program's data directory (records go in ``records/``).
HOME_ENV = "DUDO_HOME"

#: Names given to the bots, in seat order (``Bot N`` beyond the list).
BOT_NAMES = ("Ana", "Beto", "Carmen", "Diego", "Elena", "Felix", "Gabi", "Hugo", "Ines", "Julia")

#: Seconds a bot waits before acting, when the output is a terminal.
BOT_PAUSE = 0.6

#: How many of the lowest legal bids the screen lists.
SHOWN_BIDS = 5

_YES = frozenset({"y", "yes", "s", "si"})  # compared normalized: "sí", "sì" match


def default_record_dir() -> Path:
    """Where records go: ``$DUDO_HOME/records`` if ``DUDO_HOME`` is set and not empty, else
    ``records`` in the user's data directory for ``dudo``."""
    home = os.environ.get(HOME_ENV, "").strip()
    base = Path(home).expanduser() if home else Path(platformdirs.user_data_dir("dudo"))
    return base / "records"


build_rules = rules_from_settings  # the preset and the --set house rules, read by the engine


class _Quit(Exception):
    """The player stops the game; ``status`` goes into the record's meta data."""

    def __init__(self, status: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass(frozen=True, slots=True)
class _Setup:
    rules: Rules
    preset: str
    seed: int
    lang: str
    level: str
    names: tuple[str, ...]


def play_command(
    *,
    players: int = 4,
    rules_name: str = "dudo",
    settings: Sequence[str] = (),
    lang: str = "en",
    seed: int | None = None,
    bots: str = "easy",
    name: str = "You",
    record_dir: Path | None = None,
    console: Console,
    input_fn: InputFn | None = None,
    reviewer: str | None = REVIEWER,
) -> int:
    """Play one game of Dudo on ``console``: you in seat 0 against ``players - 1`` bots of
    level ``bots``, under the preset ``rules_name`` with the ``OPTION=VALUE`` house rules in
    ``settings``, game words in ``lang``. ``seed`` fixes the dice and the bots' choices
    (default: a fresh seed, printed and kept in the record).

    ``input_fn(prompt)`` reads your lines (default: the terminal through ``console.input``,
    echoing the line when standard input is not a terminal so a piped game reads as a
    transcript). The record is saved in ``record_dir`` (default :func:`default_record_dir`).
    ``reviewer``: the bot level of the after-game review (None: no review).

    Returns the exit code: 0 the game ended or you quit (also at end of input), 1 the record
    could not be saved, 2 bad options, 130 interrupted (Ctrl-C).
    """
    try:
        setup = _prepare(players, rules_name, settings, lang, seed, bots, name)
        game = Game(setup.rules, players, seed=setup.seed)
        bot_seats: dict[int, Bot] = {
            seat: make_bot(bots, random.Random(f"dudo-play-bot:{setup.seed}:{seat}"))
            for seat in range(1, players)
        }
        if reviewer is not None:
            make_bot(reviewer, random.Random(0))  # an unknown level is a bad option
    except DudoError as exc:
        shown = message(lang, "error", error=exc)  # an unknown language: English
        console.print(Text(shown, style="red"), soft_wrap=True)
        return 2
    read = input_fn if input_fn is not None else _terminal_reader(console)
    started = datetime.now().astimezone()
    status, code = "finished", 0
    try:
        status = play_game(
            game,
            bot_seats,
            console=console,
            input_fn=read,
            names=setup.names,
            lang=setup.lang,
            preset_name=setup.preset,
            seed=setup.seed,
            reviewer=reviewer,
        )
    except EOFError:
        console.print()
        console.print(Text(message(setup.lang, "input_ended"), style="yellow"))
        status = "input ended"
    except KeyboardInterrupt:
        console.print()
        console.print(Text(message(setup.lang, "interrupted"), style="yellow"))
        status, code = "interrupted", 130
    except BaseException:
        # Whatever went wrong, keep the game played so far, then let the error through.
        _save(game, setup, started, "crashed", record_dir, console)
        raise
    saved = _save(game, setup, started, status, record_dir, console)
    return code if saved else 1


def play_game(
    game: Game,
    bots: Mapping[int, Bot],
    *,
    console: Console,
    input_fn: InputFn,
    names: Sequence[str] | None = None,
    lang: str = "en",
    preset_name: str | None = None,
    seed: int | None = None,
    reviewer: str | None = REVIEWER,
) -> str:
    """Play ``game`` on ``console`` from where it stands: you in seat 0 (reading your lines
    with ``input_fn``), ``bots[seat]`` in every other seat. ``names`` are the seats' display
    names (default "You", "Ana", "Beto", ...); ``preset_name`` and ``seed`` are shown in the
    opening lines only. When the game ends or you quit, a ``reviewer`` bot reviews your
    riskiest decisions (None: no review).

    Returns ``"finished"`` when the game is over, ``"quit"`` when you quit. End of input
    (:class:`EOFError`) and Ctrl-C (:class:`KeyboardInterrupt`) propagate: the game keeps
    everything played so far. Saving the record is up to the caller.
    """
    shown = tuple(names) if names is not None else _default_names("You", game.players)
    if len(shown) != game.players:
        raise DudoError(f"names: {len(shown)} given for {game.players} players")
    missing = [seat for seat in range(1, game.players) if seat not in bots]
    if missing:
        raise DudoError(f"bots: no bot for seat(s) {missing}")
    screen = _Screen(game, shown, bots, console, input_fn, lang, preset_name, seed)
    status = "finished"
    try:
        screen.run()
    except _Quit as stop:
        console.print()
        console.print(Text(stop.message, style="yellow"))
        status = stop.status
    if reviewer is not None:
        riskiest = review(screen.decisions, level=reviewer, seed=seed or 0)
        show_review(screen, riskiest, len(screen.decisions))
    return status


def _default_names(you: str, players: int) -> tuple[str, ...]:
    taken = you.casefold()
    spare = [n for n in BOT_NAMES if n.casefold() != taken]
    names = [you]
    for seat in range(1, players):
        names.append(spare[seat - 1] if seat - 1 < len(spare) else f"Bot {seat}")
    return tuple(names)


def _prepare(
    players: int,
    rules_name: str,
    settings: Sequence[str],
    lang: str,
    seed: int | None,
    bots: str,
    name: str,
) -> _Setup:
    if lang not in LANGUAGES:
        raise DudoError(f"unknown language {lang!r}; languages are {', '.join(LANGUAGES)}")
    rules = build_rules(rules_name, settings)
    if isinstance(players, bool) or not isinstance(players, int) or players < 2:
        raise DudoError(message(lang, "players_too_few", players=repr(players)))
    if players < rules.min_players:
        raise DudoError(message(lang, "players_below_min", players=players, min=rules.min_players))
    if rules.max_players is not None and players > rules.max_players:
        raise DudoError(message(lang, "players_above_max", players=players, max=rules.max_players))
    level = make_bot(bots, random.Random(0)).name  # checks the level, gives its own name
    names = _default_names(name.strip() or "You", players)
    if seed is None:
        seed = secrets.randbelow(10**9)
    return _Setup(rules, rules_name.strip().lower(), seed, lang, level, names)


def _terminal_reader(console: Console) -> InputFn:
    echo = not sys.stdin.isatty()

    def read(prompt: str) -> str:
        line = console.input(Text(prompt, style="bold"))
        if echo:  # piped input is not echoed by the terminal: show it, for a transcript
            console.print(Text(line))
        return line

    return read


def _save(
    game: Game,
    setup: _Setup,
    started: datetime,
    status: str,
    record_dir: Path | None,
    console: Console,
) -> bool:
    folder = record_dir if record_dir is not None else default_record_dir()
    infos = [PlayerInfo(setup.names[0], "human")] + [
        PlayerInfo(n, "bot", bot=setup.level) for n in setup.names[1:]
    ]
    meta: dict[str, Any] = {
        "program": "dudo play",
        "started": started.isoformat(timespec="seconds"),
        "ended": datetime.now().astimezone().isoformat(timespec="seconds"),
        "status": status,
        "seed": setup.seed,
        "lang": setup.lang,
        "bots": setup.level,
    }
    try:
        folder.mkdir(parents=True, exist_ok=True)
        stamp = started.strftime("%Y%m%d-%H%M%S")
        path = folder / f"dudo-{stamp}.json"
        n = 2
        while path.exists():
            path = folder / f"dudo-{stamp}-{n}.json"
            n += 1
        written = write_record(game, path, players=infos, meta=meta, preset=setup.preset)
    except (OSError, DudoError) as exc:
        failed = message(setup.lang, "record_failed", error=exc)
        console.print(Text(failed, style="red"), soft_wrap=True)
        return False
    saved = message(setup.lang, "record_saved", path=written)
    console.print(Text(saved, style="bold"), soft_wrap=True)
    again = message(setup.lang, "replay_with", path=written)
    console.print(Text(again, style="dim"), soft_wrap=True)
    return True


def _is_bid(action: Action) -> bool:
    return isinstance(action, Bid | RevealBid)


# ---------------------------------------------------------------------------- screen


class _Screen(Narrator):
    """One game on the console: the human in seat 0, bots in the other seats."""

    def __init__(
        self,
        game: Game,
        names: tuple[str, ...],
        bots: Mapping[int, Bot],
        console: Console,
        read: InputFn,
        lang: str,
        preset_name: str | None,
        seed: int | None,
    ) -> None:
        spoken_to = names[0].casefold() in {"you", message(lang, "you_name").casefold()}
        if spoken_to:  # the default name is shown as the language's "you"
            names = (message(lang, "you_name"), *names[1:])
        super().__init__(console, names, game.view(0).rules, lang, you=0 if spoken_to else None)
        self.game = game
        self.preset_name = preset_name
        self.seed = seed
        self.seat = 0  # yours
        self.bots = bots
        self.read = read
        self.pause = BOT_PAUSE if console.is_terminal else 0.0
        self.seen_events = 0
        self.decisions: list[Decision] = []  # yours, with the view you had, for the review

    # ------------------------------------------------------------------ output helpers

    def view(self) -> PlayerView:
        return self.game.view(self.seat)

    def faces_of(self, dice: Sequence[int]) -> str:
        return ", ".join(face_name(d, self.lang) for d in dice)

    # --------------------------------------------------------------------- the game

    def run(self) -> None:
        self.intro()
        self.narrate()
        while True:
            v = self.view()
            if v.is_over or v.to_move is None:
                return
            mover = v.to_move
            if mover == self.seat:
                self.your_turn()
            else:
                self.bot_turn(mover)
            self.narrate()
            self.out_of_turn_calls(mover)

    def push(self, action: Action) -> None:
        self.game.push(action)

    def bot_turn(self, seat: int) -> None:
        if self.pause and not self.brief:
            time.sleep(self.pause)
        self.push(self.bots[seat].choose(self.game.view(seat)))

    def out_of_turn_calls(self, last: int) -> None:
        """Under cruzado: after an action that leaves a bid standing, you (unless you just
        acted) and then the bots, in play order from the bidder, may call it out of turn."""
        if not self.rules.cruzado:
            return
        v = self.view()
        if v.is_over or v.standing_bid is None or v.bidder is None or v.phase != "bidding":
            return
        mine = Call(by=self.seat)
        if (
            last != self.seat
            and not self.brief
            and mine in v.legal_actions
            and self.ask_out_of_turn(v)
        ):
            self.push(mine)
            self.decisions.append(Decision(v, mine))
            self.narrate()
            return
        for seat in self.play_sequence(v, v.bidder):
            bot = self.bots.get(seat)
            if bot is None:
                continue
            call = out_of_turn_call(bot, self.game.view(seat))
            if call is not None:
                self.push(call)
                self.narrate()
                return

    def ask_out_of_turn(self, v: PlayerView) -> bool:
        assert v.standing_bid is not None and v.bidder is not None and v.to_move is not None
        word = format_action(CALL, self.lang)
        prompt = self.about(
            "out_of_turn_ask", v.bidder, bid=v.standing_bid, next=self.name(v.to_move), word=word
        )
        while True:
            text = self.read(prompt).strip()
            if not text:
                return False
            if self.command(text, v):
                continue
            try:
                action = parse_action(text, self.rules.faces)
            except NotationError as exc:
                self.line(self.t("not_understood_short", error=self.unread(text, exc)), "red")
                continue
            if isinstance(action, Call):
                return True
            self.line(self.t("out_of_turn_only", name=self.name(v.to_move), word=word), "red")

    # ------------------------------------------------------------------- your turn

    def your_turn(self) -> None:
        v = self.view()
        self.status(v)
        while True:
            text = self.read(self.t("prompt")).strip()
            if not text:
                self.line(self.t("empty"), style="red")
                continue
            v = self.view()
            if self.command(text, v):
                continue
            try:
                action = parse_action(text, self.rules.faces)
            except NotationError as exc:
                self.line(self.t("not_understood", error=self.unread(text, exc)), style="red")
                continue
            problem = self.problem(action, v)
            if problem is None:
                try:
                    self.push(action)
                    self.decisions.append(Decision(v, action))
                    return
                except IllegalActionError as exc:
                    problem = self.illegal(action, exc)
            self.line(self.t("not_allowed", problem=problem), style="red")
            hint = self.options_hint(v)
            if hint:
                self.line(hint)

    def problem(self, action: Action, v: PlayerView) -> str | None:
        """Why ``action`` is not yours to make now, in words for you; None: ask the engine."""
        if v.phase == "choose_visibility":
            if isinstance(action, ObligeChoice):
                return None
            return self.t("must_choose", choices=self.choice_words())
        if v.standing_bid is None and not _is_bid(action):
            return self.t("reason.opener_must_bid_you")
        return None

    def unread(self, typed: str, exc: NotationError) -> str:
        """Why ``typed`` is no bid or call: the notation's code worded in the game's language
        (``notation.<code>``), with an example in that language where it gives one."""
        if exc.code is None:  # not a reading mistake: say plainly that it is no move
            return self.t("notation.not_a_move", text=typed)
        fields: dict[str, object] = dict(exc.params)
        faces = self.rules.faces
        quantity, face = fields.get("quantity"), fields.get("face")
        if exc.code is NotationCode.QUANTITY_NO_FACE and isinstance(quantity, int):
            fields["example"] = self.say(Bid(quantity, min(3, faces)))
        elif exc.code is NotationCode.FACE_NO_QUANTITY and isinstance(face, int):
            fields["example"] = self.say(Bid(5, face))
        else:
            fields["example"] = self.reveal_example()
        return self.t(f"notation.{exc.code}", **fields)

    def illegal(self, action: Action, exc: IllegalActionError) -> str:
        """Why the engine refused ``action``: its reason code worded in the game's language
        (:meth:`reason`)."""
        found = exc.args[0] if exc.args else None
        if not isinstance(found, Reason):  # raised without a code: ask the engine again
            found = self.game.problem(action)
        if found is None:
            return self.t("not_legal", action=self.say(action))
        return self.reason(found)

    def reason(self, reason: Reason) -> str:
        """An engine :class:`Reason` in the game's language, from the ``reason.<code>`` texts
        the web client words it with too. Bids in its parameters are said with their words, a
        face by name, a player by name (the ``_you`` form for you); a refused raise names
        both bids, and a refused bid the bid, where the reason's words do not."""
        params = reason.params
        fields: dict[str, object] = {}
        for name, value in params.items():
            if name in ("bid", "new", "standing") and isinstance(value, str):
                fields[name] = self.said_bid(value)
            elif name == "face" and isinstance(value, int) and 1 <= value <= self.rules.faces:
                fields[name] = face_name(value, self.lang)
            elif name == "dice" and isinstance(value, str):
                fields[name] = value.replace(",", ", ")
            elif name == "player" and isinstance(value, int):
                fields[name] = self.name(value)
            else:
                fields[name] = value
        key = f"reason.{reason.code}"
        count = params.get("count")
        if isinstance(count, int):
            key += "_one" if count == 1 else "_other"
        elif self.you is not None and params.get("player") == self.you and has(key + "_you"):
            key += "_you"
        body = self.t(key, **fields)
        named = placeholders(template(self.lang, key))
        if "new" in fields and "standing" in fields and not named & {"new", "standing"}:
            return self.t("reason_raise", reason=body, **fields)
        if "bid" in fields and "bid" not in named:
            return self.t("reason_bid", reason=body, **fields)
        return body

    def said_bid(self, canonical: str) -> str:
        """A bid the engine names in notation (``3x4``), said in the game's language."""
        try:
            return self.say(parse_action(canonical, self.rules.faces))
        except NotationError:  # e.g. a face the dice do not have: the notation as it is
            return canonical

    def reveal_example(self) -> str:
        """A raise with reveal-and-reroll as typed in the game's language: 5x3 muestra 3,3."""
        return format_action(RevealBid(Bid(5, 3), (3, 3)), self.lang)

    def choice_words(self) -> str:
        first, second = (format_action(ObligeChoice(o), self.lang) for o in (True, False))
        return self.t("either", first=first, second=second)

    def command(self, text: str, v: PlayerView) -> bool:
        """Handle a screen command (a word in any language); False when ``text`` is not one."""
        cmd = parse_play_command(text)
        if cmd is PlayCommand.HELP:
            self.help(v)
        elif cmd is PlayCommand.HINT:
            show_hint(self, v)
        elif cmd is PlayCommand.MOVES:
            self.all_moves(v)
        elif cmd is PlayCommand.RULES:
            self.show_rules()
        elif cmd is PlayCommand.TABLE:
            self.status(v)
        elif cmd is PlayCommand.QUIT:
            answer = self.read(self.t("quit_ask"))
            if normalize(answer) in _YES:
                raise _Quit("quit", self.t("leave"))
            self.line(self.t("play_on"))
        else:
            return False
        return True

    # ---------------------------------------------------------------------- displays

    def intro(self) -> None:
        n = len(self.names)
        rules = rules_label(self.rules, self.preset_name, self.lang)
        self.console.print(
            Text(self.t("intro_title", players=n, rules=rules), "bold"), soft_wrap=True
        )
        levels = "/".join(sorted({bot.name for bot in self.bots.values()}))
        bots = ", ".join(self.names[1:])
        seed = self.t("intro_seed", seed=self.seed) if self.seed is not None else ""
        self.line(
            counted(
                self.lang,
                "intro_bots",
                n - 1,
                name=self.names[0],
                level=levels,
                names=bots,
                lang=self.lang,
                seed=seed,
            ),
            indent=0,
        )
        self.line(
            self.t(
                "intro_type",
                calls=", ".join(format_action(a, self.lang) for a in self.call_kinds()),
            ),
            indent=0,
        )

    def call_kinds(self) -> list[Action]:
        kinds: list[Action] = [CALL]
        if self.rules.spot_on:
            kinds.append(SPOT_ON)
        if self.rules.pass_hands:
            kinds.extend([PASS, DOUBT_PASS])
        return kinds

    def play_sequence(self, v: PlayerView, start: int) -> list[int]:
        """Every seat (eliminated ones too) in play order, starting after ``start``."""
        order = v.order
        step = 1 if v.rules.direction is Direction.CLOCKWISE else -1
        i = order.index(start)
        return [order[(i + step * k) % len(order)] for k in range(1, len(order) + 1)]

    def table(self, v: PlayerView) -> None:
        self.line(self.t("table", direction=self.t(str(v.rules.direction))))
        last: dict[int, Action] = {}
        for p, a in v.round_actions:
            last[p] = a
        seq = self.play_sequence(v, v.opener)
        seq = seq[-1:] + seq[:-1]  # the opener first
        for p in seq:
            marker = ">" if p == v.to_move else " "
            who = f"{self.name(p):<{self.name_width}}"
            count = v.dice_counts[p]
            if count == 0:
                self.line(f"{marker} {who}  {self.t('game.out')}", style="dim", indent=4)
                continue
            row = Text(
                f"{marker} {who}  {dice_words(self.lang, count):<7}",
                style="bold" if p == v.to_move else "",
            )
            if p in last:
                row.append(f"  {format_action(last[p], self.lang)}")
            tags = []
            if v.obliging and p == v.obliger:
                tags.append(self.t("tag_obliges"))
            elif p in v.obliged:
                tags.append(self.t("tag_obliged"))
            if tags:
                row.append(f"  ({', '.join(tags)})", style="dim")
            row.rstrip()
            self.line(row, indent=4)
        self.line(self.t("dice_in_play", count=v.dice_in_play))

    def your_dice(self, v: PlayerView) -> None:
        if v.dice_counts[self.seat] == 0:
            return
        aside = v.set_aside[self.seat]
        if v.my_dice is not None:
            text = Text(self.t("your_dice"))
            text.append(hand_text(v.my_dice), style="bold cyan")
            if v.my_dice:
                text.append(f"  ({self.faces_of(v.my_dice)})")
            if aside:
                text.append(self.t("face_up_yours", dice=hand_text(aside)))
            self.line(text)
        elif v.phase == "choose_visibility":
            self.line(self.t("dice_not_rolled"))
        elif v.visibility == "closed":
            self.line(self.t("dice_hidden_closed"))
        elif v.visibility == "open":
            self.line(self.t("dice_hidden_open"))
        seen = [
            (p, dice)
            for p, dice in enumerate(v.seen_dice)
            if p != self.seat and dice and v.dice_counts[p]
        ]
        if seen:
            shown = "; ".join(f"{self.name(p)} {hand_text(d)}" for p, d in seen)
            self.line(self.t("you_see" if v.visibility == "open" else "face_up", hands=shown))

    def status(self, v: PlayerView) -> None:
        """Your turn: the table, your dice, this round's bids, the standing bid, options."""
        self.console.print()
        self.table(v)
        self.your_dice(v)
        bids = [(p, a) for p, a in v.round_actions]
        if bids:
            shown = ", ".join(f"{self.name(p)} {format_action(a, self.lang)}" for p, a in bids)
            self.line(self.t("this_round", bids=shown))
        if v.standing_bid is not None and v.bidder is not None:
            self.line(
                self.about("standing", v.bidder, bid=self.say(v.standing_bid)),
                style="bold",
            )
            if v.passer is not None:
                self.line(self.about("passed", v.passer))
        self.options(v)

    def options(self, v: PlayerView) -> None:
        if not v.my_turn:
            return
        legal = v.legal_actions
        if v.phase == "choose_visibility":
            self.line(
                self.t(
                    "you_oblige",
                    choices=self.choice_words(),
                    open=self.visibility("open"),
                    closed=self.visibility("closed"),
                )
            )
            return
        bids = [a for a in legal if isinstance(a, Bid)]
        if bids:
            label = self.t("lowest_openings" if v.standing_bid is None else "lowest_raises")
            shown = ", ".join(self.say(b) for b in bids[:SHOWN_BIDS])
            more = self.t("more_bids", count=len(bids)) if len(bids) > SHOWN_BIDS else ""
            self.line(f"{label}: {shown}{more}")
        others = [a for a in legal if not _is_bid(a)]
        if others:
            self.line(self.t("or", actions=", ".join(format_action(a, self.lang) for a in others)))
        if any(isinstance(a, RevealBid) for a in legal):
            self.line(self.t("reveal_tip", example=self.reveal_example()), style="dim")

    def options_hint(self, v: PlayerView) -> str:
        bids = [a for a in v.legal_actions if isinstance(a, Bid)]
        others = [a for a in v.legal_actions if not _is_bid(a)]
        parts = []
        if bids:
            label = self.t("lowest_openings" if v.standing_bid is None else "lowest_raises")
            parts.append(f"{label.lower()}: " + ", ".join(str(b) for b in bids[:SHOWN_BIDS]))
        if others:
            words = ", ".join(format_action(a, self.lang) for a in others)
            parts.append(self.t("or_lower", actions=words) if parts else words)
        return self.t("you_may", options="; ".join(parts)) if parts else ""

    def help(self, v: PlayerView) -> None:
        rules = self.rules
        self.console.print()
        self.line(self.t("how_to"), style="bold", indent=0)
        self.line(self.t("help_bid"))
        if v.obliging:
            self.line(self.t("help_obliging", change=self.face_change()))
        else:
            self.line(self.raise_text())
            if rules.aces_wild:
                self.line(self.aces_text())
        legal = v.legal_actions
        self.line(self.t("now_you_may"), style="bold", indent=0)
        bids = [a for a in legal if isinstance(a, Bid)]
        if bids:
            kind = "help_open" if v.standing_bid is None else "help_raise"
            low, high = bids[0], bids[-1]
            if len(bids) == 1:
                self.line(self.t(f"{kind}_one", low=low, low_words=self.say(low)))
            else:
                self.line(
                    self.t(
                        kind,
                        count=len(bids),
                        low=low,
                        high=high,
                        low_words=self.say(low),
                        high_words=self.say(high),
                    )
                )
        for a in legal:
            word = format_action(a, self.lang)
            if isinstance(a, Call) and a.by is None:
                self.line("- " + self.t("help_call", word=word))
            elif isinstance(a, SpotOn):
                reward = self.t(
                    "reward_gain" if str(rules.spot_on_reward) == "gain" else "reward_cancel"
                )
                self.line("- " + self.t("help_spot_on", word=word, reward=reward))
            elif isinstance(a, Pass):
                hands = ", ".join(self.pass_hand(h) for h in sorted(rules.pass_hands))
                self.line("- " + self.t("help_pass", word=word, hands=hands))
            elif isinstance(a, DoubtPass):
                self.line("- " + self.t("help_doubt_pass", word=word))
        if any(isinstance(a, ObligeChoice) for a in legal):
            first, second = (format_action(ObligeChoice(o), self.lang) for o in (True, False))
            self.line(
                "- "
                + self.t(
                    "help_oblige_choice",
                    open=first,
                    closed=second,
                    open_text=self.visibility("open"),
                    closed_text=self.visibility("closed"),
                )
            )
        if any(isinstance(a, RevealBid) for a in legal):
            self.line(self.t("help_reveal", example=self.reveal_example()))
        if rules.cruzado:
            self.line(self.t("help_cruzado"))
        self.line(self.t("commands"), indent=0)

    def raise_text(self) -> str:
        mode = self.rules.raise_mode
        if mode is RaiseMode.ANY_FACE:
            return self.t("raise_any_face")
        if mode is RaiseMode.NONDECREASING:
            return self.t("raise_nondecreasing")
        order = (
            "1x2 < ... < 1x6 < 1x1 < 2x2 < ..."
            if str(self.rules.aces_rank) == "high"
            else "1x1 < 1x2 < ... < 1x6 < 2x1 < ..."
        )
        return self.t("raise_index", order=order)

    def aces_text(self) -> str:
        rules = self.rules
        natural = self.t("aces_natural") if rules.wild_needs_natural else ""
        text = self.t("aces_help", natural=natural)
        if rules.raise_mode is not RaiseMode.INDEX:
            to = self.t(
                "to_ceil_half" if rules.aces_to is AcesTo.CEIL_HALF else "to_floor_half_plus_one"
            )
            back = self.t(
                "back_double_plus_one"
                if rules.aces_from is AcesFrom.DOUBLE_PLUS_ONE
                else "back_double"
            )
            text += self.t("aces_switch", to=to, back=back)
        return text

    def all_moves(self, v: PlayerView) -> None:
        legal = v.legal_actions
        if not legal:
            self.line(self.t("nothing_to_do"))
            return
        bids = [a for a in legal if isinstance(a, Bid)]
        if bids:
            by_quantity: dict[int, list[str]] = {}
            for b in bids:
                by_quantity.setdefault(b.quantity, []).append(str(b))
            self.line(self.t("bids_count", count=len(bids)), style="bold")
            for shown in by_quantity.values():
                self.line(" ".join(shown), indent=4)
        reveals = [a for a in legal if isinstance(a, RevealBid)]
        if reveals:
            self.line(self.t("reveals_count", count=len(reveals)), style="bold")
            self.line(", ".join(format_action(a, self.lang) for a in reveals), indent=4)
        others = [a for a in legal if not _is_bid(a)]
        if others:
            self.line(
                self.t(
                    "other_actions", actions=", ".join(format_action(a, self.lang) for a in others)
                )
            )

    def show_rules(self) -> None:
        rules = rules_label(self.rules, self.preset_name, self.lang)
        self.line(self.t("rules_title", rules=rules), style="bold", indent=0)
        # Option names and values as typed in --set, so they can be copied to the command line.
        for option, value in self.rules.to_dict().items():
            self.line(f"{option} = {option_text(value)}")

    # -------------------------------------------------------------------- narration

    def narrate(self) -> None:
        """Print the events since the last call (all public), then the dice of a new deal."""
        v = self.view()
        new = v.events[self.seen_events :]
        self.seen_events = len(v.events)
        dealt = False
        for e in new:
            self.event(e)
            if isinstance(e, RoundStarted | VisibilityChosen):
                dealt = True
            if isinstance(e, Eliminated) and e.player == self.seat and not v.is_over:
                self.brief = True
                self.console.print()
                self.line(self.t("out_brief"), style="bold", indent=0)
        if dealt and not self.brief and not v.is_over and not v.my_turn:
            # A new deal: the table and your dice (at your turn the status shows them).
            self.table(v)
            self.your_dice(v)
