"""``dudo play`` words the engine's reasons for refusing a move in every language: each
:class:`ReasonCode` has texts in English, Spanish and Italian (``reason.<code>`` of the message
catalogue, the web client's words too), and an illegal move typed at a table with fixed dice
gets its reason in the game's language. Text that is no bid or call gets the notation's
reason the same way, from its :class:`NotationCode` (``notation.<code>``)."""

from __future__ import annotations

import io
import random
import string
from collections.abc import Iterable

import pytest
from rich.console import Console

from dudo.bots import make_bot
from dudo.engine import Bid, Game, preset
from dudo.engine.errors import NotationCode, NotationError, ReasonCode
from dudo.notation import parse_action
from dudo.terminal.play import play_game
from dudo.terminal.texts import CATALOGUE, LANGS

DUDO = preset("dudo")
HANDS4 = [(1, 2, 3, 3, 5), (2, 3, 4, 4, 6), (1, 3, 5, 6, 6), (2, 2, 3, 5, 6)]
# The parameters the engine gives with each reason (errors.py lists them beside the codes).
PARAMS = {"player", "action", "bid", "new", "standing", "face", "faces", "count", "dice", "order"}


def keys_for(code: ReasonCode) -> list[str]:
    """The texts that word ``code``: one, or a singular and a plural form by a count."""
    key = f"reason.{code}"
    if key in CATALOGUE["en"]:
        return [key]
    return [f"{key}_one", f"{key}_other"]


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


@pytest.mark.parametrize("code", list(ReasonCode))
def test_every_reason_code_is_worded_in_every_language(code: ReasonCode) -> None:
    for lang in LANGS:
        for key in keys_for(code):
            template = CATALOGUE[lang].get(key)
            assert template, (lang, key)
            assert fields(template) <= PARAMS, (lang, key)
            assert fields(template) == fields(CATALOGUE["en"][key]), (lang, key)
            for form in ("_you",):  # a form for you has no {player}: it speaks to you
                if key + form in CATALOGUE[lang]:
                    assert "player" not in fields(CATALOGUE[lang][key + form]), (lang, key)
        if "count" in fields(CATALOGUE["en"][keys_for(code)[-1]]):
            assert len(keys_for(code)) == 2, code  # a count needs its singular and plural


def play(game: Game, typed: Iterable[str], lang: str) -> str:
    """What the screen shows when you type ``typed`` at your turn, until the input ends."""
    buffer = io.StringIO()
    console = Console(file=buffer, width=200)
    lines = list(typed)

    def read(prompt: str) -> str:
        if not lines:
            raise EOFError
        line = lines.pop(0)
        buffer.write(prompt + line + "\n")
        return line

    bots = {seat: make_bot("easy", random.Random(seat)) for seat in range(1, game.players)}
    with pytest.raises(EOFError):
        play_game(game, bots, console=console, input_fn=read, lang=lang)
    return buffer.getvalue()


def facing(bid: Bid) -> Game:
    """A game with fixed dice where seat 3 opened with ``bid`` and it is your turn."""
    game = Game.with_hands(DUDO, HANDS4, opener=3, seed=5)
    game.push(bid)
    assert game.to_move == 0
    return game


RAISES = {
    # At the same quantity the face must go up.
    ("3x3", "3x4"): {
        "en": "Not allowed: 3x3 (three threes) does not raise 3x4 (three fours). At the same "
        "quantity the face must go up.",
        "es": "No permitido: 3x3 (tres trenes) no supera 3x4 (tres cuadras). Con la misma "
        "cantidad, la cara debe subir.",
        "it": "Non permesso: 3x3 (tre tre) non è un rilancio su 3x4 (tre quattro). A parità "
        "di quantità, la faccia deve salire.",
    },
    # From five dice a bid on aces needs three aces (half, rounded up): a count, so a plural.
    # The words name the standing bid themselves, so the refused raise is not said again.
    ("2x1", "5x4"): {
        "en": "Not allowed: After 5x4 (five fours), a bid on aces needs at least 3 aces.",
        "es": "No permitido: Tras 5x4 (cinco cuadras), una apuesta de ases necesita al menos "
        "3 ases.",
        "it": "Non permesso: Dopo 5x4 (cinque quattro), una puntata sugli assi richiede almeno "
        "3 assi.",
    },
    # The quantity may not go down.
    ("2x6", "3x2"): {
        "en": "Not allowed: 2x6 (two sixes) does not raise 3x2 (three twos). The quantity may "
        "not go down.",
        "es": "No permitido: 2x6 (dos senas) no supera 3x2 (tres tontos). La cantidad no puede "
        "bajar.",
        "it": "Non permesso: 2x6 (due sei) non è un rilancio su 3x2 (tre due). La quantità non "
        "può scendere.",
    },
}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("typed", "standing"), sorted(RAISES))
def test_a_refused_raise_says_why_in_the_language(lang: str, typed: str, standing: str) -> None:
    quantity, face = map(int, standing.split("x"))
    game = facing(Bid(quantity, face))
    out = play(game, [typed], lang)
    assert RAISES[typed, standing][lang] + "\n" in out, out
    assert len(game.history) == 1  # nothing was played for you


