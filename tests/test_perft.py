"""Perft: counting move sequences from fixed positions, by brute force and independently.

Each position in ``tests/data/perft.json`` is a first round dealt with fixed hands (rules
preset + option overrides, hands, opener, optional start total and obliging-round setup).

* **Bid sequences**: the number of distinct non-empty sequences of legal bids from the
  round's opening, counted by depth-first search with ``Game.push``/``Game.pop`` (bids only).
  It must equal the stored number, and two counts that never ask the engine which bid raises
  which: a closed form where the raise relation is a total order (``2**K - 1`` for ``index``
  with unrestricted openings; in general the sum over allowed openings ``o`` of
  ``2**(bids above o)``), and a chain-counting DP over a raise relation written below from
  the wording of docs/rules.md (``dudo.engine.bids`` is not used).
* **Full perft**: the number of leaf action sequences up to depth ``d``, every action
  anyone may take (bids, calls, out-of-turn cruzado calls, spot-on, pass, doubt-pass, the
  obliger's open/closed choice); a sequence that ends the round is a leaf at its length.
  Brute force over the engine, checked against the stored numbers and against the same
  count over the independent round model below.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from dudo.engine import Bid, Game, Rules, preset

DATA = Path(__file__).parent / "data" / "perft.json"

Pair = tuple[int, int]  # (quantity, face)


@dataclass(frozen=True)
class Position:
    name: str
    preset: str
    options: dict[str, Any]
    hands: tuple[tuple[int, ...], ...]
    opener: int
    start_total: int | None
    obliger: int | None
    obliged: tuple[int, ...]
    bid_sequences: int | None
    closed_form: bool
    perft: tuple[int, ...]

    @property
    def rules(self) -> Rules:
        return preset(self.preset).with_options(**self.options)

    def game(self) -> Game:
        return Game.with_hands(
            self.rules,
            self.hands,
            opener=self.opener,
            start_total=self.start_total,
            obliged=self.obliged,
            obliger=self.obliger,
            seed=0,
        )


def load_positions() -> list[Position]:
    raw = json.loads(DATA.read_text(encoding="utf-8"))
    out = []
    for item in raw["positions"]:
        out.append(
            Position(
                name=str(item["name"]),
                preset=str(item["preset"]),
                options=dict(item.get("options", {})),
                hands=tuple(tuple(int(d) for d in h) for h in item["hands"]),
                opener=int(item.get("opener", 0)),
                start_total=item.get("start_total"),
                obliger=item.get("obliger"),
                obliged=tuple(int(p) for p in item.get("obliged", ())),
                bid_sequences=item.get("bid_sequences"),
                closed_form=bool(item.get("closed_form", False)),
                perft=tuple(int(n) for n in item.get("perft", ())),
            )
        )
    return out


POSITIONS = load_positions()
BID_POSITIONS = [p for p in POSITIONS if p.bid_sequences is not None]
PERFT_CASES = [(p, depth) for p in POSITIONS for depth in range(1, len(p.perft) + 1)]


def _ids(p: Position) -> str:
    return p.name


# --- brute force over the engine -----------------------------------------------------------------


def engine_bid_sequences(g: Game) -> int:
    """Non-empty sequences of legal bids (plain bids only) from the current position."""
    total = 0
    for action in g.legal_actions():
        if type(action) is Bid:
            g.push(action)
            total += 1 + engine_bid_sequences(g)
            g.pop()
    return total


def engine_perft(g: Game, depth: int) -> int:
    """Leaf sequences of at most ``depth`` actions; an action that ends the round is a leaf."""
    if depth == 0:
        return 1
    total = 0
    round_number = g.round_number
    for _, action in g.all_legal_actions():
        g.push(action)
        if g.is_over or g.round_number != round_number:
            total += 1
        else:
            total += engine_perft(g, depth - 1)
        g.pop()
    return total


# --- an independent model of one round, from the wording of docs/rules.md ------------------------


@dataclass(frozen=True)
class Options:
    """The options that matter within one round, read as plain JSON values."""

    faces: int
    aces_wild: bool
    raise_mode: str
    aces_rank: str
    aces_to: str
    aces_from: str
    open_on_aces: str
    cruzado: bool
    spot_on: bool
    spot_on_threshold: str
    spot_on_min_players: int
    pass_hands: tuple[str, ...]
    pass_min_players: int
    pass_allows_spot_on: bool
    oblige_face_change: str
    oblige_visibility: str
    direction: str

    @classmethod
    def of(cls, rules: Rules) -> Options:
        d = rules.to_dict()
        return cls(
            faces=int(d["faces"]),
            aces_wild=bool(d["aces_wild"]),
            raise_mode=str(d["raise_mode"]),
            aces_rank=str(d["aces_rank"]),
            aces_to=str(d["aces_to"]),
            aces_from=str(d["aces_from"]),
            open_on_aces=str(d["open_on_aces"]),
            cruzado=bool(d["cruzado"]),
            spot_on=bool(d["spot_on"]),
            spot_on_threshold=str(d["spot_on_threshold"]),
            spot_on_min_players=int(d["spot_on_min_players"]),
            pass_hands=tuple(str(h) for h in d["pass_hands"]),
            pass_min_players=int(d["pass_min_players"]),
            pass_allows_spot_on=bool(d["pass_allows_spot_on"]),
            oblige_face_change=str(d["oblige_face_change"]),
            oblige_visibility=str(d["oblige_visibility"]),
            direction=str(d["direction"]),
        )


@dataclass(frozen=True)
class RoundState:
    bid: Pair | None = None
    bidder: int | None = None
    to_move: int = 0
    passer: int | None = None
    passed: frozenset[int] = field(default_factory=frozenset)
    bids_made: int = 0
    choosing: bool = False  # the obliger still picks an open or closed round


# A model move: ("bid", q, f), ("call", player), ("spot-on", p), ("pass", p),
# ("doubt-pass", p), ("choose", open). Only their number matters.
Move = tuple[Any, ...]
ENDS_ROUND = frozenset({"call", "spot-on", "doubt-pass"})


class RoundModel:
    """Who may do what in one round, written from docs/rules.md without the engine's bid code."""

    def __init__(self, pos: Position) -> None:
        self.o = o = Options.of(pos.rules)
        self.counts = tuple(len(h) for h in pos.hands)
        self.players = len(self.counts)
        self.dice = sum(self.counts)
        self.start_total = pos.start_total if pos.start_total is not None else self.dice
        self.active = sum(1 for c in self.counts if c)
        self.obliging = pos.obliger is not None
        self.obliger = pos.obliger
        self.obliged = frozenset(pos.obliged) | (
            {pos.obliger} if pos.obliger is not None else set()
        )
        first = pos.obliger if pos.obliger is not None else pos.opener
        if not self.counts[first]:
            first = self.next_player(first)
        self.start = RoundState(
            to_move=first,
            choosing=self.obliging and o.oblige_visibility == "obliger_chooses",
        )
        # Every bid: 1 <= q <= dice in play, faces 1..faces.
        self.bids: tuple[Pair, ...] = tuple(
            (q, f) for q in range(1, self.dice + 1) for f in range(1, o.faces + 1)
        )

    # Seating is fixed by Game.with_hands: 0, 1, 2, ... clockwise; the eliminated are skipped.
    def next_player(self, p: int) -> int:
        step = 1 if self.o.direction == "clockwise" else -1
        nxt = (p + step) % self.players
        while not self.counts[nxt]:
            nxt = (nxt + step) % self.players
        return nxt

    # -- bids

    def rank(self, face: int) -> int:
        """Face order: aces lowest, except index mode with aces_rank=high (not when obliging)."""
        if face == 1 and not self.obliging and self.o.raise_mode == "index":
            return self.o.faces + 1 if self.o.aces_rank == "high" else 0
        return face

    def plain_raise(self, prev: Pair, new: Pair) -> bool:
        """The raise_mode's rule, faces ranked by ``rank``, no ace arithmetic."""
        (pq, pf), (q, f) = prev, new
        rp, rn = self.rank(pf), self.rank(f)
        mode = self.o.raise_mode
        if mode == "any_face":  # higher quantity, any face; or same quantity, higher face
            return q > pq or (q == pq and rn > rp)
        if mode == "nondecreasing":  # neither goes down, at least one goes up
            return q >= pq and rn >= rp and (q, rn) != (pq, rp)
        assert mode == "index"  # one fixed order: quantity first, then face
        return (q, rn) > (pq, rp)

    def may_change_face(self, player: int) -> bool:
        rule = self.o.oblige_face_change
        if rule == "nobody" or self.counts[player] != 1:
            return False
        if rule == "single_die":
            return True
        assert rule == "single_die_veteran"  # had their own obliging round before this one
        return player in self.obliged and player != self.obliger

    def raises(self, s: RoundState, new: Pair) -> bool:
        """May the player to act in ``s`` bid ``new`` over the standing bid?"""
        assert s.bid is not None
        (pq, pf), (q, f) = s.bid, new
        o = self.o
        if self.obliging:
            if self.may_change_face(s.to_move):
                return self.plain_raise(s.bid, new)  # faces 1 < 2 < ... < 6, no wild aces
            return f == pf and q > pq
        if s.bids_made == 1 and pf == 1 and o.open_on_aces == "free_transform":
            # After an opening on aces: any non-ace bid of any quantity, or more aces.
            return f != 1 or q > pq
        if o.aces_wild and o.raise_mode != "index":
            if pf != 1 and f == 1:
                need = -(-pq // 2) if o.aces_to == "ceil_half" else pq // 2 + 1
                return q >= need
            if pf == 1 and f == 1:
                return q > pq
            if pf == 1:
                return q >= (2 * pq + 1 if o.aces_from == "double_plus_one" else 2 * pq)
        return self.plain_raise(s.bid, new)

    def may_open(self, bid: Pair, opener: int) -> bool:
        if bid[1] != 1 or self.obliging:
            return True
        rule = self.o.open_on_aces
        if rule == "never":
            return False
        if rule == "one_die_only":
            return self.counts[opener] == 1
        return rule in ("free_transform", "always")

    # -- everything else

    def may_pass(self, s: RoundState) -> bool:
        return (
            bool(self.o.pass_hands)
            and not self.obliging
            and self.active >= self.o.pass_min_players
            and s.passer is None
            and s.to_move not in s.passed
        )

    def may_spot_on(self, s: RoundState) -> bool:
        o = self.o
        if not o.spot_on or self.obliging or self.active < o.spot_on_min_players:
            return False
        if s.passer is not None and not o.pass_allows_spot_on:
            return False
        if o.spot_on_threshold == "more_than_half":
            return self.dice > self.start_total / 2
        if o.spot_on_threshold == "half_or_single":
            return self.dice >= self.start_total / 2 or self.counts[s.to_move] == 1
        return True

    def moves(self, s: RoundState) -> Iterator[Move]:
        if s.choosing:
            yield ("choose", True)
            yield ("choose", False)
            return
        p = s.to_move
        if s.bid is None:
            for b in self.bids:
                if self.may_open(b, p):
                    yield ("bid", *b)
            return
        for b in self.bids:
            if self.raises(s, b):
                yield ("bid", *b)
        yield ("call", p) if s.passer is None else ("doubt-pass", p)
        if self.may_pass(s):
            yield ("pass", p)
        if self.may_spot_on(s):
            yield ("spot-on", p)
        if self.o.cruzado:  # any other seat in the game but the bidder, also after a pass
            for k in range(self.players):
                if self.counts[k] and k not in (p, s.bidder):
                    yield ("call", k)

    def after(self, s: RoundState, m: Move) -> RoundState:
        kind = m[0]
        if kind == "choose":
            return replace(s, choosing=False)
        if kind == "bid":
            return replace(
                s,
                bid=(m[1], m[2]),
                bidder=s.to_move,
                passer=None,
                bids_made=s.bids_made + 1,
                to_move=self.next_player(s.to_move),
            )
        assert kind == "pass"
        return replace(
            s,
            passer=s.to_move,
            passed=s.passed | {s.to_move},
            to_move=self.next_player(s.to_move),
        )

    def bid_chains(self) -> int:
        """Non-empty bid sequences from the opening: a DP over the (acyclic) raise relation."""

        @cache
        def chains_from(s: RoundState) -> int:
            return 1 + sum(chains_from(self.after(s, m)) for m in self.moves(s) if m[0] == "bid")

        return sum(chains_from(self.after(self.start, m)) for m in self.moves(self.start))

    def perft(self, depth: int) -> int:
        def walk(s: RoundState, d: int) -> int:
            if d == 0:
                return 1
            return sum(
                1 if m[0] in ENDS_ROUND else walk(self.after(s, m), d - 1) for m in self.moves(s)
            )

        return walk(self.start, depth)

    def closed_form(self) -> int | None:
        """Where the bids form one total order: sum over allowed openings of 2**(bids above).

        Returns None where the order is partial (or depends on the player, or on the
        opening): nondecreasing, free_transform, obliging rounds, or aces_to=floor_half_plus_one
        with aces_from=double_plus_one.
        """
        o = self.o
        if self.obliging or o.raise_mode == "nondecreasing" or o.open_on_aces == "free_transform":
            return None
        big = 2 * o.faces + 2  # above every face of the same quantity

        def key(b: Pair) -> tuple[int, int]:
            q, f = b
            if f == 1 and o.aces_wild and o.raise_mode == "any_face":
                # "n aces sit just above 2n sixes" (ceil_half, double_plus_one), or just
                # above 2n-1 sixes (floor_half_plus_one, double); "sixes" = the top face.
                return (2 * q if o.aces_to == "ceil_half" else 2 * q - 1, big)
            return (q, 2 * self.rank(f))

        if o.aces_wild and o.raise_mode == "any_face":
            pairing = (o.aces_to, o.aces_from)
            if pairing not in (("ceil_half", "double_plus_one"), ("floor_half_plus_one", "double")):
                return None
        keys = sorted(key(b) for b in self.bids)
        assert len(set(keys)) == len(keys), "a total order has no ties"
        opener = self.start.to_move
        return sum(
            1 << sum(1 for k in keys if k > key(b)) for b in self.bids if self.may_open(b, opener)
        )


# --- the tests -----------------------------------------------------------------------------------


def test_data_file_lists_positions() -> None:
    assert len(POSITIONS) >= 10
    assert len({p.name for p in POSITIONS}) == len(POSITIONS)
    assert sum(p.closed_form for p in BID_POSITIONS) >= 4
    assert sum(not p.closed_form for p in BID_POSITIONS) >= 4
    for p in POSITIONS:
        dice = sum(len(h) for h in p.hands)
        assert 2 <= dice <= 4, p.name


@pytest.mark.parametrize("pos", BID_POSITIONS, ids=_ids)
def test_bid_sequences_brute_force(pos: Position) -> None:
    g = pos.game()
    before = (list(g.events), list(g.history), g.bid, g.to_move)
    assert engine_bid_sequences(g) == pos.bid_sequences
    assert (list(g.events), list(g.history), g.bid, g.to_move) == before


@pytest.mark.parametrize("pos", BID_POSITIONS, ids=_ids)
def test_bid_sequences_independent_count(pos: Position) -> None:
    model = RoundModel(pos)
    assert model.bid_chains() == pos.bid_sequences
    closed = model.closed_form()
    if pos.closed_form:
        assert closed == pos.bid_sequences
    else:
        assert closed is None


def test_closed_form_index_is_two_to_the_k_minus_one() -> None:
    for pos in BID_POSITIONS:
        rules = pos.rules
        index = str(rules.raise_mode) == "index"
        if index and str(rules.open_on_aces) == "always" and pos.obliger is None:
            k = sum(len(h) for h in pos.hands) * rules.faces
            assert pos.bid_sequences == 2**k - 1, pos.name


def test_closed_form_order_agrees_with_the_raise_rule() -> None:
    """The closed form's total order ("n aces sit just above 2n sixes") is the raise relation."""
    for pos in BID_POSITIONS:
        if not pos.closed_form:
            continue
        model = RoundModel(pos)
        state = replace(model.start, bids_made=2)  # a normal raise, not right after the opening
        higher: dict[Pair, set[Pair]] = {}
        for b in model.bids:
            s = replace(state, bid=b)
            higher[b] = {n for n in model.bids if model.raises(s, n)}
        for a in model.bids:
            for b in higher[a]:
                assert a not in higher[b]  # antisymmetric
                assert higher[b] <= higher[a]  # transitive
            for b in model.bids:  # total
                assert a == b or b in higher[a] or a in higher[b], (pos.name, a, b)


@pytest.mark.parametrize(
    ("pos", "depth"), PERFT_CASES, ids=lambda x: str(x) if isinstance(x, int) else x.name
)
def test_full_perft(pos: Position, depth: int) -> None:
    expected = pos.perft[depth - 1]
    assert engine_perft(pos.game(), depth) == expected
    assert RoundModel(pos).perft(depth) == expected


def test_perft_depth_one_is_the_opening() -> None:
    for pos in POSITIONS:
        assert pos.perft, pos.name
        assert pos.perft[0] == len(pos.game().all_legal_actions())


if __name__ == "__main__":  # pragma: no cover - print the counts to fill in the data file
    sys.setrecursionlimit(10_000)
    for pos in POSITIONS:
        game = pos.game()
        seqs = None if game.phase == "choose_visibility" else engine_bid_sequences(game)
        depths = [engine_perft(pos.game(), d) for d in range(1, 5)]
        print(pos.name, seqs, RoundModel(pos).closed_form(), depths)
