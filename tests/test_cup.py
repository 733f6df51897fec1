"""The dice cup: the model, its file, and the terminal screen driven by scripted input."""

from __future__ import annotations

import io
import json
import random
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rich.console import Console
from typer.testing import CliRunner

from dudo.cli import app
from dudo.cup import MAX_DICE, Cup, CupError
from dudo.cup.storage import (
    CUP_FILE,
    CorruptCupFileError,
    cup_path,
    data_dir,
    load_cup,
    save_cup,
    set_aside_corrupt,
)
from dudo.engine.errors import DudoError
from dudo.terminal.cup_screen import ACTIONS, Command, cup_command, parse_command, run_cup
from dudo.terminal.texts import CATALOGUE

# --- the model -------------------------------------------------------------------------------

OPERATIONS = ("roll", "remove", "add", "toggle", "hide", "show", "reset")


def apply(cup: Cup, op: str, rng: random.Random) -> Cup:
    if op == "roll":
        return cup.roll(rng)
    if op == "remove":
        return cup.remove_one()
    if op == "add":
        return cup.add_one(rng)
    if op == "toggle":
        return cup.toggle_hidden()
    if op == "hide":
        return cup.with_hidden(True)
    if op == "show":
        return cup.with_hidden(False)
    assert op == "reset"
    return cup.reset()


def impossible(cup: Cup, op: str) -> bool:
    return (op in ("roll", "remove") and cup.count == 0) or (
        op == "add" and cup.count == cup.max_dice
    )


def check_invariants(cup: Cup) -> None:
    assert 0 <= cup.count <= cup.max_dice <= MAX_DICE
    assert len(cup.dice) in (0, cup.count)
    assert all(1 <= face <= 6 for face in cup.dice)
    assert cup.out == (cup.count == 0)


def cups() -> st.SearchStrategy[Cup]:
    """Any valid cup."""

    @st.composite
    def build(draw: st.DrawFn) -> Cup:
        max_dice = draw(st.integers(1, MAX_DICE))
        count = draw(st.integers(0, max_dice))
        rolled = draw(st.booleans())
        dice = tuple(draw(st.lists(st.integers(1, 6), min_size=count, max_size=count)))
        hidden = draw(st.booleans())
        return Cup(count=count, dice=dice if rolled else (), hidden=hidden, max_dice=max_dice)

    return build()


def test_a_fresh_cup_holds_five_unrolled_shown_dice() -> None:
    cup = Cup.fresh()
    assert cup == Cup()
    assert (cup.count, cup.dice, cup.hidden, cup.max_dice) == (5, (), False, 5)
    assert not cup.rolled and not cup.out


def test_cup_error_is_a_dudo_error() -> None:
    assert issubclass(CupError, DudoError)


@given(
    start=cups(),
    ops=st.lists(st.sampled_from(OPERATIONS), max_size=40),
    seed=st.integers(0, 2**32),
)
def test_any_sequence_of_operations_keeps_the_cup_valid(
    start: Cup, ops: list[str], seed: int
) -> None:
    rng = random.Random(seed)
    cup = start
    check_invariants(cup)
    for op in ops:
        before = cup
        if impossible(cup, op):
            with pytest.raises(CupError):
                apply(cup, op, rng)
            assert cup == before  # an error changes nothing
            continue
        cup = apply(cup, op, rng)
        check_invariants(cup)
        if op == "remove":
            assert cup.count == before.count - 1
            assert cup.dice == before.dice[:-1]  # the other dice keep their faces
        elif op == "add":
            assert cup.count == before.count + 1
            assert cup.dice[: len(before.dice)] == before.dice
            assert cup.rolled == before.rolled
        elif op == "roll":
            assert len(cup.dice) == cup.count == before.count
        elif op == "reset":
            assert (cup.count, cup.dice) == (cup.max_dice, ())
        if op in ("roll", "remove", "add", "reset"):
            assert cup.hidden == before.hidden  # only hide/show change what is shown
        elif op == "toggle":
            assert cup.hidden != before.hidden


@given(cup=cups())
def test_json_round_trip(cup: Cup) -> None:
    assert Cup.from_json(cup.to_json()) == cup


def test_remove_down_to_out_then_impossible_operations() -> None:
    rng = random.Random(7)
    cup = Cup().roll(rng)
    for left in range(4, -1, -1):
        cup = cup.remove_one()
        assert cup.count == left == len(cup.dice)
    assert cup.out
    with pytest.raises(CupError, match="out of the game"):
        cup.remove_one()
    with pytest.raises(CupError, match="no dice to roll"):
        cup.roll(rng)
    # Adding at 0 undoes a mistaken removal.
    assert cup.add_one(rng).count == 1