OPENINGS = {
    "one_die_only": {
        "en": "Not allowed: 2x1 (two aces). Only a player holding one die may open on aces.",
        "es": "No permitido: 2x1 (dos ases). Solo quien tiene un único dado puede abrir con ases.",
        "it": "Non permesso: 2x1 (due assi). Solo chi ha un solo dado può aprire sugli assi.",
    },
    "never": {
        "en": "Not allowed: 2x1 (two aces). A round may not be opened on aces.",
        "es": "No permitido: 2x1 (dos ases). No se puede abrir una ronda con ases.",
        "it": "Non permesso: 2x1 (due assi). Non si può aprire un giro sugli assi.",
    },
}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("rule", sorted(OPENINGS))
def test_an_ace_opening_that_is_not_allowed_says_why(lang: str, rule: str) -> None:
    rules = DUDO.with_options(open_on_aces=rule)
    game = Game.with_hands(rules, HANDS4, opener=0, seed=5)
    out = play(game, ["2x1"], lang)
    assert OPENINGS[rule][lang] + "\n" in out, out
    assert not game.history


REVEALS = {
    "en": "Not allowed: These rules do not let you show dice and re-roll.",
    "es": "No permitido: Estas reglas no permiten mostrar dados y volver a tirar.",
    "it": "Non permesso: Queste regole non permettono di mostrare dadi e ritirare.",
}


@pytest.mark.parametrize("lang", sorted(REVEALS))
def test_a_reason_that_names_no_bid_is_worded_alone(lang: str) -> None:
    game = facing(Bid(2, 3))
    out = play(game, ["3x3 r 3 3"], lang)
    assert REVEALS[lang] + "\n" in out, out
    assert len(game.history) == 1


# ------------------------------------------------------------------- unreadable input


@pytest.mark.parametrize("code", list(NotationCode))
def test_every_notation_code_is_worded_in_every_language(code: NotationCode) -> None:
    key = f"notation.{code}"
    for lang in LANGS:
        assert CATALOGUE[lang].get(key), (lang, key)
        assert fields(CATALOGUE[lang][key]) == fields(CATALOGUE["en"][key]), (lang, key)


# What was typed, the code the notation gives it and its parameters (besides the text).
UNREADABLE = [
    ("", NotationCode.NOTHING, {}),
    ("5/3", NotationCode.UNEXPECTED_CHARACTER, {"char": "/"}),
    ("blah", NotationCode.NOT_A_MOVE, {}),
    ("5x9", NotationCode.NO_SUCH_FACE, {"face": 9, "faces": 6}),
    ("5x1234", NotationCode.FACE_TOO_LARGE, {"faces": 6}),
    ("siete", NotationCode.QUANTITY_NO_FACE, {"quantity": 7}),
    ("trenes", NotationCode.FACE_NO_QUANTITY, {"face": 3}),
    ("0x3", NotationCode.QUANTITY_MIN, {}),
    ("5000x3", NotationCode.QUANTITY_MAX, {"most": 999}),
    ("blah trenes", NotationCode.NOT_A_QUANTITY, {"word": "blah"}),
    ("5 blah", NotationCode.NOT_A_FACE, {"word": "blah", "faces": 6}),
    ("muestra 3", NotationCode.NO_BID_BEFORE_REVEAL, {}),
    ("5x", NotationCode.NO_FACE_AFTER_X, {}),
    ("x3", NotationCode.NO_QUANTITY_BEFORE_X, {}),
    ("5x3 reveal", NotationCode.NO_REVEALED_DICE, {}),
    ("5x3 reveal tres", NotationCode.NOT_A_REVEALED_DIE, {"word": "tres"}),
]


@pytest.mark.parametrize(("typed", "code", "params"), UNREADABLE)
def test_the_notation_gives_each_reading_mistake_a_code(
    typed: str, code: NotationCode, params: dict[str, object]
) -> None:
    with pytest.raises(NotationError) as caught:
        parse_action(typed)
    assert caught.value.code is code, str(caught.value)
    assert dict(caught.value.params) == {"text": typed.strip(), **params}


def test_every_notation_code_is_reached() -> None:
    assert {code for _, code, _ in UNREADABLE} == set(NotationCode)


TYPED = {
    "en": [
        "Not understood: '5x9': there is no face 9 (faces are 1-6). Type ? for help.",
        "Not understood: 'siete' has a quantity but no face; try 7x3 (seven threes). Type ? "
        "for help.",
        "Not understood: 'quinas' has a face but no quantity; try 5x5 (five fives). Type ? "
        "for help.",
        "Not understood: '0x3': the quantity must be at least 1. Type ? for help.",
    ],
    "es": [
        "No entendido: '5x9': no hay cara 9 (las caras van del 1 al 6). Escribe ? para ayuda.",
        "No entendido: 'siete' tiene cantidad pero no cara; prueba 7x3 (siete trenes). "
        "Escribe ? para ayuda.",
        "No entendido: 'quinas' tiene cara pero no cantidad; prueba 5x5 (cinco quinas). "
        "Escribe ? para ayuda.",
        "No entendido: '0x3': la cantidad debe ser al menos 1. Escribe ? para ayuda.",
    ],
    "it": [
        "Non capito: '5x9': non esiste la faccia 9 (le facce vanno da 1 a 6). Scrivi ? per aiuto.",
        "Non capito: 'siete' ha una quantità ma nessuna faccia; prova 7x3 (sette tre). Scrivi "
        "? per aiuto.",
        "Non capito: 'quinas' ha una faccia ma nessuna quantità; prova 5x5 (cinque cinque). "
        "Scrivi ? per aiuto.",
        "Non capito: '0x3': la quantità deve essere almeno 1. Scrivi ? per aiuto.",
    ],
}


@pytest.mark.parametrize("lang", sorted(TYPED))
def test_unreadable_input_says_why_in_the_language(lang: str) -> None:
    game = facing(Bid(2, 3))
    out = play(game, ["5x9", "siete", "quinas", "0x3"], lang)
    for line in TYPED[lang]:
        assert line + "\n" in out, out
    assert len(game.history) == 1
