"""Which bid may follow which: the raise relation of every ``raise_mode``, ace arithmetic,
opening restrictions, obliging-round face rules and ``free_transform``.

A :class:`BidTable` holds every bid for one number of dice in play, in a canonical order
(lowest first) that is a linear extension of the raise relation, and memoises the legal
raises from each standing bid. Tables are shared between games with equal rules.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import IntEnum
from functools import lru_cache, partial
from typing import TypeVar

from dudo.engine.actions import CALL, Action, Bid
from dudo.engine.errors import Reason
from dudo.engine.errors import ReasonCode as R
from dudo.engine.rules import AcesFrom, AcesRank, AcesTo, OpenOnAces, RaiseMode, Rules

_K = TypeVar("_K")
_V = TypeVar("_V")


class RaiseContext(IntEnum):
    """The four ways raises are judged within a round. (An IntEnum: it keys hot caches,
    and int hashing is C-level where Enum hashing is not.)"""

    NORMAL = 0  # the rules' raise_mode, with ace arithmetic where aces are wild
    FREE_TRANSFORM = 1  # after an opening bid on aces under free_transform
    OBLIGE_FACE_CHANGE = 2  # obliging round, this player may change face
    OBLIGE_SAME_FACE = 3  # obliging round, quantity up, face kept


def aces_needed_from(rules: Rules, quantity: int) -> int:
    """Fewest aces that raise a non-ace bid of ``quantity``."""
    if rules.aces_to is AcesTo.CEIL_HALF:
        return (quantity + 1) // 2
    return quantity // 2 + 1


def quantity_needed_after_aces(rules: Rules, aces: int) -> int:
    """Fewest dice of another face that raise a bid of ``aces`` aces."""
    return 2 * aces + 1 if rules.aces_from is AcesFrom.DOUBLE_PLUS_ONE else 2 * aces


def uses_ace_arithmetic(rules: Rules) -> bool:
    return rules.aces_wild and rules.raise_mode is not RaiseMode.INDEX


def _face_rank(rules: Rules, face: int, obliging: bool) -> int:
    """Rank of a face in the bid order: aces lowest, except index mode with aces_rank=high
    outside obliging rounds (where aces are an ordinary face ranked lowest)."""
    if face == 1 and not obliging and rules.raise_mode is RaiseMode.INDEX:
        return rules.faces + 1 if rules.aces_rank is AcesRank.HIGH else 1
    return face


#: What :func:`raise_problem` gives for every bid that is not a raise when not asked to
#: ``explain``: its callers only test for None.
NOT_A_RAISE = Reason(R.NOT_LEGAL_NOW, "not a raise")


def raise_problem(
    rules: Rules,
    context: RaiseContext,
    standing: Bid,
    new: Bid,
    obliging: bool,
    explain: bool = True,
) -> Reason | None:
    """Why ``new`` does not raise ``standing`` in this context, or None if it does. Without
    ``explain``, any refusal is :data:`NOT_A_RAISE` (listing the raises of a standing bid
    tests every bid, and most are refused: wording each refusal cost more than the test)."""
    pq, pf, q, f = standing.quantity, standing.face, new.quantity, new.face
    mode = rules.raise_mode

    def no(code: R, why: str, **params: int | str) -> Reason:
        if not explain:
            return NOT_A_RAISE
        # Every refusal names both bids, in the English and in the parameters.
        text = f"{new} does not raise {standing}: {why}"
        return Reason(code, text, new=str(new), standing=str(standing), **params)

    if context is RaiseContext.OBLIGE_SAME_FACE:
        if f != pf:
            return no(R.OBLIGE_SAME_FACE, "in this obliging round you may not change the face")
        if q <= pq:
            return no(R.QUANTITY_UP, "the quantity must go up")
        return None
    if context is RaiseContext.FREE_TRANSFORM:
        if f != 1 or q > pq:
            return None
        return no(R.ACES_RAISE_QUANTITY, "a bid on aces must raise the quantity")
    if context is RaiseContext.NORMAL and uses_ace_arithmetic(rules):
        if pf != 1 and f == 1:
            need = aces_needed_from(rules, pq)
            if q >= need:
                return None
            return no(
                R.ACES_NEED,
                f"from {pq} dice, a bid on aces needs at least {need} aces ({rules.aces_to})",
                count=need,
            )
        if pf == 1 and f == 1:
            return None if q > pq else no(R.QUANTITY_UP, "the quantity must go up")
        if pf == 1 and f != 1:
            need = quantity_needed_after_aces(rules, pq)
            if q >= need:
                return None
            return no(
                R.AFTER_ACES_NEED,
                f"after {pq} aces, another face needs at least {need} dice ({rules.aces_from})",
                count=need,
            )
    rp, rn = _face_rank(rules, pf, obliging), _face_rank(rules, f, obliging)
    if mode is RaiseMode.NONDECREASING:
        if q < pq:
            return no(
                R.NONDECREASING_QUANTITY,
                "under nondecreasing raises the quantity may not go down",
            )
        if rn < rp:
            return no(R.NONDECREASING_FACE, "under nondecreasing raises the face may not go down")
        if q == pq and rn == rp:
            return no(R.SAME_BID, "it is the same bid")
        return None
    if (q, rn) > (pq, rp):
        return None
    if mode is RaiseMode.INDEX:
        order = _order_hint(rules)
        return no(R.INDEX_ORDER, f"bids must go up in the fixed order ({order})", order=order)
    if q < pq:
        return no(R.QUANTITY_DOWN, "the quantity may not go down")
    if q == pq and rn == rp:
        return no(R.SAME_BID, "it is the same bid")
    return no(R.FACE_UP, "at the same quantity the face must go up")


def _order_hint(rules: Rules) -> str:
    if rules.aces_rank is AcesRank.HIGH:
        return "1x2 < ... < 1x6 < 1x1 < 2x2 < ..."
    return "1x1 < 1x2 < ... < 1x6 < 2x1 < ..."


def opening_problem(rules: Rules, bid: Bid, opener_dice: int, obliging: bool) -> Reason | None:
    """Why ``bid`` may not open the round, or None if it may."""
    if bid.face != 1 or obliging:
        return None
    rule = rules.open_on_aces
    if rule is OpenOnAces.NEVER:
        return Reason(
            R.OPEN_ACES_NEVER,
            f"{bid}: a round may not be opened on aces (open_on_aces=never)",
            bid=str(bid),
        )
    if rule is OpenOnAces.ONE_DIE_ONLY and opener_dice != 1:
        return Reason(
            R.OPEN_ACES_ONE_DIE,
            f"{bid}: only a player holding one die may open on aces (open_on_aces=one_die_only)",
            bid=str(bid),
        )
    return None


def _sort_key(rules: Rules, bid: Bid, obliging: bool) -> tuple[int, int]:
    """A key whose order extends the raise relation: aces sit just above the sixes
    they may follow under ace arithmetic."""
    q, f = bid.quantity, bid.face
    if not obliging and f == 1 and uses_ace_arithmetic(rules):
        below = 2 * q if rules.aces_to is AcesTo.CEIL_HALF else 2 * q - 1
        return (below, 2 * rules.faces + 1)
    return (q, 2 * _face_rank(rules, f, obliging))


class _Memo(dict[_K, _V]):
    """A dict that fills in a missing entry with ``compute(key)``. A hit is a plain
    subscript with no Python-level call, which matters on the engine's hot path."""

    __slots__ = ("_compute",)

    def __init__(self, compute: Callable[[_K], _V]) -> None:
        super().__init__()
        self._compute = compute

    def __missing__(self, key: _K) -> _V:
        value = self[key] = self._compute(key)
        return value


