"""Dudo as an OpenSpiel Python game, registered as ``python_dudo``, so OpenSpiel's
algorithms (CFR, MCCFR, exploitability, MCTS, ...) run on any preset and house rules.

Parameters: ``preset`` (default ``dudo``), ``players`` (2..8, default 2), ``max_rounds`` (a
game still going after that many rounds ends with no result), and every rule option as a
parameter of its own, whose default means "as the preset has it" (:data:`PRESET_VALUES`):
integers take -1 for that (``dice_per_player`` also 0; ``max_players`` takes 0 for no
maximum), switches are integers too (1 true, 0 false), named values and pass hands are text
(pass hands joined with ``+``, or ``none``). So a game with house rules is written, printed
and loaded again like any OpenSpiel game: ``python_dudo(faces=3,preset=liars-dice)``.
``settings`` (``OPTION=VALUE`` house rules separated by spaces or semicolons) is read too,
and printed back as the options it sets. Load it with
``pyspiel.load_game("python_dudo", {"preset": "liars-dice", "players": 3})`` after importing
this module, or call :func:`load_game`.

- Players are the engine's seats. Actions are the ids of :mod:`dudo.engine.encoding`;
  one decider at a time, with out-of-turn polls under ``cruzado`` (:mod:`dudo.research.turns`).
- Chance is explicit: the engine draws every random outcome through a chance source, and
  here that source is the game tree. When an action (or the start of the game) needs dice,
  the state becomes a chance node per die (outcome ``face - 1``, each ``1 / faces``), then
  the action is pushed to the engine with those dice scripted. A random seating order is
  drawn seat by seat (outcome: the seat placed next, uniformly among those left). So is the
  order of play that ``seating=roll`` gives (uniform too): its rolls may tie for ever, so the
  tree draws the order they end in, and the engine is shown rolls that give it.
- Utility: zero-sum and terminal: the winner gets +1 and every other player
  ``-1 / (players - 1)`` (heads-up: +1 / -1, OpenSpiel's ``liars_dice`` payoffs); a game cut
  off at ``max_rounds`` gives everyone 0.
- Observations come only from :meth:`~dudo.engine.Game.view`: the observation tensor is the
  vector of :mod:`dudo.engine.observation` plus two entries (the player decides now in
  turn / as a polled seat); the observation string is the view as text
  (:func:`dudo.research.text.view_text`). The information state string (perfect recall) is
  the public event log, the public out-of-turn poll answers, and each change in what the
  player saw of the dice, in order. The information state tensor (for Deep CFR, NFSP and
  the like) is the observation's vector with room for every action a round can hold (not
  only the last 16), plus the two entries: the player's dice, the public state and the
  whole round so far. Earlier rounds enter it through what they left public (dice counts,
  obliged players, the round number, the last reveal): every hand is shown when a round
  ends and the next round's dice are new, so nothing private carries over from one round
  to the next (under ``reveal_reroll`` the tensor shows a player's dice as they are now,
  not those they re-rolled earlier in the round). The public observer
  (``private_info=NONE``) gives the spectator's view as strings only.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

import numpy as np

from dudo.bots.match import MAX_ROUNDS
from dudo.engine import ChanceOutcome, Game, PlayerView, Rules, ScriptedChance, Setup
from dudo.engine.encoding import ActionEncoding
from dudo.engine.errors import DudoError
from dudo.engine.observation import ObservationLayout
from dudo.engine.rules import OPTION_NAMES, OPTIONS, Seating
from dudo.research import missing_extra, resolve_rules
from dudo.research.text import view_text
from dudo.research.turns import Turns

try:
    import pyspiel
except ImportError as error:
    raise missing_extra("open_spiel", "The OpenSpiel game") from error

GAME_NAME = "python_dudo"
MAX_PLAYERS = 8


def _preset_value(name: str) -> int | str:
    """The parameter value that leaves option ``name`` as the preset has it."""
    kind = OPTIONS[name].kind
    if name == "dice_per_player":
        return 0  # the parameter's meaning before every option was one
    return -1 if kind is bool or kind is int else ""


#: Each rule option's game parameter default: "as the preset has it".
PRESET_VALUES: dict[str, int | str] = {name: _preset_value(name) for name in OPTION_NAMES}


def _option_value(name: str, given: Any) -> Any:
    """The option value a game parameter gives (its type checked by OpenSpiel already)."""
    option = OPTIONS[name]
    if option.kind is bool:
        if given not in (0, 1):
            raise DudoError(f"{name}: {given!r}; give 1 (true), 0 (false) or -1 (the preset's)")
        return bool(given)
    if option.kind is int:
        if option.none_ok and given == 0:
            return None
        return option.coerce(given)
    if option.kind is frozenset:
        return option.coerce(str(given).replace("+", ","))
    return option.coerce(given)


def _parameter_value(name: str, value: Any) -> int | str:
    """An option value as its game parameter writes it (the inverse of :func:`_option_value`)."""
    option = OPTIONS[name]
    if option.kind is bool:
        return int(value)
    if option.kind is int:
        return 0 if value is None else int(value)
    if option.kind is frozenset:
        return "+".join(sorted(str(h) for h in value)) or "none"
    return str(value)


_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Dudo (Perudo, Cacho, Liar's Dice) from the dudo rules engine",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_PLAYERS,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={
        "preset": "dudo",
        "players": 2,
        "settings": "",
        "max_rounds": MAX_ROUNDS,
        **PRESET_VALUES,
    },
)


def game_rules(params: dict[str, Any]) -> Rules:
    """The rules a ``python_dudo`` parameter set stands for: the preset, then the house rules
    of ``settings``, then every option parameter not left at "as the preset has it"."""
    rules = resolve_rules(str(params.get("preset", "dudo")), str(params.get("settings", "")))
    changes = {}
    for name, unset in PRESET_VALUES.items():
        given = params.get(name, unset)
        if given != unset and not (name == "dice_per_player" and given == -1):
            changes[name] = _option_value(name, given)
    return rules.with_options(**changes) if changes else rules


def canonical_parameters(
    preset: str, players: int, max_rounds: int, rules: Rules
) -> dict[str, Any]:
    """The parameters that print a game: the preset and every option it changes (none of them
    through ``settings``), so that the game's string loads the same game again."""
    base = resolve_rules(preset, "")
    params: dict[str, Any] = {"preset": preset, "players": players, "max_rounds": max_rounds}
    for name in OPTION_NAMES:
        value = getattr(rules, name)
        if value != getattr(base, name):
            params[name] = _parameter_value(name, value)
    return params


