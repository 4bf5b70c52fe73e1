"""Skat (rule set ``skat-isko``, SPEC-skat.md): the pure engine, no Django.

- :mod:`.rules` + ``skat-isko.json``: the rule set as data (``skat_rules(edits)``, legal bids).
- :mod:`.game`: one game read and checked (``read_game``), valued (``outcome``), list points.
- :mod:`.lista`: one list: dealer and who sits out (``next_step``), ``check_game`` against the
  list so far, ``score_list`` (totals, places, the tie rule).
- :mod:`.season`: the season standing.
- :mod:`.interchange`: ``kingclub/v1`` documents (``score_document``, the ``kingscore`` output).
- :mod:`.generator`: random valid lists dealt card by card.
- :mod:`.system`: the :class:`~scoring.rules.systems.GameSystem` registered as ``skat-isko``.
"""

from .game import Game, Outcome, dealer_of, game_list_points, outcome, read_game, sitting_out_of
from .generator import random_game, random_list
from .interchange import score_document
from .lista import check_game, next_step, preview, rank, score_list
from .rules import CODE, GAMES, SkatRules, default_rules_dict, skat_rules
from .season import standing

__all__ = [
    "CODE",
    "GAMES",
    "Game",
    "Outcome",
    "SkatRules",
    "check_game",
    "dealer_of",
    "default_rules_dict",
    "game_list_points",
    "next_step",
    "outcome",
    "preview",
    "random_game",
    "random_list",
    "rank",
    "read_game",
    "score_document",
    "score_list",
    "sitting_out_of",
    "skat_rules",
    "standing",
]