def test_add_at_five_is_refused() -> None:
    with pytest.raises(CupError, match="already hold the most, 5"):
        Cup().add_one(random.Random(1))
    with pytest.raises(CupError, match="most, 3"):
        Cup(count=3, max_dice=3).add_one(random.Random(1))


def test_add_rolls_only_the_new_die() -> None:
    cup = Cup(count=3, dice=(6, 6, 6))
    grown = cup.add_one(random.Random(3))
    assert grown.dice[:3] == (6, 6, 6) and len(grown.dice) == 4
    assert Cup(count=3).add_one(random.Random(3)).dice == ()  # not rolled yet: no faces


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"count": 6}, "count must be a whole number from 0 to 5"),
        ({"count": -1}, "count must"),
        ({"count": True}, "count must"),
        ({"count": 2, "max_dice": 1}, "count must be a whole number from 0 to 1"),
        ({"max_dice": 6}, "max_dice must"),
        ({"max_dice": 0, "count": 0}, "max_dice must"),
        ({"count": 2, "dice": (1,)}, "dice must hold 2 faces"),
        ({"count": 1, "dice": (7,)}, "face from 1 to 6"),
        ({"count": 1, "dice": (0,)}, "face from 1 to 6"),
        ({"hidden": 1}, "hidden must be true or false"),
    ],
)
def test_invalid_cups_are_refused(fields: dict[str, object], message: str) -> None:
    with pytest.raises(CupError, match=message):
        Cup(**fields)  # type: ignore[arg-type]


def _doc(**changes: object) -> str:
    data: dict[str, object] = {
        "format": "dudo-cup",
        "version": 1,
        "count": 3,
        "dice": [1, 2, 3],
        "hidden": False,
        "max_dice": 5,
    }
    data.update(changes)
    return json.dumps({k: v for k, v in data.items() if v is not None})


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "not valid JSON"),
        ("{", "not valid JSON"),
        ("[1, 2]", "must be a JSON object, not list"),
        ('"cup"', "must be a JSON object, not str"),
        (_doc(format="other"), "format must be 'dudo-cup'"),
        (_doc(version=2), "unsupported cup version 2"),
        (_doc(hidden=None), "missing field.*hidden"),
        (_doc(colour="red"), "unknown field.*colour"),
        (_doc(count="3"), "count must"),
        (_doc(count=3.0), "count must"),
        (_doc(dice=[1, 2]), "dice must hold 3 faces"),
        (_doc(dice="123"), "dice must be a list"),
        (_doc(dice=[1, 2, 9]), "face from 1 to 6, not 9"),
        (_doc(hidden="no"), "hidden must be true or false"),
        ('{"count": ' + "9" * 5000 + "}", "not valid JSON"),
        ("[" * 100_000 + "]" * 100_000, "not valid JSON"),
    ],
)
def test_from_json_names_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(CupError, match=message):
        Cup.from_json(text)


# --- storage ---------------------------------------------------------------------------------


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("DUDO_HOME", str(tmp_path / "dudo-home"))
    return tmp_path / "dudo-home"


def test_the_cup_file_is_in_dudo_home(home: Path) -> None:
    assert data_dir() == home
    assert cup_path() == home / CUP_FILE


def test_without_dudo_home_the_user_data_dir_is_used(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DUDO_HOME", raising=False)
    import platformdirs

    assert data_dir() == Path(platformdirs.user_data_dir("dudo"))


def test_a_missing_file_is_a_fresh_cup(home: Path) -> None:
    assert load_cup() == Cup.fresh()
    assert not home.exists()  # loading writes nothing


def test_save_and_load_round_trip(home: Path) -> None:
    cup = Cup(count=2, dice=(1, 6), hidden=True)
    assert save_cup(cup) == home / CUP_FILE  # the directory is created
    assert load_cup() == cup
    assert load_cup(home / CUP_FILE) == cup
    assert [p.name for p in home.iterdir()] == [CUP_FILE]  # no temporary file left behind


def test_a_failed_save_keeps_the_old_file(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    save_cup(Cup(count=4))

    def fail(src: object, dst: object) -> None:
        raise OSError(28, "No space left on device")

    with monkeypatch.context() as patch:
        patch.setattr("dudo.cup.storage.os.replace", fail)
        with pytest.raises(CupError, match=r"cannot save the cup.*No space left"):
            save_cup(Cup(count=1))
    assert load_cup() == Cup(count=4)
    assert [p.name for p in home.iterdir()] == [CUP_FILE]


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b"{not json", "not valid JSON"),
        (b"\xff\xfe", "not UTF-8"),
        (_doc(count=9).encode(), "count must"),
    ],
)
def test_a_corrupt_file_raises_with_path_and_reason(
    home: Path, content: bytes, reason: str
) -> None:
    home.mkdir()
    (home / CUP_FILE).write_bytes(content)
    with pytest.raises(CorruptCupFileError, match=reason) as caught:
        load_cup()
    assert caught.value.path == home / CUP_FILE
    assert str(home / CUP_FILE) in str(caught.value)
    assert (home / CUP_FILE).read_bytes() == content  # untouched


