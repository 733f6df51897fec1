"""One heads-up round as arrays: its public bid tree, its deals and what each player sees,
and the payoff of every call.

The tree is read from the engine: every distinct kind of node (depth 0, 1 or more, who acts,
the standing bid) is reached once with ``Game.push`` and asked for ``legal_actions``; the
tree is then grown one depth at a time with numpy. Player 0 is the round's opener
(positions are relabelled with :meth:`Position.canonical`), so player ``d % 2`` acts at
depth ``d``.

Nodes are numbered depth by depth, and the children of a node are contiguous, so sums and
maxima over a node's actions are ``reduceat`` calls. Node ``n > 0`` stands for the history
ending with the bid ``bid[n]``; the edge into it is the action "bid" of ``parent[n]``; every
node but the root also ends the round with a call by the player acting there.

Private information is what the engine's view shows each player after the deal (their
"signal": their own dice normally, the other's dice in an open obliging round, nothing in a
closed one). ``payoff[k]`` is the matrix, over the two players' signals, of player 0's
expected payoff when the round ends with a call at a node of terminal class ``k`` (the
standing bid and who calls), weighted by the deal's probability.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from enum import IntEnum
from itertools import product
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from dudo.engine import CALL, DOUBT_PASS, PASS, SPOT_ON, Action, Bid, Game, Rules, hand_rolls
from dudo.engine.bids import bid_table
from dudo.engine.counting import pass_hand
from dudo.solver.position import (
    Position,
    SolverError,
    check_heads_up,
    position_after,
    start_game,
)

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]

Outcome = Position | int
"""What a call leads to: the next position, or the winner when the game is over."""

Continuation = Callable[[Outcome, Game], float]
"""Player 0's payoff for an outcome (the game after the call is given too)."""


def round_payoff(game: Game, before: tuple[int, int]) -> float:
    """+1 to the player who won the call, -1 to the one who lost dice (one round alone)."""
    counts = game.counts
    return 1.0 if counts[1] < before[1] else -1.0


@dataclass(frozen=True)
class Layer:
    """The nodes ``start .. stop-1``: every history ending with bid ``bid`` where ``actor``
    is to act (at one stage, see :func:`_layered_order`), ordered by parent. ``parents`` is their parents, as a slice when
    they are consecutive (the common case: then every pass over the layer is slicing)."""

    start: int
    stop: int
    bid: int
    actor: int  # who acts at these nodes; the bids into them were made by the other
    parents: slice | IntArray

    @property
    def nodes(self) -> slice:
        return slice(self.start, self.stop)


