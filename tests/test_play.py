"""``dudo play``: the terminal game, driven without a terminal (scripted input, a console
writing to a string)."""

from __future__ import annotations

import io
import json
import random
import re
import sys
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest
from rich.console import Console

from dudo.bots import Bot, make_bot
from dudo.engine import Bid, DudoError, Game, preset
from dudo.notation import face_name, format_action
from dudo.records import read_record, replay
from dudo.terminal import screen
from dudo.terminal.commands import PLAY_WORDS, PlayCommand, parse_play_command
from dudo.terminal.play import build_rules, default_record_dir, play_command, play_game
from dudo.terminal.texts import CATALOGUE, LANGS, template, text
from dudo.terminal.texts import dice as dice_words

# The screen's labels in every language, so the scripted player can play in any of them.
_BIDS = re.compile(
    r"\s*(?:"
    + "|".join(
        re.escape(template(lang, k)) for lang in LANGS for k in ("lowest_raises", "lowest_openings")
    )
    + r"): (.*)"
)
_OTHERS = re.compile(
    r"\s*(?:" + "|".join(re.escape(template(lang, "or").split("{")[0]) for lang in LANGS) + r")(.*)"
)
# The reveal's count line, capturing the face's name and number.
COUNTS = {
    "en": r"Count of (\w+) \([^)]*\): \d+ for \d+x(\d+)",
    "es": r"Recuento de (\w+) \([^)]*\): \d+ para \d+x(\d+)",
    "it": r"Conteggio \((\w+), [^)]*\): \d+ per \d+x(\d+)",
}
CALLS = {"en": "calls", "es": "duda la", "it": "dubita della"}  # the narrated call
_QUIT_ASKS = tuple(template(lang, "quit_ask")[:8] for lang in LANGS)
_CHOICE = re.compile(
    r"\s*(?:"
    + "|".join(re.escape(template(lang, "you_oblige").split("{")[0]) for lang in LANGS)
    + r")'([^']+)' \w+ '([^']+)'"
)
# The out-of-turn question in every language (" out of turn?", " fuera de turno?" ...).
_OUT_OF_TURN = tuple(template(lang, "out_of_turn").strip() + "?" for lang in LANGS)


class Human:
    """Types the ``script`` lines first, then (if ``auto``) plays by reading the screen:
    the lowest bid shown or one of the other actions shown, at random; at an out-of-turn
    prompt it calls with chance ``out_of_turn``. Every prompt and answer is written to the
    console's buffer, like a terminal would show them."""

    def __init__(
        self,
        script: Iterable[str] = (),
        *,
        auto: bool = True,
        seed: int = 0,
        out_of_turn: float = 0.0,
        call_word: str = "call",
        out_of_turn_script: Iterable[str] = (),
    ) -> None:
        self.buffer = io.StringIO()
        self.console = Console(file=self.buffer, width=100)
        self.script = list(script)
        self.auto = auto
        self.rng = random.Random(seed)
        self.out_of_turn = out_of_turn
        self.call_word = call_word
        self.out_of_turn_script = list(out_of_turn_script)
        self.prompts: list[str] = []
        self.read_up_to = 0
        self.bids: list[str] = []
        self.others: list[str] = []
        self.choice: list[str] = []

    @property
    def output(self) -> str:
        return self.buffer.getvalue()

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        self.look()
        if any(m in prompt for m in _OUT_OF_TURN) and self.out_of_turn_script:
            answer = self.out_of_turn_script.pop(0)
        elif self.script:
            answer = self.script.pop(0)
        elif not self.auto:
            raise EOFError
        else:
            answer = self.decide(prompt)
        self.buffer.write(prompt + answer + "\n")
        self.read_up_to = len(self.output)
        return answer

    def look(self) -> None:
        for line in self.output[self.read_up_to :].splitlines():
            if m := _BIDS.match(line):
                self.bids, self.others, self.choice = re.findall(r"\d+x\d+", m[1]), [], []
            elif m := _OTHERS.match(line):
                self.others = m[1].split(", ")
            elif m := _CHOICE.match(line):
                self.bids, self.others, self.choice = [], [], [m[1], m[2]]

    def decide(self, prompt: str) -> str:
        if any(m in prompt for m in _OUT_OF_TURN):
            return self.call_word if self.rng.random() < self.out_of_turn else ""
        if prompt.startswith(_QUIT_ASKS):
            return "n"
        if self.choice:
            return self.rng.choice(self.choice)
        if self.bids and (not self.others or self.rng.random() < 0.4):
            return self.bids[0]
        return self.rng.choice(self.others)


def run(
    human: Human,
    tmp_path: Path,
    *,
    seed: int = 1,
    players: int = 4,
    rules: str = "dudo",
    settings: Iterable[str] = (),
    lang: str = "en",
    name: str = "You",
) -> int:
    return play_command(
        players=players,
        rules_name=rules,
        settings=list(settings),
        lang=lang,
        seed=seed,
        name=name,
        record_dir=tmp_path / "records",
        console=human.console,
        input_fn=human,
    )


DUDO = preset("dudo")
HANDS4 = [(1, 2, 3, 3, 5), (2, 3, 4, 4, 6), (1, 3, 5, 6, 6), (2, 2, 3, 5, 6)]


def bots_for(game: Game, level: str = "easy") -> dict[int, Bot]:
    return {seat: make_bot(level, random.Random(seat)) for seat in range(1, game.players)}


def saved_record(tmp_path: Path) -> Path:
    files = sorted((tmp_path / "records").glob("dudo-*.json"))
    assert len(files) == 1, files
    return files[0]


def first_game_with(
    key: str, tmp_path: Path, make: Callable[[int], Human] = lambda s: Human(seed=s), **kw: object
) -> tuple[Human, int]:
    """Play seeded games until one shows ``key`` (the screen's behaviour, not a given seed's
    dice, is under test)."""
    for seed in range(60):
        human = make(seed)
        folder = tmp_path / f"seed{seed}"
        code = run(human, folder, seed=seed, **kw)  # type: ignore[arg-type]
        assert code == 0, human.output[-2000:]
        if key in human.output:
            return human, seed
    pytest.fail(f"no game showed {key!r}")


# ------------------------------------------------------------------------- whole games