def _round_length(rules: Rules, players: int) -> int:
    """A bound on a round's actions: the obliger's choice, at most one bid per bid of the
    table (each raise is a higher bid), one pass per player and the closing call."""
    return 1 + players * rules.dice_per_player * rules.faces + players + 1


def _max_game_length(rules: Rules, players: int, max_rounds: int) -> int:
    """A bound on decisions: a round's actions (:func:`_round_length`), and under cruzado a
    poll of every other seat before each of them. Every round takes a die out of play, so
    a game has fewer rounds than dice, unless a right spot-on can win a die back or re-deal
    the round: then only ``max_rounds`` ends it."""
    per_round = _round_length(rules, players)
    if rules.cruzado:
        per_round *= max(1, players - 1)
    rounds = max_rounds if rules.spot_on else min(max_rounds, players * rules.dice_per_player - 1)
    return rounds * per_round


class DudoGame(pyspiel.Game):  # type: ignore[misc]
    """The ``python_dudo`` game for one parameter set."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        given = dict(_GAME_TYPE.parameter_specification)
        given.update(params or {})
        rules = game_rules(given)
        preset = str(given["preset"])
        players = int(given["players"])
        max_rounds = int(given["max_rounds"])
        if not 2 <= players <= MAX_PLAYERS:
            raise DudoError(f"players: {players} is outside 2..{MAX_PLAYERS}")
        if max_rounds < 1:
            raise DudoError(f"max_rounds: {max_rounds} is below 1")
        Setup(players).check(rules)  # a clear error now for a player count the rules refuse
        self.rules = rules
        self.max_rounds = max_rounds
        self.encoding = ActionEncoding(rules, players)
        self.layout = ObservationLayout(rules, players)
        self.info_layout = ObservationLayout(
            rules, players, history_slots=_round_length(rules, players)
        )
        info = pyspiel.GameInfo(
            num_distinct_actions=self.encoding.size,
            max_chance_outcomes=max(rules.faces, players),
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=_max_game_length(rules, players, max_rounds),
        )
        super().__init__(_GAME_TYPE, info, canonical_parameters(preset, players, max_rounds, rules))

    def new_initial_state(self) -> DudoState:
        return DudoState(self)

    def initial_core(self) -> _Core:
        """The start of every game, made once (OpenSpiel clones a state by making a new
        initial state and deep-copying the original's attributes over it)."""
        core: _Core | None = getattr(self, "_initial_core", None)
        if core is None:
            core = self._initial_core = _Core(self)
        return copy.deepcopy(core)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> DudoObserver:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        return DudoObserver(self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False))


