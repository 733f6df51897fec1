"""Property tests of the rules engine: random rules, random tables, random legal play.

Strategies draw a preset, any combination of option overrides from docs/rules.md section 2
(impossible combinations raise ``RulesError``, whose message must name an option, and are
assumed away), a player count within the rules' limits, a dice seed and a seed for the
player who picks among *all* legal actions (out-of-turn cruzado calls included). A failing
example is printed by Hypothesis; the note attached to it is Python that replays the game.
"""

from __future__ import annotations

import dataclasses
import os
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, event, example, given, note, settings
from hypothesis import strategies as st

from dudo.engine import (
    CALL,
    CLOSED,
    DOUBT_PASS,
    OPEN,
    OPTION_NAMES,
    PASS,
    PRESETS,
    SPOT_ON,
    Action,
    Bid,
    BidMade,
    Call,
    Called,
    DiceLost,
    DieWon,
    Eliminated,
    Event,
    Game,
    GameOver,
    IllegalActionError,
    PassDoubted,
    PassHand,
    PlayerView,
    RevealBid,
    Revealed,
    RoundStarted,
    Rules,
    RulesError,
    ScriptedChance,
    SpotOnClaimed,
    preset,
)
from dudo.engine.bids import NOT_A_RAISE, RaiseContext, raise_problem
from dudo.engine.rules import (
    AcesFrom,
    AcesRank,
    AcesTo,
    Direction,
    Loss,
    NextOpener,
    ObligeFaceChange,
    ObligeVisibility,
    OpenOnAces,
    RaiseMode,
    Seating,
    SpotOnReward,
    SpotOnThreshold,
)

# Examples per property; raise DUDO_PROPERTY_SCALE (e.g. 20) for a long fuzzing run.
SCALE = float(os.environ.get("DUDO_PROPERTY_SCALE", "1"))
MAX_ACTIONS = 5000  # a whole game; random legal play ends far sooner
MAX_PLAYERS = 8

# --- strategies ----------------------------------------------------------------------------------

OPTION_VALUES: dict[str, st.SearchStrategy[Any]] = {
    "aces_wild": st.booleans(),
    "wild_needs_natural": st.booleans(),
    "raise_mode": st.sampled_from(RaiseMode),
    "aces_rank": st.sampled_from(AcesRank),
    "aces_to": st.sampled_from(AcesTo),
    "aces_from": st.sampled_from(AcesFrom),
    "open_on_aces": st.sampled_from(OpenOnAces),
    "loss": st.sampled_from(Loss),
    "cruzado": st.booleans(),
    "spot_on": st.booleans(),
    "spot_on_reward": st.sampled_from(SpotOnReward),
    "spot_on_threshold": st.sampled_from(SpotOnThreshold),
    "spot_on_min_players": st.sampled_from([2, 3]),
    "pass_hands": st.frozensets(st.sampled_from(PassHand)),
    "pass_min_players": st.sampled_from([2, 3]),
    "pass_allows_spot_on": st.booleans(),
    "oblige": st.booleans(),
    "oblige_min_players": st.sampled_from([2, 3]),
    "oblige_face_change": st.sampled_from(ObligeFaceChange),
    "oblige_visibility": st.sampled_from(ObligeVisibility),
    "reveal_reroll": st.booleans(),
    "seating": st.sampled_from(Seating),
    "direction": st.sampled_from(Direction),
    "next_opener": st.sampled_from(NextOpener),
    "min_players": st.integers(2, 4),
    "max_players": st.none() | st.integers(2, MAX_PLAYERS),
    "faces": st.integers(2, 6),
    "dice_per_player": st.integers(1, 5),
}

# The variants every preset leaves off, with the odds (1 in n) of switching each on.
VARIANTS: tuple[tuple[str, Any, int], ...] = (
    ("cruzado", True, 2),
    ("reveal_reroll", True, 3),
    ("loss", Loss.DIFFERENCE, 4),
    ("direction", Direction.COUNTERCLOCKWISE, 4),
    ("next_opener", NextOpener.WINNER, 4),
)

# Values that are never valid, one per option (type or range errors).
BAD_VALUES: dict[str, Any] = {
    **{name: "sideways" for name in OPTION_NAMES},
    "spot_on_min_players": 4,
    "pass_min_players": 1,
    "oblige_min_players": 5,
    "min_players": 1,
    "max_players": "many",
    "faces": 7,
    "dice_per_player": 0,
    "pass_hands": "royal_flush",
}