def test_full_game_reaches_a_winner_and_the_record_replays(tmp_path: Path) -> None:
    human = Human(seed=3)
    assert run(human, tmp_path, seed=7) == 0
    out = human.output
    assert "Traceback" not in out and "Not allowed" not in out and "Not understood" not in out
    winner = re.search(r"Winner: (you!|\w+)", out)
    assert winner is not None
    assert "Game record saved: " in out
    path = saved_record(tmp_path)
    assert str(path) in out
    record = read_record(path)
    game = replay(record)
    assert game.is_over and record.result is not None and game.winner == record.result.winner
    expected = "you!" if game.winner == 0 else record.players[game.winner].name
    assert winner[1] == expected
    assert [p.kind for p in record.players] == ["human", "bot", "bot", "bot"]
    assert record.players[1].bot == "easy"
    assert record.preset == "dudo"
    assert record.meta["status"] == "finished" and record.meta["seed"] == 7
    json.loads(path.read_text(encoding="utf-8"))
    # every round ends in a reveal, shown with the count (or pass hand) that decided it
    decided = len(re.findall(r"Count of \w+ \([^)]*\): \d+ for \d+x\d+", out))
    decided += len(re.findall(r"the pass was good|a bluff", out))
    assert decided == record.result.rounds
    assert "All dice:" in out


def test_the_screen_shows_table_dice_bids_and_options(tmp_path: Path) -> None:
    human = Human(auto=False)
    run(human, tmp_path, seed=3)
    out = human.output
    assert "Dudo: 4 players, rules dudo" in out
    assert re.search(r"Play order \(clockwise\): (\w+, ){3}\w+", out)
    assert "Round 1" in out
    assert re.search(r"Table \(clockwise, from the opener\):", out)
    assert re.search(r"^    > \w+ +5 dice", out, re.M)  # who acts is marked
    assert re.search(r"Your dice: [1-6]( [1-6]){4}  \((\w+, ){4}\w+\)", out)
    assert "Your move > " in human.prompts
    if re.search(r"Standing bid: \d+x\d+", out):
        assert "This round: " in out
        assert re.search(r"Lowest raises: (\d+x\d+ \([\w ]+\), ){4}\d+x\d+", out)
        assert "Or: call" in out
    else:
        assert re.search(r"Lowest openings: (\d+x\d+ \([\w ]+\), ){4}\d+x\d+", out)


def test_every_preset_and_language_plays_to_the_end(tmp_path: Path) -> None:
    cases = [
        ("dudo", (), "en", 2),
        ("liars-dice", (), "es", 3),
        ("dudo-equalize", (), "it", 4),
        ("dudo-legacy", (), "en", 5),
        ("dudo-app", (), "es", 4),
        ("perudo", (), "it", 6),
        ("cacho", (), "en", 3),
        ("dudo", ("reveal_reroll=true", "loss=difference"), "en", 4),
        ("dudo", ("direction=counterclockwise", "next_opener=winner", "cruzado=yes"), "es", 4),
    ]
    for i, (rules, settings, lang, players) in enumerate(cases):
        human = Human(seed=i, out_of_turn=0.2, call_word="dudo")
        folder = tmp_path / str(i)
        code = run(
            human, folder, seed=i, rules=rules, settings=settings, lang=lang, players=players
        )
        out = human.output
        assert code == 0, out[-2000:]
        assert any(template(lang, k).split("{")[0] in out for k in ("winner", "winner_you")), out
        for problem in ("not_allowed", "not_understood_short"):
            assert template(lang, problem).split("{")[0] not in out, out
        record = read_record(saved_record(folder))
        assert replay(record).is_over
        assert len(record.players) == players


def test_counterclockwise_table_lists_play_order(tmp_path: Path) -> None:
    human = Human(auto=False)
    run(human, tmp_path, seed=2, settings=["direction=counterclockwise"])
    out = human.output
    order = re.search(r"Play order \(counterclockwise\): (.*)", out)
    assert order is not None
    seats = order[1].split(", ")
    table = re.findall(r"^    [> ] (\w+) +\d+ dic?e", out, re.M)[:4]
    # the narration names the players in play order, and the table runs from the opener in it
    assert table == seats


# ------------------------------------------------------------------------ bad input


def test_mistyped_input_gets_a_message_and_a_new_prompt() -> None:
    # Ana (seat 1) opens, Beto and Carmen answer, then it is your turn facing a bid.
    game = Game.with_hands(DUDO, HANDS4, opener=1, seed=5)
    mistakes = ["blah", "5x9", "1x2", "", "open", "doubt the pass", "5/3", "0x3", "1x2 reveal 2"]
    human = Human(mistakes, auto=False)
    with pytest.raises(EOFError):
        play_game(game, bots_for(game), console=human.console, input_fn=human)
    out = human.output
    assert "Traceback" not in out
    assert "Not understood: 'blah' is not a bid or call" in out
    assert "Not understood: '5x9': there is no face 9 (faces are 1-6)" in out
    assert re.search(r"Not allowed: 1x2 \(one two\) does not raise \d+x\d+ \([a-z ]+\)\. ", out)
    assert "Type a bid or call, or ? for help." in out
    assert "Not allowed: There is no open or closed choice to make now." in out
    assert "Not allowed: There is no pass to doubt." in out
    assert "Not understood: '5/3': unexpected character" in out
    assert "Not understood: '0x3': the quantity must be at least 1" in out
    assert "Not allowed: These rules do not let you show dice and re-roll." in out
    assert re.search(r"You may: lowest raises: (\d+x\d+, ){4}\d+x\d+; or call", out)
    # every mistake got a new prompt, then the input ended; nothing was played for you
    assert human.prompts == ["Your move > "] * (len(mistakes) + 1)
    assert all(p != 0 for p, _ in game.history)


def test_opening_with_a_call_is_explained() -> None:
    game = Game.with_hands(DUDO, HANDS4, opener=0, seed=5)
    human = Human(["call", "pass", "7x1"], auto=False)
    with pytest.raises(EOFError):
        play_game(game, bots_for(game), console=human.console, input_fn=human)
    out = human.output
    assert out.count("Not allowed: You open the round, so you must bid.") == 2
    assert "Not allowed: 7x1 (seven aces). Only a player holding one die may open on aces." in out
    assert "Lowest openings: 1x2 (one two), 1x3 (one three)" in out
    assert not game.history