@dataclass
class Round:
    """A heads-up round ready for the solver (see the module docstring)."""

    rules: Rules
    position: Position
    bids: tuple[Bid, ...]
    parent: IntArray  # (N,) parent node, -1 at the root
    bid: IntArray  # (N,) index in ``bids`` of the node's last bid, -1 at the root
    actor: npt.NDArray[np.int8]  # (N,) who acts at the node (and calls there)
    child_count: IntArray  # (N,) number of bid children of each node
    layers: list[Layer]  # every node but the root, parents before children
    second: int  # nodes ``0 .. second-1`` are player 0's (the root first), the rest player 1's
    signals: tuple[tuple[object, ...], tuple[object, ...]]  # each player's distinct signals
    signal_prob: tuple[FloatArray, FloatArray]  # marginal probability of each signal
    payoff: npt.NDArray[np.float64]  # (bids, caller, S0, S1) player 0's payoff x deal prob.
    outcomes: dict[Outcome, float]  # every outcome a call can lead to, by deal probability
    representative: dict[tuple[int, int], tuple[int, ...]]  # a history per (bid, caller)
    buffers: dict[tuple[str, int], npt.NDArray[np.floating]] = field(
        default_factory=dict, repr=False, compare=False
    )  # reusable work space (see sweeps.block_buffer, sweeps.uniform_strategy)

    @property
    def nodes(self) -> int:
        return len(self.parent)

    def hands(self, player: int) -> int:
        return len(self.signals[player])

    def region(self, player: int) -> slice:
        """The nodes where ``player`` acts (and may call, except at the root)."""
        return slice(0, self.second) if player == 0 else slice(self.second, self.nodes)

    def children(self, node: int) -> list[int]:
        """The children of ``node``, lowest bid first."""
        found = (self.child_by_bid(node, b) for b in range(len(self.bids)))
        return [c for c in found if c is not None]

    def child_by_bid(self, node: int, bid_index: int) -> int | None:
        """The child of ``node`` reached by bidding ``bids[bid_index]``, if that is legal."""
        for layer in self.layers:
            if layer.bid != bid_index:
                continue
            parents = layer.parents
            if isinstance(parents, slice):
                if parents.start <= node < parents.stop:
                    return layer.start + node - int(parents.start)
                continue
            at = int(np.searchsorted(parents, node))
            if at < len(parents) and int(parents[at]) == node:
                return layer.start + at
        return None

    def history(self, node: int) -> tuple[int, ...]:
        """The bids (indices into ``bids``) leading to ``node``."""
        out: list[int] = []
        while node > 0:
            out.append(int(self.bid[node]))
            node = int(self.parent[node])
        return tuple(reversed(out))

    def node_of(self, history: tuple[int, ...]) -> int | None:
        """The node reached by a bid history, or None if it is not legal."""
        node = 0
        for b in history:
            found = self.child_by_bid(node, b)
            if found is None:
                return None
            node = found
        return node


def hands_of(rules: Rules, dice: int) -> tuple[list[tuple[int, ...]], list[float]]:
    """Every sorted hand of ``dice`` dice and its probability."""
    rolls = hand_rolls(dice, rules.faces)
    return [hand for hand, _ in rolls], [ways / rules.faces**dice for _, ways in rolls]


def _deals(rules: Rules, position: Position) -> Iterator[tuple[tuple[tuple[int, ...], ...], float]]:
    h0, p0 = hands_of(rules, position.dice[0])
    h1, p1 = hands_of(rules, position.dice[1])
    for (a, pa), (b, pb) in product(zip(h0, p0, strict=True), zip(h1, p1, strict=True)):
        yield (a, b), pa * pb


def _signal(game: Game, player: int) -> object:
    view = game.view(player)
    return (view.my_dice, view.seen_dice)


class MoveKind(IntEnum):
    """What a move of a round's tree is. Moves are numbered ``kind * len(bids) + bid``: a
    bid, a pass over the standing bid ``bid``, or a spot-on claim on it."""

    BID = 0
    PASS = 1
    SPOT_ON = 2


def move_kind(move: int, nbids: int) -> tuple[MoveKind, int]:
    """(kind, bid index) of a move: for a pass or a spot-on, the bid is the standing one."""
    kind, bid = divmod(move, nbids)
    return MoveKind(kind), bid


def move_rank(moves: npt.NDArray[np.int64], nbids: int) -> npt.NDArray[np.int64]:
    """An order in which every move comes after the moves it may follow: a pass or a
    spot-on right after the bid it leaves standing (the raises after a pass are higher
    bids; a spot-on ends the round)."""
    kind, bid = np.divmod(moves, nbids)
    return np.where(moves < 0, -1, 3 * bid + kind)


def move_action(bids: tuple[Bid, ...], move: int) -> Action:
    """The engine's action for a move (see :class:`MoveKind`)."""
    kind, bid = move_kind(move, len(bids))
    if kind is MoveKind.BID:
        return bids[bid]
    return PASS if kind is MoveKind.PASS else SPOT_ON


def passed_flags(history: tuple[int, ...], nbids: int) -> int:
    """Bit ``p`` is set when player ``p`` (who moves at even depths if 0) has passed."""
    flags = 0
    for depth, move in enumerate(history):
        if nbids <= move < 2 * nbids:
            flags |= 1 << (depth % 2)
    return flags


