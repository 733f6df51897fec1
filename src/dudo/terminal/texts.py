"""The terminal's words in English, Spanish and Italian: command words and message templates.

Command words for ``dudo play`` live in one table (:data:`PLAY_WORDS`), matched like the dice
cup's (case- and accent-insensitive), so ``ayuda``, ``aiuto`` and ``help`` all work whatever
the display language. Messages are templates keyed by name with ``str.format`` fields, one
dictionary per language with the same keys; :func:`text` picks one, :func:`dice` words a
count of dice and :func:`counted` picks a ``_one`` or ``_many`` form by a count. A key
ending in ``_you`` is the line for the player spoken to (second person), beside the
third-person line about a named player.
"""

from __future__ import annotations

import enum
import unicodedata
from fractions import Fraction

from dudo.odds import format_chance

__all__ = [
    "LANGS",
    "PLAY_WORDS",
    "TEXTS",
    "PlayCommand",
    "chance",
    "counted",
    "decimal",
    "dice",
    "normalize",
    "parse_play_command",
    "text",
]

LANGS = ("en", "es", "it")


def normalize(word: str) -> str:
    """``word`` trimmed, case-folded and without accents: how command words are compared."""
    decomposed = unicodedata.normalize("NFKD", word.strip().casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


class PlayCommand(enum.Enum):
    HELP = "help"
    HINT = "hint"
    MOVES = "moves"
    RULES = "rules"
    TABLE = "table"
    QUIT = "quit"


# English words first, then Spanish and Italian ones, stored without accents (see normalize).
# None of them may be a game word (a call, a face, a number), or it would shadow that action.
PLAY_WORDS: dict[PlayCommand, tuple[tuple[str, ...], tuple[str, ...]]] = {
    PlayCommand.HELP: (("?", "help", "h"), ("ayuda", "aiuto")),
    PlayCommand.HINT: (
        ("hint", "odds"),
        ("pista", "probabilidades", "suggerimento", "probabilita"),
    ),
    PlayCommand.MOVES: (("moves", "all"), ("jugadas", "mosse")),
    PlayCommand.RULES: (("rules",), ("reglas", "regole")),
    PlayCommand.TABLE: (("table", "status"), ("mesa", "tavolo")),
    PlayCommand.QUIT: (("quit", "exit", "q"), ("salir", "esci")),
}
_PLAY_LOOKUP: dict[str, PlayCommand] = {
    word: cmd for cmd, (english, others) in PLAY_WORDS.items() for word in (*english, *others)
}


def parse_play_command(word: str) -> PlayCommand | None:
    """The ``dudo play`` command named by ``word`` in any of the languages, or None."""
    return _PLAY_LOOKUP.get(normalize(word))


TEXTS: dict[str, dict[str, str]] = {
    "en": {
        "commands": (
            "Commands: ? or help (your options explained), hint or odds (the odds from what "
            "you see), moves or all (every legal action), "
            "rules (the rules in play), table (the table again), quit (stop; the game is saved)."
        ),
        "prompt": "Your move > ",
        "empty": "Type a bid or call, or ? for help.",
        "not_understood": "Not understood: {error}. Type ? for help.",
        "not_understood_short": "Not understood: {error}",
        "not_allowed": "Not allowed: {problem}",
        "quit_ask": "Quit this game? The record is saved either way. (y/N) > ",
        "leave": "You leave the game.",
        "play_on": "Playing on.",
        "how_to": "How to play your turn:",
        "your_dice": "Your dice: ",
        "this_round": "This round: {bids}",
        "standing": "Standing bid: {bid} by {name}",
        "standing_you": "Standing bid: {bid} by {name}",
        "lowest_openings": "Lowest openings",
        "lowest_raises": "Lowest raises",
        "more_bids": " ... ({count} in all: 'moves' lists them)",
        "or": "Or: {actions}",
        "intro_type": "Type a bid (5x3, five trains), a call ({calls}), ? for help, "
        "hint for the odds, or quit.",
        "die": "die",
        "dice": "dice",
        "table": "Table ({direction}, from the opener):",
        "clockwise": "clockwise",
        "counterclockwise": "counterclockwise",
        "out_short": "out",
        "tag_obliges": "obliges",
        "tag_obliged": "has obliged",
        "dice_in_play": "Dice in play: {count}",
        "all_dice": "All dice:",
        # Narration; a key ending in _you is the line for the player spoken to.
        "count": "Count of {faces} ({counting}): {count} for {bid}: {verdict}",
        "aces_only": "aces only",
        "aces_not_wild": "aces not wild",
        "aces_wild_natural": "aces wild beside a natural",
        "aces_wild": "aces wild",
        "exact": "exactly right",
        "not_exact": "not exact",
        "stands": "the bid stands",
        "fails": "the bid fails",
        "round": "Round {number}",
        "obliging_title": " (obliging round)",
        "opens": "{name} opens the round.",
        "opens_you": "{name} open the round.",
        "in_play": " Dice: {counts} ({total} in play)",
        "loses": "{name} loses {dice} ({left})",
        "loses_you": "{name} lose {dice} ({left})",
        "left_one": "{count} left",
        "left_many": "{count} left",
        "left_you_one": "{count} left",
        "left_you_many": "{count} left",
        "left_none": "{count} left",
        "left_you_none": "{count} left",
        "wins_die": "{name} wins a die ({remaining} now)",
        "wins_die_you": "{name} win a die ({remaining} now)",
        "out": "{name} is out of the game",
        "out_you": "{name} are out of the game",
        "calls": "calls {name}'s {bid}",
        "calls_you": "calls your {bid}",
        "spot_on": "claims {name}'s {bid} is exact",
        "spot_on_you": "claims your {bid} is exact",
        "doubts_pass": "doubts {name}'s pass",
        "doubts_pass_you": "doubts your pass",
        "out_of_turn": " out of turn",
        "winner": "Winner: {name}, after {rounds}.",
        "winner_you": "Winner: you! You win the game after {rounds}.",
        "decimal_mark": ".",
        "you_name": "You",
        # The opening lines.
        "intro_title": "Dudo: {players} players, rules {rules}",
        "intro_bots_one": "{name} against 1 {level} bot: {names}. Language: {lang}.{seed}",
        "intro_bots_many": "{name} against {count} {level} bots: {names}. Language: {lang}.{seed}",
        "intro_seed": " Seed: {seed}.",
        "house_rules": "{preset} with house rules {changes}",
        "closest_preset": "{name} (closest preset: {closest})",
        "seating_roll": "Seating roll: {rolls}",
        "tie_reroll": "Tie re-roll: {rolls}",
        "play_order": "Play order ({direction}{how}): {order}",
        "seating_random": "drawn at random",
        "seating_set": "set by the table",
        # Obliging rounds, passes and reveals.
        "obliging_line": "Obliging round: {who}. Aces are not wild; no spot-on or pass; "
        "{change}; {how}.",
        "obliges": "{name} obliges",
        "obliges_you": "{name} oblige",
        "obliger_chooses": "the obliger chooses open or closed before the roll",
        "visibility_normal": "everyone sees their own dice",
        "visibility_closed": "closed: only players holding one die see their own dice",
        "visibility_open": "open: everyone sees every hand but their own",
        "face_change_nobody": "nobody may change the face: raise the quantity only",
        "face_change_single_die": "only players holding one die may change the face",
        "face_change_single_die_veteran": "only one-die players who have had their own "
        "obliging round may change the face",
        "pass_hand_full_house": "a full house",
        "pass_hand_five_kind": "five of a kind",
        "pass_hand_five_different": "five different faces",
        "sets_aside": "; sets aside {aside} face up and re-rolls {rerolled}",
        "claims_hand": "claims a special hand",
        "holds": "{name} holds {hand}",
        "holds_you": "{name} hold {hand}",
        "pass_bluff": "{holds}, no special hand: the pass was a bluff",
        "pass_good": "{holds}, {hand}: the pass was good",
        "cancelled": "Exactly right: nobody loses a die and the round is re-dealt",
        "out_brief": "You are out of the game. The bots play on; one line per round:",
        # Your turn.
        "face_up_yours": "; face up: {dice}",
        "dice_not_rolled": "Your dice: not rolled yet (the obliger first chooses open or closed)",
        "dice_hidden_closed": "Your dice: hidden (closed obliging round: only players holding "
        "one die see their own dice)",
        "dice_hidden_open": "Your dice: hidden (open obliging round: you see every hand but "
        "your own)",
        "you_see": "You see: {hands}",
        "face_up": "Face up: {hands}",
        "passed": "{name} has passed: raise the standing bid or doubt the pass",
        "passed_you": "{name} have passed: raise the standing bid or doubt the pass",
        "you_oblige": "You oblige: choose {choices} ({open}; {closed})",
        "either": "'{first}' or '{second}'",
        "reveal_tip": "To set dice aside and re-roll the rest, add them to a raise: {example}",
        "you_may": "You may: {options}. Type ? for help.",
        "or_lower": "or {actions}",
        "must_choose": "first choose an open or a closed obliging round: {choices}",
        "must_bid": "you open the round, so you must bid",
        "not_legal": "{action} is not a legal move now",
        "not_a_move": "'{text}' is not a bid or call",
        # The engine's reasons for refusing a move, one key per ReasonCode (reason_<code>,
        # with _one/_many forms by a count and a _you form about the player spoken to). The
        # English screen prints the engine's own sentence; these keep the key set whole.
        "reason_raise": "{new} does not raise {standing}: {reason}",
        "reason_bid": "{bid}: {reason}",
        "reason_game_over": "the game is over",
        "reason_oblige_choice_first": "{player} must first choose an open or closed obliging round",
        "reason_oblige_choice_first_you": "you must first choose an open or closed obliging round",
        "reason_no_oblige_choice": "there is no open or closed choice to make now",
        "reason_opener_must_bid": "{player} opens the round and must bid",
        "reason_opener_must_bid_you": "you open the round, so you must bid",
        "reason_no_call_after_pass": "after a pass you may not call the standing bid: raise it "
        "or doubt the pass",
        "reason_no_pass_to_doubt": "there is no pass to doubt",
        "reason_not_an_action": "{action} is not an action",
        "reason_bid_not_whole": "{bid} is not a bid of whole numbers",
        "reason_no_such_face": "there is no face {face} (faces are 1-{faces})",
        "reason_quantity_range_one": "the quantity must be 1: there is {count} die in play",
        "reason_quantity_range_many": "the quantity must be 1 to {count}, the dice in play",
        "reason_reveal_not_played": "reveal-and-reroll is not played under these rules",
        "reason_reveal_not_in_oblige": "reveal-and-reroll is not allowed in an obliging round",
        "reason_reveal_not_on_opening": "reveal-and-reroll is allowed on raises only, not on "
        "the opening bid",
        "reason_reveal_none": "reveal at least one die",
        "reason_reveal_wrong_face": "a revealed die must show the bid's face ({face})",
        "reason_reveal_wrong_face_or_ace": "a revealed die must show the bid's face ({face}) "
        "or an ace",
        "reason_reveal_not_held": "you do not hold {dice} among your hidden dice",
        "reason_reveal_keep_one": "at least one die must stay hidden",
        "reason_pass_not_played": "passing is not played under these rules",
        "reason_pass_not_in_oblige": "no passing in an obliging round",
        "reason_pass_min_players_one": "passing needs at least {count} player in the game",
        "reason_pass_min_players_many": "passing needs at least {count} players in the game",
        "reason_pass_twice": "two passes may not follow each other",
        "reason_pass_once_per_round": "each player passes at most once per round",
        "reason_spot_on_not_played": "spot-on is not played under these rules",
        "reason_spot_on_not_in_oblige": "no spot-on in an obliging round",
        "reason_spot_on_min_players_one": "spot-on needs at least {count} player in the game",
        "reason_spot_on_min_players_many": "spot-on needs at least {count} players in the game",
        "reason_spot_on_after_pass": "after a pass you may raise or doubt the pass, not spot-on",
        "reason_spot_on_more_than_half": "spot-on is allowed only while more than half the "
        "starting dice are in play",
        "reason_spot_on_half_or_one_die": "spot-on is allowed only while half the starting "
        "dice are in play, or with one die",
        "reason_no_such_player": "there is no player {player}",
        "reason_cruzado_off": "it is {player}'s turn: under these rules no one calls out of turn",
        "reason_cruzado_off_you": "it is your turn: under these rules no one calls out of turn",
        "reason_player_out": "{player} is out of the game",
        "reason_player_out_you": "you are out of the game",
        "reason_no_bid_to_call": "there is no bid to call",
        "reason_own_bid": "you may not call your own bid",
        "reason_oblige_same_face": "in this obliging round you may not change the face",
        "reason_quantity_up": "the quantity must go up",
        "reason_aces_raise_quantity": "a bid on aces must raise the quantity",
        "reason_aces_need_one": "a bid on aces needs at least {count} ace",
        "reason_aces_need_many": "a bid on aces needs at least {count} aces",
        "reason_after_aces_need_one": "another face needs at least {count} die",
        "reason_after_aces_need_many": "another face needs at least {count} dice",
        "reason_nondecreasing_quantity": "under these rules the quantity may not go down",
        "reason_nondecreasing_face": "under these rules the face may not go down",
        "reason_same_bid": "it is the same bid",
        "reason_index_order": "bids must go up in the fixed order ({order})",
        "reason_quantity_down": "the quantity may not go down",
        "reason_face_up": "at the same quantity the face must go up",
        "reason_open_aces_never": "a round may not be opened on aces",
        "reason_open_aces_one_die": "only a player holding one die may open on aces",
        "reason_not_your_turn": "it is {player}'s turn, not yours",
        "reason_not_legal_now": "that is not one of your moves now",
        # Why typed text is no bid or call, one key per NotationCode (unread_<code>). The
        # English screen prints the notation's own sentence; these keep the key set whole.
        "unread_nothing": "there is nothing to read in '{text}'",
        "unread_unexpected_character": "'{text}': unexpected character '{char}'",
        "unread_not_a_move": "'{text}' is not a bid or call",
        "unread_no_such_face": "'{text}': there is no face {face} (faces are 1-{faces})",
        "unread_face_too_large": "'{text}': there is no face that large (faces are 1-{faces})",
        "unread_quantity_no_face": "'{text}' has a quantity but no face; try {example}",
        "unread_face_no_quantity": "'{text}' has a face but no quantity; try {example}",
        "unread_quantity_min": "'{text}': the quantity must be at least 1",
        "unread_quantity_max": "'{text}': the quantity is too large (at most {most})",
        "unread_not_a_quantity": "'{word}' is not a quantity",
        "unread_not_a_face": "'{word}' is not a face; faces are 1-{faces}",
        "unread_no_bid_before_reveal": "'{text}': there is no bid before the revealed dice; "
        "try {example}",
        "unread_no_face_after_x": "'{text}': there is no face after the 'x'; try 5x3",
        "unread_no_quantity_before_x": "'{text}': there is no quantity before the 'x'; try 5x3",
        "unread_no_revealed_dice": "'{text}': name the revealed dice, e.g. {example}",
        "unread_not_a_revealed_die": "'{word}' is not a revealed die; write them like 3,3",
        "out_of_turn_ask": "Call {name}'s {bid} out of turn? Enter: no, {next} plays on; "
        "'{word}': call now > ",
        "out_of_turn_ask_you": "Call your {bid} out of turn? Enter: no, {next} plays on; "
        "'{word}': call now > ",
        "out_of_turn_only": "It is {name}'s turn: out of turn you may only call ('{word}'), "
        "or press Enter to play on.",
        # The help screen.
        "help_bid": "Bid: a quantity and a face, e.g. 5x3, '5 3', 'five trains', "
        "'cinco trenes', 'cinque tre': at least that many dice on the whole table show that "
        "face.",
        "help_obliging": "This is an obliging round: aces are not wild and rank lowest, the "
        "opener may bid any face, there is no spot-on or pass; {change}.",
        "raise_any_face": "A raise is a higher quantity of any face, or the same quantity of a "
        "higher face.",
        "raise_nondecreasing": "A raise may lower neither the quantity nor the face, and must "
        "raise one of them.",
        "raise_index": "Bids go up in one fixed order: {order}.",
        "aces_help": "Aces are wild: they count for any face{natural}; a bid on aces counts "
        "aces only.",
        "aces_natural": " if at least one natural die of that face is on the table",
        "aces_switch": " Going to aces needs at least {to}; leaving aces needs at least {back}.",
        "to_ceil_half": "half the quantity, rounded up",
        "to_floor_half_plus_one": "half the quantity, rounded down, plus one",
        "back_double_plus_one": "twice the aces plus one",
        "back_double": "twice the aces",
        "now_you_may": "Now you may:",
        "help_open": "- open the round with any of {count} bids, from {low} to {high} "
        "({low_words} ... {high_words})",
        "help_raise": "- raise to any of {count} bids, from {low} to {high} "
        "({low_words} ... {high_words})",
        "help_open_one": "- open the round with the only bid left: {low} ({low_words})",
        "help_raise_one": "- raise to the only bid left: {low} ({low_words})",
        "help_call": "'{word}': doubt the standing bid; all dice are shown, and if fewer match "
        "the bidder loses a die, otherwise you do.",
        "help_spot_on": "'{word}': claim the standing bid is exactly right; if wrong you lose "
        "a die, if right you {reward}.",
        "reward_gain": "win a die (up to five)",
        "reward_cancel": "cancel the round: nobody loses a die and the dice are rolled again",
        "help_pass": "'{word}': claim a special hand ({hands}) and pass the standing bid on; "
        "the next player may raise it or doubt the pass.",
        "help_doubt_pass": "'{word}': doubt the pass; the passer's dice are shown, and if the "
        "hand qualifies you lose a die, otherwise the passer does.",
        "help_oblige_choice": "'{open}' or '{closed}': choose the obliging round's visibility "
        "({open_text}; {closed_text}).",
        "help_reveal": "- raise and set dice aside face up, re-rolling the rest: "
        "'{example}' (the set-aside dice must show the face, or aces if wild)",
        "help_cruzado": "Cruzado: after another player's action you are asked whether to call "
        "the standing bid out of turn (Enter: no; a call word: yes).",
        # Moves and rules.
        "nothing_to_do": "You have nothing to do now.",
        "bids_count": "Bids ({count}):",
        "reveals_count": "Raises with reveal-and-reroll ({count}):",
        "other_actions": "Other: {actions}",
        "rules_title": "Rules: {rules}",
        # The hint and the review.
        "counting_wild_natural": "aces are wild, but only for a face with a natural die on "
        "the table",
        "counting_wild": "aces are wild",
        "counting_obliging": "obliging round: aces are not wild",
        "counting_not_wild": "aces are not wild",
        "hint_title": "Odds from what you see ({known}, {unknown}; {counting}):",
        "known_one": "{count} die known",
        "known_many": "{count} dice known",
        "unknown_one": "{count} unknown",
        "unknown_many": "{count} unknown",
        "hint_standing": "Standing bid {bid}: true {true}, exactly right {exact}",
        "expected_counts": "Expected counts: {counts}",
        "safest_openings": "Safest openings: {bids}",
        "safest_raises": "Safest raises: {bids}",
        "hint_pass": "{name}'s pass: a random hand of {dice}{seen} is a pass hand {chance} of "
        "the time",
        "hint_pass_you": "Your pass: a random hand of {dice}{seen} is a pass hand {chance} of "
        "the time",
        "seen_one": ", {count} of them seen",
        "seen_many": ", {count} of them seen",
        "would_play": "{level} would play {action}.",
        "claim_on": "{word} on {bid}",
        "review_none": "Review: none of your decisions risked a die.",
        "review_title": "Review: your riskiest decisions, with the odds you faced and what "
        "{level} would have done",
        "review_item": "Round {round}, you: {what}; {chance}. Risk of losing a die: {risk}.",
        "review_no_call": "{level} would not have called out of turn.",
        "review_same": "{level} would have done the same.",
        "review_other": "{level} would have played {what}; {chance}.",
        "no_odds": "no odds to weigh",
        "chance_true": "true {chance}",
        "chance_call": "the bid was true {chance}",
        "chance_exact": "exactly right {chance}",
        "pass_hand_yes": "your hand was a pass hand",
        "pass_hand_no": "your hand was no pass hand",
        "chance_doubt_pass": "a hand like the passer's is a pass hand {chance}",
        "risk_called": "{risk} (if called)",
        "risk_doubted": "{risk} (if doubted)",
        # The end.
        "error": "error: {error}",
        "players_too_few": "players: {players} seats; a game needs you and at least one bot (2+)",
        "players_below_min": "players: {players} is below min_players={min}",
        "players_above_max": "players: {players} is above max_players={max} of these rules",
        "input_ended": "End of input: the game stops here.",
        "interrupted": "Interrupted: the game stops here.",
        "record_saved": "Game record saved: {path}",
        "replay_with": "Replay it with: dudo replay {path}",
        "record_failed": "error: the game record could not be saved: {error}",
        # dudo replay.
        "replay_title": "Dudo game record: {players} players",
        "replay_player": "{name} (player {seat}, {kind})",
        "kind_human": "human",
        "kind_bot": "bot: {level}",
        "player_number": "Player {number}",
        "player_label": "Player {number} ({name})",
        "starting_dice": "Starting dice: {counts}",
        "start_total": "Dice at the start of the game (for spot-on): {total}",
        "already_obliged": "Already obliged: {names}",
        "replay_winner": "{name} wins after {rounds} and {actions}.",
        "rounds_one": "{count} round",
        "rounds_many": "{count} rounds",
        "actions_one": "{count} action",
        "actions_many": "{count} actions",
        "replay_unfinished": "The record ends in round {round}; the game is not finished. "
        "Dice: {counts}.",
        # dudo odds.
        "odds_header": "Your dice: {dice}{seen}; unknown dice: {unknown}; rules {rules}; "
        "{counting}.",
        "odds_seen": "; seen: {dice}",
        "no_dice": "none",
        "odds_true": "{bid} ({words}) is true: ",
        "odds_exact": "Exactly right (spot on): ",
        "col_face": "Face",
        "col_expected": "Expected",
        "col_highest": "Highest bid ≥50%",
        "col_chance": "Chance",
        "col_one_more": "One more",
    },
    "es": {
        "commands": (
            "Órdenes: ? o ayuda (tus opciones explicadas), pista o probabilidades (las "
            "probabilidades según lo que ves), jugadas (todas las acciones legales), reglas "
            "(las reglas en juego), mesa (la mesa otra vez), salir (parar; la partida se guarda)."
        ),
        "prompt": "Tu jugada > ",
        "empty": "Escribe una apuesta o un dudo, o ? para ayuda.",
        "not_understood": "No entendido: {error}. Escribe ? para ayuda.",
        "not_understood_short": "No entendido: {error}",
        "not_allowed": "No permitido: {problem}",
        "quit_ask": "¿Dejar esta partida? El registro se guarda igualmente. (s/N) > ",
        "leave": "Dejas la partida.",
        "play_on": "Seguimos jugando.",
        "how_to": "Cómo jugar tu turno:",
        "your_dice": "Tus dados: ",
        "this_round": "Esta ronda: {bids}",
        "standing": "Apuesta en pie: {bid} de {name}",
        "standing_you": "Apuesta en pie: {bid}, tuya",
        "lowest_openings": "Aperturas más bajas",
        "lowest_raises": "Subidas más bajas",
        "more_bids": " ... ({count} en total: 'jugadas' las lista)",
        "or": "O: {actions}",
        "intro_type": "Escribe una apuesta (5x3, cinco trenes), un dudo ({calls}), ? para "
        "ayuda, pista para las probabilidades, o salir.",
        "die": "dado",
        "dice": "dados",
        "table": "Mesa ({direction}, desde quien abre):",
        "clockwise": "sentido horario",
        "counterclockwise": "sentido antihorario",
        "out_short": "fuera",
        "tag_obliges": "obliga",
        "tag_obliged": "ya obligó",
        "dice_in_play": "Dados en juego: {count}",
        "all_dice": "Todos los dados:",
        # Narration; a key ending in _you is the line for the player spoken to.
        "count": "Recuento de {faces} ({counting}): {count} para {bid}: {verdict}",
        "aces_only": "solo ases",
        "aces_not_wild": "los ases no son comodines",
        "aces_wild_natural": "ases comodines junto a uno natural",
        "aces_wild": "ases comodines",
        "exact": "exacta",
        "not_exact": "no es exacta",
        "stands": "la apuesta se cumple",
        "fails": "la apuesta falla",
        "round": "Ronda {number}",
        "obliging_title": " (ronda obligada)",
        "opens": "{name} abre la ronda.",
        "opens_you": "Abres la ronda.",
        "in_play": " Dados: {counts} ({total} en juego)",
        "loses": "{name} pierde {dice} ({left})",
        "loses_you": "Pierdes {dice} ({left})",
        "left_one": "le queda {count}",
        "left_many": "le quedan {count}",
        "left_you_one": "te queda {count}",
        "left_you_many": "te quedan {count}",
        "left_none": "no le queda ninguno",
        "left_you_none": "no te queda ninguno",
        "wins_die": "{name} gana un dado (ahora {remaining})",
        "wins_die_you": "Ganas un dado (ahora {remaining})",
        "out": "{name} queda fuera de la partida",
        "out_you": "Quedas fuera de la partida",
        "calls": "duda la {bid} de {name}",
        "calls_you": "duda tu {bid}",
        "spot_on": "afirma que la {bid} de {name} es exacta",
        "spot_on_you": "afirma que tu {bid} es exacta",
        "doubts_pass": "duda el paso de {name}",
        "doubts_pass_you": "duda tu paso",
        "out_of_turn": " fuera de turno",
        "winner": "Gana la partida {name}, tras {rounds}.",
        "winner_you": "¡Has ganado! Ganas la partida tras {rounds}.",
        "decimal_mark": ",",
        "you_name": "Tú",
        # The opening lines.
        "intro_title": "Dudo: {players} jugadores, reglas {rules}",
        "intro_bots_one": "{name} contra 1 bot {level}: {names}. Idioma: {lang}.{seed}",
        "intro_bots_many": "{name} contra {count} bots {level}: {names}. Idioma: {lang}.{seed}",
        "intro_seed": " Semilla: {seed}.",
        "house_rules": "{preset} con reglas de la casa {changes}",
        "closest_preset": "{name} (conjunto de reglas más cercano: {closest})",
        "seating_roll": "Tirada para los asientos: {rolls}",
        "tie_reroll": "Nueva tirada por empate: {rolls}",
        "play_order": "Orden de juego ({direction}{how}): {order}",
        "seating_random": "sorteado al azar",
        "seating_set": "fijado por la mesa",
        # Obliging rounds, passes and reveals.
        "obliging_line": "Ronda obligada: {who}. Los ases no son comodines; no hay calzo ni "
        "paso; {change}; {how}.",
        "obliges": "obliga {name}",
        "obliges_you": "obligas tú",
        "obliger_chooses": "quien obliga elige abierto o cerrado antes de tirar",
        "visibility_normal": "cada uno ve sus propios dados",
        "visibility_closed": "cerrado: solo quien tiene un dado ve sus propios dados",
        "visibility_open": "abierto: cada uno ve todas las manos menos la suya",
        "face_change_nobody": "nadie puede cambiar de cara: solo se sube la cantidad",
        "face_change_single_die": "solo quien tiene un dado puede cambiar de cara",
        "face_change_single_die_veteran": "solo puede cambiar de cara quien tiene un dado y ya "
        "tuvo su propia ronda obligada",
        "pass_hand_full_house": "un full",
        "pass_hand_five_kind": "cinco iguales",
        "pass_hand_five_different": "cinco caras distintas",
        "sets_aside": "; aparta {aside} boca arriba y vuelve a tirar {rerolled}",
        "claims_hand": "afirma tener una mano especial",
        "holds": "{name} tiene {hand}",
        "holds_you": "Tienes {hand}",
        "pass_bluff": "{holds}, sin mano especial: el paso era un farol",
        "pass_good": "{holds}, {hand}: el paso era bueno",
        "cancelled": "Exacta: nadie pierde un dado y se vuelve a repartir la ronda",
        "out_brief": "Quedas fuera de la partida. Los bots siguen jugando; una línea por ronda:",
        # Your turn.
        "face_up_yours": "; boca arriba: {dice}",
        "dice_not_rolled": "Tus dados: aún sin tirar (primero quien obliga elige abierto o "
        "cerrado)",
        "dice_hidden_closed": "Tus dados: ocultos (ronda obligada cerrada: solo quien tiene un "
        "dado ve sus propios dados)",
        "dice_hidden_open": "Tus dados: ocultos (ronda obligada abierta: ves todas las manos "
        "menos la tuya)",
        "you_see": "Ves: {hands}",
        "face_up": "Boca arriba: {hands}",
        "passed": "{name} ha pasado: sube la apuesta en pie o duda el paso",
        "passed_you": "Has pasado: quien sigue sube la apuesta en pie o duda el paso",
        "you_oblige": "Obligas: elige {choices} ({open}; {closed})",
        "either": "'{first}' o '{second}'",
        "reveal_tip": "Para apartar dados y volver a tirar el resto, añádelos a una subida: "
        "{example}",
        "you_may": "Puedes: {options}. Escribe ? para ayuda.",
        "or_lower": "o {actions}",
        "must_choose": "primero elige una ronda obligada abierta o cerrada: {choices}",
        "must_bid": "abres la ronda, así que debes apostar",
        "not_legal": "{action} no es una jugada legal ahora",
        "not_a_move": "'{text}' no es una apuesta ni un dudo",
        # The engine's reasons for refusing a move (see the English block).
        "reason_raise": "{new} no supera {standing}: {reason}",
        "reason_bid": "{bid}: {reason}",
        "reason_game_over": "la partida ha terminado",
        "reason_oblige_choice_first": "{player} debe elegir primero ronda obligada abierta o "
        "cerrada",
        "reason_oblige_choice_first_you": "primero debes elegir ronda obligada abierta o cerrada",
        "reason_no_oblige_choice": "ahora no hay que elegir entre ronda abierta o cerrada",
        "reason_opener_must_bid": "{player} abre la ronda y debe apostar",
        "reason_opener_must_bid_you": "abres la ronda, así que debes apostar",
        "reason_no_call_after_pass": "tras un paso no puedes dudar la apuesta: súbela o duda "
        "el paso",
        "reason_no_pass_to_doubt": "no hay ningún paso que dudar",
        "reason_not_an_action": "{action} no es una jugada",
        "reason_bid_not_whole": "{bid} no es una apuesta de números enteros",
        "reason_no_such_face": "no hay cara {face}: las caras van del 1 al {faces}",
        "reason_quantity_range_one": "la cantidad debe ser 1: hay {count} dado en juego",
        "reason_quantity_range_many": "la cantidad debe ir de 1 a {count}, los dados en juego",
        "reason_reveal_not_played": "estas reglas no permiten mostrar dados y volver a tirar",
        "reason_reveal_not_in_oblige": "en una ronda obligada no se pueden mostrar dados y "
        "volver a tirar",
        "reason_reveal_not_on_opening": "solo se pueden mostrar dados y volver a tirar al "
        "subir, no en la apuesta que abre la ronda",
        "reason_reveal_none": "muestra al menos un dado",
        "reason_reveal_wrong_face": "cada dado que muestres debe tener la cara apostada ({face})",
        "reason_reveal_wrong_face_or_ace": "cada dado que muestres debe tener la cara apostada "
        "({face}) o ser un as",
        "reason_reveal_not_held": "no tienes {dice} entre tus dados ocultos",
        "reason_reveal_keep_one": "al menos un dado debe quedar oculto",
        "reason_pass_not_played": "estas reglas no permiten pasar",
        "reason_pass_not_in_oblige": "en una ronda obligada no se puede pasar",
        "reason_pass_min_players_one": "para pasar hace falta al menos {count} jugador en la "
        "partida",
        "reason_pass_min_players_many": "para pasar hacen falta al menos {count} jugadores en "
        "la partida",
        "reason_pass_twice": "no puede haber dos pasos seguidos",
        "reason_pass_once_per_round": "cada jugador puede pasar solo una vez por ronda",
        "reason_spot_on_not_played": "estas reglas no permiten calzar",
        "reason_spot_on_not_in_oblige": "en una ronda obligada no se puede calzar",
        "reason_spot_on_min_players_one": "para calzar hace falta al menos {count} jugador en "
        "la partida",
        "reason_spot_on_min_players_many": "para calzar hacen falta al menos {count} jugadores "
        "en la partida",
        "reason_spot_on_after_pass": "tras un paso puedes subir o dudar el paso, no calzar",
        "reason_spot_on_more_than_half": "solo se puede calzar mientras siga en juego más de "
        "la mitad de los dados iniciales",
        "reason_spot_on_half_or_one_die": "solo se puede calzar mientras siga en juego la "
        "mitad de los dados iniciales, o con un solo dado",
        "reason_no_such_player": "no existe el jugador {player}",
        "reason_cruzado_off": "es el turno de {player}: con estas reglas nadie puede dudar "
        "fuera de turno",
        "reason_cruzado_off_you": "es tu turno: con estas reglas nadie puede dudar fuera de turno",
        "reason_player_out": "{player} está fuera de la partida",
        "reason_player_out_you": "estás fuera de la partida",
        "reason_no_bid_to_call": "no hay ninguna apuesta que dudar",
        "reason_own_bid": "no puedes dudar tu propia apuesta",
        "reason_oblige_same_face": "en esta ronda obligada no puedes cambiar de cara",
        "reason_quantity_up": "la cantidad debe subir",
        "reason_aces_raise_quantity": "una apuesta de ases debe subir la cantidad",
        "reason_aces_need_one": "una apuesta de ases necesita al menos {count} as",
        "reason_aces_need_many": "una apuesta de ases necesita al menos {count} ases",
        "reason_after_aces_need_one": "otra cara necesita al menos {count} dado",
        "reason_after_aces_need_many": "otra cara necesita al menos {count} dados",
        "reason_nondecreasing_quantity": "con estas reglas la cantidad no puede bajar",
        "reason_nondecreasing_face": "con estas reglas la cara no puede bajar",
        "reason_same_bid": "es la misma apuesta",
        "reason_index_order": "las apuestas deben subir en el orden fijo ({order})",
        "reason_quantity_down": "la cantidad no puede bajar",
        "reason_face_up": "con la misma cantidad, la cara debe subir",
        "reason_open_aces_never": "no se puede abrir una ronda con ases",
        "reason_open_aces_one_die": "solo quien tiene un único dado puede abrir con ases",
        "reason_not_your_turn": "es el turno de {player}, no el tuyo",
        "reason_not_legal_now": "ahora esa no es una de tus jugadas",
        # Why typed text is no bid or call (see the English block).
        "unread_nothing": "no hay nada que leer en '{text}'",
        "unread_unexpected_character": "'{text}': carácter inesperado '{char}'",
        "unread_not_a_move": "'{text}' no es una apuesta ni un dudo",
        "unread_no_such_face": "'{text}': no hay cara {face} (las caras van del 1 al {faces})",
        "unread_face_too_large": "'{text}': no hay una cara tan alta (las caras van del 1 al "
        "{faces})",
        "unread_quantity_no_face": "'{text}' tiene cantidad pero no cara; prueba {example}",
        "unread_face_no_quantity": "'{text}' tiene cara pero no cantidad; prueba {example}",
        "unread_quantity_min": "'{text}': la cantidad debe ser al menos 1",
        "unread_quantity_max": "'{text}': la cantidad es demasiado grande (como máximo {most})",
        "unread_not_a_quantity": "'{word}' no es una cantidad",
        "unread_not_a_face": "'{word}' no es una cara; las caras van del 1 al {faces}",
        "unread_no_bid_before_reveal": "'{text}': falta la apuesta antes de los dados que "
        "muestras; prueba {example}",
        "unread_no_face_after_x": "'{text}': falta la cara después de la 'x'; prueba 5x3",
        "unread_no_quantity_before_x": "'{text}': falta la cantidad antes de la 'x'; prueba 5x3",
        "unread_no_revealed_dice": "'{text}': di qué dados muestras, p. ej. {example}",
        "unread_not_a_revealed_die": "'{word}' no es un dado que se pueda mostrar; escríbelos "
        "así: 3,3",
        "out_of_turn_ask": "¿Dudar la {bid} de {name} fuera de turno? Intro: no, sigue {next}; "
        "'{word}': dudar ya > ",
        "out_of_turn_ask_you": "¿Dudar tu {bid} fuera de turno? Intro: no, sigue {next}; "
        "'{word}': dudar ya > ",
        "out_of_turn_only": "Es el turno de {name}: fuera de turno solo puedes dudar "
        "('{word}'), o pulsa Intro para seguir.",
        # The help screen.
        "help_bid": "Apuesta: una cantidad y una cara, p. ej. 5x3, '5 3', 'cinco trenes', "
        "'cinque tre': al menos esa cantidad de dados de toda la mesa muestran esa cara.",
        "help_obliging": "Esta es una ronda obligada: los ases no son comodines y son la cara "
        "más baja, quien abre puede apostar a cualquier cara, no hay calzo ni paso; {change}.",
        "raise_any_face": "Una subida es una cantidad mayor de cualquier cara, o la misma "
        "cantidad de una cara más alta.",
        "raise_nondecreasing": "Una subida no puede bajar ni la cantidad ni la cara, y debe "
        "subir una de las dos.",
        "raise_index": "Las apuestas suben en un único orden fijo: {order}.",
        "aces_help": "Los ases son comodines: cuentan para cualquier cara{natural}; una apuesta "
        "a ases solo cuenta ases.",
        "aces_natural": " si hay en la mesa al menos un dado natural de esa cara",
        "aces_switch": " Pasar a ases exige al menos {to}; dejar los ases exige al menos {back}.",
        "to_ceil_half": "la mitad de la cantidad, redondeando hacia arriba",
        "to_floor_half_plus_one": "la mitad de la cantidad, redondeando hacia abajo, más uno",
        "back_double_plus_one": "el doble de los ases más uno",
        "back_double": "el doble de los ases",
        "now_you_may": "Ahora puedes:",
        "help_open": "- abrir la ronda con cualquiera de las {count} apuestas, de {low} a "
        "{high} ({low_words} ... {high_words})",
        "help_raise": "- subir a cualquiera de las {count} apuestas, de {low} a {high} "
        "({low_words} ... {high_words})",
        "help_open_one": "- abrir la ronda con la única apuesta posible: {low} ({low_words})",
        "help_raise_one": "- subir a la única apuesta que queda: {low} ({low_words})",
        "help_call": "'{word}': duda la apuesta en pie; se muestran todos los dados, y si "
        "coinciden menos pierde un dado quien apostó; si no, lo pierdes tú.",
        "help_spot_on": "'{word}': afirma que la apuesta en pie es exacta; si fallas pierdes "
        "un dado, si aciertas {reward}.",
        "reward_gain": "ganas un dado (hasta cinco)",
        "reward_cancel": "se anula la ronda: nadie pierde un dado y se vuelven a tirar los dados",
        "help_pass": "'{word}': afirma tener una mano especial ({hands}) y pasa la apuesta en "
        "pie; el siguiente jugador puede subirla o dudar el paso.",
        "help_doubt_pass": "'{word}': duda el paso; se muestran los dados de quien pasó, y si "
        "la mano vale pierdes un dado; si no, lo pierde quien pasó.",
        "help_oblige_choice": "'{open}' o '{closed}': elige la visibilidad de la ronda "
        "obligada ({open_text}; {closed_text}).",
        "help_reveal": "- subir y apartar dados boca arriba, volviendo a tirar el resto: "
        "'{example}' (los dados apartados deben mostrar la cara, o ases si son comodines)",
        "help_cruzado": "Cruzado: tras la acción de otro jugador se te pregunta si dudas la "
        "apuesta en pie fuera de turno (Intro: no; una palabra de dudo: sí).",
        # Moves and rules.
        "nothing_to_do": "Ahora no tienes nada que hacer.",
        "bids_count": "Apuestas ({count}):",
        "reveals_count": "Subidas apartando dados ({count}):",
        "other_actions": "Otras: {actions}",
        "rules_title": "Reglas: {rules}",
        # The hint and the review.
        "counting_wild_natural": "los ases son comodines, pero solo para una cara con algún "
        "dado natural en la mesa",
        "counting_wild": "los ases son comodines",
        "counting_obliging": "ronda obligada: los ases no son comodines",
        "counting_not_wild": "los ases no son comodines",
        "hint_title": "Probabilidades según lo que ves ({known}, {unknown}; {counting}):",
        "known_one": "{count} dado conocido",
        "known_many": "{count} dados conocidos",
        "unknown_one": "{count} desconocido",
        "unknown_many": "{count} desconocidos",
        "hint_standing": "Apuesta en pie {bid}: se cumple {true}, exacta {exact}",
        "expected_counts": "Recuentos esperados: {counts}",
        "safest_openings": "Aperturas más seguras: {bids}",
        "safest_raises": "Subidas más seguras: {bids}",
        "hint_pass": "El paso de {name}: una mano al azar de {dice}{seen} es mano de paso el "
        "{chance} de las veces",
        "hint_pass_you": "Tu paso: una mano al azar de {dice}{seen} es mano de paso el "
        "{chance} de las veces",
        "seen_one": ", {count} ya visto",
        "seen_many": ", {count} ya vistos",
        "would_play": "El bot {level} jugaría {action}.",
        "claim_on": "{word} sobre {bid}",
        "review_none": "Repaso: ninguna de tus decisiones arriesgó un dado.",
        "review_title": "Repaso: tus decisiones más arriesgadas, con las probabilidades que "
        "tenías y lo que habría hecho el bot {level}",
        "review_item": "Ronda {round}, tú: {what}; {chance}. Riesgo de perder un dado: {risk}.",
        "review_no_call": "El bot {level} no habría dudado fuera de turno.",
        "review_same": "El bot {level} habría hecho lo mismo.",
        "review_other": "El bot {level} habría jugado {what}; {chance}.",
        "no_odds": "sin probabilidades que sopesar",
        "chance_true": "se cumple {chance}",
        "chance_call": "la apuesta se cumplía {chance}",
        "chance_exact": "exacta {chance}",
        "pass_hand_yes": "tu mano era de paso",
        "pass_hand_no": "tu mano no era de paso",
        "chance_doubt_pass": "una mano como la de quien pasó es de paso el {chance} de las veces",
        "risk_called": "{risk} (si te dudan)",
        "risk_doubted": "{risk} (si dudan el paso)",
        # The end.
        "error": "error: {error}",
        "players_too_few": "jugadores: {players}; una partida necesita que juegues tú y al menos "
        "un bot (2 o más)",
        "players_below_min": "jugadores: {players} está por debajo de min_players={min}",
        "players_above_max": "jugadores: {players} supera max_players={max} de estas reglas",
        "input_ended": "Fin de la entrada: la partida se detiene aquí.",
        "interrupted": "Interrumpida: la partida se detiene aquí.",
        "record_saved": "Registro de la partida guardado: {path}",
        "replay_with": "Vuelve a verla con: dudo replay {path}",
        "record_failed": "error: no se pudo guardar el registro de la partida: {error}",
        # dudo replay.
        "replay_title": "Registro de una partida de Dudo: {players} jugadores",
        "replay_player": "{name} (jugador {seat}, {kind})",
        "kind_human": "humano",
        "kind_bot": "bot: {level}",
        "player_number": "Jugador {number}",
        "player_label": "Jugador {number} ({name})",
        "starting_dice": "Dados al empezar: {counts}",
        "start_total": "Dados al comienzo de la partida (para el calzo): {total}",
        "already_obliged": "Ya obligaron: {names}",
        "replay_winner": "{name} gana tras {rounds} y {actions}.",
        "rounds_one": "{count} ronda",
        "rounds_many": "{count} rondas",
        "actions_one": "{count} jugada",
        "actions_many": "{count} jugadas",
        "replay_unfinished": "El registro termina en la ronda {round}; la partida no ha "
        "terminado. Dados: {counts}.",
        # dudo odds.
        "odds_header": "Tus dados: {dice}{seen}; dados desconocidos: {unknown}; reglas {rules}; "
        "{counting}.",
        "odds_seen": "; vistos: {dice}",
        "no_dice": "ninguno",
        "odds_true": "{bid} ({words}) se cumple: ",
        "odds_exact": "Exacta (calzo): ",
        "col_face": "Cara",
        "col_expected": "Esperado",
        "col_highest": "Máxima ≥50%",
        "col_chance": "Probabilidad",
        "col_one_more": "Una más",
    },
    "it": {
        "commands": (
            "Comandi: ? o aiuto (le tue opzioni spiegate), suggerimento o probabilità (le "
            "probabilità da ciò che vedi), mosse (tutte le azioni legali), regole (le regole "
            "in gioco), tavolo (di nuovo il tavolo), esci (smetti; la partita è salvata)."
        ),
        "prompt": "La tua mossa > ",
        "empty": "Scrivi una puntata o un dubito, o ? per aiuto.",
        "not_understood": "Non capito: {error}. Scrivi ? per aiuto.",
        "not_understood_short": "Non capito: {error}",
        "not_allowed": "Non permesso: {problem}",
        "quit_ask": "Lasciare questa partita? La registrazione è salvata comunque. (s/N) > ",
        "leave": "Lasci la partita.",
        "play_on": "Si continua.",
        "how_to": "Come giocare il tuo turno:",
        "your_dice": "I tuoi dadi: ",
        "this_round": "Questo giro: {bids}",
        "standing": "Puntata in corso: {bid} di {name}",
        "standing_you": "Puntata in corso: {bid}, tua",
        "lowest_openings": "Aperture più basse",
        "lowest_raises": "Rilanci più bassi",
        "more_bids": " ... ({count} in tutto: 'mosse' le elenca)",
        "or": "Oppure: {actions}",
        "intro_type": "Scrivi una puntata (5x3, cinque tre), un dubito ({calls}), ? per "
        "aiuto, suggerimento per le probabilità, o esci.",
        "die": "dado",
        "dice": "dadi",
        "table": "Tavolo ({direction}, da chi apre):",
        "clockwise": "senso orario",
        "counterclockwise": "senso antiorario",
        "out_short": "fuori",
        "tag_obliges": "obbliga",
        "tag_obliged": "ha già obbligato",
        "dice_in_play": "Dadi in gioco: {count}",
        "all_dice": "Tutti i dadi:",
        # Narration; a key ending in _you is the line for the player spoken to.
        "count": "Conteggio ({faces}, {counting}): {count} per {bid}: {verdict}",
        "aces_only": "solo assi",
        "aces_not_wild": "gli assi non sono jolly",
        "aces_wild_natural": "assi jolly accanto a uno naturale",
        "aces_wild": "assi jolly",
        "exact": "esatta",
        "not_exact": "non esatta",
        "stands": "la puntata regge",
        "fails": "la puntata cade",
        "round": "Giro {number}",
        "obliging_title": " (giro obbligato)",
        "opens": "{name} apre il giro.",
        "opens_you": "Apri il giro.",
        "in_play": " Dadi: {counts} ({total} in gioco)",
        "loses": "{name} perde {dice} ({left})",
        "loses_you": "Perdi {dice} ({left})",
        "left_one": "gliene resta {count}",
        "left_many": "gliene restano {count}",
        "left_you_one": "te ne resta {count}",
        "left_you_many": "te ne restano {count}",
        "left_none": "non gliene resta nessuno",
        "left_you_none": "non te ne resta nessuno",
        "wins_die": "{name} vince un dado (ora {remaining})",
        "wins_die_you": "Vinci un dado (ora {remaining})",
        "out": "{name} è fuori dalla partita",
        "out_you": "Sei fuori dalla partita",
        "calls": "dubita della {bid} di {name}",
        "calls_you": "dubita della tua {bid}",
        "spot_on": "afferma che la {bid} di {name} è esatta",
        "spot_on_you": "afferma che la tua {bid} è esatta",
        "doubts_pass": "dubita del passo di {name}",
        "doubts_pass_you": "dubita del tuo passo",
        "out_of_turn": " fuori turno",
        "winner": "Vince la partita {name}, dopo {rounds}.",
        "winner_you": "Hai vinto! Vinci la partita dopo {rounds}.",
        "decimal_mark": ",",
        "you_name": "Tu",
        # The opening lines.
        "intro_title": "Dudo: {players} giocatori, regole {rules}",
        "intro_bots_one": "{name} contro 1 bot {level}: {names}. Lingua: {lang}.{seed}",
        "intro_bots_many": "{name} contro {count} bot {level}: {names}. Lingua: {lang}.{seed}",
        "intro_seed": " Seme: {seed}.",
        "house_rules": "{preset} con regole della casa {changes}",
        "closest_preset": "{name} (insieme di regole più vicino: {closest})",
        "seating_roll": "Lancio per i posti: {rolls}",
        "tie_reroll": "Nuovo lancio per lo spareggio: {rolls}",
        "play_order": "Ordine di gioco ({direction}{how}): {order}",
        "seating_random": "sorteggiato",
        "seating_set": "stabilito dal tavolo",
        # Obliging rounds, passes and reveals.
        "obliging_line": "Giro obbligato: {who}. Gli assi non sono jolly; niente calza né "
        "passo; {change}; {how}.",
        "obliges": "obbliga {name}",
        "obliges_you": "obblighi tu",
        "obliger_chooses": "chi obbliga sceglie aperto o chiuso prima del lancio",
        "visibility_normal": "ognuno vede i propri dadi",
        "visibility_closed": "chiuso: solo chi ha un dado vede i propri dadi",
        "visibility_open": "aperto: ognuno vede tutte le mani tranne la propria",
        "face_change_nobody": "nessuno può cambiare faccia: si alza solo la quantità",
        "face_change_single_die": "solo chi ha un dado può cambiare faccia",
        "face_change_single_die_veteran": "può cambiare faccia solo chi ha un dado e ha già "
        "avuto il proprio giro obbligato",
        "pass_hand_full_house": "un full",
        "pass_hand_five_kind": "cinque uguali",
        "pass_hand_five_different": "cinque facce diverse",
        "sets_aside": "; mette da parte {aside} scoperti e rilancia {rerolled}",
        "claims_hand": "dichiara una mano speciale",
        "holds": "{name} ha {hand}",
        "holds_you": "Hai {hand}",
        "pass_bluff": "{holds}, nessuna mano speciale: il passo era un bluff",
        "pass_good": "{holds}, {hand}: il passo era buono",
        "cancelled": "Esatta: nessuno perde un dado e il giro si rigioca",
        "out_brief": "Sei fuori dalla partita. I bot continuano a giocare; una riga per giro:",
        # Your turn.
        "face_up_yours": "; scoperti: {dice}",
        "dice_not_rolled": "I tuoi dadi: non ancora lanciati (prima chi obbliga sceglie aperto "
        "o chiuso)",
        "dice_hidden_closed": "I tuoi dadi: nascosti (giro obbligato chiuso: solo chi ha un "
        "dado vede i propri dadi)",
        "dice_hidden_open": "I tuoi dadi: nascosti (giro obbligato aperto: vedi tutte le mani "
        "tranne la tua)",
        "you_see": "Vedi: {hands}",
        "face_up": "Scoperti: {hands}",
        "passed": "{name} ha passato: rilancia la puntata in corso o dubita del passo",
        "passed_you": "Hai passato: chi segue rilancia la puntata in corso o dubita del passo",
        "you_oblige": "Obblighi: scegli {choices} ({open}; {closed})",
        "either": "'{first}' o '{second}'",
        "reveal_tip": "Per mettere da parte dadi e rilanciare gli altri, aggiungili a un "
        "rilancio: {example}",
        "you_may": "Puoi: {options}. Scrivi ? per aiuto.",
        "or_lower": "oppure {actions}",
        "must_choose": "prima scegli un giro obbligato aperto o chiuso: {choices}",
        "must_bid": "apri il giro, quindi devi puntare",
        "not_legal": "{action} non è una mossa legale ora",
        "not_a_move": "'{text}' non è una puntata né un dubito",
        # The engine's reasons for refusing a move (see the English block).
        "reason_raise": "{new} non è un rilancio su {standing}: {reason}",
        "reason_bid": "{bid}: {reason}",
        "reason_game_over": "la partita è finita",
        "reason_oblige_choice_first": "{player} deve prima scegliere giro obbligato aperto o "
        "chiuso",
        "reason_oblige_choice_first_you": "prima devi scegliere giro obbligato aperto o chiuso",
        "reason_no_oblige_choice": "ora non c'è da scegliere tra giro aperto e chiuso",
        "reason_opener_must_bid": "{player} apre il giro e deve puntare",
        "reason_opener_must_bid_you": "apri il giro, quindi devi puntare",
        "reason_no_call_after_pass": "dopo un passo non puoi dubitare della puntata: rilancia "
        "o dubita del passo",
        "reason_no_pass_to_doubt": "non c'è nessun passo da dubitare",
        "reason_not_an_action": "{action} non è una mossa",
        "reason_bid_not_whole": "{bid} non è una puntata di numeri interi",
        "reason_no_such_face": "non esiste la faccia {face}: le facce vanno da 1 a {faces}",
        "reason_quantity_range_one": "la quantità deve essere 1: c'è {count} dado in gioco",
        "reason_quantity_range_many": "la quantità deve andare da 1 a {count}, i dadi in gioco",
        "reason_reveal_not_played": "queste regole non permettono di mostrare dadi e ritirare",
        "reason_reveal_not_in_oblige": "in un giro obbligato non si possono mostrare dadi e "
        "ritirare",
        "reason_reveal_not_on_opening": "si possono mostrare dadi e ritirare solo rilanciando, "
        "non sulla puntata che apre il giro",
        "reason_reveal_none": "mostra almeno un dado",
        "reason_reveal_wrong_face": "ogni dado che mostri deve avere la faccia della puntata "
        "({face})",
        "reason_reveal_wrong_face_or_ace": "ogni dado che mostri deve avere la faccia della "
        "puntata ({face}) o essere un asso",
        "reason_reveal_not_held": "non hai {dice} tra i tuoi dadi nascosti",
        "reason_reveal_keep_one": "almeno un dado deve restare nascosto",
        "reason_pass_not_played": "queste regole non permettono di passare",
        "reason_pass_not_in_oblige": "in un giro obbligato non si può passare",
        "reason_pass_min_players_one": "per passare serve almeno {count} giocatore in partita",
        "reason_pass_min_players_many": "per passare servono almeno {count} giocatori in partita",
        "reason_pass_twice": "non possono esserci due passi di fila",
        "reason_pass_once_per_round": "ogni giocatore può passare una sola volta per giro",
        "reason_spot_on_not_played": "queste regole non permettono di chiamare calza",
        "reason_spot_on_not_in_oblige": "in un giro obbligato non si può chiamare calza",
        "reason_spot_on_min_players_one": "per chiamare calza serve almeno {count} giocatore "
        "in partita",
        "reason_spot_on_min_players_many": "per chiamare calza servono almeno {count} "
        "giocatori in partita",
        "reason_spot_on_after_pass": "dopo un passo puoi rilanciare o dubitare del passo, non "
        "chiamare calza",
        "reason_spot_on_more_than_half": "si può chiamare calza solo finché è in gioco più "
        "della metà dei dadi iniziali",
        "reason_spot_on_half_or_one_die": "si può chiamare calza solo finché è in gioco la "
        "metà dei dadi iniziali, o con un solo dado",
        "reason_no_such_player": "non esiste il giocatore {player}",
        "reason_cruzado_off": "tocca a {player}: con queste regole nessuno può dubitare fuori "
        "turno",
        "reason_cruzado_off_you": "tocca a te: con queste regole nessuno può dubitare fuori turno",
        "reason_player_out": "{player} è fuori dalla partita",
        "reason_player_out_you": "sei fuori dalla partita",
        "reason_no_bid_to_call": "non c'è nessuna puntata da dubitare",
        "reason_own_bid": "non puoi dubitare della tua puntata",
        "reason_oblige_same_face": "in questo giro obbligato non puoi cambiare faccia",
        "reason_quantity_up": "la quantità deve salire",
        "reason_aces_raise_quantity": "una puntata sugli assi deve alzare la quantità",
        "reason_aces_need_one": "una puntata sugli assi richiede almeno {count} asso",
        "reason_aces_need_many": "una puntata sugli assi richiede almeno {count} assi",
        "reason_after_aces_need_one": "un'altra faccia richiede almeno {count} dado",
        "reason_after_aces_need_many": "un'altra faccia richiede almeno {count} dadi",
        "reason_nondecreasing_quantity": "con queste regole la quantità non può scendere",
        "reason_nondecreasing_face": "con queste regole la faccia non può scendere",
        "reason_same_bid": "è la stessa puntata",
        "reason_index_order": "le puntate devono salire nell'ordine fisso ({order})",
        "reason_quantity_down": "la quantità non può scendere",
        "reason_face_up": "a parità di quantità, la faccia deve salire",
        "reason_open_aces_never": "non si può aprire un giro sugli assi",
        "reason_open_aces_one_die": "solo chi ha un solo dado può aprire sugli assi",
        "reason_not_your_turn": "tocca a {player}, non a te",
        "reason_not_legal_now": "ora questa non è una delle tue mosse",
        # Why typed text is no bid or call (see the English block).
        "unread_nothing": "non c'è niente da leggere in '{text}'",
        "unread_unexpected_character": "'{text}': carattere inatteso '{char}'",
        "unread_not_a_move": "'{text}' non è una puntata né un dubito",
        "unread_no_such_face": "'{text}': non esiste la faccia {face} (le facce vanno da 1 a "
        "{faces})",
        "unread_face_too_large": "'{text}': non esiste una faccia così alta (le facce vanno da "
        "1 a {faces})",
        "unread_quantity_no_face": "'{text}' ha una quantità ma nessuna faccia; prova {example}",
        "unread_face_no_quantity": "'{text}' ha una faccia ma nessuna quantità; prova {example}",
        "unread_quantity_min": "'{text}': la quantità deve essere almeno 1",
        "unread_quantity_max": "'{text}': la quantità è troppo grande (al massimo {most})",
        "unread_not_a_quantity": "'{word}' non è una quantità",
        "unread_not_a_face": "'{word}' non è una faccia; le facce vanno da 1 a {faces}",
        "unread_no_bid_before_reveal": "'{text}': manca la puntata prima dei dadi che mostri; "
        "prova {example}",
        "unread_no_face_after_x": "'{text}': manca la faccia dopo la 'x'; prova 5x3",
        "unread_no_quantity_before_x": "'{text}': manca la quantità prima della 'x'; prova 5x3",
        "unread_no_revealed_dice": "'{text}': indica i dadi che mostri, ad es. {example}",
        "unread_not_a_revealed_die": "'{word}' non è un dado da mostrare; scrivili così: 3,3",
        "out_of_turn_ask": "Dubitare della {bid} di {name} fuori turno? Invio: no, continua "
        "{next}; '{word}': dubita ora > ",
        "out_of_turn_ask_you": "Dubitare della tua {bid} fuori turno? Invio: no, continua "
        "{next}; '{word}': dubita ora > ",
        "out_of_turn_only": "È il turno di {name}: fuori turno puoi solo dubitare ('{word}'), "
        "o premi Invio per continuare.",
        # The help screen.
        "help_bid": "Puntata: una quantità e una faccia, ad es. 5x3, '5 3', 'cinque tre', "
        "'cinco trenes': almeno tanti dadi su tutto il tavolo mostrano quella faccia.",
        "help_obliging": "Questo è un giro obbligato: gli assi non sono jolly e sono la faccia "
        "più bassa, chi apre può puntare su qualsiasi faccia, niente calza né passo; {change}.",
        "raise_any_face": "Un rilancio è una quantità maggiore di qualsiasi faccia, o la stessa "
        "quantità di una faccia più alta.",
        "raise_nondecreasing": "Un rilancio non può abbassare né la quantità né la faccia, e "
        "deve alzarne una delle due.",
        "raise_index": "Le puntate salgono in un unico ordine fisso: {order}.",
        "aces_help": "Gli assi sono jolly: contano per qualsiasi faccia{natural}; una puntata "
        "sugli assi conta solo gli assi.",
        "aces_natural": " se sul tavolo c'è almeno un dado naturale di quella faccia",
        "aces_switch": " Passare agli assi richiede almeno {to}; lasciare gli assi richiede "
        "almeno {back}.",
        "to_ceil_half": "metà della quantità, arrotondata per eccesso",
        "to_floor_half_plus_one": "metà della quantità, arrotondata per difetto, più uno",
        "back_double_plus_one": "il doppio degli assi più uno",
        "back_double": "il doppio degli assi",
        "now_you_may": "Ora puoi:",
        "help_open": "- aprire il giro con una qualsiasi delle {count} puntate, da {low} a "
        "{high} ({low_words} ... {high_words})",
        "help_raise": "- rilanciare con una qualsiasi delle {count} puntate, da {low} a {high} "
        "({low_words} ... {high_words})",
        "help_open_one": "- aprire il giro con l'unica puntata possibile: {low} ({low_words})",
        "help_raise_one": "- rilanciare con l'unica puntata rimasta: {low} ({low_words})",
        "help_call": "'{word}': dubita della puntata in corso; si mostrano tutti i dadi, e se "
        "ne corrispondono meno perde un dado chi ha puntato, altrimenti lo perdi tu.",
        "help_spot_on": "'{word}': afferma che la puntata in corso è esatta; se sbagli perdi "
        "un dado, se indovini {reward}.",
        "reward_gain": "vinci un dado (fino a cinque)",
        "reward_cancel": "il giro si annulla: nessuno perde un dado e si rilanciano i dadi",
        "help_pass": "'{word}': dichiara una mano speciale ({hands}) e passa avanti la puntata "
        "in corso; il giocatore successivo può rilanciarla o dubitare del passo.",
        "help_doubt_pass": "'{word}': dubita del passo; si mostrano i dadi di chi ha passato, e "
        "se la mano è valida perdi un dado, altrimenti lo perde chi ha passato.",
        "help_oblige_choice": "'{open}' o '{closed}': scegli la visibilità del giro obbligato "
        "({open_text}; {closed_text}).",
        "help_reveal": "- rilanciare mettendo da parte dadi scoperti e rilanciando gli altri: "
        "'{example}' (i dadi messi da parte devono mostrare la faccia, o assi se sono "
        "jolly)",
        "help_cruzado": "Cruzado: dopo l'azione di un altro giocatore ti si chiede se dubitare "
        "della puntata in corso fuori turno (Invio: no; una parola di dubito: sì).",
        # Moves and rules.
        "nothing_to_do": "Ora non hai niente da fare.",
        "bids_count": "Puntate ({count}):",
        "reveals_count": "Rilanci mettendo da parte dadi ({count}):",
        "other_actions": "Altre: {actions}",
        "rules_title": "Regole: {rules}",
        # The hint and the review.
        "counting_wild_natural": "gli assi sono jolly, ma solo per una faccia con almeno un "
        "dado naturale sul tavolo",
        "counting_wild": "gli assi sono jolly",
        "counting_obliging": "giro obbligato: gli assi non sono jolly",
        "counting_not_wild": "gli assi non sono jolly",
        "hint_title": "Probabilità da ciò che vedi ({known}, {unknown}; {counting}):",
        "known_one": "{count} dado noto",
        "known_many": "{count} dadi noti",
        "unknown_one": "{count} ignoto",
        "unknown_many": "{count} ignoti",
        "hint_standing": "Puntata in corso {bid}: regge {true}, esatta {exact}",
        "expected_counts": "Conteggi attesi: {counts}",
        "safest_openings": "Aperture più sicure: {bids}",
        "safest_raises": "Rilanci più sicuri: {bids}",
        "hint_pass": "Il passo di {name}: una mano a caso di {dice}{seen} è una mano da passo "
        "il {chance} delle volte",
        "hint_pass_you": "Il tuo passo: una mano a caso di {dice}{seen} è una mano da passo il "
        "{chance} delle volte",
        "seen_one": ", {count} già visto",
        "seen_many": ", {count} già visti",
        "would_play": "Il bot {level} giocherebbe {action}.",
        "claim_on": "{word} su {bid}",
        "review_none": "Revisione: nessuna delle tue decisioni ha rischiato un dado.",
        "review_title": "Revisione: le tue decisioni più rischiose, con le probabilità che "
        "avevi e cosa avrebbe fatto il bot {level}",
        "review_item": "Giro {round}, tu: {what}; {chance}. Rischio di perdere un dado: {risk}.",
        "review_no_call": "Il bot {level} non avrebbe dubitato fuori turno.",
        "review_same": "Il bot {level} avrebbe fatto lo stesso.",
        "review_other": "Il bot {level} avrebbe giocato {what}; {chance}.",
        "no_odds": "nessuna probabilità da valutare",
        "chance_true": "regge {chance}",
        "chance_call": "la puntata reggeva {chance}",
        "chance_exact": "esatta {chance}",
        "pass_hand_yes": "la tua mano era da passo",
        "pass_hand_no": "la tua mano non era da passo",
        "chance_doubt_pass": "una mano come quella di chi ha passato è da passo il {chance} "
        "delle volte",
        "risk_called": "{risk} (se ti dubitano)",
        "risk_doubted": "{risk} (se dubitano del passo)",
        # The end.
        "error": "errore: {error}",
        "players_too_few": "giocatori: {players}; una partita richiede te e almeno un bot (2 o "
        "più)",
        "players_below_min": "giocatori: {players} è sotto min_players={min}",
        "players_above_max": "giocatori: {players} supera max_players={max} di queste regole",
        "input_ended": "Fine dell'input: la partita si ferma qui.",
        "interrupted": "Interrotta: la partita si ferma qui.",
        "record_saved": "Registrazione della partita salvata: {path}",
        "replay_with": "Rivedila con: dudo replay {path}",
        "record_failed": "errore: non è stato possibile salvare la registrazione della "
        "partita: {error}",
        # dudo replay.
        "replay_title": "Registrazione di una partita di Dudo: {players} giocatori",
        "replay_player": "{name} (giocatore {seat}, {kind})",
        "kind_human": "umano",
        "kind_bot": "bot: {level}",
        "player_number": "Giocatore {number}",
        "player_label": "Giocatore {number} ({name})",
        "starting_dice": "Dadi all'inizio: {counts}",
        "start_total": "Dadi all'inizio della partita (per la calza): {total}",
        "already_obliged": "Hanno già obbligato: {names}",
        "replay_winner": "{name} vince dopo {rounds} e {actions}.",
        "rounds_one": "{count} giro",
        "rounds_many": "{count} giri",
        "actions_one": "{count} mossa",
        "actions_many": "{count} mosse",
        "replay_unfinished": "La registrazione finisce al giro {round}; la partita non è "
        "finita. Dadi: {counts}.",
        # dudo odds.
        "odds_header": "I tuoi dadi: {dice}{seen}; dadi ignoti: {unknown}; regole {rules}; "
        "{counting}.",
        "odds_seen": "; visti: {dice}",
        "no_dice": "nessuno",
        "odds_true": "{bid} ({words}) regge: ",
        "odds_exact": "Esatta (calza): ",
        "col_face": "Faccia",
        "col_expected": "Atteso",
        "col_highest": "Massima ≥50%",
        "col_chance": "Probabilità",
        "col_one_more": "Una in più",
    },
}


def text(lang: str, key: str, /, **fields: object) -> str:
    """Message ``key`` in ``lang`` (English if the language is unknown), fields filled in."""
    return TEXTS.get(lang, TEXTS["en"])[key].format(**fields)


def dice(lang: str, count: int) -> str:
    """``"1 die"``, ``"2 dice"``; ``"1 dado"``, ``"2 dadi"``."""
    return f"{count} {text(lang, 'die' if count == 1 else 'dice')}"


def counted(lang: str, key: str, count: int) -> str:
    """Message ``key_one`` or ``key_many`` for ``count``, the count filled in: the word
    after a number agrees with it ("1 dado conocido", "5 dados conocidos"). A key with a
    ``key_none`` form uses it for zero ("no te queda ninguno")."""
    form = "one" if count == 1 else "many"
    if count == 0 and f"{key}_none" in TEXTS["en"]:
        form = "none"
    return text(lang, f"{key}_{form}", count=count)


def decimal(lang: str, value: Fraction | float, places: int = 1) -> str:
    """``value`` with ``places`` decimals and the language's decimal mark: ``3.5``, ``3,5``."""
    return f"{float(value):.{places}f}".replace(".", text(lang, "decimal_mark"))


def chance(lang: str, value: Fraction | float) -> str:
    """A chance as a percentage (:func:`dudo.odds.format_chance`) with the language's decimal
    mark: ``43.2%``, ``43,2%``."""
    return format_chance(value).replace(".", text(lang, "decimal_mark"))