def test_the_traditional_face_names_when_asked() -> None:
    # The same opening as above with the English nicknames: the bids say "duck", "train".
    game = Game.with_hands(DUDO, HANDS4, opener=0, seed=5)
    human = Human(["call", "7x1", "hint"], auto=False)
    with pytest.raises(EOFError):
        play_game(game, bots_for(game), console=human.console, input_fn=human, naming="traditional")
    out = human.output
    assert "Not allowed: 7x1 (seven aces). Only a player holding one die may open on aces." in out
    assert "Lowest openings: 1x2 (one duck), 1x3 (one train)" in out
    assert "hexes" in out and "sixes" not in out  # the hint's expected count of each face


def test_an_unknown_face_naming_is_a_bad_option(tmp_path: Path) -> None:
    human = Human([], auto=False)
    code = play_command(
        players=4,
        rules_name="dudo",
        settings=[],
        console=human.console,
        input_fn=human,
        record_dir=tmp_path,
        faces="fancy",
    )
    assert code == 2
    assert "unknown face names 'fancy'; faces are named usual / traditional" in human.output


def test_help_moves_rules_and_table_commands(tmp_path: Path) -> None:
    human = Human(["?", "moves", "rules", "table", "help"], auto=False)
    run(human, tmp_path, seed=3)
    out = human.output
    assert out.count("How to play your turn:") == 2
    assert "A raise is a higher quantity of any face, or the same quantity of a higher face." in out
    assert "Aces are wild" in out
    assert "Now you may:" in out
    assert re.search(r"Bids \(\d+\):", out)
    assert "raise_mode = any_face" in out and "cruzado = false" in out
    assert out.count("Table (clockwise, from the opener):") >= 3
    assert "Commands: ? or help" in out
    assert human.prompts.count("Your move > ") == 6


def test_quit_asks_first_and_saves_the_unfinished_game(tmp_path: Path) -> None:
    human = Human(["quit", "no", "quit", "y"], auto=False)
    assert run(human, tmp_path, seed=3) == 0
    out = human.output
    assert "Playing on." in out
    assert "You leave the game." in out
    record = read_record(saved_record(tmp_path))
    assert record.result is None and record.meta["status"] == "quit"
    assert not replay(record).is_over


def test_end_of_input_saves_the_record(tmp_path: Path) -> None:
    human = Human(["call"], auto=False)
    assert run(human, tmp_path, seed=3) == 0
    out = human.output
    assert "End of input: the game stops here." in out
    record = read_record(saved_record(tmp_path))
    assert record.meta["status"] == "input ended"
    game = replay(record)
    assert not game.is_over and game.history  # the bots' actions and the call are kept


def test_ctrl_c_saves_the_record(tmp_path: Path) -> None:
    def interrupt(prompt: str) -> str:
        raise KeyboardInterrupt

    console = Console(file=io.StringIO(), width=100)
    code = play_command(
        seed=1, record_dir=tmp_path / "records", console=console, input_fn=interrupt
    )
    assert code == 130
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert "Interrupted" in out and "Game record saved" in out
    assert read_record(saved_record(tmp_path)).meta["status"] == "interrupted"