class Moves:
    """The legal moves after a history, read from the engine.

    Moves are bids and, where the rules let two players use them, passes and spot-on claims
    (:class:`MoveKind`); a call (or a doubted pass) ends the round at every node but the
    root and is not a move. What may follow depends only on the depth class (the round's
    first bid, its second, or later), who acts, the last move and who has passed, so each
    such kind of node is reached once on an engine game (by ``path``, any history of that
    kind) and asked for ``legal_actions``.

    A spot-on claim leads to a leaf: the round is over, and the tree lets the other player
    "call" there with a payoff that is the claim's. A player none of whose hands can make a
    pass hand never passes here: such a pass is always doubted and lost, so it is never
    better than calling (the engine still allows it; a bot meeting one answers it off the
    tree)."""

    def __init__(self, rules: Rules, position: Position) -> None:
        self.rules = rules
        self.position = position
        self.bids = bid_table(rules, sum(position.dice), position.obliging).bids
        self.nbids = len(self.bids)
        self.index = {b: i for i, b in enumerate(self.bids)}
        self._dummy = tuple(tuple([1] * d) for d in position.dice)
        self._may_pass = tuple(
            any(pass_hand(h, rules.pass_hands) is not None for h in hands_of(rules, d)[0])
            for d in position.dice
        )
        self._found: dict[tuple[int, ...], list[int]] = {}
        self.engine_claims = False  # the engine allows some pass or spot-on in the round
        self.count = self.nbids * (3 if self._has_extra_moves() else 1)

    def _has_extra_moves(self) -> bool:
        """Does either player ever get to pass or claim spot-on in the tree? Asked of the
        engine after the round's first two bids (who may do either does not change in a
        round); notes in ``engine_claims`` whether the engine allows any (a hopeless pass
        included)."""
        game = start_game(self.rules, self.position, self._dummy)
        extra = False
        for depth in (1, 2):
            first = next((a for a in game.legal_actions() if type(a) is Bid), None)
            if first is None:
                break
            game.push(first)
            legal = game.legal_actions()
            self.engine_claims |= SPOT_ON in legal or PASS in legal
            extra |= SPOT_ON in legal or (PASS in legal and self._may_pass[depth % 2])
        return extra

    def key(self, depth: int, last_move: int, flags: int = 0) -> tuple[int, int, int, int]:
        return (min(depth, 2), depth % 2, last_move, flags)

    def kind(self, move: int) -> tuple[MoveKind, int]:
        return move_kind(move, self.nbids)

    def after(self, path: tuple[int, ...], depth: int | None = None) -> list[int]:
        """The moves that may follow ``path`` — a history of the same kind as the node
        asked about, whose true depth is ``depth`` (default: its length)."""
        depth = len(path) if depth is None else depth
        flags = passed_flags(path, self.nbids)
        key = self.key(depth, path[-1] if path else -1, flags)
        found = self._found.get(key)
        if found is not None:
            return found
        children: list[int] = []
        if path and self.kind(path[-1])[0] is MoveKind.SPOT_ON:
            self._found[key] = children
            return children  # the claim ended the round
        game = start_game(self.rules, self.position, self._dummy)
        for move in path:
            game.push(move_action(self.bids, move))
        legal = game.legal_actions()
        standing = path[-1] % self.nbids if path else -1
        ends = False
        for action in legal:
            if type(action) is Bid:
                children.append(self.index[action])
            elif action is CALL or action is DOUBT_PASS:
                ends = True
            elif action is PASS:
                if self._may_pass[len(path) % 2]:  # else never better than calling
                    children.append(MoveKind.PASS * self.nbids + standing)
            elif action is SPOT_ON:
                children.append(MoveKind.SPOT_ON * self.nbids + standing)
            else:
                raise AssertionError(f"unexpected action {action} (see heads_up_problem)")
        if path and not ends:
            raise AssertionError("a standing bid that cannot be called")
        if self.count == self.nbids and any(c >= self.nbids for c in children):
            raise AssertionError("a pass or spot-on that the round's first bids did not show")
        self._found[key] = children
        return children


