"""The rules engine: the only place the rules of Dudo live.

Pure Python, no I/O and no global state; every random outcome comes from an injected
chance source. Options and presets (:mod:`.rules`), bid order (:mod:`.bids`), counting
(:mod:`.counting`), actions, events, how a game starts (:mod:`.setup`), the game state
(:mod:`.game`) and per-player views (:mod:`.view`).

For learning and Monte Carlo work, with numpy (imported only by these modules): integer
action ids (:mod:`.encoding`), a fixed-length observation vector of a view
(:mod:`.observation`), and many games stepped together as arrays (:mod:`.batch`).
"""

from dudo.engine.actions import (
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
    ObligeChoice,
    Pass,
    RevealBid,
    Spoken,
    SpotOn,
    placed_bid,
)
from dudo.engine.chance import (
    ChanceOutcome,
    ChanceSource,
    RandomChance,
    ScriptedChance,
    hand_rolls,
)
from dudo.engine.counting import Counting, count_matching, counting_of, pass_hand
from dudo.engine.errors import (
    ChanceError,
    DudoError,
    IllegalActionError,
    NotationCode,
    NotationError,
    Reason,
    ReasonCode,
    RecordError,
    RulesError,
)
from dudo.engine.events import (
    BidMade,
    Called,
    DiceLost,
    DieWon,
    Eliminated,
    Event,
    GameOver,
    ObligingRound,
    PassDoubted,
    Passed,
    Revealed,
    RoundCancelled,
    RoundStarted,
    SeatingDecided,
    SeatingRolled,
    SpotOnClaimed,
    VisibilityChosen,
)
from dudo.engine.game import Game, Phase, Visibility
from dudo.engine.rules import (
    DEFAULT_PRESET,
    OPTION_NAMES,
    PRESET_SUMMARIES,
    PRESETS,
    PassHand,
    Rules,
    preset,
)
from dudo.engine.setup import Setup
from dudo.engine.view import PlayerView, PublicPart, ViewerPart

__all__ = [
    "CALL",
    "CLOSED",
    "DEFAULT_PRESET",
    "DOUBT_PASS",
    "OPEN",
    "OPTION_NAMES",
    "PASS",
    "PRESETS",
    "PRESET_SUMMARIES",
    "SPOT_ON",
    "Action",
    "Bid",
    "BidMade",
    "Call",
    "Called",
    "ChanceError",
    "ChanceOutcome",
    "ChanceSource",
    "Counting",
    "DiceLost",
    "DieWon",
    "DoubtPass",
    "DudoError",
    "Eliminated",
    "Event",
    "Game",
    "GameOver",
    "IllegalActionError",
    "NotationCode",
    "NotationError",
    "ObligeChoice",
    "ObligingRound",
    "Pass",
    "PassDoubted",
    "PassHand",
    "Passed",
    "Phase",
    "PlayerView",
    "PublicPart",
    "RandomChance",
    "Reason",
    "ReasonCode",
    "RecordError",
    "RevealBid",
    "Revealed",
    "RoundCancelled",
    "RoundStarted",
    "Rules",
    "RulesError",
    "ScriptedChance",
    "SeatingDecided",
    "SeatingRolled",
    "Setup",
    "Spoken",
    "SpotOn",
    "SpotOnClaimed",
    "ViewerPart",
    "Visibility",
    "VisibilityChosen",
    "count_matching",
    "counting_of",
    "hand_rolls",
    "pass_hand",
    "placed_bid",
    "preset",
]