def test_piped_standard_input(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With no input_fn the game reads standard input (here a pipe) and echoes each line."""
    monkeypatch.setattr(sys, "stdin", io.StringIO("blah\nquit\ny\n"))
    buffer = io.StringIO()
    code = play_command(
        seed=3, record_dir=tmp_path / "records", console=Console(file=buffer, width=100)
    )
    out = buffer.getvalue()
    assert code == 0
    assert "Your move > blah\n" in out
    assert "Not understood: 'blah'" in out
    assert "You leave the game." in out
    saved_record(tmp_path)


def test_bots_pause_only_when_output_is_a_terminal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pauses: list[float] = []
    monkeypatch.setattr("dudo.terminal.screen.time.sleep", pauses.append)
    human = Human(seed=2)
    assert run(human, tmp_path / "piped", seed=2) == 0
    assert pauses == []
    human = Human(["quit", "y"], auto=False)
    human.console = Console(file=human.buffer, width=100, force_terminal=True)
    run(human, tmp_path / "terminal", seed=3)  # three bots act before your first turn
    assert pauses == [screen.BOT_PAUSE] * 3


# ---------------------------------------------------------------------- options


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"settings": ["bogus=1"]}, "unknown option 'bogus'"),
        ({"settings": ["spot_on=maybe"]}, "spot_on='maybe' is not valid; use true | false"),
        ({"settings": ["spot_on"]}, "is not OPTION=VALUE"),
        ({"settings": ["faces=3"]}, "pass_hands: "),
        ({"rules_name": "nope"}, "unknown preset 'nope'"),
        ({"lang": "fr"}, "unknown language 'fr'"),
        ({"bots": "grandmaster"}, "unknown bot 'grandmaster'"),
        ({"players": 1}, "at least one bot"),
        ({"players": 7, "rules_name": "perudo"}, "above max_players=6"),
        ({"players": 1, "lang": "es"}, "jugadores: 1; una partida necesita que juegues tú"),
        ({"players": 7, "rules_name": "perudo", "lang": "it"}, "giocatori: 7 supera max_"),
    ],
)
def test_bad_options_exit_2_with_a_message(
    tmp_path: Path, kwargs: dict[str, object], message: str
) -> None:
    console = Console(file=io.StringIO(), width=200)
    args: dict[str, object] = {"record_dir": tmp_path / "records", "console": console, "seed": 1}
    args.update(kwargs)
    assert play_command(**args) == 2  # type: ignore[arg-type]
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert out.startswith("errore: " if kwargs.get("lang") == "it" else "error: ")
    assert message in out
    assert not (tmp_path / "records").exists()


def test_build_rules() -> None:
    rules = build_rules("Perudo", ["spot-on=false", "cruzado = on"])
    assert rules.spot_on is False and rules.cruzado is True and rules.max_players == 6
    assert build_rules("dudo", []) == build_rules("dudo", ())


def test_record_dir_defaults_to_dudo_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DUDO_HOME", str(tmp_path / "home"))
    assert default_record_dir() == tmp_path / "home" / "records"
    console = Console(file=io.StringIO(), width=100)
    assert play_command(seed=1, console=console, input_fn=Human(auto=False)) == 0
    assert len(list((tmp_path / "home" / "records").glob("dudo-*.json"))) == 1
    monkeypatch.setenv("DUDO_HOME", "")
    assert default_record_dir().name == "records"


def test_unwritable_record_dir_exits_1(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    human = Human(auto=False)
    code = play_command(
        seed=1, record_dir=blocker / "records", console=human.console, input_fn=human
    )
    assert code == 1
    assert "error: the game record could not be saved" in human.output


def test_names(tmp_path: Path) -> None:
    human = Human(auto=False)
    run(human, tmp_path, seed=1, name="Ana", players=3)
    out = human.output
    assert "Ana against 2 easy bots: Beto, Carmen." in out
    record = read_record(saved_record(tmp_path))
    assert record.names == ("Ana", "Beto", "Carmen")
    blank = Human(auto=False)
    run(blank, tmp_path / "blank", seed=1, name="  ", players=2)
    assert "You against 1 easy bot: Ana." in blank.output


# ---------------------------------------------------------------------- languages


@pytest.mark.parametrize(("lang", "call"), [("es", "dudo"), ("it", "dubito"), ("en", "call")])
def test_game_words_in_the_chosen_language(tmp_path: Path, lang: str, call: str) -> None:
    human = Human(seed=4, call_word=call)
    assert run(human, tmp_path, seed=4, lang=lang) == 0
    out = human.output
    hands = re.findall(rf"{text(lang, 'your_dice')}([1-6](?: [1-6])*)  \(([^)]*)\)", out)
    assert hands
    for dice, names in hands:
        assert names.split(", ") == [face_name(int(d), lang) for d in dice.split()]
    for q, f, words in re.findall(r"(\d+)x(\d+) \(([^)]*)\)", out):
        assert words == format_action(Bid(int(q), int(f)), lang, "long")
    assert re.search(rf"{text(lang, 'or', actions=call)}\b", out)
    assert re.search(rf": {call} \({CALLS[lang]} ", out)
    counted = re.findall(COUNTS[lang], out)
    assert counted
    for faces, face in counted:
        assert faces == face_name(int(face), lang, plural=True)


def test_spanish_typing_works_in_any_display_language(tmp_path: Path) -> None:
    human, seed = first_game_with(
        "Puntata in corso:", tmp_path, make=lambda s: Human(auto=False), lang="it"
    )
    human = Human(["dudo"], auto=False)
    run(human, tmp_path / "again", seed=seed, lang="it")
    assert re.search(r"\w+: dubito \(dubita della \d+x\d+ di \w+\)", human.output)


# ------------------------------------------------------------------ special rounds


def test_out_of_turn_calls_under_cruzado() -> None:
    rules = DUDO.with_options(cruzado=True)
    # Ana opens; Beto is to act next, so you may call Ana's bid out of turn.
    game = Game.with_hands(rules, HANDS4, opener=1, seed=5)
    human = Human(auto=False, out_of_turn_script=["5x3", "?", "maybe", "dudo"])
    with pytest.raises(EOFError):
        play_game(game, bots_for(game), console=human.console, input_fn=human, lang="es")
    out = human.output
    asked = human.prompts[:4]
    assert asked == [asked[0]] * 4
    assert re.fullmatch(
        r"¿Dudar la \d+x\d+ de Ana fuera de turno\? Intro: no, sigue Beto; 'dudo': dudar ya > ",
        asked[0],
    )
    assert "fuera de turno solo puedes dudar ('dudo'), o pulsa Intro para seguir." in out
    assert "Cruzado: tras la acción de otro jugador" in out
    assert "No entendido: 'maybe' no es una apuesta ni un dudo" in out
    assert re.search(r"Tú: dudo \(duda la \d+x\d+ de Ana fuera de turno\)", out)
    assert game.history[1][0] == 0 and game.round_number == 2


def test_bots_call_out_of_turn_and_empty_line_plays_on(tmp_path: Path) -> None:
    for seed in range(20):
        human = Human(seed=seed)  # always presses Enter at the out-of-turn question
        run(human, tmp_path / str(seed), seed=seed, settings=["cruzado=true"], players=6)
        assert "Winner: " in human.output
        if re.search(r"\w+: call \(calls \w+'s \d+x\d+ out of turn\)", human.output):
            assert any("out of turn?" in p for p in human.prompts)
            return
    pytest.fail("no bot called out of turn")


def test_no_out_of_turn_prompt_without_cruzado(tmp_path: Path) -> None:
    human = Human(seed=1)
    run(human, tmp_path, seed=1, players=6)
    assert not any("out of turn" in p for p in human.prompts)


def test_you_choose_the_obliging_round_visibility() -> None:
    # You drop to one die and oblige: choose open, then see every hand but your own.
    game = Game(DUDO, 3, seed=2, order=(0, 1, 2), dice=(1, 3, 3), obliger=0)
    human = Human(["bogus", "3x3", "abierto"], auto=False)
    with pytest.raises(EOFError):
        play_game(game, bots_for(game), console=human.console, input_fn=human, lang="es")
    out = human.output
    assert "Ronda 1 (ronda obligada)" in out
    assert "Ronda obligada: obligas tú. Los ases no son comodines" in out
    assert "Tus dados: aún sin tirar" in out
    assert "Obligas: elige 'abierto' o 'cerrado'" in out
    assert (
        "No permitido: primero elige una ronda obligada abierta o cerrada: 'abierto' o 'cerrado'"
        in out
    )
    assert "Puedes: abierto, cerrado. Escribe ? para ayuda." in out
    assert "Tú: abierto (abierto: cada uno ve todas las manos menos la suya)" in out
    assert "Tus dados: ocultos (ronda obligada abierta: ves todas las manos menos la tuya)" in out
    seen = re.search(r"Ves: Ana ([1-6 ]+); Beto ([1-6 ]+)", out)
    assert seen is not None
    assert tuple(map(int, seen[1].split())) == game.hand(1)
    assert tuple(map(int, seen[2].split())) == game.hand(2)
    # Any face, aces included, in an obliging round.
    assert "Aperturas más bajas: 1x1 (un as)" in out


def test_closed_obliging_round_hides_your_dice() -> None:
    rules = preset("dudo-equalize")  # closed obliging rounds
    game = Game(rules, 3, seed=2, order=(1, 0, 2), dice=(3, 1, 3), obliger=1)
    human = Human(auto=False)
    with pytest.raises(EOFError):
        play_game(game, bots_for(game), console=human.console, input_fn=human)
    out = human.output
    assert "closed: only players holding one die see their own dice" in out
    assert "Your dice: hidden (closed obliging round" in out
    assert "Your dice: 1" not in out and "You see" not in out
    assert re.search(r"Lowest raises: \d+x(\d+) .*, \d+x\1 ", out)  # same face only


def test_after_you_are_out_the_game_is_summarised() -> None:
    # You hold the last die of yours and bid the impossible: a bot calls and you are out.
    hands = [(2,), (3, 3, 4, 4, 5), (3, 5, 5, 6, 6), (2, 2, 4, 6, 6)]
    game = Game.with_hands(DUDO, hands, opener=0, obliged=(0,), seed=3)
    human = Human(["16x6"], auto=False)
    status = play_game(game, bots_for(game), console=human.console, input_fn=human)
    assert status == "finished" and game.is_over
    out = human.output
    assert "You lose 1 die (0 left)" in out and "You are out of the game" in out
    tail = out.split("You are out of the game. The bots play on; one line per round:")[1]
    assert re.search(r"Round 2: \w+ (calls|claims|doubts) ", tail)
    assert "Your move" not in tail and "All dice" not in tail
    assert re.search(r"Winner: (Ana|Beto|Carmen), after \d+ rounds\.", tail)
    assert len(human.prompts) == 1


def test_play_game_checks_its_arguments() -> None:
    game = Game(DUDO, 3, seed=1)
    console = Console(file=io.StringIO())
    with pytest.raises(DudoError, match="no bot for seat"):
        play_game(game, {1: make_bot("random", random.Random(1))}, console=console, input_fn=input)
    with pytest.raises(DudoError, match="names: 2 given"):
        play_game(game, bots_for(game), console=console, input_fn=input, names=("A", "B"))


# ------------------------------------------------------- the terminal in es and it

# The words typed, and what must (and must not) be printed, per language.
CASES = {
    "es": (
        ["ayuda", "jugadas", "reglas", "pista", "probabilidades", "mesa", "salir", "s"],
        [
            "Tu jugada > ",
            "Órdenes:",
            "Cómo jugar tu turno:",
            "Tus dados:",
            "Dejas la partida.",
            "Mesa (sentido horario, desde quien abre):",
            "5 dados",
            "Dados en juego: 20",
        ],
    ),
    "it": (
        ["aiuto", "mosse", "regole", "suggerimento", "probabilità", "tavolo", "esci", "sì"],
        [
            "La tua mossa > ",
            "Comandi:",
            "Come giocare il tuo turno:",
            "I tuoi dadi:",
            "Lasci la partita.",
            "Tavolo (senso orario, da chi apre):",
            "5 dadi",
            "Dadi in gioco: 20",
        ],
    ),
}
ENGLISH = [
    "Table (",
    "Dice in play",
    "Your move >",
    "How to play your turn:",
    "Your dice:",
    "Not understood",
    "Commands:",
]


@pytest.mark.parametrize("lang", sorted(CASES))
def test_play_commands_and_labels_in_the_language(tmp_path: Path, lang: str) -> None:
    script, expected = CASES[lang]
    human = Human(script, auto=False)
    assert run(human, tmp_path, seed=3, lang=lang) == 0
    out = human.output
    for words in expected:
        assert words in out
    for words in ENGLISH:
        assert words not in out
    assert not re.search(r"No entendido|Non capito", out)  # every command was understood


def test_every_message_key_exists_in_every_language() -> None:
    assert set(CATALOGUE) == set(LANGS)
    mine = {k for k in CATALOGUE["en"] if k.startswith("terminal.")}
    assert len(mine) > 200  # the terminal's own messages are in the catalogue
    for lang in LANGS:
        assert {k for k in CATALOGUE[lang] if k.startswith("terminal.")} == mine, lang
        for key in mine:
            message = CATALOGUE[lang][key]
            assert message.strip(), (lang, key)  # every key has text in every language
            # A "you" line says "you" in words ("Pierdes 1 dado", "You lose 1 die"), and a
            # line for none says none ("no te queda ninguno"): the same fields in every language.
            fields = set(re.findall(r"\{(\w+)\}", message))
            assert fields == set(re.findall(r"\{(\w+)\}", CATALOGUE["en"][key])), (lang, key)
    # The counted messages have a form for one and for many.
    for key in ("known", "unknown", "seen", "left", "left_you", "actions", "intro_bots"):
        assert {f"terminal.{key}_one", f"terminal.{key}_other"} <= mine, key
    assert {"games.rounds_one", "games.rounds_other"} <= set(CATALOGUE["en"])


def test_command_words_are_unique_and_accent_insensitive() -> None:
    words = [w for english, others in PLAY_WORDS.values() for w in (*english, *others)]
    assert len(words) == len(set(words))
    assert parse_play_command("Probabilità") is PlayCommand.HINT
    assert parse_play_command(" AYUDA ") is PlayCommand.HELP
    assert parse_play_command("dudo") is None


def test_dice_are_counted_in_words() -> None:
    assert [dice_words("en", 1), dice_words("en", 2)] == ["1 die", "2 dice"]
    assert [dice_words("es", 1), dice_words("es", 2)] == ["1 dado", "2 dados"]
    assert [dice_words("it", 1), dice_words("it", 3)] == ["1 dado", "3 dadi"]


@pytest.mark.parametrize(
    ("lang", "yours", "theirs"),
    [
        (
            "es",
            r"(?:Abres la ronda|Pierdes \d+ dados?)",
            r"\w+ (?:abre la ronda|pierde \d+ dados?)",
        ),
        ("it", r"(?:Apri il giro|Perdi \d+ dad[oi])", r"\w+ (?:apre il giro|perde \d+ dad[oi])"),
    ],
)
def test_narration_speaks_to_you_and_of_the_others(
    tmp_path: Path, lang: str, yours: str, theirs: str
) -> None:
    human = Human(seed=2)
    assert run(human, tmp_path, seed=2, lang=lang) == 0
    out = human.output
    assert re.search(yours, out) and re.search(theirs, out)
    # "You" is never the subject of a third-person verb, nor is an English line left.
    assert not re.search(r"You (?:abre|pierde|apre|perde|gana|vince)", out)
    for english in (" opens the round", " loses ", " lose ", "Winner:"):
        assert english not in out


# ------------------------------------------- whole screens in Spanish and Italian

# English words that must not show on a Spanish or Italian screen. The players are "Tú"/"Tu",
# Ana, Beto and Carmen; rule options (``aces_wild = true``) stay as typed on the command line.
ENGLISH_WORDS = (
    " the ",
    "You ",
    "You:",
    "Your ",
    " loses",
    " bid",
    " dice",
    "Round ",
    "Odds",
    "Review",
    "Not ",
    "Seating",
    "Play order",
    "Game record",
    " would ",
    "Rules:",
    "Table",
    "Winner",
)


def assert_no_english(out: str) -> None:
    out = re.sub(r"(?m)^  \w+ = .*$", "", out)  # the rules' options, as typed in --set
    for word in ENGLISH_WORDS:
        assert word not in out, (word, out[max(0, out.find(word) - 300) : out.find(word) + 100])


# A whole game against two bots, played by reading the screen: what every game shows.
WHOLE_GAME = {
    "es": (
        [
            "Dudo: 3 jugadores, reglas dudo\n",
            "Tú contra 2 bots easy: Ana, Beto. Idioma: es. Semilla: 2.\n",
            "Tirada para los asientos: Tú 6, Ana 6, Beto 1\n",
            "Nueva tirada por empate: Tú 1, Ana 6\n",
            "Orden de juego (sentido horario): Ana, Tú, Beto\n",
            "Tú: paso (afirma tener una mano especial)\n",
            "Pierdes 1 dado (te queda 1)\n",
            "Beto pierde 1 dado (le queda 1)\n",
            "Ronda 12 (ronda obligada)",
            "Ronda obligada: obligas tú. Los ases no son comodines; no hay calzo ni paso; solo "
            "quien tiene un dado puede cambiar de cara; quien obliga elige abierto o cerrado "
            "antes de tirar.\n",
            "Pierdes 1 dado (no te queda ninguno)\n",
            "Quedas fuera de la partida. Los bots siguen jugando; una línea por ronda:\n",
            "Gana la partida Ana, tras 16 rondas.\n",
            "Repaso: tus decisiones más arriesgadas, con las probabilidades que tenías y lo que "
            "habría hecho el bot hard\n",
            "Ronda 5, tú: paso; tu mano no era de paso. Riesgo de perder un dado: 100% (si "
            "dudan el paso).\n",
            "Registro de la partida guardado: ",
            "Vuelve a verla con: dudo replay ",
        ],
        r"\((?:le|te) quedan 1\)|\(\w+ quedan? 0\)",  # never "quedan 1" nor "quedan 0"
    ),
    "it": (
        [
            "Dudo: 3 giocatori, regole dudo\n",
            "Tu contro 2 bot easy: Ana, Beto. Lingua: it. Seme: 2.\n",
            "Tiro per i posti: Tu 6, Ana 6, Beto 1\n",
            "Nuovo lancio per lo spareggio: Tu 1, Ana 6\n",
            "Ordine di gioco (senso orario): Ana, Tu, Beto\n",
            "Tu: passo (dichiara una mano speciale)\n",
            "Giro 12 (giro obbligato)",
            "Giro obbligato: obblighi tu. Gli assi non sono jolly; niente calza né passo; solo "
            "chi ha un dado può cambiare faccia; chi obbliga sceglie aperto o chiuso prima del "
            "lancio.\n",
            "Perdi 1 dado (non te ne resta nessuno)\n",
            "Sei fuori dalla partita. I bot continuano a giocare; una riga per giro:\n",
            "Revisione: le tue decisioni più rischiose, con le probabilità che avevi e cosa "
            "avrebbe fatto il bot hard\n",
            "Registrazione della partita salvata: ",
            "Rivedila con: dudo replay ",
        ],
        r"restano 1\)|restano 0\)",
    ),
}


@pytest.mark.parametrize("lang", sorted(WHOLE_GAME))
def test_a_whole_game_in_spanish_and_italian(tmp_path: Path, lang: str) -> None:
    human = Human(seed=2)
    assert run(human, tmp_path, seed=2, lang=lang, players=3) == 0
    out = human.output
    sentences, wrong_number = WHOLE_GAME[lang]
    for sentence in sentences:
        assert sentence in out, sentence
    assert not re.search(wrong_number, out)
    assert re.search(r"\((?:le|gliene|te|te ne) (?:queda|resta) 1\)", out)  # one die left
    winner = {"es": r"Gana la partida \w+, tras \d+ rondas\.", "it": r"Vince la partita \w+, dopo"}
    assert re.search(winner[lang], out)
    assert_no_english(out)


# The commands in each language (and two English ones), then quitting; what each one shows.
SCREENS = {
    "es": (
        [
            *("ayuda", "pista", "jugadas", "reglas", "mesa", "help", "odds", "xyz", ""),
            *("salir", "no", "salir", "sí"),
        ],
        [
            "Cómo jugar tu turno:\n",
            "Apuesta: una cantidad y una cara, p. ej. 5x3, '5 3', 'cinco trenes', 'cinque tre': "
            "al menos esa cantidad de dados de toda la mesa muestran esa cara.\n",
            "Una subida es una cantidad mayor de cualquier cara, o la misma cantidad de una cara "
            "más alta.\n",
            "Los ases son comodines: cuentan para cualquier cara; una apuesta a ases solo cuenta "
            "ases. Pasar a ases exige al menos la mitad de la cantidad, redondeando hacia arriba; "
            "dejar los ases exige al menos el doble de los ases más uno.\n",
            "Ahora puedes:\n",
            "- 'dudo': duda la apuesta en pie; se muestran todos los dados, y si coinciden menos "
            "pierde un dado quien apostó; si no, lo pierdes tú.\n",
            "- 'calzo': afirma que la apuesta en pie es exacta; si fallas pierdes un dado, si "
            "aciertas ganas un dado (hasta cinco).\n",
            "- 'paso': afirma tener una mano especial (cinco caras distintas, cinco iguales, un "
            "full) y pasa la apuesta en pie; el siguiente jugador puede subirla o dudar el paso.\n",
            "Probabilidades según lo que ves (5 dados conocidos, 15 desconocidos; los ases son "
            "comodines):\n",
            "El bot hard jugaría ",
            "Reglas: dudo\n",
            "No entendido: 'xyz' no es una apuesta ni un dudo. Escribe ? para ayuda.\n",
            "Escribe una apuesta o un dudo, o ? para ayuda.\n",
            "Seguimos jugando.\n",
            "Dejas la partida.\n",
        ],
        [
            r"- subir a cualquiera de las \d+ apuestas, de \d+x\d+ a \d+x\d+ \(",
            r"Apuestas \(\d+\):",
            r"Recuentos esperados: ases \d,\d, tontos \d,\d, ",
            r"Otras: dudo, paso, calzo",
        ],
    ),
    "it": (
        [
            *("aiuto", "suggerimento", "mosse", "regole", "tavolo", "help", "hint", "xyz", ""),
            *("esci", "no", "esci", "sì"),
        ],
        [
            "Come giocare il tuo turno:\n",
            "Un rilancio è una quantità maggiore di qualsiasi faccia, o la stessa quantità di una "
            "faccia più alta.\n",
            "Gli assi sono jolly: contano per qualsiasi faccia; una puntata sugli assi conta solo "
            "gli assi.",
            "Ora puoi:\n",
            "- 'dubito': dubita della puntata in corso; si mostrano tutti i dadi, e se ne "
            "corrispondono meno perde un dado chi ha puntato, altrimenti lo perdi tu.\n",
            "- 'calza': afferma che la puntata in corso è esatta; se sbagli perdi un dado, se "
            "indovini vinci un dado (fino a cinque).\n",
            "Probabilità da ciò che vedi (5 dadi noti, 15 ignoti; gli assi sono jolly):\n",
            "Il bot hard giocherebbe ",
            "Regole: dudo\n",
            "Non capito: 'xyz' non è una puntata né un dubito. Scrivi ? per aiuto.\n",
            "Scrivi una puntata o un dubito, o ? per aiuto.\n",
            "Si continua.\n",
            "Lasci la partita.\n",
        ],
        [
            r"- rilanciare con una qualsiasi delle \d+ puntate, da \d+x\d+ a \d+x\d+ \(",
            r"Puntate \(\d+\):",
            r"Conteggi attesi: assi \d,\d, due \d,\d, ",
            r"Altre: dubito",
        ],
    ),
}


@pytest.mark.parametrize("lang", sorted(SCREENS))
def test_help_hint_moves_rules_and_quit_in_spanish_and_italian(tmp_path: Path, lang: str) -> None:
    script, sentences, patterns = SCREENS[lang]
    human = Human(script, auto=False)
    assert run(human, tmp_path, seed=1, lang=lang) == 0
    out = human.output
    for sentence in sentences:
        assert sentence in out, sentence
    for pattern in patterns:
        assert re.search(pattern, out), pattern
    how_to, odds = ("Cómo jugar", "Probabilidades según") if lang == "es" else ("Come gioc", "Prob")
    assert out.count(how_to) == 2 and out.count(odds + ("abilità da" if lang == "it" else "")) == 2
    # Every command got the prompt back; the game was saved when you left.
    assert human.prompts.count(text(lang, "prompt")) == 11
    assert text(lang, "record_saved", path="").strip() in out
    record = read_record(saved_record(tmp_path))
    assert record.meta["status"] == "quit" and record.players[0].name == "You"
    assert_no_english(out.replace("help", "").replace("hint", "").replace("odds", ""))


# A pass and its doubt, with the hint and the review: Ana holds a full house.
PASS_SCREENS = {
    "es": (
        ["3x3", "pista", "dudo el paso", "salir", "s"],
        [
            "Ana: paso (afirma tener una mano especial)\n",
            "Apuesta en pie: 3x3 (tres trenes), tuya\n",
            "Ana ha pasado: sube la apuesta en pie o duda el paso\n",
            "El paso de Ana: una mano al azar de 5 dados es mano de paso el 13,2% de las veces\n",
            "Tú: dudo el paso (duda el paso de Ana)\n",
            "Ana tiene 3 3 3 6 6, un full: el paso era bueno\n",
            "Pierdes 1 dado (te quedan 4)\n",
            "Ronda 1, tú: 3x3 (tres trenes); se cumple 21,0%. Riesgo de perder un dado: 79,0% "
            "(si te dudan).\n",
            "Ronda 1, tú: dudo el paso; una mano como la de quien pasó es de paso el 13,2% de las "
            "veces. Riesgo de perder un dado: 13,2%.\n",
            "    El bot hard habría jugado ",
        ],
    ),
    "it": (
        ["3x3", "suggerimento", "dubito il passo", "esci", "s"],
        [
            "Ana: passo (dichiara una mano speciale)\n",
            "Puntata in corso: 3x3 (tre tre), tua\n",
            "Ana ha passato: rilancia la puntata in corso o dubita del passo\n",
            "Il passo di Ana: una mano a caso di 5 dadi è una mano da passo il 13,2% delle volte\n",
            "Tu: dubito il passo (dubita del passo di Ana)\n",
            "Ana ha 3 3 3 6 6, un full: il passo era buono\n",
            "Perdi 1 dado (te ne restano 4)\n",
            "Giro 1, tu: 3x3 (tre tre); regge 21,0%. Rischio di perdere un dado: 79,0% (se ti "
            "dubitano).\n",
            "    Il bot hard avrebbe giocato ",
        ],
    ),
}


@pytest.mark.parametrize("lang", sorted(PASS_SCREENS))
def test_pass_doubt_hint_and_review_in_spanish_and_italian(lang: str) -> None:
    script, sentences = PASS_SCREENS[lang]
    game = Game.with_hands(DUDO, [(2, 2, 4, 5, 6), (3, 3, 3, 6, 6)], opener=0, seed=1)
    human = Human(script, auto=False)
    bots = {1: make_bot("hard", random.Random(1))}
    status = play_game(game, bots, console=human.console, input_fn=human, lang=lang)
    assert status == "quit"
    out = human.output
    for sentence in sentences:
        assert sentence in out, sentence
    assert_no_english(out)


OBLIGING = {
    "es": (
        "cerrado",
        "ayuda",
        [
            "Ronda 1 (ronda obligada)",
            "Tus dados: aún sin tirar (primero quien obliga elige abierto o cerrado)\n",
            "Tú: cerrado (cerrado: solo quien tiene un dado ve sus propios dados)\n",
            "Esta es una ronda obligada: los ases no son comodines y son la cara más baja, quien "
            "abre puede apostar a cualquier cara, no hay calzo ni paso; solo quien tiene un dado "
            "puede cambiar de cara.\n",
            "- abrir la ronda con cualquiera de las ",
        ],
        r"(?s)Ronda obligada: obliga Ana\. .*\n  Ana: (abierto|cerrado) \(\1: ",
    ),
    "it": (
        "chiuso",
        "aiuto",
        [
            "Giro 1 (giro obbligato)",
            "I tuoi dadi: non ancora lanciati (prima chi obbliga sceglie aperto o chiuso)\n",
            "Tu: chiuso (chiuso: solo chi ha un dado vede i propri dadi)\n",
            "Questo è un giro obbligato: gli assi non sono jolly e sono la faccia più bassa, chi "
            "apre può puntare su qualsiasi faccia, niente calza né passo; solo chi ha un dado può "
            "cambiare faccia.\n",
            "- aprire il giro con una qualsiasi delle ",
        ],
        r"(?s)Giro obbligato: obbliga Ana\. .*\n  Ana: (aperto|chiuso) \(\1: ",
    ),
}


@pytest.mark.parametrize("lang", sorted(OBLIGING))
def test_obliging_rounds_in_spanish_and_italian(lang: str) -> None:
    closed, help_word, sentences, theirs = OBLIGING[lang]
    # You oblige (one die left): choose, then ask for help.
    game = Game(DUDO, 3, seed=2, order=(0, 1, 2), dice=(1, 3, 3), obliger=0)
    human = Human([closed, help_word], auto=False)
    with pytest.raises(EOFError):
        play_game(game, bots_for(game), console=human.console, input_fn=human, lang=lang)
    out = human.output
    for sentence in sentences:
        assert sentence in out, sentence
    assert_no_english(out)
    # Ana obliges and chooses: spoken of in the third person.
    game = Game(DUDO, 3, seed=2, order=(1, 0, 2), dice=(3, 1, 3), obliger=1)
    human = Human(auto=False)
    with pytest.raises(EOFError):
        play_game(game, bots_for(game), console=human.console, input_fn=human, lang=lang)
    assert re.search(theirs, human.output)
    assert_no_english(human.output)


MISTAKES = {
    "es": (
        ["blah", "1x2", "", "abierto", "dudo el paso"],
        [
            "No entendido: 'blah' no es una apuesta ni un dudo. Escribe ? para ayuda.\n",
            "No permitido: 1x2 (un tonto) no supera 7x2 (siete tontos). La cantidad no puede "
            "bajar.\n",
            "Escribe una apuesta o un dudo, o ? para ayuda.\n",
            "No permitido: Ahora no hay que elegir entre ronda abierta o cerrada.\n",
            "No permitido: No hay ningún paso del que dudar.\n",
        ],
        r"Puedes: subidas más bajas: (\d+x\d+, ){4}\d+x\d+; o dudo, paso, calzo\. Escribe \? "
        r"para ayuda\.",
        ["dudo", "paso"],
        "No permitido: Abres la ronda, así que debes apostar.\n",
    ),
    "it": (
        ["blah", "1x2", "", "aperto", "dubito il passo"],
        [
            "Non capito: 'blah' non è una puntata né un dubito. Scrivi ? per aiuto.\n",
            "Non permesso: 1x2 (un due) non è un rilancio su 7x2 (sette due). La quantità non "
            "può scendere.\n",
            "Scrivi una puntata o un dubito, o ? per aiuto.\n",
            "Non permesso: Ora non c'è da scegliere tra giro aperto e chiuso.\n",
            "Non permesso: Non c'è nessun passo da dubitare.\n",
        ],
        r"Puoi: rilanci più bassi: (\d+x\d+, ){4}\d+x\d+; oppure dubito, passo, calza\. Scrivi "
        r"\? per aiuto\.",
        ["dubito", "passo"],
        "Non permesso: Apri il giro, quindi devi puntare.\n",
    ),
}


@pytest.mark.parametrize("lang", sorted(MISTAKES))
def test_mistakes_are_explained_in_spanish_and_italian(lang: str) -> None:
    script, sentences, options, opening, must_bid = MISTAKES[lang]
    game = Game.with_hands(DUDO, HANDS4, opener=1, seed=5)
    human = Human(script, auto=False)
    with pytest.raises(EOFError):
        play_game(game, bots_for(game), console=human.console, input_fn=human, lang=lang)
    out = human.output
    for sentence in sentences:
        assert sentence in out, sentence
    assert re.search(options, out)
    assert human.prompts == [text(lang, "prompt")] * (len(script) + 1)
    assert all(p != 0 for p, _ in game.history)  # nothing was played for you
    assert_no_english(out)
    # Opening with a call or a pass.
    game = Game.with_hands(DUDO, HANDS4, opener=0, seed=5)
    human = Human(opening, auto=False)
    with pytest.raises(EOFError):
        play_game(game, bots_for(game), console=human.console, input_fn=human, lang=lang)
    assert human.output.count(must_bid) == 2
    assert not game.history


@pytest.mark.parametrize(
    ("lang", "help_word", "sentences"),
    [
        (
            "es",
            "ayuda",
            [
                "Para apartar dados y volver a tirar el resto, añádelos a una subida: "
                "5x3 muestra 3,3\n",
                "- subir y apartar dados boca arriba, volviendo a tirar el resto: "
                "'5x3 muestra 3,3' (los dados apartados deben mostrar la cara, o ases si son "
                "comodines)\n",
            ],
        ),
        (
            "it",
            "aiuto",
            [
                "Per mettere da parte dadi e rilanciare gli altri, aggiungili a un rilancio: "
                "5x3 mostra 3,3\n",
                "- rilanciare mettendo da parte dadi scoperti e rilanciando gli altri: "
                "'5x3 mostra 3,3' (i dadi messi da parte devono mostrare la faccia, o assi se "
                "sono jolly)\n",
            ],
        ),
    ],
)
def test_reveal_and_reroll_is_explained_in_the_language(
    tmp_path: Path, lang: str, help_word: str, sentences: list[str]
) -> None:
    human, _ = first_game_with(
        sentences[1],  # the help at your first turn, when you face a bid
        tmp_path,
        make=lambda s: Human([help_word], seed=s),
        lang=lang,
        settings=["reveal_reroll=true"],
    )
    for sentence in sentences:
        assert sentence in human.output, sentence
    assert_no_english(human.output)