def seating_rolls(order: Sequence[int], faces: int) -> list[tuple[int, ...]]:
    """Seating rolls that give the order of play ``order`` (highest roll first, tied players
    rolling again among themselves), as the engine asks for them: each roll lists its
    players' dice in seat order. With more players than faces, the last ones tie on 1 and
    roll again."""
    group = sorted(order)
    ranked = list(order)
    head, rest = (
        (ranked, []) if len(ranked) <= faces else (ranked[: faces - 1], ranked[faces - 1 :])
    )
    value = {player: faces - place for place, player in enumerate(head)}
    value.update(dict.fromkeys(rest, 1))
    first = tuple(value[player] for player in group)
    return [first, *(seating_rolls(rest, faces) if rest else [])]


class _NeedChance(Exception):
    """The engine asked for an outcome not drawn yet: ``kind`` ("roll" or "order") of
    ``size`` dice or seats."""

    def __init__(self, kind: str, size: int) -> None:
        super().__init__(kind, size)
        self.kind = kind
        self.size = size


class _AskTree:
    """A chance source that stops the engine: the outcome must come from a chance node."""

    def roll(self, count: int, faces: int) -> tuple[int, ...]:
        raise _NeedChance("roll", count)

    def order(self, players: int) -> tuple[int, ...]:
        raise _NeedChance("order", players)


_ASK = _AskTree()


