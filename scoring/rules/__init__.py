"""The rules engine of King C.A.F.: pure Python, no Django.

Everything that computes a point lives here; models, views, commands and exports call it.
"""

from .play import Progress
from .problems import Problem, RuleViolation
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
