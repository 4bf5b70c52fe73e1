"""The King family (SPEC-king-family): ``king-classico``, ``king-internazionale``, ``le-king``.

Pure Python, no Django. The rest of the project reaches it through the game-system boundary
(:mod:`scoring.rules.systems`, codes above); the functions below are what those systems call.
"""

from .interchange import score_document
from .rules import CODES, KingRules, default_table, make_rules
from .simulator import random_turno
from .turno import check_smazzata, matchpoints, next_step, places, score_turno, standing

__all__ = [
    "CODES",
    "KingRules",
    "check_smazzata",
    "default_table",
    "make_rules",
    "matchpoints",
    "next_step",
    "places",
    "random_turno",
    "score_document",
    "score_turno",
    "standing",
]