def as_text(name: str, value: Any) -> str:
    """The value as a player would type it in a house-rule setting."""
    if isinstance(value, frozenset):
        return ",".join(sorted(str(v) for v in value)) or "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return "none" if value is None else str(value)


@st.composite
def overrides(draw: st.DrawFn) -> dict[str, Any]:
    """Any combination of option overrides: each option is changed with a drawn probability
    (0 to 70%), to a drawn valid value, given typed or as text."""
    level = draw(st.integers(0, 7))
    values = {
        name: draw(OPTION_VALUES[name])
        for name in OPTION_NAMES
        if draw(st.integers(0, 9)) >= 10 - level
    }
    # The variants every preset leaves off come up more often than that.
    for name, value, odds in VARIANTS:
        if draw(st.integers(1, odds)) == odds:
            values[name] = value
    if draw(st.booleans()):
        return {name: as_text(name, value) for name, value in values.items()}
    return values


def check_rules_error(error: RulesError, changed: dict[str, Any]) -> None:
    """A refused option set says which option is wrong: one of those that were changed."""
    message = str(error)
    named = [name for name in OPTION_NAMES if name in message]
    assert named, message
    assert any(name in message for name in changed), (message, changed)


@dataclass(frozen=True)
class Table:
    preset: str
    options: dict[str, Any]
    rules: Rules
    players: int
    seed: int

    def game(self) -> Game:
        return Game(self.rules, self.players, seed=self.seed)

    def repro(self, g: Game, scripted: bool = False) -> str:
        """Python that rebuilds ``g``: from the seed, or (``scripted``) from its chance log."""
        actions = ", ".join(repr(a) for _, a in g.history)
        options = {name: as_text(name, value) for name, value in self.options.items()}
        chance = f"chance=ScriptedChance({g.chance_log!r})" if scripted else f"seed={self.seed}"
        return (
            f"rules = preset({self.preset!r}).with_options(**{options!r})\n"
            f"g = Game(rules, {self.players}, {chance})\n"
            f"for a in [{actions}]:\n    g.push(a)"
        )


@st.composite
def tables(draw: st.DrawFn, max_players: int = MAX_PLAYERS) -> Table:
    name = draw(st.sampled_from(sorted(PRESETS)))
    options = draw(overrides())
    try:
        rules = preset(name).with_options(**options)
    except RulesError as error:
        check_rules_error(error, options)
        assume(False)
        raise AssertionError("unreachable") from error
    top = min(max_players, rules.max_players if rules.max_players is not None else max_players)
    assume(rules.min_players <= top)
    players = draw(st.integers(rules.min_players, top))
    seed = draw(st.integers(0, 2**32 - 1))
    return Table(name, options, rules, players, seed)


# --- playing -------------------------------------------------------------------------------------


def choose(g: Game, rng: random.Random, low_bias: float) -> tuple[int, Action]:
    """A random legal action of anyone; with probability ``low_bias`` the lowest legal bid
    (long rounds)."""
    every = g.all_legal_actions()
    assert every, "a game that is not over always has a legal action"
    if rng.random() < low_bias:
        bids = [(p, a) for p, a in every if isinstance(a, Bid)]
        if bids:
            return bids[0]
    return rng.choice(every)


StepCheck = Callable[[Game, int, Action, tuple[int, ...], tuple[Event, ...]], None]


def play(
    g: Game,
    rng: random.Random,
    low_bias: float,
    check: StepCheck | None = None,
    probe: Callable[[Game], None] | None = None,
) -> None:
    """Random legal play to the end of the game, with a check after every action and a
    probe (of the position before an action) where ``rng`` says so."""
    round_actions = 0
    bound = round_bound(g)
    while not g.is_over:
        assert len(g.history) < MAX_ACTIONS, "the game did not end"
        if probe is not None:
            probe(g)
        player, action = choose(g, rng, low_bias)
        before = g.counts
        events = g.push(action)
        assert g.history[-1] == (player, action)
        round_actions += 1
        assert round_actions <= bound, f"round {g.round_number} exceeds {bound} actions"
        if any(isinstance(e, RoundStarted) for e in events):
            round_actions, bound = 0, round_bound(g)
        if check is not None:
            check(g, player, action, before, events)