def test_an_unreadable_file_raises_cup_error(home: Path) -> None:
    (home / CUP_FILE).mkdir(parents=True)  # a directory where the file should be
    with pytest.raises(CupError, match="cannot read the cup file"):
        load_cup()


def test_set_aside_keeps_every_corrupt_file(home: Path) -> None:
    home.mkdir()
    path = home / CUP_FILE
    path.write_text("first")
    assert set_aside_corrupt() == home / "cup.json.corrupt"
    path.write_text("second")
    assert set_aside_corrupt(path) == home / "cup.json.corrupt.2"
    assert not path.exists()
    assert (home / "cup.json.corrupt").read_text() == "first"
    assert (home / "cup.json.corrupt.2").read_text() == "second"


# --- the terminal ----------------------------------------------------------------------------


def console() -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, width=80, color_system=None, legacy_windows=False), out


def run(lines: list[str], path: Path, seed: int = 1) -> tuple[int, str]:
    con, out = console()
    code = run_cup(con, lines, path=path, rng=random.Random(seed))
    return code, out.getvalue()


@pytest.mark.parametrize(
    ("text", "command"),
    [
        ("r", Command.ROLL),
        (" ROLL \n", Command.ROLL),
        ("Tirar", Command.ROLL),
        ("-", Command.REMOVE),
        ("lost", Command.REMOVE),
        ("perdí", Command.REMOVE),
        ("+", Command.ADD),
        ("WON", Command.ADD),
        ("añadir", Command.ADD),
        ("h", Command.TOGGLE),
        ("hide", Command.HIDE),
        ("Show", Command.SHOW),
        ("n", Command.NEW),
        ("nuovo", Command.NEW),
        ("?", Command.HELP),
        ("q", Command.QUIT),
        ("xyzzy", None),
        ("", None),
    ],
)
def test_parse_command(text: str, command: Command | None) -> None:
    assert parse_command(text) is command


def test_every_one_shot_action_is_a_command() -> None:
    assert all(parse_command(action) is not None for action in ACTIONS)


def test_interactive_session_and_count_kept_between_runs(home: Path) -> None:
    path = home / CUP_FILE
    code, text = run(["r", "-", "lost", "q"], path)
    assert code == 0
    assert "Your cup: 5 dice" in text and "Not rolled yet" in text
    assert "Rolled 5 dice." in text
    assert "Lost a die: 4 left." in text and "Lost a die: 3 left." in text
    assert "Cup saved with 3 dice." in text
    saved = load_cup(path)
    assert saved.count == 3 and len(saved.dice) == 3

    # A second session starts where the first left off; end of input saves too.
    code, text = run(["+"], path, seed=2)
    assert code == 0
    assert "Your cup: 3 dice" in text
    assert "Won a die back: 4 now. The new die shows" in text
    assert load_cup(path).count == 4
    assert load_cup(path).dice[:3] == saved.dice


def test_shown_dice_appear_as_glyphs_and_digits(home: Path) -> None:
    path = home / CUP_FILE
    save_cup(Cup(count=3, dice=(1, 4, 6)), path)
    _, text = run(["s"], path)
    assert "⚀ 1" in text and "⚃ 4" in text and "⚅ 6" in text
    assert "●" in text


def test_hidden_dice_are_not_shown(home: Path) -> None:
    path = home / CUP_FILE
    save_cup(Cup(count=3, dice=(1, 4, 6)), path)
    code, text = run(["h", "r", "s"], path)
    assert code == 0
    after_hide = text.split("Hidden.", 1)[1]
    assert "Your cup: 3 dice (hidden)" in after_hide
    assert not any(glyph in after_hide for glyph in "⚀⚁⚂⚃⚄⚅")
    assert "●" not in after_hide
    assert "Rolled 3 dice. (hidden)" in after_hide
    assert load_cup(path).hidden

    _, text = run(["show"], path)
    assert "Shown." in text.split("cup> ", 1)[1]
    assert not load_cup(path).hidden