class _Core:
    """Everything a state holds, copied cheaply (OpenSpiel deep-copies a Python state's
    attributes to clone it; the engine's own clone shares its immutable parts)."""

    def __init__(self, game: DudoGame) -> None:
        self.spec = game
        self.turns: Turns | None = None  # None until the first deal is drawn
        self.pending: int | None = None  # the action id waiting for chance outcomes
        self.drawn: list[ChanceOutcome] = []  # whole outcomes drawn for the pending step
        self.need: _NeedChance | None = None
        self.partial: list[int] = []  # dice (or seats) of the outcome being drawn
        self.seen: list[list[str]] = [[] for _ in range(game.num_players())]
        self.seen_key: tuple[Any, ...] = ()  # see _record
        # Caches for the position as it is; advance() replaces them (clones share them).
        self.legal: list[int] | None = None
        self.strings: dict[tuple[bool, int], str] = {}
        self.advance()

    def __deepcopy__(self, memo: dict[int, Any]) -> _Core:
        twin = _Core.__new__(_Core)
        twin.__dict__.update(self.__dict__)  # immutable values and caches are shared
        if self.turns is not None:
            twin.turns = self.turns.clone()
        twin.drawn = list(self.drawn)
        twin.partial = list(self.partial)
        twin.seen = [list(s) for s in self.seen]
        return twin

    @property
    def game(self) -> Game | None:
        return None if self.turns is None else self.turns.game

    def advance(self) -> None:
        """Start the game or play the pending action with the outcomes drawn so far; if
        the engine needs more, this becomes a chance node."""
        spec = self.spec
        self.legal, self.strings = None, {}
        try:
            if self.turns is None:
                chance = ScriptedChance(self._start_script(), then=_ASK)
                game = Game(spec.rules, spec.num_players(), chance=chance)
                self.turns = Turns(game, spec.encoding, max_rounds=spec.max_rounds)
            else:
                assert self.pending is not None
                self.turns.game.chance = ScriptedChance(self.drawn, then=_ASK)
                self.turns.apply(self.pending)
        except _NeedChance as need:
            self.need, self.partial = need, []
            return
        self.turns.game.chance = _ASK
        self.pending, self.drawn, self.need, self.partial = None, [], None, []
        self._record()

    def _start_script(self) -> list[ChanceOutcome]:
        """The outcomes drawn so far that start the game. Under ``seating=roll`` the seats'
        rolls may tie again and again, a chance tree without end; the order they give is
        uniform over the orders of play, so it is drawn as one order, seat by seat, and the
        engine is shown rolls that give that order (:func:`seating_rolls`)."""
        rules = self.spec.rules
        if rules.seating is not Seating.ROLL:
            return self.drawn
        if not self.drawn:
            raise _NeedChance("order", self.spec.num_players())
        order, *deals = self.drawn
        rolls = seating_rolls(order.values, rules.faces)
        return [ChanceOutcome("roll", values) for values in rolls] + deals

    def legal_ids(self) -> list[int]:
        if self.legal is None:
            self.legal = [] if self.turns is None or self.need else self.turns.legal_ids()
        return self.legal

    def _record(self) -> None:
        """Log the new public events, and each player's view of the dice where it changed."""
        game = self.game
        assert game is not None
        # What anyone sees of the dice changes only with chance (a deal, a re-roll), the
        # obliger's open/closed choice or the end of the game; bids and calls between them
        # change nothing there, and building every player's view is most of a step's time.
        key = (len(game.chance_log), game.phase, game.visibility, game.round_number)
        if key == self.seen_key:
            return
        self.seen_key = key
        for player, seen in enumerate(self.seen):
            view = game.view(player)
            text = f"{_hand(view.my_dice)} / " + " ".join(_hand(h) for h in view.seen_dice)
            if not seen or seen[-1].partition(": ")[2] != text:
                seen.append(f"at event {len(game.events)}: {text}")

    def chance_outcomes(self) -> list[tuple[int, float]]:
        need = self.need
        assert need is not None
        if need.kind == "roll":
            faces = self.spec.rules.faces
            return [(face, 1.0 / faces) for face in range(faces)]
        left = [seat for seat in range(need.size) if seat not in self.partial]
        return [(seat, 1.0 / len(left)) for seat in left]

    def apply_chance(self, outcome: int) -> None:
        need = self.need
        assert need is not None
        if need.kind == "roll":
            self.partial.append(outcome + 1)
            if len(self.partial) < need.size:
                return
            self.drawn.append(ChanceOutcome("roll", tuple(self.partial)))
        else:
            self.partial.append(outcome)
            if len(self.partial) < need.size - 1:
                return
            last = next(s for s in range(need.size) if s not in self.partial)
            self.drawn.append(ChanceOutcome("order", (*self.partial, last)))
        self.advance()


def _hand(dice: tuple[int, ...] | None) -> str:
    if dice is None:
        return "?"
    return "".join(str(d) for d in dice) or "-"