def round_bound(g: Game) -> int:
    """Most actions a round can take: the obliger's open/closed choice, a strictly rising
    chain of bids (plus one non-rising bid after a free_transform opening), at most one
    pass per player, and the action that ends it."""
    bids = g.dice_in_play * g.rules.faces
    return 1 + (bids + 1) + g.players + 1


# --- checks --------------------------------------------------------------------------------------


def check_dice(
    g: Game, player: int, action: Action, before: tuple[int, ...], events: tuple[Event, ...]
) -> None:
    """Dice counts change only through DiceLost and DieWon events, a die is won only by a
    right spot-on with ``gain`` or a right out-of-turn cruzado call, and no hand exceeds
    dice_per_player or goes below zero."""
    rules = g.rules
    after = g.counts
    lost: Counter[int] = Counter()
    won: Counter[int] = Counter()
    for e in events:
        if isinstance(e, DiceLost):
            lost[e.player] += e.count
            assert e.remaining == before[e.player] - lost[e.player]
            assert e.count >= 1
        elif isinstance(e, DieWon):
            won[e.player] += 1
    for p in range(g.players):
        assert 0 <= after[p] <= rules.dice_per_player, (p, after)
        assert after[p] == before[p] - lost[p] + won[p], (p, before, after, events)
        assert won[p] <= 1
        if after[p] > before[p]:
            assert won[p] == 1
    if won:
        assert len(won) == 1
        (winner,) = won
        assert winner == player
        reveal = next(e for e in events if isinstance(e, Revealed))
        assert reveal.bid is not None and reveal.count is not None
        claims = [e for e in events if isinstance(e, SpotOnClaimed)]
        calls = [e for e in events if isinstance(e, Called)]
        if claims:
            assert claims[0].player == winner and rules.spot_on_reward is SpotOnReward.GAIN
            assert reveal.count == reveal.bid.quantity
        else:
            assert calls and calls[0].player == winner and calls[0].out_of_turn and rules.cruzado
            assert reveal.count < reveal.bid.quantity
        assert before[winner] < rules.dice_per_player
        won_event = next(e for e in events if isinstance(e, DieWon))
        assert won_event.remaining == after[winner]
    # Conversely: where a rule grants a die and there is room, it is granted.
    for e in events:
        if isinstance(e, SpotOnClaimed):
            reveal = next(r for r in events if isinstance(r, Revealed))
            right = reveal.count == e.bid.quantity
            if right and rules.spot_on_reward is SpotOnReward.GAIN:
                assert won[e.player] == (1 if before[e.player] < rules.dice_per_player else 0)
            if not right:
                assert lost == Counter({e.player: 1})  # a wrong spot-on costs exactly one die
            else:
                assert not lost
        if isinstance(e, Called):
            reveal = next(r for r in events if isinstance(r, Revealed))
            assert reveal.count is not None
            loser = e.bidder if reveal.count < e.bid.quantity else e.player
            due = 1 if rules.loss is Loss.ONE else max(1, abs(reveal.count - e.bid.quantity))
            assert lost == Counter({loser: min(due, before[loser])})
            if e.out_of_turn and loser == e.bidder and before[e.player] < rules.dice_per_player:
                assert won[e.player] == 1
        if isinstance(e, PassDoubted):
            assert sum(lost.values()) == 1
        if isinstance(e, Eliminated):
            assert after[e.player] == 0
    for p in range(g.players):
        if before[p] and not after[p]:
            assert any(isinstance(e, Eliminated) and e.player == p for e in events)