def call_payoffs(
    rules: Rules,
    position: Position,
    representative: dict[tuple[int, int], tuple[int, ...]],
    continuation: Continuation | None,
    moves: Moves | None = None,
) -> tuple[
    tuple[tuple[object, ...], tuple[object, ...]],
    npt.NDArray[np.float64],
    npt.NDArray[np.float64],
    dict[Outcome, float],
]:
    """Signals, the joint probability ``(S0, S1)`` of each pair of signals, the payoff
    matrices ``(moves, caller, S0, S1)`` and the outcomes of the round's ends.

    A round ends at a node of class (last move, player to act): by a call of the standing
    bid, by doubting a pass (after a pass) or, at a spot-on leaf, by the claim just made.
    A call's or a claim's outcome depends on the deal only through how many dice match the
    standing bid, which the engine tells (``Game.count``, one question per face and deal);
    a doubted pass's only through the passer's hand. So each class in ``representative``
    is replayed on the engine (its history pushed, then the call) once for each count (or
    passer's hand) that occurs, on the first deal showing it, and every deal alike takes
    the same outcome and payoff. ``moves``: the round's moves, if the caller has them."""
    moves = moves if moves is not None else Moves(rules, position)
    bids = moves.bids
    ends = _end_classes(moves, representative)
    classes, kinds, by_pass, face_bid, _depends, groups = ends
    most = max(sum(position.dice), *(len(hands_of(rules, d)[0]) for d in position.dice))
    outcome_of: dict[tuple[int, int], Outcome] = {}
    value_of = np.zeros((len(classes), most + 1))
    seen: dict[int, set[int]] = {j: set() for j in groups}
    signal_ids: tuple[dict[object, int], dict[object, int]] = ({}, {})
    rows: list[tuple[int, int, float]] = []
    deal_keys: list[list[int]] = []
    before = position.dice
    for hands, prob in _deals(rules, position):
        game = start_game(rules, position, hands)
        ids = []
        for p in (0, 1):
            sig = _signal(game, p)
            ids.append(signal_ids[p].setdefault(sig, len(signal_ids[p])))
        counts = [game.count(b) for b in face_bid]
        keys = [counts[j] if j >= 0 else ids[-1 - j] for j in groups]
        for j, key in zip(groups, keys, strict=True):
            if key in seen[j]:
                continue
            seen[j].add(key)
            for i in groups[j]:
                history = representative[classes[i]]
                claim = kinds[i][0] is MoveKind.SPOT_ON
                outcome, value = _replay_end(
                    game, bids, history, claim, by_pass[i], before, continuation
                )
                outcome_of[(i, key)] = outcome
                value_of[i, key] = value
        rows.append((ids[0], ids[1], prob))
        deal_keys.append(keys)
    shape = (len(signal_ids[0]), len(signal_ids[1]))
    joint, payoff, outcomes = _add_up(ends, shape, rows, deal_keys, value_of, outcome_of, moves)
    signals = (tuple(signal_ids[0]), tuple(signal_ids[1]))
    return signals, joint, payoff, outcomes


class _Ends(NamedTuple):
    """The classes of a round's ends, (last move, caller), sorted, and what the outcome of
    each depends on: ``depends[i]`` is j >= 0 for the count of the face ``face_bid[j]``
    shows, or -1 - p for the hand of the passer p (the caller doubts the other player's
    pass); ``groups`` lists the classes by what they depend on."""

    classes: list[tuple[int, int]]
    kinds: list[tuple[MoveKind, int]]
    by_pass: list[bool]
    face_bid: list[Bid]
    depends: list[int]
    groups: dict[int, list[int]]


