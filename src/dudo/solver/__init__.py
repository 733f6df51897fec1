"""Equilibrium solver for heads-up Dudo: the public bid tree of a round built from the engine,
counterfactual regret minimisation (CFR+ and discounted CFR) vectorised with numpy over
private hands and public histories, exact best response and exploitability, running a solve to a
stopping rule (:mod:`dudo.solver.loop`), whole heads-up games solved bottom-up, and strategy
files. It prints nothing: its commands are in :mod:`dudo.terminal`.

It owns no rule: legal bids, round outcomes and what each player sees all come from
:mod:`dudo.engine` (``Game.legal_actions``, ``Game.push``, ``Game.view``).
"""

from dudo.solver.position import Position, SolverError, heads_up_problem
from dudo.solver.round import Round, build_round

__all__ = ["Position", "Round", "SolverError", "build_round", "heads_up_problem"]