def check_views(g: Game) -> None:
    """Each view shows exactly what that viewer may see, and the viewer's legal actions."""
    open_round = g.visibility is not None and str(g.visibility) == "open"
    closed_round = g.visibility is not None and str(g.visibility) == "closed"
    bidding = str(g.phase) == "bidding"
    spectator = g.view(None)
    for viewer in [None, *range(g.players)]:
        v = g.view(viewer)
        assert v.viewer == viewer
        # What depends on the viewer is their ViewerPart: the rest is everyone's, the
        # moment's PublicPart, and the two make the view.
        part = g.viewer_part(viewer)._asdict()
        assert dataclasses.replace(spectator, **part) == v
        assert PlayerView(**g.public_part()._asdict(), **part) == v
        assert v.dice_counts == g.counts
        assert list(v.events) == g.events  # the event log is public
        if viewer is None or g.is_over:
            assert v.legal_actions == ()
        else:
            assert list(v.legal_actions) == g.legal_actions(viewer)
            # The list is the caller's own: changing it changes no later answer or view.
            mine = g.legal_actions(viewer)
            mine.append(PASS)
            mine.remove(mine[0])
            assert (
                g.legal_actions(viewer)
                == list(v.legal_actions)
                == list(g.view(viewer).legal_actions)
            )
        if viewer is None:
            assert v.my_dice is None
        for q in range(g.players):
            seen = v.seen_dice[q]
            hidden, aside = g.hidden[q], g.set_aside[q]
            if viewer is None or not g.counts[viewer]:
                # A spectator, or a player who is out, never sees hidden dice.
                expect_hidden = False
            elif q == viewer:
                expect_hidden = bidding and (
                    not (open_round or closed_round) or (closed_round and g.counts[q] == 1)
                )
            else:  # another player's hidden dice: only in an open obliging round
                expect_hidden = bidding and open_round
            expect_hidden = expect_hidden and g.counts[q] > 0
            if not g.counts[q]:
                assert not seen, (viewer, q, seen)  # no dice, nothing to see
            elif expect_hidden:
                assert seen == hidden + aside, (viewer, q, seen)
            elif aside:
                assert seen == aside, (viewer, q, seen)
            else:
                assert seen is None, (viewer, q, seen, g.visibility)
            assert seen is None or len(seen) <= g.counts[q]
            if viewer is not None and q == viewer:
                assert v.my_dice == (hidden if expect_hidden else None)
        assert v.unknown_count == g.dice_in_play - len(v.known_dice)


def check_game_over(g: Game) -> None:
    assert g.is_over and g.winner is not None
    holding = [p for p in range(g.players) if g.counts[p]]
    assert holding == [g.winner]
    assert g.events[-1] == GameOver(g.winner)
    assert sum(isinstance(e, GameOver) for e in g.events) == 1
    assert g.legal_actions() == [] and g.all_legal_actions() == []
    for action in (Bid(1, 2), CALL, SPOT_ON, PASS, DOUBT_PASS, OPEN):
        with pytest.raises(IllegalActionError):
            g.push(action)
    assert g.view(None).is_over and g.view(g.winner).winner == g.winner
    # Every player has one place: the winner first, the first eliminated last.
    order = g.finishing_order()
    assert sorted(order) == list(range(g.players)) and order[0] == g.winner
    out = [e.player for e in g.events if isinstance(e, Eliminated)]
    assert list(order[1 : len(out) + 1]) == out[::-1]


def tag(g: Game) -> None:
    """Tell Hypothesis' statistics which rules came up (pytest --hypothesis-show-statistics)."""
    kinds = {type(e).__name__ for e in g.events}
    if any(isinstance(e, Called) and e.out_of_turn for e in g.events):
        kinds.add("out-of-turn call")
    if any(isinstance(e, BidMade) and e.revealed for e in g.events):
        kinds.add("reveal-and-reroll")
    for kind in sorted(kinds):
        event(kind)
    event(f"{g.players} players")


def replay(table: Table, history: Sequence[tuple[int, Action]], game: Game | None = None) -> Game:
    g = game if game is not None else table.game()
    for player, action in history:
        g.push(action)
        assert g.history[-1][0] == player
    return g


# --- properties ----------------------------------------------------------------------------------


@settings(max_examples=int(300 * SCALE), deadline=None)
@given(name=st.sampled_from(sorted(PRESETS)), options=overrides())
def test_option_sets_are_valid_or_refused_with_the_option_named(
    name: str, options: dict[str, Any]
) -> None:
    try:
        rules = preset(name).with_options(**options)
    except RulesError as error:
        check_rules_error(error, options)
        return
    for key, value in options.items():
        given_as = value if isinstance(value, str) else as_text(key, value)
        assert as_text(key, getattr(rules, key)) == given_as, key
    assert preset(name).with_options(**rules.to_dict()) == rules  # the record form round-trips


@pytest.mark.parametrize("name", OPTION_NAMES)
def test_a_bad_option_value_names_the_option(name: str) -> None:
    with pytest.raises(RulesError, match=name):
        preset("dudo").with_options(**{name: BAD_VALUES[name]})


