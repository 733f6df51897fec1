"""The action encoding, the observation vector and the out-of-turn polls: ids round-trip,
masks are exactly the view's legal actions over random games, and an observation never
holds what the view hides."""

from __future__ import annotations

import itertools
import random
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dudo.engine import (
    CALL,
    CLOSED,
    DOUBT_PASS,
    OPEN,
    PASS,
    PRESETS,
    SPOT_ON,
    Bid,
    Call,
    Game,
    IllegalActionError,
    RevealBid,
    preset,
)
from dudo.engine.encoding import Choice, NoCall
from dudo.engine.errors import DudoError, RulesError
from dudo.research import (
    NO_CALL,
    ActionEncoding,
    MissingExtraError,
    ObservationLayout,
    Turns,
    require,
    resolve_rules,
)

HOUSE_RULES = (
    "",
    "cruzado=true",
    "reveal_reroll=true",
    "cruzado=true reveal_reroll=true loss=difference",
    "spot_on_reward=cancel next_opener=winner",
    "direction=counterclockwise oblige_visibility=closed",
)


def test_the_layout_of_ids() -> None:
    rules = preset("dudo", reveal_reroll=True)
    enc = ActionEncoding(rules, 3)
    assert enc.max_quantity == 15 and enc.num_bids == 90
    assert enc.id(Bid(1, 1)) == 0 and enc.id(Bid(1, 6)) == 5 and enc.id(Bid(2, 1)) == 6
    assert enc.id(Bid(15, 6)) == 89
    specials: list[Choice] = [CALL, SPOT_ON, PASS, DOUBT_PASS, OPEN, CLOSED, NO_CALL]
    assert [enc.id(a) for a in specials] == list(range(90, 97))
    assert enc.id(Call(by=2)) == enc.call_id
    # (aces, naturals) pairs with 1..4 dice: 2 + 3 + 4 + 5 of them.
    assert len(enc.reveal_pairs) == 14
    assert enc.size == 97 + 90 * 14
    first = enc.reveal_start
    assert enc.action(first) == RevealBid(Bid(1, 1), (1,))
    assert enc.id(RevealBid(Bid(4, 3), (3, 1, 3))) == first + enc.id(Bid(4, 3)) * 14 + 6
    assert enc.name(enc.id(Bid(4, 3))) == "4x3"
    # Without reveal-and-reroll there is no reveal block.
    assert ActionEncoding(preset("dudo"), 3).size == 97


@pytest.mark.parametrize("name", ["dudo", "liars-dice"])
@pytest.mark.parametrize("players", [2, 5])
def test_every_id_round_trips(name: str, players: int) -> None:
    enc = ActionEncoding(preset(name, reveal_reroll=True), players)
    unused = 0
    for action_id in range(enc.size):
        try:
            choice = enc.action(action_id)
        except DudoError as error:
            assert "unused" in str(error)
            unused += 1
            continue
        assert enc.id(choice) == action_id
    # Bids on aces have no (aces > 0) reveals: 10 of the 14 pairs, for each quantity.
    assert unused == enc.max_quantity * 10


def test_bad_ids_and_actions_are_refused() -> None:
    enc = ActionEncoding(preset("dudo"), 2)
    with pytest.raises(DudoError, match=r"outside 0\.\.66"):
        enc.action(67)
    with pytest.raises(DudoError, match="outside"):
        enc.id(Bid(11, 2))
    with pytest.raises(DudoError, match="reveal_reroll=false"):
        enc.id(RevealBid(Bid(3, 2), (2,)))
    with pytest.raises(DudoError, match="players"):
        ActionEncoding(preset("dudo"), 1)


def test_settings_text_and_rules_values() -> None:
    rules = resolve_rules("dudo", "cruzado=true; pass_hands=full_house,five_kind")
    assert rules.cruzado and len(rules.pass_hands) == 2
    assert resolve_rules(rules, ["cruzado=false"]).cruzado is False
    assert resolve_rules(rules) is rules
    with pytest.raises(RulesError, match="unknown option"):
        resolve_rules("dudo", "bogus=1")