def _end_classes(moves: Moves, representative: dict[tuple[int, int], tuple[int, ...]]) -> _Ends:
    bids = moves.bids
    classes = sorted(representative)
    kinds = [moves.kind(k[0]) for k in classes]
    by_pass = [kind is MoveKind.PASS for kind, _ in kinds]
    faces = sorted({bids[b].face for (_, b), p in zip(kinds, by_pass, strict=True) if not p})
    face_bid = [next(b for b in bids if b.face == f) for f in faces]  # any bid on the face
    depends = [
        -1 - (1 - caller) if p else faces.index(bids[b].face)
        for (_, caller), (_, b), p in zip(classes, kinds, by_pass, strict=True)
    ]
    groups: dict[int, list[int]] = {}
    for i, j in enumerate(depends):
        groups.setdefault(j, []).append(i)
    return _Ends(classes, kinds, by_pass, face_bid, depends, groups)


def _replay_end(
    game: Game,
    bids: tuple[Bid, ...],
    history: tuple[int, ...],
    claim: bool,
    doubt_pass: bool,
    before: tuple[int, int],
    continuation: Continuation | None,
) -> tuple[Outcome, float]:
    """Play a class's history and the call that ends it (none after a spot-on ``claim``: it
    has ended the round already) on ``game``, then take them back: the outcome, and player
    0's payoff (the ``continuation``'s, or the round's alone)."""
    for move in history:
        game.push(move_action(bids, move))
    ending = 0
    if not claim:
        game.push(DOUBT_PASS if doubt_pass else CALL)
        ending = 1
    outcome = position_after(game)
    value = round_payoff(game, before) if continuation is None else continuation(outcome, game)
    for _ in range(len(history) + ending):
        game.pop()
    return outcome, value


def _add_up(
    ends: _Ends,
    shape: tuple[int, int],
    rows: list[tuple[int, int, float]],
    deal_keys: list[list[int]],
    value_of: FloatArray,
    outcome_of: dict[tuple[int, int], Outcome],
    moves: Moves,
) -> tuple[FloatArray, FloatArray, dict[Outcome, float]]:
    """The joint probability of the signals (``shape``: how many each player has), the
    payoff matrices and the outcomes' probabilities, from each deal's ``rows`` (signals,
    probability) and ``deal_keys`` (what the outcomes depend on), and what each class's end
    is worth (``value_of``) and leads to (``outcome_of``) for each key."""
    classes, depends, groups = ends.classes, ends.depends, ends.groups
    joint = np.zeros(shape)
    payoff = np.zeros((moves.count, 2, *shape))
    outcomes: dict[Outcome, float] = {}
    if not rows:
        return joint, payoff, outcomes
    s0 = np.array([r[0] for r in rows], dtype=np.int64)
    s1 = np.array([r[1] for r in rows], dtype=np.int64)
    chance = np.array([r[2] for r in rows])
    np.add.at(joint, (s0, s1), chance)
    if not classes:
        return joint, payoff, outcomes
    column = {j: c for c, j in enumerate(groups)}
    class_column = np.array([column[j] for j in depends], dtype=np.int64)
    key_table = np.array(deal_keys, dtype=np.int64)  # (deals, what outcomes depend on)
    move_of = np.array([k[0] for k in classes], dtype=np.int64)
    caller_of = np.array([k[1] for k in classes], dtype=np.int64)
    mass = np.zeros(value_of.shape)
    # A few classes at a time: (deals x classes) index arrays for all of them at once
    # took gigabytes at 5v5 with passes and spot-on.
    for first in range(0, len(classes), CLASS_CHUNK):
        part = slice(first, first + CLASS_CHUNK)
        cls = np.arange(len(classes))[part]
        counted = key_table[:, class_column[part]]  # (deals, classes of the chunk)
        values = value_of[cls, counted]
        where = (move_of[part][None, :], caller_of[part][None, :], s0[:, None], s1[:, None])
        np.add.at(payoff, where, chance[:, None] * values)
        # Each deal leads to each class's outcome with an equal share of its probability.
        np.add.at(mass, (cls[None, :], counted), np.broadcast_to(chance[:, None], counted.shape))
    for (i, c), outcome in outcome_of.items():
        outcomes[outcome] = outcomes.get(outcome, 0.0) + mass[i, c] / len(classes)
    return joint, payoff, outcomes