def test_every_rule_option_is_drawn() -> None:
    assert set(OPTION_VALUES) == set(OPTION_NAMES)


@settings(
    max_examples=int(60 * SCALE), deadline=None, suppress_health_check=[HealthCheck.filter_too_much]
)
@given(
    table=tables(),
    chooser=st.integers(0, 2**32 - 1),
    low_bias=st.sampled_from([0.0, 0.5, 0.75]),
)
# Found by this property: the loser's set-aside dice stayed in every view after game over.
@example(
    table=Table(
        "cacho",
        {"loss": "difference", "reveal_reroll": "yes"},
        preset("cacho", loss="difference", reveal_reroll=True),
        players=2,
        seed=1,
    ),
    chooser=0,
    low_bias=0.0,
)
def test_random_play_ends_and_keeps_every_invariant(
    table: Table, chooser: int, low_bias: float
) -> None:
    """Random legal play never crashes and ends with one winner; dice move only by the rules;
    every round is bounded; views never leak; replaying the actions gives the same game."""
    g = table.game()
    try:
        check_views(g)

        def step(
            g: Game, p: int, a: Action, before: tuple[int, ...], ev: tuple[Event, ...]
        ) -> None:
            check_dice(g, p, a, before, ev)
            # Views after every action where dice are or were just visible in a special way
            # (obliging rounds, set-aside dice, round ends), else after every third action.
            special = g.obliging or any(g.set_aside) or g.is_over
            if special or len(g.history) % 3 == 0 or any(isinstance(e, RoundStarted) for e in ev):
                check_views(g)

        play(g, random.Random(chooser), low_bias, check=step)
        check_game_over(g)
        tag(g)
        # Same seed, same actions: the same game (no record needed).
        twin = replay(table, g.history)
        assert twin.events == g.events
        assert twin.chance_log == g.chance_log
        assert twin.view(None) == g.view(None)
        # The dice drawn, replayed as scripted chance: the same game again.
        scripted = Game(table.rules, table.players, chance=ScriptedChance(g.chance_log))
        assert replay(table, g.history, scripted).events == g.events
    finally:
        note(table.repro(g))


# Candidate actions for the illegal-action property.
def candidates(g: Game, rng: random.Random) -> list[Action]:
    faces, dice = g.rules.faces, g.dice_in_play
    out: list[Action] = [Bid(q, f) for q in range(dice + 2) for f in range(faces + 2)]
    out += [CALL, SPOT_ON, PASS, DOUBT_PASS, OPEN, CLOSED]
    out += [Call(by=k) for k in range(-1, g.players + 1)]
    legal = g.legal_actions()
    out += [a for a in legal if isinstance(a, RevealBid)]
    hidden = g.hidden[g.to_move]
    some_bids = [a for a in legal if isinstance(a, Bid)]
    some_bids = rng.sample(some_bids, min(6, len(some_bids)))
    some_bids += [Bid(rng.randint(0, dice + 1), rng.randint(0, faces + 1)) for _ in range(3)]
    for bid in some_bids:
        f = bid.face
        reveals: list[tuple[int, ...]] = [(), (f,), (1,), (f, f), (1, f), hidden, hidden[1:]]
        reveals += [(v,) for v in range(1, faces + 1) if v not in (1, f)][:1]
        reveals += [tuple(sorted(rng.sample(hidden, k))) for k in range(1, len(hidden) + 1)]
        out += [RevealBid(bid, r) for r in reveals]
    return list(dict.fromkeys(out))


def expected_legal(g: Game, action: Action) -> bool:
    if isinstance(action, Call) and action.by is not None and action.by != g.to_move:
        return action in g.legal_actions(action.by)
    if isinstance(action, Call):  # Call(by=to_move) is the ordinary in-turn call
        return CALL in g.legal_actions()
    return action in g.legal_actions()


def internal(g: Game) -> dict[str, Any]:
    """Every attribute of the game (what views are computed from), by value; not the events
    as views share them, a copy made when a view is first asked for."""
    names: Sequence[str] = getattr(type(g), "__slots__", None) or list(vars(g))
    values = {
        name: getattr(g, name) for name in names if hasattr(g, name) and name != "_events_frozen"
    }
    return {k: (list(v) if isinstance(v, list) else v) for k, v in values.items()}