def _check_position(turns: Turns) -> None:
    """The decider's legal ids are exactly its view's legal actions (plus no-call in a
    poll), and each decodes to the action it stands for."""
    game, enc = turns.game, turns.encoding
    actor = turns.actor
    assert actor is not None
    view = game.view(actor)
    ids = turns.legal_ids()
    assert len(set(ids)) == len(ids)
    mask = enc.mask(view, polled=turns.polling)
    assert set(np.flatnonzero(mask).tolist()) == set(ids)
    decoded = {turns.choice(i) for i in ids}
    expected: set[object] = set(view.legal_actions)
    if turns.polling:
        assert view.legal_actions == (Call(by=actor),)
        expected.add(NO_CALL)
    else:
        assert actor == game.to_move
    assert decoded == expected
    assert len(ids) == len(expected)  # distinct actions get distinct ids


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    name=st.sampled_from(sorted(PRESETS)),
    players=st.integers(2, 6),
    house=st.sampled_from(HOUSE_RULES),
    seed=st.integers(0, 2**32),
)
def test_masks_are_the_legal_actions_over_random_games(
    name: str, players: int, house: str, seed: int
) -> None:
    rules = resolve_rules(name, house)
    if rules.max_players is not None and players > rules.max_players:
        players = rules.max_players
    turns = Turns(Game(rules, players, seed=seed), ActionEncoding(rules, players), max_rounds=60)
    layout = ObservationLayout(rules, players)
    rng = random.Random(seed)
    steps = 0
    while turns.actor is not None and steps < 400:
        _check_position(turns)
        vector = layout.encode(turns.game.view(turns.actor))
        assert vector.shape == (layout.size,) and vector.dtype == np.float32
        assert vector.min() >= 0.0 and vector.max() <= 1.0
        turns.apply(rng.choice(turns.legal_ids()))
        steps += 1
    assert turns.game.is_over or turns.capped or steps == 400


def test_cruzado_polls_every_seat_that_may_call_then_the_mover() -> None:
    rules = preset("dudo", cruzado=True, seating="fixed")
    turns = Turns(
        Game.with_hands(rules, [(2, 2), (3, 3), (4, 4), (5, 5)]), ActionEncoding(rules, 4)
    )
    enc = turns.encoding
    assert turns.actor == 0 and not turns.polling  # no bid yet, nobody to poll
    turns.apply(enc.id(Bid(1, 2)))
    # Seats 2 and 3 may call out of turn (1 is to move, 0 made the bid).
    assert turns.polls == [2, 3] and turns.actor == 2 and turns.polling
    assert turns.legal_ids() == [enc.call_id, enc.no_call_id]
    turns.apply(enc.no_call_id)
    assert turns.actor == 3
    with pytest.raises(IllegalActionError, match="out-of-turn"):
        turns.apply(enc.id(Bid(2, 2)))
    turns.apply(enc.no_call_id)
    assert turns.actor == 1 and not turns.polling
    assert turns.declined == [(len(turns.game.events), 2), (len(turns.game.events), 3)]
    with pytest.raises(IllegalActionError, match="no-call answers"):
        turns.apply(enc.no_call_id)
    turns.apply(enc.id(Bid(5, 2)))  # there are two 2s: 5x2 is false
    assert turns.polls == [0, 3]
    turns.apply(enc.call_id)  # seat 0 calls out of turn, and is right
    game = turns.game
    assert game.history[-1] == (0, Call(by=0))
    assert game.counts == (3, 1, 2, 2)  # the bidder lost a die, the out-of-turn caller won one
    assert game.round_number == 2 and turns.polls == []


def test_an_illegal_id_changes_nothing() -> None:
    rules = preset("dudo")
    turns = Turns(Game(rules, 3, seed=5), ActionEncoding(rules, 3))
    before = (turns.game.history[:], turns.polls[:], turns.actor)
    for bad in (turns.encoding.call_id, turns.encoding.no_call_id, turns.encoding.size + 3):
        with pytest.raises(IllegalActionError):
            turns.apply(bad)
    assert (turns.game.history, turns.polls, turns.actor) == before
    assert "outside" in turns.problem(turns.encoding.size + 3)
    assert "call" in turns.problem(turns.encoding.call_id)