CLASS_CHUNK = 16
"""How many classes of round ends :func:`call_payoffs` adds up at once."""

MAX_NODES = 2**25
"""The largest tree :func:`build_round` builds (2^24 histories take about 15 GB to solve)."""


def build_round(
    rules: Rules,
    position: Position,
    continuation: Continuation | None = None,
    payoffs: bool = True,
    max_nodes: int = MAX_NODES,
) -> Round:
    """The round at ``position`` (relabelled so that the opener is player 0).

    ``continuation`` gives player 0's payoff for what a call leads to; by default the round
    stands alone and pays +1 to whoever wins the call.

    With ``payoffs=False`` no call is replayed: the tree and the signals (still read from
    every deal) are built, but ``payoff`` is all zeros and ``outcomes`` empty. That is enough
    to play a stored strategy, and much cheaper. A tree of more than ``max_nodes``
    histories is refused with a :class:`SolverError`.
    """
    position = position.canonical()
    check_heads_up(rules, position)
    moves = Moves(rules, position)
    if moves.count > moves.nbids:
        raise SolverError(
            f"the round {position.label()} has passes or spot-on claims, which only the "
            "last-k-bids abstraction handles (dudo solve-game does so by itself); for the "
            "whole tree add --set spot_on=false --set pass_hands=none"
        )
    parent, bid, node_depth = _grow(moves, position, max_nodes)
    order, layers, second = _layered_order(parent, bid, node_depth, moves.nbids)
    new_index = np.empty_like(order)
    new_index[order] = np.arange(len(order))
    parent = np.where(parent[order] >= 0, new_index[np.maximum(parent[order], 0)], -1)
    bid = bid[order]
    actor = (node_depth[order] % 2).astype(np.int8)
    n = len(parent)
    child_count = np.bincount(parent[1:], minlength=n).astype(np.int64)
    representative = _representatives(layers, parent, bid)
    signals, joint, payoff, outcomes = call_payoffs(
        rules, position, representative if payoffs else {}, continuation, moves
    )
    return Round(
        rules=rules,
        position=position,
        bids=moves.bids,
        parent=parent,
        bid=bid,
        actor=actor,
        child_count=child_count,
        layers=layers,
        second=second,
        signals=signals,
        signal_prob=(joint.sum(axis=1), joint.sum(axis=0)),
        payoff=payoff,
        outcomes=outcomes,
        representative=representative,
    )


def _grow(moves: Moves, position: Position, max_nodes: int) -> tuple[IntArray, IntArray, IntArray]:
    """The tree grown depth by depth: each node's parent, last bid and depth, numbered by
    depth (a tree of more than ``max_nodes`` histories is refused)."""
    nbids = moves.nbids
    key_path: dict[tuple[int, int, int, int], tuple[int, ...]] = {moves.key(0, -1): ()}
    parents: list[IntArray] = [np.array([-1], dtype=np.int64)]
    node_bids: list[IntArray] = [np.array([-1], dtype=np.int64)]
    depth_start = [0, 1]
    depth = 0
    while True:
        level_bids = node_bids[-1]
        # Nodes of one depth differ only by their last bid: look each kind up once.
        keys = level_bids + 1
        flat: list[int] = []
        offsets = np.zeros(nbids + 1, dtype=np.int64)
        counts_by_key = np.zeros(nbids + 1, dtype=np.int64)
        for key in np.unique(keys).tolist():
            path = key_path[moves.key(depth, key - 1)]
            children = moves.after(path, depth)
            offsets[key] = len(flat)
            counts_by_key[key] = len(children)
            for b in children:
                key_path.setdefault(moves.key(depth + 1, b), (*path, b))
            flat.extend(children)
        counts = counts_by_key[keys]
        total = int(counts.sum())
        if total == 0:
            break
        first = depth_start[-2]
        owners = np.repeat(np.arange(len(keys), dtype=np.int64), counts)
        run_start = np.cumsum(counts) - counts
        within = np.arange(total, dtype=np.int64) - run_start[owners]
        flat_array = np.array(flat, dtype=np.int64)
        child_bid = flat_array[offsets[keys][owners] + within]
        parents.append(owners + first)
        node_bids.append(child_bid)
        if depth_start[-1] + total > max_nodes:
            raise SolverError(
                f"the round {position.label()} has more than {max_nodes:,} bid histories: too "
                "big to solve whole (the solver needs about 1 kB per history: 2 dice each under "
                "a total bid order is 2^24 histories, about 15 GB); solve it with the last-k-bids "
                "abstraction instead"
            )
        depth_start.append(depth_start[-1] + total)
        depth += 1
    starts = np.array(depth_start, dtype=np.int64)
    node_depth = np.repeat(np.arange(len(starts) - 1, dtype=np.int64), np.diff(starts))
    return np.concatenate(parents), np.concatenate(node_bids), node_depth


