"""Moved: the exact odds of a bid are :mod:`dudo.probability` (learners' odds, the review
and the terminal use them, not only bots). This module keeps old imports working: it
re-exports exactly what that module exports."""

from dudo.probability import *  # noqa: F403
from dudo.probability import __all__ as __all__
