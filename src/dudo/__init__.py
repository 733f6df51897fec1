"""Dudo: the South American dice game (Perudo, Cacho, Liar's Dice).

The package is organised by part, every part depending only inward on the engine:

- :mod:`dudo.engine`    the rules: options and presets, game state, legal actions, views
- :mod:`dudo.notation`  bids and calls as text, in English, Spanish and Italian
- :mod:`dudo.records`   the versioned JSON game record: write, read, replay
- :mod:`dudo.probability` the exact odds of a bid from the dice one knows (pure maths)
- :mod:`dudo.odds`      bid odds for learners, built on it
- :mod:`dudo.bots`      computer players that see only their own player's view
- :mod:`dudo.cup`       the dice cup for play at a real table
- :mod:`dudo.terminal`  the terminal game, replay printer and cup screen
- :mod:`dudo.solver`    equilibria of heads-up rounds and games, exact exploitability
- :mod:`dudo.arena`, :mod:`dudo.research` many games between bots; PettingZoo, Gymnasium
  and OpenSpiel
- :mod:`dudo.server`    the web server (and :mod:`dudo.web`, its browser client)
"""

from dudo.engine import (
    CALL,
    CLOSED,
    DOUBT_PASS,
    OPEN,
    PASS,
    SPOT_ON,
    Action,
    Bid,
    Call,
    DoubtPass,
    DudoError,
    Game,
    IllegalActionError,
    ObligeChoice,
    Pass,
    PlayerView,
    RevealBid,
    Rules,
    RulesError,
    Setup,
    Spoken,
    SpotOn,
    preset,
)

__version__ = "0.1.0"

__all__ = [
    "CALL",
    "CLOSED",
    "DOUBT_PASS",
    "OPEN",
    "PASS",
    "SPOT_ON",
    "Action",
    "Bid",
    "Call",
    "DoubtPass",
    "DudoError",
    "Game",
    "IllegalActionError",
    "ObligeChoice",
    "Pass",
    "PlayerView",
    "RevealBid",
    "Rules",
    "RulesError",
    "Setup",
    "Spoken",
    "SpotOn",
    "preset",
]