def _representatives(
    layers: list[Layer], parent: IntArray, bid: IntArray
) -> dict[tuple[int, int], tuple[int, ...]]:
    """One history per (standing bid, caller), replayed on the engine for every deal."""
    representative: dict[tuple[int, int], tuple[int, ...]] = {}
    for layer in layers:
        if (layer.bid, layer.actor) not in representative:
            node = layer.start
            back: list[int] = []
            while node > 0:
                back.append(int(bid[node]))
                node = int(parent[node])
            representative[(layer.bid, layer.actor)] = tuple(reversed(back))
    return representative


def _layered_order(
    parent: IntArray, bid: IntArray, depth: IntArray, nbids: int
) -> tuple[IntArray, list[Layer], int]:
    """A new numbering of the nodes, and the layers.

    The nodes where player 0 acts come first (the root first of all), then those where
    player 1 acts. Within each part, one layer per last bid in the engine's bid order,
    each ordered by parent. When every raise goes up that order (all rules but
    ``free_transform``) parents come before children; otherwise the second bids of a round
    get layers of their own after the openings' (a second "stage").

    In a total order where every higher bid is a legal raise, the parents of the layer
    (b, player) are exactly player 1-p's nodes with a lower last bid: a contiguous run,
    so every pass over the tree is slicing. Returns the order, the layers (parents first)
    and where player 1's part begins."""
    nonroot = parent > 0
    goes_up = bool(np.all(bid[nonroot] > bid[parent[nonroot]]))
    stage = np.zeros_like(depth) if goes_up else (depth >= 2).astype(np.int64)
    actor = depth % 2
    key = (stage * nbids + bid) * 2 + actor
    key[0] = -1
    sorted_nodes = np.argsort(key, kind="stable")
    keys = 4 * nbids
    bounds = np.searchsorted(key[sorted_nodes], np.arange(-1, keys + 1))
    region_start = [1, int(np.count_nonzero(actor == 0))]
    next_index = list(region_start)
    new_index = np.full(len(parent), -1, dtype=np.int64)
    new_index[0] = 0
    placed: list[tuple[int, IntArray]] = []
    layers: list[Layer] = []
    for k in range(keys):
        group = sorted_nodes[bounds[k + 1] : bounds[k + 2]]
        if not len(group):
            continue
        who = k % 2
        parents_new = new_index[parent[group]]
        assert (parents_new >= 0).all(), "a parent after its child"
        by_parent = np.argsort(parents_new, kind="stable")
        group, parents_new = group[by_parent], parents_new[by_parent]
        start = next_index[who]
        new_index[group] = np.arange(start, start + len(group))
        first = int(parents_new[0])
        contiguous = bool(np.array_equal(parents_new, np.arange(first, first + len(group))))
        parents: slice | IntArray = slice(first, first + len(group)) if contiguous else parents_new
        layers.append(Layer(start, start + len(group), (k // 2) % nbids, who, parents))
        placed.append((start, group))
        next_index[who] += len(group)
    order = np.empty(len(parent), dtype=np.int64)
    order[0] = 0
    for start, group in placed:
        order[start : start + len(group)] = group
    return order, layers, region_start[1]
