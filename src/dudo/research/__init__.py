"""Research interfaces: Dudo as a PettingZoo multi-agent environment, a Gymnasium
single-agent environment (one seat against bots) and an OpenSpiel game.

This package owns the translation of a game into learning interfaces: one decider at a
time with out-of-turn polls under ``cruzado`` (:mod:`.turns`), and the environments (:mod:`.pettingzoo_env`,
:mod:`.gym_env`, :mod:`.openspiel_game`). It decides no rule: legal actions, outcomes and
what each player sees come from :mod:`dudo.engine`, as do the integer action ids
(:mod:`dudo.engine.encoding`) and the observation vector (:mod:`dudo.engine.observation`)
that the environments and the batched simulator (:mod:`dudo.engine.batch`) share; bots
come from :mod:`dudo.bots`.

PettingZoo, Gymnasium and OpenSpiel are an optional extra (``pip install 'dudo[research]'``),
imported only by the module that needs them, so ``import dudo`` and this package work
without them.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from types import ModuleType

from dudo.engine import Rules, Setup
from dudo.engine.encoding import NO_CALL, ActionEncoding
from dudo.engine.observation import ObservationLayout
from dudo.engine.rules import parse_assignment, rules_from_settings
from dudo.research.text import RENDER_MODES
from dudo.research.turns import Turns

__all__ = [
    "NO_CALL",
    "ActionEncoding",
    "MissingExtraError",
    "ObservationLayout",
    "Turns",
    "environment_rules",
    "missing_extra",
    "require",
    "resolve_rules",
]

INSTALL_HINT = "pip install 'dudo[research]'"


class MissingExtraError(ImportError):
    """A research interface needs a package of the ``research`` extra that is not installed."""


def missing_extra(package: str, what: str) -> MissingExtraError:
    """The error for ``what`` when ``package`` cannot be imported: it names the install command."""
    return MissingExtraError(
        f"{what} needs the package {package!r}, which is not installed: {INSTALL_HINT}"
    )


def require(module: str, what: str) -> ModuleType:
    """Import ``module`` or raise :class:`MissingExtraError` naming the install command."""
    try:
        return importlib.import_module(module)
    except ImportError as error:
        raise missing_extra(module.split(".")[0], what) from error


def resolve_rules(rules: Rules | str, settings: Iterable[str] | str = ()) -> Rules:
    """Rules from a preset name (or a ``Rules`` value) and ``OPTION=VALUE`` house rules
    (a list, or one string of them separated by spaces or semicolons: commas belong to
    values such as ``pass_hands=full_house,five_kind``)."""
    if isinstance(settings, str):
        settings = [part for part in settings.replace(";", " ").split() if part]
    settings = list(settings)
    if isinstance(rules, Rules):
        if not settings:
            return rules
        return rules.with_options(**dict(parse_assignment(text) for text in settings))
    return rules_from_settings(rules, settings)


def environment_rules(
    rules: Rules | str, settings: Iterable[str] | str, players: int, render_mode: str | None
) -> Rules:
    """The checked setup of an environment: its rules (:func:`resolve_rules`), after a clear
    error now for a bad player count or a render mode other than those of
    :data:`~dudo.research.text.RENDER_MODES`."""
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(
            f"render_mode {render_mode!r} is not supported; use one of "
            f"{', '.join(map(repr, RENDER_MODES))} or None"
        )
    resolved = resolve_rules(rules, settings)
    Setup(players).check(resolved)  # the engine's own check of the player count
    return resolved
