"""Moved: the exact odds of a bid are :mod:`dudo.probability` (learners' odds, the review
and the terminal use them, not only bots). This module keeps old imports working."""

from dudo.probability import (
    Counting,
    Odds,
    bid_probability,
    bid_probability_exact,
    count_distribution,
    counting_for,
    counting_of,
    exactly_probability,
    exactly_probability_exact,
    probability_at_least,
    view_bid_probability,
    view_exactly_probability,
)

__all__ = [
    "Counting",
    "Odds",
    "bid_probability",
    "bid_probability_exact",
    "count_distribution",
    "counting_for",
    "counting_of",
    "exactly_probability",
    "exactly_probability_exact",
    "probability_at_least",
    "view_bid_probability",
    "view_exactly_probability",
]
