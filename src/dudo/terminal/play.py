"""``dudo play``: you against computer players in the terminal.

The screen reads the game only through ``game.view(you)``; each bot gets ``game.view(seat)``
for its own seat. Everything is printed as plain lines (rich styles only add colour), so the
game works the same with input piped in and output redirected. This module sets a game up,
plays it and saves its record; the game loop is :mod:`dudo.terminal.screen`, and what it
draws :mod:`dudo.terminal.panels`.

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
    A bid or call in any of the notations of :mod:`dudo.notation` (``5x3``, ``five threes``,
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
    language, as the web client words it (:meth:`Screen.reason`, :meth:`Screen.unread`).

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
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import platformdirs
from rich.console import Console
from rich.text import Text

from dudo.bots import Bot, make_bot
from dudo.engine.errors import DudoError
from dudo.engine.game import Game
from dudo.engine.rules import Rules, rules_from_settings
from dudo.notation import FACE_NAMINGS, LANGUAGES
from dudo.records import PlayerInfo, write_record
from dudo.review import REVIEWER, review
from dudo.terminal.review import show_review
from dudo.terminal.screen import InputFn, Quit, Screen
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

#: Environment variable naming the program's data directory (records go in ``records/``).
HOME_ENV = "DUDO_HOME"

#: Names given to the bots, in seat order (``Bot N`` beyond the list).
BOT_NAMES = ("Ana", "Beto", "Carmen", "Diego", "Elena", "Felix", "Gabi", "Hugo", "Ines", "Julia")


def default_record_dir() -> Path:
    """Where records go: ``$DUDO_HOME/records`` if ``DUDO_HOME`` is set and not empty, else
    ``records`` in the user's data directory for ``dudo``."""
    home = os.environ.get(HOME_ENV, "").strip()
    base = Path(home).expanduser() if home else Path(platformdirs.user_data_dir("dudo"))
    return base / "records"


build_rules = rules_from_settings  # the preset and the --set house rules, read by the engine


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
    faces: str = "usual",
) -> int:
    """Play one game of Dudo on ``console``: you in seat 0 against ``players - 1`` bots of
    level ``bots``, under the preset ``rules_name`` with the ``OPTION=VALUE`` house rules in
    ``settings``, game words in ``lang``. ``seed`` fixes the dice and the bots' choices
    (default: a fresh seed, printed and kept in the record).

    ``input_fn(prompt)`` reads your lines (default: the terminal through ``console.input``,
    echoing the line when standard input is not a terminal so a piped game reads as a
    transcript). The record is saved in ``record_dir`` (default :func:`default_record_dir`).
    ``reviewer``: the bot level of the after-game review (None: no review). ``faces``: how
    faces are named in words, "usual" (twos, threes) or "traditional" (ducks, trains).

    Returns the exit code: 0 the game ended or you quit (also at end of input), 1 the record
    could not be saved, 2 bad options, 130 interrupted (Ctrl-C).
    """
    try:
        setup = _prepare(players, rules_name, settings, lang, seed, bots, name)
        if faces not in FACE_NAMINGS:
            namings = " / ".join(FACE_NAMINGS)
            raise DudoError(message(lang, "unknown_faces", faces=repr(faces), namings=namings))
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
            naming=faces,
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
    naming: str = "usual",
) -> str:
    """Play ``game`` on ``console`` from where it stands: you in seat 0 (reading your lines
    with ``input_fn``), ``bots[seat]`` in every other seat. ``names`` are the seats' display
    names (default "You", "Ana", "Beto", ...); ``preset_name`` and ``seed`` are shown in the
    opening lines only. When the game ends or you quit, a ``reviewer`` bot reviews your
    riskiest decisions (None: no review). ``naming``: how faces are named in words (see
    :func:`dudo.notation.face_name`).

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
    screen = Screen(game, shown, bots, console, input_fn, lang, preset_name, seed, naming)
    status = "finished"
    try:
        screen.run()
    except Quit as stop:
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
        languages = ", ".join(LANGUAGES)
        raise DudoError(message("en", "unknown_language", lang=repr(lang), languages=languages))
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
