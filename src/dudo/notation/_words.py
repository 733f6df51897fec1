"""The vocabulary: number words 0..99, face names and call words in English, Spanish and Italian.

Everything here is data plus the two small functions that turn numbers and faces into words.
The parser builds its lookup tables from the same data, so whatever is printed can be read back.
"""

from __future__ import annotations

from typing import Final, Literal

from dudo.engine.errors import NotationError

LANGUAGES: Final = ("en", "es", "it")

MAX_FACES: Final = 6
# Quantities are written in words up to this; larger ones (never seen at a real table) as digits.
MAX_WORD_QUANTITY: Final = 99

# Grammatical gender of the noun a number stands before: Spanish "un as" but "una quina".
Gender = Literal["m", "f"]


def check_language(lang: str) -> None:
    if lang not in LANGUAGES:
        raise NotationError(f"unknown language {lang!r}; languages are {', '.join(LANGUAGES)}")


# --- numbers -------------------------------------------------------------------------------------


def _split(words: str) -> tuple[str, ...]:
    return tuple(words.split())


_EN_SMALL: Final = _split(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen"
)
_EN_TENS: Final = _split("- - twenty thirty forty fifty sixty seventy eighty ninety")

# Spanish writes 16..29 as one word, so the table runs to 29.
_ES_SMALL: Final = _split(
    "cero uno dos tres cuatro cinco seis siete ocho nueve diez once doce trece catorce quince "
    "dieciséis diecisiete dieciocho diecinueve veinte veintiuno veintidós veintitrés "
    "veinticuatro veinticinco veintiséis veintisiete veintiocho veintinueve"
)
_ES_TENS: Final = _split("- - - treinta cuarenta cincuenta sesenta setenta ochenta noventa")

_IT_SMALL: Final = _split(
    "zero uno due tre quattro cinque sei sette otto nove dieci undici dodici tredici "
    "quattordici quindici sedici diciassette diciotto diciannove"
)
_IT_TENS: Final = _split("- - venti trenta quaranta cinquanta sessanta settanta ottanta novanta")


def _english(n: int) -> str:
    if n < 20:
        return _EN_SMALL[n]
    tens, unit = divmod(n, 10)
    return _EN_TENS[tens] + (f"-{_EN_SMALL[unit]}" if unit else "")


def _spanish(n: int, gender: Gender | None) -> str:
    if n < 30:
        word = _ES_SMALL[n]
    else:
        tens, unit = divmod(n, 10)
        word = _ES_TENS[tens] + (f" y {_ES_SMALL[unit]}" if unit else "")
    if gender is not None and word.endswith("uno"):
        # Before a noun "uno" shortens to "un" (masculine) or agrees as "una" (feminine);
        # the written accent of "veintiún" follows from the shortening.
        stem = word.removesuffix("uno")
        if gender == "f":
            return stem + "una"
        return stem + ("ún" if stem == "veinti" else "un")
    return word


def _italian(n: int, before_noun: bool) -> str:
    if n == 1 and before_noun:
        return "un"  # "un asso"; compounds keep the full form ("ventuno assi")
    if n < 20:
        return _IT_SMALL[n]
    tens, unit = divmod(n, 10)
    word = _IT_TENS[tens]
    if unit in (1, 8):
        word = word[:-1]  # venti + uno -> ventuno, venti + otto -> ventotto
    if unit == 3:
        return word + "tré"  # ventitré, trentatré: the accent is written in compounds
    return word + (_IT_SMALL[unit] if unit else "")


def number_words(n: int, lang: str, gender: Gender | None = None) -> str:
    """``n`` (0..99) in words. ``gender`` is that of the noun that follows, if any."""
    check_language(lang)
    if not 0 <= n <= MAX_WORD_QUANTITY:
        raise NotationError(f"{n} is outside 0..{MAX_WORD_QUANTITY}, so it has no words")
    if lang == "en":
        return _english(n)
    if lang == "es":
        return _spanish(n, gender)
    return _italian(n, gender is not None)


def number_spellings(lang: str) -> dict[str, int]:
    """Every written form of 0..99 the parser accepts in ``lang``, before folding to tokens."""
    forms: dict[str, int] = {}
    for n in range(MAX_WORD_QUANTITY + 1):
        if lang == "en":
            word = _english(n)
            forms[word] = n
            forms[word.replace("-", "")] = n  # "twentyone"; hyphen vs space is tokenisation
        elif lang == "es":
            for gender in (None, "m", "f"):
                forms[_spanish(n, gender)] = n
        else:
            word = _italian(n, False)
            forms[word] = n
            if word.endswith("uno"):
                # "un", "ventun": the truncated form used before a noun; "una" for completeness
                forms[word.removesuffix("o")] = n
                forms[word.removesuffix("o") + "a"] = n
    return forms


# --- faces ---------------------------------------------------------------------------------------

# Primary names, (singular, plural), lowercase as in running text (docs/rules.md section 4):
# what players of each language say. In English that is the numbers (and "ace", the word the
# rules speak of); the traditional nicknames are offered beside them (TRADITIONAL_FACE_NAMES).
FACE_NAMES: Final[dict[str, tuple[tuple[str, str], ...]]] = {
    "en": (
        ("ace", "aces"),
        ("two", "twos"),
        ("three", "threes"),
        ("four", "fours"),
        ("five", "fives"),
        ("six", "sixes"),
    ),
    "es": (
        ("as", "ases"),
        ("tonto", "tontos"),
        ("tren", "trenes"),
        ("cuadra", "cuadras"),
        ("quina", "quinas"),
        ("sena", "senas"),
    ),
    "it": (
        ("asso", "assi"),
        ("due", "due"),
        ("tre", "tre"),
        ("quattro", "quattro"),
        ("cinque", "cinque"),
        ("sei", "sei"),
    ),
}

