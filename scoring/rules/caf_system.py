"""King C.A.F. (``caf``) as one implementation of the game-system protocol (:mod:`.systems`).

Each method delegates to the C.A.F. engine (:mod:`.turno`, :mod:`.season`, :mod:`.interchange`,
:mod:`.simulator`); nothing here computes a point of its own.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Mapping, Sequence
from typing import Any

from . import interchange
from .problems import Problem, RuleViolation
from .records import TurnoRecord
from .ruleset import RuleSet, RuleSetError, caf, default_ruleset_dict
from .simulator import simulate_turno
from .systems import BaseSystem, register
from .turno import check_smazzata, progress_of


def _dated(turno: Mapping[str, Any]) -> dict[str, Any]:
    """The turno record with a date (a turno in progress may not have one yet)."""
    return {**turno, "date": turno.get("date") or dt.date.today().isoformat()}


def _turno_record(turno: Mapping[str, Any]) -> TurnoRecord:
    """A turno input record (interchange shape) as the engine's TurnoRecord."""
    data = _dated(turno)
    doc = interchange.parse_document(
        {"format": interchange.FORMAT, "ruleset": "caf", "turni": [data]}, rules=caf()
    )
    return doc.turni[0]


class CafSystem(BaseSystem):
    code = "caf"
    label = "King C.A.F."
    generic_ledger = False  # its ledger has its own tables and screens (counts, series, titles)
    one_turno_a_day = True  # a member plays one turno a giornata (SPEC §8.1)
    takes_penalties = True  # penalità count in the turno total (SPEC §5)
    takes_sanctions = True  # the Retrocessione per contatore acts at the close (SPEC §7)
    series_ladder = True  # Serie A, B, ... (SPEC §7)
    giornata_chained = True  # series, absences and a late joiner's lowest score (SPEC §8)

    def default_rules(self) -> dict[str, Any]:
        return default_ruleset_dict()

    def rules(self, edits: Mapping[str, Any] | None = None) -> RuleSet:
        if not edits:
            return caf()
        try:
            return RuleSet.from_dict(dict(edits))
        except RuleSetError as exc:
            raise RuleViolation([Problem("RULESET", f"regolamento non valido: {exc}")]) from None

    def next_step(self, rules: RuleSet, turno: Mapping[str, Any]) -> dict[str, Any]:
        progress = progress_of(rules, _turno_record(turno))
        return {
            "number": progress.number,
            "dealer": progress.dealer,
            "complete": progress.complete,
            "calling_order": list(progress.calling_order()),
            "callable": {p: list(progress.callable_games(p)) for p in progress.players},
        }

    def check_smazzata(
        self, rules: RuleSet, turno: Mapping[str, Any], smazzata: Mapping[str, Any]
    ) -> list[Problem]:
        record = _turno_record({**turno, "smazzate": [*turno.get("smazzate", []), smazzata]})
        head = _turno_record(turno)
        problems, _forced = check_smazzata(rules, head, record.smazzate[-1])
        return problems

    def score_turno(self, rules: RuleSet, turno: Mapping[str, Any]) -> dict[str, Any]:
        doc = interchange.parse_document(
            {
                "format": interchange.FORMAT,
                "ruleset": "caf",
                "roster": [],
                "turni": [_dated(turno)],
            },
            rules=rules,
        )
        return interchange.output_document(interchange.score_document(doc))["turni"][0]

    def standing(
        self, rules: RuleSet, roster: Sequence[str], turni: Sequence[Mapping[str, Any]]
    ) -> list[dict[str, Any]]:
        doc = interchange.parse_document(
            {
                "format": interchange.FORMAT,
                "ruleset": "caf",
                "roster": list(roster),
                "turni": list(turni),
            },
            rules=rules,
        )
        return interchange.output_document(interchange.score_document(doc))["classifica"]

    def score_document(self, data: Mapping[str, Any]) -> dict[str, Any]:
        return interchange.score_json(data)

    def random_turno(
        self, rng: random.Random, players: Sequence[str], rules: RuleSet
    ) -> dict[str, Any]:
        return interchange.turno_to_input(simulate_turno(rules, players, rng))


register(CafSystem())