def test_each_change_is_saved_before_the_next_command(home: Path) -> None:
    path = home / CUP_FILE
    counts: list[int] = []

    def script() -> str:
        # Read the file between commands, as if the program were killed here.
        if path.exists():
            counts.append(load_cup(path).count)
        if len(counts) < 3:
            return "-"
        raise EOFError

    con, _ = console()
    assert run_cup(con, script, path=path, rng=random.Random(1)) == 0
    assert counts == [4, 3, 2]


def test_unknown_input_and_impossible_actions_are_friendly(home: Path) -> None:
    path = home / CUP_FILE
    code, text = run(["dance", "[bold]x", "+", "n", "?", "q"], path)
    assert code == 0
    assert "I don't know 'dance'. Type ? for help." in text
    assert "I don't know '[bold]x'." in text  # shown literally, not as markup
    assert "Cannot add a die: you already hold the most, 5" in text
    assert "New game: 5 dice." in text
    assert "Dice cup commands" in text
    assert "Traceback" not in text


def test_out_of_the_game_then_new_game(home: Path) -> None:
    path = home / CUP_FILE
    code, text = run(["r", "-", "-", "-", "-", "-", "-", "r", "n", "r"], path)
    assert code == 0
    assert "Lost your last die: you are out of the game." in text
    assert "No die to remove" in text
    assert "No dice to roll" in text
    assert "New game: 5 dice." in text
    assert load_cup(path).count == 5 and load_cup(path).rolled


def test_corrupt_file_declined_is_left_alone(home: Path) -> None:
    home.mkdir()
    path = home / CUP_FILE
    path.write_text("garbage")
    code, text = run(["no", "r"], path)
    assert code == 1
    assert "is damaged: not valid JSON" in text
    assert "Start a fresh cup of 5 dice?" in text and "[y/N]" in text
    assert path.read_text() == "garbage"
    assert not (home / "cup.json.corrupt").exists()

    code, _ = run([], path)  # end of input at the question also declines
    assert code == 1 and path.read_text() == "garbage"


def test_corrupt_file_accepted_starts_fresh_and_keeps_it(home: Path) -> None:
    home.mkdir()
    path = home / CUP_FILE
    path.write_text("garbage")
    code, text = run(["Sí", "r", "-", "q"], path)
    assert code == 0
    assert "kept as" in text and "cup.json.corrupt" in text
    assert (home / "cup.json.corrupt").read_text() == "garbage"
    assert load_cup(path).count == 4


# --- one-shot actions ------------------------------------------------------------------------


def one_shot(action: str, seed: int = 1) -> tuple[int, str]:
    con, out = console()
    code = cup_command(action, con, rng=random.Random(seed))
    return code, out.getvalue()


def test_one_shot_actions_use_dudo_home(home: Path) -> None:
    code, text = one_shot("status")
    assert code == 0 and "Your cup: 5 dice" in text and "Not rolled yet" in text
    assert not (home / CUP_FILE).exists()  # nothing changed, nothing written

    code, text = one_shot("roll")
    assert code == 0 and "Rolled 5 dice." in text
    assert load_cup().rolled

    code, text = one_shot("remove")
    assert code == 0 and "Lost a die: 4 left." in text
    code, text = one_shot("hide")
    assert code == 0 and "Hidden." in text and "●" not in text
    code, text = one_shot("status")
    assert code == 0 and "Your cup: 4 dice (hidden)" in text
    code, text = one_shot("show")
    assert code == 0 and "Shown." in text and "●" in text
    code, text = one_shot("add")
    assert code == 0 and "Won a die back: 5 now." in text
    code, text = one_shot("ADD")
    assert code == 1 and "Cannot add a die" in text
    code, text = one_shot("new")
    assert code == 0 and "New game: 5 dice." in text
    assert load_cup() == Cup.fresh()


def test_one_shot_unknown_action(home: Path) -> None:
    code, text = one_shot("fly")
    assert code == 2
    assert "Unknown cup action 'fly'" in text and "roll, remove, add" in text
    assert one_shot("quit")[0] == 2


def test_one_shot_with_corrupt_file(home: Path) -> None:
    home.mkdir()
    (home / CUP_FILE).write_text("{}")
    code, text = one_shot("roll")
    assert code == 1
    assert "is damaged" in text and "dudo cup new" in text
    assert (home / CUP_FILE).read_text() == "{}"

    code, text = one_shot("new")
    assert code == 0 and "kept as" in text
    assert (home / "cup.json.corrupt").read_text() == "{}"
    assert load_cup() == Cup.fresh()


def test_cup_command_without_action_is_interactive(home: Path) -> None:
    con, out = console()
    assert cup_command(None, con, io.StringIO("roll\nremove\n")) == 0
    assert "Lost a die: 4 left." in out.getvalue()
    assert load_cup().count == 4