def test_observation_sections_cover_the_vector() -> None:
    layout = ObservationLayout(preset("perudo"), 4)
    sections = layout.sections
    starts = sorted(sections.values())
    assert starts[0][0] == 0 and starts[-1][1] == layout.size
    assert all(a[1] == b[0] for a, b in itertools.pairwise(starts))
    game = Game(preset("perudo"), 4, seed=3)
    viewer = game.to_move
    parts = layout.split(layout.encode(game.view(viewer)))
    hand = game.view(viewer).my_dice
    assert hand is not None
    assert parts["my_dice"].sum() == pytest.approx(len(hand) / 5)
    assert parts["to_move"][0] == 1.0  # the viewer's own slot
    assert parts["phase"][1] == 1.0  # bidding
    with pytest.raises(DudoError, match="spectator"):
        layout.encode(game.view(None))


def _twins(
    rules_name: str, hands_a: list[tuple[int, ...]], hands_b: list[tuple[int, ...]]
) -> tuple[Game, Game]:
    rules = preset(rules_name)
    return Game.with_hands(rules, hands_a, seed=1), Game.with_hands(rules, hands_b, seed=1)


@settings(max_examples=40, deadline=None)
@given(
    name=st.sampled_from(["dudo", "perudo", "liars-dice", "cacho"]),
    others=st.lists(st.lists(st.integers(1, 6), min_size=5, max_size=5), min_size=4, max_size=4),
    seed=st.integers(0, 2**32),
)
def test_other_players_hidden_dice_never_reach_the_observation(
    name: str, others: list[list[int]], seed: int
) -> None:
    mine = (1, 2, 2, 5, 6)
    first = [mine] + [tuple(sorted(h)) for h in others[:2]]
    second = [mine] + [tuple(sorted(h)) for h in others[2:]]
    game_a, game_b = _twins(name, first, second)
    layout = ObservationLayout(game_a.rules, 3)
    rng = random.Random(seed)
    # Play the same actions in both games for the rest of the first round.
    while game_a.round_number == 1 and not game_a.is_over:
        assert np.array_equal(layout.encode(game_a.view(0)), layout.encode(game_b.view(0)))
        legal_b = set(game_b.legal_actions())
        action = rng.choice(game_a.legal_actions())
        if action not in legal_b:
            break
        game_a.push(action)
        game_b.push(action)
        if game_a.round_number > 1:  # the reveal shows everyone's dice: then they differ
            break


def test_an_open_obliging_round_hides_only_the_viewers_own_dice() -> None:
    rules = preset("dudo")  # the obliger chooses open or closed
    hands_a = [(3,), (2, 4, 4), (6, 6)]
    hands_b = [(3,), (1, 1, 5), (6, 6)]  # only player 1's own dice differ
    game_a = Game.with_hands(rules, hands_a, obliger=0, start_total=15)
    game_b = Game.with_hands(rules, hands_b, obliger=0, start_total=15)
    for game in (game_a, game_b):
        game.push(OPEN)
    layout = ObservationLayout(rules, 3)
    view = game_a.view(1)
    assert view.my_dice is None and view.seen_dice[0] == (3,)
    assert np.array_equal(layout.encode(game_a.view(1)), layout.encode(game_b.view(1)))
    # Player 2 sees player 1's dice, so player 2's observations differ.
    assert not np.array_equal(layout.encode(game_a.view(2)), layout.encode(game_b.view(2)))


def test_no_call_is_not_an_engine_action() -> None:
    assert isinstance(NO_CALL, NoCall) and str(NO_CALL) == "no-call"


def test_a_missing_extra_names_the_install_command() -> None:
    with pytest.raises(MissingExtraError, match=r"pip install 'dudo\[research\]'"):
        require("dudo_no_such_package", "This test")


def test_importing_dudo_research_needs_none_of_the_extras() -> None:
    code = (
        "import sys, dudo, dudo.research\n"
        "loaded = {'pettingzoo', 'gymnasium', 'pyspiel'} & set(sys.modules)\n"
        "assert not loaded, loaded\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)
