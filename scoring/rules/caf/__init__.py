"""King C.A.F. (SPEC.md): its rule set (``caf.json``), deals, turni, giornate and season.

Pure Python, no Django. The rest of the project reaches it through the game-system boundary
(:mod:`scoring.rules.systems`, code ``caf``: :mod:`.system`); the names below are what C.A.F.'s
own ledger (``services/turni.py``, ``services/season.py``) still calls directly.
"""

from ..problems import Problem, RuleViolation
from .play import Progress
from .records import (
    Penalty,
    Sanction,
    ScoredSmazzata,
    SeasonResult,
    SeasonState,
    SmazzataRecord,
    Standing,
    TableResult,
    TurnoRecord,
    TurnoScore,
)
from .ruleset import RuleSet, RuleSetError, caf, get_ruleset
from .season import play_giornate, play_season, rank_classifica, starting_state
from .turno import check_smazzata, progress_of, ratios, score_smazzata, score_turno

__all__ = [
    "Penalty",
    "Problem",
    "Progress",
    "RuleSet",
    "RuleSetError",
    "RuleViolation",
    "Sanction",
    "ScoredSmazzata",
    "SeasonResult",
    "SeasonState",
    "SmazzataRecord",
    "Standing",
    "TableResult",
    "TurnoRecord",
    "TurnoScore",
    "caf",
    "check_smazzata",
    "get_ruleset",
    "play_giornate",
    "play_season",
    "progress_of",
    "rank_classifica",
    "ratios",
    "score_smazzata",
    "score_turno",
    "starting_state",
]