class BidTable:
    """Every bid for one number of dice in play, and memoised legal raises.

    The memos are read directly on the engine's hot path: ``raise_tuples[context][standing]``
    (the raises, lowest first), ``raise_sets`` (the same as a set), ``raise_calls`` (the
    raises then the call); ``opening_tuples[opener_dice]`` and ``opening_sets``. The methods
    below read the same memos.
    """

    def __init__(self, rules: Rules, dice_in_play: int, obliging: bool) -> None:
        self.rules = rules
        self.dice_in_play = dice_in_play
        self.obliging = obliging
        every = [Bid(q, f) for q in range(1, dice_in_play + 1) for f in range(1, rules.faces + 1)]
        every.sort(key=lambda b: _sort_key(rules, b, obliging))
        self.bids: tuple[Bid, ...] = tuple(every)
        self.raise_tuples: dict[RaiseContext, _Memo[Bid, tuple[Bid, ...]]] = {}
        self.raise_sets: dict[RaiseContext, _Memo[Bid, frozenset[Bid]]] = {}
        self.raise_calls: dict[RaiseContext, _Memo[Bid, tuple[Action, ...]]] = {}
        for context in RaiseContext:
            raises = self.raise_tuples[context] = _Memo(partial(self._find_raises, context))
            self.raise_sets[context] = _Memo(partial(_as_set, raises))
            self.raise_calls[context] = _Memo(partial(_then_call, raises))
        # The raises followed by the other actions a mover has besides raising (the call or
        # doubting a pass, passing, spot-on): by context, standing bid and those actions.
        self.raises_then: _Memo[tuple[RaiseContext, Bid, tuple[Action, ...]], tuple[Action, ...]]
        self.raises_then = _Memo(self._raises_then)
        self.opening_tuples: _Memo[int, tuple[Bid, ...]] = _Memo(self._find_openings)
        self.opening_sets: _Memo[int, frozenset[Bid]] = _Memo(partial(_as_set, self.opening_tuples))

    def has(self, bid: Bid) -> bool:
        return 1 <= bid.quantity <= self.dice_in_play and 1 <= bid.face <= self.rules.faces

    def raises(self, context: RaiseContext, standing: Bid) -> tuple[Bid, ...]:
        """Every bid that legally follows ``standing`` in ``context``, lowest first."""
        return self.raise_tuples[context][standing]

    def raises_then_call(self, context: RaiseContext, standing: Bid) -> tuple[Action, ...]:
        """The legal raises followed by the call: all a player may do in a plain round."""
        return self.raise_calls[context][standing]

    def raise_set(self, context: RaiseContext, standing: Bid) -> frozenset[Bid]:
        """The same bids as :meth:`raises`, as a set for fast membership tests."""
        return self.raise_sets[context][standing]

    def openings(self, opener_dice: int) -> tuple[Bid, ...]:
        """Every bid that may open the round, lowest first."""
        return self.opening_tuples[opener_dice]

    def opening_set(self, opener_dice: int) -> frozenset[Bid]:
        """The same bids as :meth:`openings`, as a set for fast membership tests."""
        return self.opening_sets[opener_dice]

    def _raises_then(self, key: tuple[RaiseContext, Bid, tuple[Action, ...]]) -> tuple[Action, ...]:
        context, standing, others = key
        return (*self.raise_tuples[context][standing], *others)

    def _find_raises(self, context: RaiseContext, standing: Bid) -> tuple[Bid, ...]:
        rules, obliging = self.rules, self.obliging
        return tuple(
            b
            for b in self.bids
            if raise_problem(rules, context, standing, b, obliging, explain=False) is None
        )

    def _find_openings(self, opener_dice: int) -> tuple[Bid, ...]:
        rules, obliging = self.rules, self.obliging
        return tuple(
            b for b in self.bids if opening_problem(rules, b, opener_dice, obliging) is None
        )


def _as_set(bids: _Memo[_K, tuple[Bid, ...]], key: _K) -> frozenset[Bid]:
    return frozenset(bids[key])


def _then_call(raises: _Memo[Bid, tuple[Bid, ...]], standing: Bid) -> tuple[Action, ...]:
    return (*raises[standing], CALL)


@lru_cache(maxsize=1024)
def bid_table(rules: Rules, dice_in_play: int, obliging: bool) -> BidTable:
    """The shared table for these rules and this many dice in play."""
    return BidTable(rules, dice_in_play, obliging)
