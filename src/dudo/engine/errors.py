"""The engine's typed errors: each says what was wrong, and raising one changes nothing."""

from __future__ import annotations


class DudoError(ValueError):
    """Base class of every error the project raises for bad input."""


class RulesError(DudoError):
    """An option value or combination of options that cannot be played."""


class IllegalActionError(DudoError):
    """An action that is not legal now. The game state is left unchanged."""


class NotationError(DudoError):
    """Text that is not a bid or call in any supported notation."""


class ChanceError(DudoError):
    """A chance source that cannot give what the engine asks (e.g. scripted dice ran out)."""


class RecordError(DudoError):
    """A game record that is corrupt, of an unknown version, or holds an illegal entry."""