def fingerprint(g: Game) -> tuple[object, ...]:
    """What anyone may observe: every player's view, the spectator's, counts, events, history."""
    views = tuple(g.view(v) for v in [None, *range(g.players)])
    return (
        views,
        g.counts,
        g.hidden,
        g.set_aside,
        tuple(g.events),
        tuple(g.history),
        tuple(g.chance_log),
        tuple(g.all_legal_actions()),
    )


def probe_actions(g: Game, rng: random.Random) -> None:
    """Every candidate is accepted iff it is legal; a rejected push changes nothing and an
    accepted push is undone exactly by pop()."""
    before_view = fingerprint(g)
    before = internal(g)
    every = set(g.all_legal_actions())
    # all_legal_actions = the mover's actions + cruzado calls of other seats.
    assert every == {(g.to_move, a) for a in g.legal_actions()} | {
        (k, a) for k in range(g.players) if k != g.to_move for a in g.legal_actions(k)
    }
    for k in range(-2, g.players + 2):
        if k != g.to_move:
            assert g.legal_actions(k) in ([], [Call(by=k)])
    if not g.is_over:  # the remembered tuples of the hot paths: the plain way's, in its order
        assert g.legal_actions() == g._mover_actions()
    for action in candidates(g, rng):
        legal = expected_legal(g, action)
        assert (g.problem(action) is None) == legal, (action, g.problem(action))
        if legal:
            mover = action.by if isinstance(action, Call) and action.by is not None else g.to_move
            g.push(action)
            # After a pop and another push the events have the same length as those of a
            # view before: a view must still show the new ones.
            assert g.view(None).events == tuple(g.events)
            assert g.pop() == (mover, action)
        else:
            with pytest.raises(IllegalActionError):
                g.push(action)
        assert internal(g) == before, action
        if rng.random() < 0.05:
            assert fingerprint(g) == before_view, action
    assert fingerprint(g) == before_view


def probe_push_pop(g: Game, rng: random.Random) -> None:
    """A random run of legal actions (across rounds), then as many pops: the same state."""
    before_view = fingerprint(g)
    before = internal(g)
    pushed = []
    for _ in range(rng.randint(1, 25)):
        if g.is_over:
            break
        pushed.append(choose(g, rng, 0.3))
        g.push(pushed[-1][1])
    for player, action in reversed(pushed):
        assert g.pop() == (player, action)
    assert internal(g) == before
    assert fingerprint(g) == before_view


@settings(
    max_examples=int(60 * SCALE), deadline=None, suppress_health_check=[HealthCheck.filter_too_much]
)
@given(
    table=tables(max_players=5),
    chooser=st.integers(0, 2**32 - 1),
    probes=st.integers(1, 6),
)
def test_illegal_actions_are_refused_and_pop_undoes_push(
    table: Table, chooser: int, probes: int
) -> None:
    rng = random.Random(chooser)
    g = table.game()
    # About ``probes`` probes spread over the game (a game takes a few actions per die).
    rate = probes / (4 * g.dice_in_play)
    done: list[int] = []

    def probe(g: Game) -> None:
        if len(done) < 2 * probes and rng.random() < rate:
            done.append(len(g.history))
            probe_actions(g, rng)
            probe_push_pop(g, rng)

    try:
        probe_actions(g, rng)
        play(g, rng, 0.3, probe=probe)
        probe_actions(g, rng)  # game over: nothing is legal
        tag(g)
        # Probing drew extra dice, but the chance log holds the dice actually used.
        scripted = Game(table.rules, table.players, chance=ScriptedChance(g.chance_log))
        assert replay(table, g.history, scripted).events == g.events
    finally:
        note(table.repro(g, scripted=True))  # probing drew dice that the game did not use


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_raise_problem_without_explaining_refuses_the_same_bids(name: str) -> None:
    """Listing raises asks raise_problem not to explain (NOT_A_RAISE for every refusal): it
    must refuse exactly the bids it refuses when it explains, in every context."""
    rules = PRESETS[name]
    bids = [Bid(q, f) for q in range(1, 9) for f in range(1, rules.faces + 1)]
    for context in RaiseContext:
        for obliging in (False, True):
            for standing in bids:
                for new in bids:
                    found = raise_problem(rules, context, standing, new, obliging)
                    quick = raise_problem(rules, context, standing, new, obliging, explain=False)
                    assert (quick is None) == (found is None), (context, standing, new)
                    assert quick is None or quick is NOT_A_RAISE
