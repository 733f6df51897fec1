"""Bids and calls as text: face names, printing, reading, and the round trips between them."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dudo.engine.actions import (
    CALL,
    CLOSED,
    DOUBT_PASS,
    OPEN,
    PASS,
    SPOT_ON,
    Action,
    Bid,
    Call,
    RevealBid,
)
from dudo.engine.errors import NotationError
from dudo.notation import LANGUAGES, canonical, face_name, format_action, parse_action

STYLES = ("short", "long")
CALLS: tuple[Action, ...] = (CALL, SPOT_ON, PASS, DOUBT_PASS, OPEN, CLOSED)


# --- face names ----------------------------------------------------------------------------------

FACE_NAMES = {
    "en": ["ace", "two", "three", "four", "five", "six"],
    "es": ["as", "tonto", "tren", "cuadra", "quina", "sena"],
    "it": ["asso", "due", "tre", "quattro", "cinque", "sei"],
}
FACE_PLURALS = {
    "en": ["aces", "twos", "threes", "fours", "fives", "sixes"],
    "es": ["ases", "tontos", "trenes", "cuadras", "quinas", "senas"],
    "it": ["assi", "due", "tre", "quattro", "cinque", "sei"],
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_face_names(lang: str) -> None:
    assert [face_name(f, lang) for f in range(1, 7)] == FACE_NAMES[lang]
    assert [face_name(f, lang, plural=True) for f in range(1, 7)] == FACE_PLURALS[lang]


def test_face_name_defaults_to_english_singular() -> None:
    assert face_name(3) == "three"
    assert face_name(6, plural=True) == "sixes"


TRADITIONAL = ["ace", "duck", "train", "quad", "queen", "hex"]
TRADITIONAL_PLURALS = ["aces", "ducks", "trains", "quads", "queens", "hexes"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_traditional_face_names_are_the_english_nicknames(lang: str) -> None:
    singular = [face_name(f, lang, naming="traditional") for f in range(1, 7)]
    plural = [face_name(f, lang, plural=True, naming="traditional") for f in range(1, 7)]
    if lang == "en":
        assert (singular, plural) == (TRADITIONAL, TRADITIONAL_PLURALS)
    else:  # Spanish and Italian players' usual names are their traditional ones
        assert (singular, plural) == (FACE_NAMES[lang], FACE_PLURALS[lang])
    assert [face_name(f, lang, naming="usual") for f in range(1, 7)] == FACE_NAMES[lang]
    with pytest.raises(NotationError, match="faces are named 'usual' or 'traditional'"):
        face_name(1, lang, naming="fancy")


def test_long_bids_with_traditional_names() -> None:
    assert format_action(Bid(5, 3), "en", "long", naming="traditional") == "five trains"
    assert format_action(Bid(21, 2), "en", "long", naming="traditional") == "twenty-one ducks"
    reveal = RevealBid(Bid(5, 3), (3, 3))
    assert format_action(reveal, "en", "long", "traditional") == "five trains (reveals 3, 3)"
    assert format_action(Bid(5, 3), "es", "long", naming="traditional") == "cinco trenes"
    # Every name, usual or traditional, reads back as its face.
    for face in range(1, 7):
        for plural in (False, True):
            for naming in ("usual", "traditional"):
                said = f"five {face_name(face, plural=plural, naming=naming)}"
                assert parse_action(said) == Bid(5, face), said


def test_face_name_rejects_unknown_language_and_face() -> None:
    with pytest.raises(NotationError, match="languages are en, es, it"):
        face_name(1, "fr")
    with pytest.raises(NotationError, match=re.escape("there is no face 7 (faces are 1-6)")):
        face_name(7)
    with pytest.raises(NotationError, match="no face 0"):
        face_name(0, "es")


def test_languages() -> None:
    assert LANGUAGES == ("en", "es", "it")


# --- printing ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("action", "lang", "style", "text"),
    [
        (Bid(5, 3), "en", "short", "5x3"),
        (Bid(5, 3), "es", "short", "5x3"),
        (Bid(5, 3), "it", "short", "5x3"),
        (Bid(5, 3), "en", "long", "five threes"),
        (Bid(1, 1), "en", "long", "one ace"),
        (Bid(7, 6), "en", "long", "seven sixes"),
        (Bid(21, 2), "en", "long", "twenty-one twos"),
        (Bid(99, 5), "en", "long", "ninety-nine fives"),
        (Bid(5, 3), "es", "long", "cinco trenes"),
        (Bid(1, 1), "es", "long", "un as"),
        (Bid(3, 1), "es", "long", "tres ases"),
        (Bid(1, 5), "es", "long", "una quina"),
        (Bid(21, 1), "es", "long", "veintiún ases"),
        (Bid(21, 4), "es", "long", "veintiuna cuadras"),
        (Bid(31, 3), "es", "long", "treinta y un trenes"),
        (Bid(41, 6), "es", "long", "cuarenta y una senas"),
        (Bid(16, 2), "es", "long", "dieciséis tontos"),
        (Bid(22, 2), "es", "long", "veintidós tontos"),
        (Bid(5, 3), "it", "long", "cinque tre"),
        (Bid(3, 1), "it", "long", "tre assi"),
        (Bid(1, 1), "it", "long", "un asso"),
        (Bid(1, 2), "it", "long", "un due"),
        (Bid(21, 1), "it", "long", "ventuno assi"),
        (Bid(23, 6), "it", "long", "ventitré sei"),
        (Bid(28, 4), "it", "long", "ventotto quattro"),
        (Bid(38, 5), "it", "long", "trentotto cinque"),
        (Bid(17, 2), "it", "long", "diciassette due"),
        (Bid(120, 3), "en", "long", "120 threes"),
        (RevealBid(Bid(5, 3), (3, 3)), "en", "short", "5x3 reveal 3,3"),
        (RevealBid(Bid(5, 3), (3, 3)), "es", "short", "5x3 muestra 3,3"),
        (RevealBid(Bid(5, 3), (3, 3)), "it", "short", "5x3 mostra 3,3"),
        (RevealBid(Bid(5, 3), (3, 3)), "en", "long", "five threes (reveals 3, 3)"),
        (RevealBid(Bid(5, 3), (1, 3)), "es", "long", "cinco trenes (muestra 1, 3)"),
        (RevealBid(Bid(5, 3), (3,)), "it", "long", "cinque tre (mostra 3)"),
    ],
)
def test_format_bids(action: Action, lang: str, style: str, text: str) -> None:
    assert format_action(action, lang, style) == text


CALL_WORDS = {
    "en": ["call", "spot on", "pass", "doubt the pass", "open", "closed"],
    "es": ["dudo", "calzo", "paso", "dudo el paso", "abierto", "cerrado"],
    "it": ["dubito", "calza", "passo", "dubito il passo", "aperto", "chiuso"],
}


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("style", STYLES)
def test_format_calls(lang: str, style: str) -> None:
    assert [format_action(a, lang, style) for a in CALLS] == CALL_WORDS[lang]


def test_format_ignores_who_calls() -> None:
    assert format_action(Call(by=2), "es") == "dudo"


def test_format_defaults_and_bad_arguments() -> None:
    assert format_action(Bid(5, 3)) == "5x3"
    with pytest.raises(NotationError, match="languages are en, es, it"):
        format_action(CALL, "de")
    with pytest.raises(NotationError, match="styles are short, long"):
        format_action(CALL, "en", "medium")
    with pytest.raises(NotationError, match="no face 7"):
        format_action(Bid(5, 7), "en", "long")
    with pytest.raises(NotationError, match="at least 1"):
        format_action(Bid(0, 3), "es", "long")


# --- canonical -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("action", "text"),
    [
        (Bid(5, 3), "5x3"),
        (CALL, "call"),
        (Call(by=3), "call"),
        (SPOT_ON, "spot-on"),
        (PASS, "pass"),
        (DOUBT_PASS, "doubt-pass"),
        (OPEN, "open"),
        (CLOSED, "closed"),
        (RevealBid(Bid(5, 3), (3, 3)), "5x3 reveal 3,3"),
    ],
)
def test_canonical(action: Action, text: str) -> None:
    assert canonical(action) == text == str(action)
    assert parse_action(text) == (CALL if isinstance(action, Call) else action)


# --- reading -------------------------------------------------------------------------------------

NUMERIC = ["5x3", "5X3", "5×3", "5 x 3", "5*3", "5 * 3", "5 3", "5-3", " 5x3! ", "5x3.", "05x3"]
ENGLISH = {
    "five threes": Bid(5, 3),
    "Five Trains": Bid(5, 3),
    "five tricks": Bid(5, 3),
    "one ace": Bid(1, 1),
    "two aces": Bid(2, 1),
    "three ones": Bid(3, 1),
    "four ducks": Bid(4, 2),
    "eleven twos": Bid(11, 2),
    "twelve quads": Bid(12, 4),
    "six fours": Bid(6, 4),
    "six queens": Bid(6, 5),
    "seven fives": Bid(7, 5),
    "seven hexes": Bid(7, 6),
    "eight sixes": Bid(8, 6),
    "two six": Bid(2, 6),
    "twenty-one hexes": Bid(21, 6),
    "twenty one hexes": Bid(21, 6),
    "twentyone hexes": Bid(21, 6),
    "ninety-nine aces": Bid(99, 1),
    "5 trains": Bid(5, 3),
    "five 3": Bid(5, 3),
    "five x threes": Bid(5, 3),
    "twenty one": Bid(20, 1),  # the last word is the face: twenty ones
}
SPANISH = {
    "cinco trenes": Bid(5, 3),
    "Cinco TRENES": Bid(5, 3),
    "un as": Bid(1, 1),
    "una quina": Bid(1, 5),
    "uno as": Bid(1, 1),
    "tres ases": Bid(3, 1),
    "dos dos": Bid(2, 2),
    "tres tres": Bid(3, 3),
    "cinco cincos": Bid(5, 5),
    "seis seises": Bid(6, 6),
    "cuatro cuatros": Bid(4, 4),
    "siete unos": Bid(7, 1),
    "dos tontos": Bid(2, 2),
    "dos patos": Bid(2, 2),
    "un don": Bid(1, 2),
    "tres dones": Bid(3, 2),
    "cuatro cuadras": Bid(4, 4),
    "cuatro cuartas": Bid(4, 4),
    "cuatro cuartos": Bid(4, 4),
    "cinco quinas": Bid(5, 5),
    "cinco chinas": Bid(5, 5),
    "cinco burros": Bid(5, 5),
    "seis senas": Bid(6, 6),
    "seis sextas": Bid(6, 6),
    "seis cenas": Bid(6, 6),
    "seis sambas": Bid(6, 6),
    "seis diablos": Bid(6, 6),
    "veintiuno trenes": Bid(21, 3),
    "veintiún ases": Bid(21, 1),
    "veintiun ases": Bid(21, 1),
    "veintiuna quinas": Bid(21, 5),
    "dieciséis senas": Bid(16, 6),
    "dieciseis senas": Bid(16, 6),
    "veintidós tontos": Bid(22, 2),
    "treinta y dos dos": Bid(32, 2),
    "treinta y un ases": Bid(31, 1),
    "cuarenta y una cuadras": Bid(41, 4),
    "noventa y nueve senas": Bid(99, 6),
}
ITALIAN = {
    "cinque tre": Bid(5, 3),
    "tre assi": Bid(3, 1),
    "un asso": Bid(1, 1),
    "uno asso": Bid(1, 1),
    "due due": Bid(2, 2),
    "sei quattro": Bid(6, 4),
    "otto cinque": Bid(8, 5),
    "undici sei": Bid(11, 6),
    "ventuno assi": Bid(21, 1),
    "ventun assi": Bid(21, 1),
    "trentadue tre": Bid(32, 3),
    "ventitré due": Bid(23, 2),
    "ventitre due": Bid(23, 2),
    "trentotto sei": Bid(38, 6),
    "novantanove uno": Bid(99, 1),
}
REVEALS = {
    "5x3 reveal 3,3": RevealBid(Bid(5, 3), (3, 3)),
    "5x3 r 3 3": RevealBid(Bid(5, 3), (3, 3)),
    "5x3 REVEAL 1, 3": RevealBid(Bid(5, 3), (1, 3)),
    "5x3 reveal 3": RevealBid(Bid(5, 3), (3,)),
    "five trains (reveals 3, 3)": RevealBid(Bid(5, 3), (3, 3)),
    "cinco trenes muestra 3 3": RevealBid(Bid(5, 3), (3, 3)),
    "cinque tre (mostra 3, 1)": RevealBid(Bid(5, 3), (3, 1)),
    "5x3reveal3,3": RevealBid(Bid(5, 3), (3, 3)),
}
CALL_INPUTS = {
    CALL: ["call", "Call!", "dudo", "¡Dudo!", "doubt", "liar", "I doubt", "i call", "dubito"],
    SPOT_ON: ["spot on", "spot-on", "Spot-On.", "spoton", "calzo", "calza", "equalize", "exact"],
    PASS: ["pass", "paso", "passo", "I pass"],
    DOUBT_PASS: [
        "doubt the pass",
        "doubt pass",
        "doubt-pass",
        "dudo el paso",
        "dudo paso",
        "dubito il passo",
        "call the pass",
    ],
    OPEN: ["open", "abierto", "aperto", "OPEN"],
    CLOSED: ["closed", "close", "cerrado", "chiuso"],
}


@pytest.mark.parametrize("text", NUMERIC)
def test_parse_numeric_bids(text: str) -> None:
    assert parse_action(text) == Bid(5, 3)


@pytest.mark.parametrize(
    ("text", "action"), [*ENGLISH.items(), *SPANISH.items(), *ITALIAN.items(), *REVEALS.items()]
)
def test_parse_bids_in_words(text: str, action: Action) -> None:
    assert parse_action(text) == action


@pytest.mark.parametrize(
    ("text", "action"), [(text, action) for action, texts in CALL_INPUTS.items() for text in texts]
)
def test_parse_calls(text: str, action: Action) -> None:
    assert parse_action(text) == action


def test_parse_respects_face_count() -> None:
    assert parse_action("5x4", faces=4) == Bid(5, 4)
    with pytest.raises(NotationError, match=re.escape("there is no face 5 (faces are 1-4)")):
        parse_action("5x5", faces=4)
    with pytest.raises(NotationError, match=re.escape("there is no face 6 (faces are 1-4)")):
        parse_action("two hexes", faces=4)
    with pytest.raises(NotationError, match="faces=7"):
        parse_action("5x3", faces=7)


# --- error messages ------------------------------------------------------------------------------

_EXAMPLES = "try 5x3, five threes, cinco trenes, dudo, calzo, paso"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("5x9", "'5x9': there is no face 9 (faces are 1-6)"),
        ("5x0", "'5x0': there is no face 0 (faces are 1-6)"),
        ("5 sevens", "'5 sevens': there is no face 7 (faces are 1-6)"),
        ("0x3", "'0x3': the quantity must be at least 1"),
        ("zero threes", "'zero threes': the quantity must be at least 1"),
        ("1000x3", "'1000x3': the quantity is too large (at most 999)"),
        ("seven", "'seven' has a quantity but no face; try '7x3' or 'seven threes'"),
        ("7", "'7' has a quantity but no face; try '7x3' or 'seven threes'"),
        ("siete", "'siete' has a quantity but no face; try '7x3' or 'siete trenes'"),
        ("dos", "'dos' has a quantity but no face; try '2x3' or 'dos trenes'"),
        ("twenty seven", "'twenty seven' has a quantity but no face; try '27x3'"),
        ("trains", "'trains' has a face but no quantity; try '5x3' or 'five threes'"),
        ("ases", "'ases' has a face but no quantity; try '5x1' or 'cinco ases'"),
        ("xyz", f"'xyz' is not a bid or call; {_EXAMPLES}"),
        ("", f"there is nothing to read in ''; {_EXAMPLES}"),
        ("  !? ", "there is nothing to read"),
        ("5 bananas", "'5 bananas': 'bananas' is not a face; faces are 1-6"),
        ("fivety threes", "'fivety threes': 'fivety' is not a quantity"),
        ("5x3 @", "'5x3 @': unexpected character '@'"),
        ("5/3", "'5/3': unexpected character '/'"),
        ("5x", "'5x': there is no face after 'x'"),
        ("x3", "'x3': there is no quantity before 'x'"),
        ("5x3 reveal", "'5x3 reveal': name the revealed dice, e.g. '5x3 reveal 3,3'"),
        ("5x3 reveal 7", "'5x3 reveal 7': there is no face 7"),
        ("5x3 reveal threes", "'threes' is not a revealed die"),
        ("reveal 3,3", "there is no bid before the revealed dice"),
        ("dudo dudo", "'dudo dudo' is not a bid or call"),
    ],
)
def test_error_messages(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=re.escape(message)):
        parse_action(text)


# --- round trips ---------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("style", STYLES)
def test_bids_round_trip(lang: str, style: str) -> None:
    for quantity in range(1, 41):
        for face in range(1, 7):
            bid = Bid(quantity, face)
            assert parse_action(format_action(bid, lang, style)) == bid, (bid, lang, style)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_number_word_round_trips(lang: str) -> None:
    for quantity in range(1, 100):
        for face in (1, 4):  # a masculine and (in Spanish) a feminine face name
            bid = Bid(quantity, face)
            assert parse_action(format_action(bid, lang, "long")) == bid


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("style", STYLES)
@pytest.mark.parametrize("action", CALLS)
def test_calls_round_trip(lang: str, style: str, action: Action) -> None:
    assert parse_action(format_action(action, lang, style)) == action


actions = st.one_of(
    st.builds(Bid, st.integers(1, 999), st.integers(1, 6)),
    st.builds(
        RevealBid,
        st.builds(Bid, st.integers(1, 999), st.integers(1, 6)),
        st.lists(st.integers(1, 6), min_size=1, max_size=5).map(tuple),
    ),
    st.sampled_from(CALLS),
)


@given(actions, st.sampled_from(LANGUAGES), st.sampled_from(STYLES))
def test_any_action_round_trips(action: Action, lang: str, style: str) -> None:
    assert parse_action(format_action(action, lang, style)) == action
    assert parse_action(canonical(action)) == action


# --- robustness ----------------------------------------------------------------------------------


def _parse_or_notation_error(text: str) -> None:
    try:
        parse_action(text)
    except NotationError as error:
        assert str(error)


@given(st.text())
def test_random_text_raises_only_notation_error(text: str) -> None:
    _parse_or_notation_error(text)


# Text made of the words the parser knows, in any order, probes its grammar harder than noise.
_VOCABULARY = str.split(
    "5 3 0 7 999 1000 x × * reveal r muestra mostra five threes trains twenty one seven sevens "
    "cinco trenes dos veintiún treinta y una un uno ases tre assi ventitré due call dudo doubt "
    "the pass el paso il passo spot on calzo open chiuso zero cero , - ! ( ) @"
)


@given(st.lists(st.sampled_from(_VOCABULARY), max_size=8), st.sampled_from(["", " ", ","]))
def test_word_soup_raises_only_notation_error(words: list[str], separator: str) -> None:
    _parse_or_notation_error(separator.join(words))


def test_a_text_read_again_reads_the_same_and_an_error_is_never_remembered() -> None:
    # Short texts are remembered (a server reads the same few all day): reading one again
    # gives the same action, and a text that failed fails again with the same message.
    assert parse_action("cinco trenes", 6) == parse_action("cinco trenes", 6) == Bid(5, 3)
    assert parse_action("5x6", 6) == Bid(5, 6)
    for _ in range(2):
        with pytest.raises(NotationError, match="no face 6"):
            parse_action("5x6", 5)