# --- dudo cup --lang ---------------------------------------------------------------------------

# A game at a real table: help, a roll, hide and show, a die lost, two won (one too many), a
# word the cup does not know, the status, a new game.
SESSION = "?\nr\nh\nh\n-\n+\n+\nbaile\ns\nn\nq\n"

#: What each language must show (the English is the cup's own, for comparison).
SAID = {
    "es": [
        "Cacho",
        "Órdenes del cacho",
        "Tu cacho: 5 dados",
        "cacho> ",
        "No puedes añadir un dado: ya tienes el máximo, 5",
        "No conozco 'baile'.",
        "ayuda",
    ],
    "it": [
        "Bicchiere",
        "Comandi del bicchiere",
        "Il tuo bicchiere: 5 dadi",
        "bicchiere> ",
        "Non puoi aggiungere un dado: hai già il massimo, 5",
        "Non conosco 'baile'.",
        "aiuto",
    ],
}


def english_cup_words() -> set[str]:
    """Words of four letters or more of the cup's English messages that its Spanish and Italian
    messages never use ("JSON", "dudo cup new" are the same in every language)."""

    def words(lang: str) -> set[str]:
        cup = [v for k, v in CATALOGUE[lang].items() if k.startswith("terminal.cup_")]
        return {w for text in cup for w in re.findall(r"[A-Za-z]{4,}", text)}

    return words("en") - words("es") - words("it")


def assert_no_cup_english(out: str) -> None:
    found = sorted(w for w in english_cup_words() if re.search(rf"\b{w}\b", out))
    assert not found, (found, out)


def dudo_cup(home: Path, *args: str, stdin: str = "") -> tuple[int, str]:
    result = CliRunner().invoke(app, ["cup", *args], input=stdin, env={"DUDO_HOME": str(home)})
    return result.exit_code, result.output


def test_the_english_words_of_the_cup_are_found() -> None:
    assert {"Hidden", "roll", "damaged"} <= english_cup_words()
    with pytest.raises(AssertionError):
        assert_no_cup_english("Lost a die: 4 left.")


@pytest.mark.parametrize("lang", ["es", "it"])
def test_the_interactive_cup_speaks_the_language(tmp_path: Path, lang: str) -> None:
    code, out = dudo_cup(tmp_path / "casa", "--lang", lang, stdin=SESSION)
    assert code == 0
    for said in SAID[lang]:
        assert said in out, (said, out)
    assert_no_cup_english(out)


@pytest.mark.parametrize("lang", ["es", "it"])
def test_the_one_shot_cup_speaks_the_language(tmp_path: Path, lang: str) -> None:
    home = tmp_path / "casa"
    codes, outputs = [], []
    for action in ("roll", "remove", "add", "add", "help", "baile", "status", "new"):
        code, out = dudo_cup(home, action, "--lang", lang)
        codes.append(code)
        outputs.append(out)
    assert codes == [0, 0, 0, 1, 0, 2, 0, 0]
    assert load_cup(home / CUP_FILE).count == 5
    said = "".join(outputs)
    assert_no_cup_english(said)
    assert ("Tu cacho: 5 dados" if lang == "es" else "Il tuo bicchiere: 5 dadi") in said


@pytest.mark.parametrize(
    ("lang", "damaged", "kept"),
    [
        ("es", "está dañado: no es JSON válido (línea 1, columna 1)", "se guarda como"),
        ("it", "è danneggiato: non è JSON valido (riga 1, colonna 1)", "conservato come"),
    ],
)
def test_a_damaged_cup_file_is_told_in_the_language(
    tmp_path: Path, lang: str, damaged: str, kept: str
) -> None:
    home = tmp_path / "casa"
    home.mkdir()
    (home / CUP_FILE).write_text("garbage")
    code, out = dudo_cup(home, "roll", "--lang", lang)
    assert code == 1 and damaged in " ".join(out.split()) and "dudo cup new" in out
    assert_no_cup_english(out)
    code, out = dudo_cup(home, "--lang", lang, stdin="no\n")
    assert code == 1 and damaged in " ".join(out.split())
    assert_no_cup_english(out)
    code, out = dudo_cup(home, "new", "--lang", lang)
    assert code == 0 and kept in out
    assert_no_cup_english(out)


def test_an_unknown_language_is_refused(tmp_path: Path) -> None:
    code, out = dudo_cup(tmp_path / "casa", "--lang", "fr")
    assert code == 2 and "unknown language 'fr'" in out
    assert not (tmp_path / "casa" / CUP_FILE).exists()
