"""Plain-text pictures of a :class:`~dudo.engine.PlayerView`: the environments' ``ansi``
and ``human`` render modes and OpenSpiel's observation strings. Only what the view holds is
written."""

from __future__ import annotations

from dudo.engine import PlayerView

#: The environments' render modes: ``human`` prints the picture, ``ansi`` returns it.
RENDER_MODES = ("human", "ansi")


def rendered(text: str, render_mode: str | None) -> str | None:
    """An environment's ``render()`` of ``text`` as its render mode wants it: returned for
    ``ansi``, printed for ``human`` (which returns None), nothing without a render mode."""
    if render_mode is None:
        return None
    if render_mode == "human":
        print(text)
        return None
    return text


def _hand(dice: tuple[int, ...] | None) -> str:
    if dice is None:
        return "?"
    return " ".join(str(d) for d in dice) if dice else "-"


def view_text(view: PlayerView) -> str:
    """A few lines: round, each seat's dice (as far as the viewer sees them), the standing
    bid, this round's actions and whose move it is."""
    who = "spectator" if view.viewer is None else f"player {view.viewer}"
    head = f"round {view.round_number}"
    if view.obliging:
        head += f", obliging by player {view.obliger} ({view.visibility or 'to be chosen'})"
    lines = [f"{head} - seen by {who}"]
    for p in range(view.players):
        marks = []
        if p == view.viewer:
            marks.append("you")
        if p == view.to_move:
            marks.append("to move")
        if view.dice_counts[p] == 0:
            marks.append("out")
        note = f" ({', '.join(marks)})" if marks else ""
        lines.append(f"  player {p}: {view.dice_counts[p]} dice [{_hand(view.seen_dice[p])}]{note}")
    standing = (
        "none" if view.standing_bid is None else f"{view.standing_bid} by player {view.bidder}"
    )
    lines.append(f"  standing bid: {standing}")
    if view.round_actions:
        lines.append("  this round: " + ", ".join(f"{p}:{a}" for p, a in view.round_actions))
    if view.winner is not None:
        lines.append(f"  winner: player {view.winner}")
    return "\n".join(lines)