# The traditional English nicknames, for those who ask for them ("faces=traditional"); Spanish
# and Italian players' usual names are already their traditional ones.
TRADITIONAL_FACE_NAMES: Final[dict[str, tuple[tuple[str, str], ...]]] = {
    **FACE_NAMES,
    "en": (
        ("ace", "aces"),
        ("duck", "ducks"),
        ("train", "trains"),
        ("quad", "quads"),
        ("queen", "queens"),
        ("hex", "hexes"),
    ),
}

#: How faces may be named: "usual" (each language's everyday words, the default) or
#: "traditional" (the English nicknames ducks, trains, quads, queens, hexes).
FACE_NAMINGS: Final = ("usual", "traditional")

FACE_GENDERS: Final[dict[str, tuple[Gender, ...]]] = {
    "en": ("m",) * MAX_FACES,  # English has no gender; "m" only marks "before a noun"
    "es": ("m", "m", "m", "f", "f", "f"),
    "it": ("m",) * MAX_FACES,
}

# Every word read as a face, by face: the usual names, the traditional ones and a few more, in
# every language alike (the parser does not care about order).
FACE_WORDS: Final[dict[str, dict[int, tuple[str, ...]]]] = {
    "en": {
        1: ("ace", "aces", "one", "ones"),
        2: ("two", "twos", "duck", "ducks"),
        3: ("three", "threes", "train", "trains", "trick", "tricks"),
        4: ("four", "fours", "quad", "quads"),
        5: ("five", "fives", "queen", "queens"),
        6: ("six", "sixes", "hex", "hexes"),
    },
    "es": {
        1: ("as", "ases", "uno", "unos"),
        2: ("tonto", "tontos", "pato", "patos", "don", "dones", "dos"),
        3: ("tren", "trenes", "tres"),
        4: ("cuadra", "cuadras", "cuarta", "cuartas", "cuarto", "cuartos", "cuatro", "cuatros"),
        5: ("quina", "quinas", "china", "chinas", "burro", "burros", "cinco", "cincos"),
        6: (
            "sena",
            "senas",
            "sexta",
            "sextas",
            "cena",
            "cenas",
            "samba",
            "sambas",
            "diablo",
            "diablos",
            "seis",
            "seises",
        ),
    },
    "it": {
        1: ("asso", "assi", "uno"),
        2: ("due",),
        3: ("tre",),
        4: ("quattro",),
        5: ("cinque",),
        6: ("sei",),
    },
}


def check_naming(naming: str) -> None:
    if naming not in FACE_NAMINGS:
        raise NotationError(
            f"faces are named {' or '.join(repr(n) for n in FACE_NAMINGS)}, not {naming!r}"
        )


def face_name(face: int, lang: str = "en", plural: bool = False, naming: str = "usual") -> str:
    """The name of ``face`` in ``lang``: lowercase, as in running text ("five threes"); with
    ``naming="traditional"``, the English nicknames ("five trains").

    Capitalise it yourself for a heading (``face_name(3).capitalize() == "Three"``).
    """
    check_language(lang)
    check_naming(naming)
    if not 1 <= face <= MAX_FACES:
        raise NotationError(f"there is no face {face} (faces are 1-{MAX_FACES})")
    names = TRADITIONAL_FACE_NAMES if naming == "traditional" else FACE_NAMES
    singular, plural_form = names[lang][face - 1]
    return plural_form if plural else singular


# --- calls ---------------------------------------------------------------------------------------

# How each call is printed, keyed by its canonical notation (``str`` of the action).
CALL_TEXT: Final[dict[str, dict[str, str]]] = {
    "en": {
        "call": "call",
        "spot-on": "spot on",
        "pass": "pass",
        "doubt-pass": "doubt the pass",
        "open": "open",
        "closed": "closed",
    },
    "es": {
        "call": "dudo",
        "spot-on": "calzo",
        "pass": "paso",
        "doubt-pass": "dudo el paso",
        "open": "abierto",
        "closed": "cerrado",
    },
    # Seed 004 plays in Italian with "dubitare" and "calza"; "passo" is the usual word for a
    # pass at cards; "aperto"/"chiuso" agree with "giro" (round).
    "it": {
        "call": "dubito",
        "spot-on": "calza",
        "pass": "passo",
        "doubt-pass": "dubito il passo",
        "open": "aperto",
        "closed": "chiuso",
    },
}

# Everything else read as a call, by canonical notation (the printed forms above are added).
CALL_SYNONYMS: Final[dict[str, tuple[str, ...]]] = {
    "call": ("call", "i call", "doubt", "i doubt", "liar", "yo dudo", "io dubito"),
    "spot-on": (
        "spot-on",
        "spoton",
        "exact",
        "exactly",
        "equalize",
        "equalise",
        "yo calzo",
        "calzo",
        "calza",
    ),
    "pass": ("i pass", "yo paso", "io passo"),
    "doubt-pass": (
        "doubt-pass",
        "doubt pass",
        "i doubt the pass",
        "call the pass",
        "call pass",
        "dudo paso",
        "yo dudo el paso",
        "dubito passo",
        "io dubito il passo",
    ),
    "open": ("abierta", "aperta"),
    "closed": ("close", "cerrada", "chiusa"),
}

# The word between a bid and its revealed dice: short style, long style.
REVEAL_TEXT: Final[dict[str, tuple[str, str]]] = {
    "en": ("reveal", "reveals"),
    "es": ("muestra", "muestra"),
    "it": ("mostra", "mostra"),
}
REVEAL_SYNONYMS: Final = ("r", "muestro", "revela", "mostro", "rivela")
