"""The three King variants as game systems of the boundary (:mod:`scoring.rules.systems`)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from ..problems import Problem
from ..seasonfold import SeasonFold
from ..systems import register
from . import interchange, simulator
from . import turno as engine
from .contracts import NAMES
from .ledger import KingLedger
from .rules import CODES, KingRules, default_table, make_rules

# The order of play (SPEC-king-family §0.1): counterclockwise in the Italian and French texts,
# clockwise in the international one (§B.3: "il vicino seduto a sinistra").
DIRECTIONS = {
    "king-classico": "counterclockwise",
    "king-internazionale": "clockwise",
    "le-king": "counterclockwise",
}


class KingFamilySystem(SeasonFold, KingLedger):
    """One rule set of the King family (``king-classico``, ``king-internazionale``, ``le-king``).

    Records and outputs are the ``kingclub/v1`` shapes of SPEC-king-family §0.7, §A-§C.
    """

    # where a smazzata record names a player (:mod:`..players`): §A.6, §B.6, §C.6
    player_fields = ("result.*", "sale.buyer", "last")
    # a player sits at one turno a date (SPEC-king-family, PLAYS_TWICE): the live screen
    # refuses a second seat the same day as the import does (issue 26, item 6b)
    one_turno_a_day = True

    def __init__(self, code: str) -> None:
        self.code = code
        self.label = make_rules(code).label
        self.direction = DIRECTIONS[code]
        self.game_names = NAMES

    def table_sizes(self, rules: KingRules) -> tuple[int, ...]:
        return tuple(rules.table_sizes)

    def default_rules(self) -> dict[str, Any]:
        return default_table(self.code)

    def rules(self, edits: Mapping[str, Any] | None = None) -> KingRules:
        return make_rules(self.code, edits)

    def next_step(self, rules: KingRules, turno: Mapping[str, Any]) -> dict[str, Any]:
        return engine.next_step(rules, turno)

    def deals_total(self, rules: KingRules, players: int) -> int | None:
        if players not in rules.table_sizes:
            return None
        # the deals of the table (SPEC-king-family §A.3, §B.3, §C)
        return engine.VARIANTS[rules.code].smazzate_count(rules, players)

    def check_smazzata(
        self, rules: KingRules, turno: Mapping[str, Any], smazzata: Mapping[str, Any]
    ) -> list[Problem]:
        return engine.check_smazzata(rules, turno, smazzata)

    def score_turno(
        self, rules: KingRules, turno: Mapping[str, Any], *, require_complete: bool = True
    ) -> dict[str, Any]:
        return engine.score_turno(rules, turno, require_complete=require_complete)

    def standing(
        self, rules: KingRules, roster: Sequence[str], turni: Sequence[Mapping[str, Any]]
    ) -> list[dict[str, Any]]:
        return engine.standing(rules, roster, [self.score_turno(rules, t) for t in turni])

    def standing_figures(self, seat: Mapping[str, Any]) -> dict[str, int]:
        return {
            "matchpoints": seat["extra"]["matchpoints"],
            "points": seat["total"],
            "turni": 1,
            "wins": int(seat["place"] == 1),
        }

    def standing_rank(
        self, rules: KingRules, roster: Sequence[str], figures: Mapping[str, Mapping[str, int]]
    ) -> list[dict[str, Any]]:
        return engine.rank_standing(rules, roster, figures)

    def score_document(self, data: Mapping[str, Any]) -> dict[str, Any]:
        return interchange.score_document(data)

    def random_turno(
        self, rng: random.Random, players: Sequence[str], rules: KingRules, **options: Any
    ) -> dict[str, Any]:
        return simulator.random_turno(rules, players, rng, **options)


SYSTEMS = {code: register(KingFamilySystem(code)) for code in CODES}
