"""Skat (``skat-isko``) as one implementation of the game-system protocol (:mod:`..systems`).

Each method delegates to the Skat engine (:mod:`.rules`, :mod:`.lista`, :mod:`.season`,
:mod:`.interchange`, :mod:`.generator`); nothing here computes a point of its own.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Mapping, Sequence
from typing import Any

from ..problems import Problem
from ..seasonfold import SeasonFold
from ..systems import register
from . import interchange, lista, season
from .generator import random_list
from .ledger import SkatLedger
from .rules import CODE, SkatRules, default_rules_dict, skat_rules


def _dated(turno: Mapping[str, Any]) -> dict[str, Any]:
    """The list record with a date and a number (a list in progress may have neither yet)."""
    return {
        **turno,
        "date": turno.get("date") or dt.date.today().isoformat(),
        "number": turno.get("number", 1),
    }


class SkatSystem(SeasonFold, SkatLedger):
    code = CODE
    label = "Skat"
    player_fields = ("declarer",)  # where a game record names a player (SPEC-skat §12)
    direction = "clockwise"  # SPEC-skat §1

    def table_sizes(self, rules: SkatRules) -> tuple[int, ...]:
        return tuple(rules.table_sizes)

    def default_rules(self) -> dict[str, Any]:
        return default_rules_dict()

    def rules(self, edits: Mapping[str, Any] | None = None) -> SkatRules:
        return skat_rules(edits)

    def next_step(self, rules: SkatRules, turno: Mapping[str, Any]) -> dict[str, Any]:
        return lista.next_step(rules, turno)

    def deals_total(self, rules: SkatRules, players: int) -> int | None:
        return rules.games_per_list.get(players)  # the games of the list (SPEC-skat §2)

    def check_smazzata(
        self, rules: SkatRules, turno: Mapping[str, Any], smazzata: Mapping[str, Any]
    ) -> list[Problem]:
        return lista.check_game(rules, turno, smazzata)

    def score_turno(self, rules: SkatRules, turno: Mapping[str, Any]) -> dict[str, Any]:
        return lista.score_list(rules, _dated(turno))

    def running_list(self, rules: SkatRules, turno: Mapping[str, Any]) -> dict[str, Any]:
        """A list in progress scored so far (the live screen): places ``None`` until complete."""
        return lista.score_list(rules, _dated(turno), require_complete=False)

    def standing(
        self, rules: SkatRules, roster: Sequence[str], turni: Sequence[Mapping[str, Any]]
    ) -> list[dict[str, Any]]:
        return season.standing(roster, [lista.score_list(rules, _dated(t)) for t in turni])

    def standing_figures(self, seat: Mapping[str, Any]) -> dict[str, int]:
        return {
            "list_points": seat["total"],
            "turni": 1,
            "won": seat["extra"]["won"],
            "lost": seat["extra"]["lost"],
        }

    def standing_rank(
        self, rules: SkatRules, roster: Sequence[str], figures: Mapping[str, Mapping[str, int]]
    ) -> list[dict[str, Any]]:
        return season.rank_standing(roster, figures)

    def score_document(self, data: Mapping[str, Any]) -> dict[str, Any]:
        return interchange.score_document(data)

    def random_turno(
        self, rng: random.Random, players: Sequence[str], rules: SkatRules
    ) -> dict[str, Any]:
        return random_list(rng, rules, players)


SKAT = register(SkatSystem())