class DudoState(pyspiel.State):  # type: ignore[misc]
    """A position of ``python_dudo``: a chance node while dice are drawn, else one decider."""

    def __init__(self, game: DudoGame) -> None:
        super().__init__(game)
        self.core = game.initial_core()

    def current_player(self) -> int:
        core = self.core
        if core.need is not None:
            return int(pyspiel.PlayerId.CHANCE)
        assert core.turns is not None
        actor = core.turns.actor
        return int(pyspiel.PlayerId.TERMINAL) if actor is None else actor

    def _legal_actions(self, player: int) -> list[int]:
        core = self.core
        if core.need is not None or core.turns is None or core.turns.actor != player:
            return []
        return list(core.legal_ids())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.core.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        core = self.core
        if core.need is not None:
            core.apply_chance(int(action))
            return
        assert core.turns is not None
        core.pending, core.drawn = int(action), []
        try:
            core.advance()
        except DudoError:
            core.pending = None
            raise

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            need = self.core.need
            if need is not None and need.kind == "order":
                return f"seat player {action}"
            return f"roll {action + 1}"
        return self.core.spec.encoding.name(action)

    def is_terminal(self) -> bool:
        core = self.core
        return core.need is None and core.turns is not None and core.turns.finished

    def returns(self) -> list[float]:
        game = self.core.game
        players = self.core.spec.num_players()
        if game is None or game.winner is None:
            return [0.0] * players
        loss = -1.0 / (players - 1)
        return [1.0 if p == game.winner else loss for p in range(players)]

    def __str__(self) -> str:
        game = self.core.game
        if game is None:
            return "seating and first deal being drawn"
        hands = " | ".join(_hand(game.hand(p)) for p in range(game.players))
        return f"{game!r} hands {hands}"


class DudoObserver:
    """OpenSpiel's observer for ``python_dudo``: tensors and strings from views only."""

    def __init__(self, game: DudoGame, iig_obs_type: Any) -> None:
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        # The information state holds the whole round; an observation its last actions.
        self.layout = game.info_layout if self.perfect_recall else game.layout
        self.public_only = iig_obs_type.private_info == pyspiel.PrivateInfoType.NONE
        if iig_obs_type.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("python_dudo has no observer that sees every player's dice")
        size = 0 if self.public_only else self.layout.size + 2
        self.tensor = np.zeros(size, np.float32)
        self.dict: dict[str, Any] = {}
        if size:
            self.dict = {
                "view": self.tensor[: self.layout.size],
                "deciding": self.tensor[self.layout.size :],
            }

    def _view(self, state: DudoState, player: int) -> PlayerView | None:
        game = state.core.game
        if game is None:
            return None
        return game.view(None if self.public_only else player)

    def set_from(self, state: DudoState, player: int) -> None:
        self.tensor.fill(0.0)
        view = self._view(state, player)
        if view is None or not self.dict:
            return
        self.dict["view"][:] = self.layout.encode(view)
        turns = state.core.turns
        if state.core.need is None and turns is not None and turns.actor == player:
            self.dict["deciding"][1 if turns.polling else 0] = 1.0

    def string_from(self, state: DudoState, player: int) -> str:
        key = (self.perfect_recall, player if not self.public_only else -1)
        text = state.core.strings.get(key)
        if text is None:
            text = state.core.strings[key] = self._string(state, player)
        return text

    def _string(self, state: DudoState, player: int) -> str:
        core = state.core
        if self.perfect_recall:
            return self._history(state, player)
        view = self._view(state, player)
        if view is None:
            return "seating and first deal being drawn"
        text = view_text(view)
        turns = core.turns
        if core.need is None and turns is not None and turns.polling:
            text += f"\n  out-of-turn poll: player {turns.actor} calls or not"
        return text

    def _history(self, state: DudoState, player: int) -> str:
        core = state.core
        lines = [f"player {player}"] if not self.public_only else ["public"]
        game = core.game
        if game is not None:  # (the texts are made only when a string is asked for)
            lines.extend(str(e) for e in game.events)
        if core.turns is not None:
            lines.extend(f"at event {n}: player {p} does not call" for n, p in core.turns.declined)
        if not self.public_only:
            lines.extend(core.seen[player])
        return "\n".join(lines)


pyspiel.register_game(_GAME_TYPE, DudoGame)


def load_game(
    preset: str = "dudo",
    players: int = 2,
    settings: str = "",
    *,
    dice_per_player: int = 0,
    max_rounds: int = MAX_ROUNDS,
) -> Any:
    """``pyspiel.load_game("python_dudo", ...)`` with these parameters."""
    return pyspiel.load_game(
        GAME_NAME,
        {
            "preset": preset,
            "players": players,
            "settings": settings,
            "dice_per_player": dice_per_player,
            "max_rounds": max_rounds,
        },
    )
