"""King C.A.F. (``caf``) as one implementation of the game-system protocol (:mod:`.systems`).

Each method delegates to the C.A.F. engine (:mod:`.turno`, :mod:`.season`, :mod:`.interchange`,
:mod:`.simulator`); nothing here computes a point of its own.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any

from ..problems import Problem, RuleViolation, gettext_noop
from ..systems import BaseSystem, Column, register
from . import interchange
from .records import TurnoRecord
from .ruleset import (
    SUIT_NAMES,
    TITLE_LABELS,
    TITLE_ORDER,
    TITLE_SHORT,
    RuleSet,
    RuleSetError,
    caf,
)
from .simulator import simulate_turno
from .turno import check_smazzata, check_turno_header, progress_of, rank
from .turno import score_turno as score_caf_turno


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
    ledger = "counts"  # a count per player per deal; series, titles, absences by giornata
    one_turno_a_day = True  # a member plays one turno a giornata (SPEC §8.1)
    takes_penalties = True  # penalità count in the turno total (SPEC §5)
    takes_sanctions = True  # the Retrocessione per contatore acts at the close (SPEC §7)
    series_ladder = True  # Serie A, B, ... (SPEC §7)
    awards_titles = True  # Scudetto, Coppa dei Campioni, Intercontinentale (SPEC §7)
    giornata_chained = True  # series, absences and a late joiner's lowest score (SPEC §8)
    season_score_decimals = 2  # league points: 15,00 (SPEC §8.3)
    direction = "counterclockwise"  # SPEC §3.1

    entry_form = "calls"  # the chiamante, the games still open to them, the counts (SPEC §3.2)

    @staticmethod
    def count_check(rules: RuleSet, step: Mapping[str, Any], seats: int) -> dict[str, Any]:
        """The running check of the counts, as data (the King family's shape): the check of
        each game of ``step["games"]`` (:meth:`GameRule.check`), chosen by the "game" field."""
        deck = rules.deck(seats)
        return {"by": "game", "checks": {g: rules.games[g].check(deck) for g in step["games"]}}

    def deals_total(self, rules: RuleSet, players: int) -> int | None:
        return rules.smazzate_count(players) if players in rules.decks else None  # 7 + 3N

    def check_table(
        self, rules: RuleSet, players: Sequence[str], first_dealer: str
    ) -> list[Problem]:
        return check_turno_header(rules, list(players), first_dealer)

    def table_sizes(self, rules: RuleSet) -> tuple[int, ...]:
        return tuple(range(rules.min_players, rules.max_players + 1))

    def default_rules(self) -> dict[str, Any]:
        return caf().to_dict()  # every key written out, as a season stores it

    def rules(self, edits: Mapping[str, Any] | None = None) -> RuleSet:
        """C.A.F.'s rule set; a season stores the whole table, so ``edits`` is one (``{}``
        names no deck nor game and is refused)."""
        if edits is None:
            return caf()
        try:
            return RuleSet.from_dict(dict(edits))
        except RuleSetError as exc:
            raise RuleViolation([exc.problem(field="rules")]) from None

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

    # -- the ledger's side (what the live screen, the Verbale and the Classifica ask) ------------
    # Checked against C.A.F.'s own ledger (services/turni.py) on random turni by
    # tests/property/test_caf_system.py, before C.A.F. moves onto the one ledger.

    def score_running(self, rules: RuleSet, turno: Mapping[str, Any]) -> dict[str, Any]:
        """A turno in progress scored so far (a tie still to draw is no problem yet)."""
        score = score_caf_turno(rules, _turno_record(turno), require_complete=False)
        problems = [p for p in score.problems if p.field != "tiebreak"]
        if problems:
            raise RuleViolation(problems)
        return {
            "smazzate": [
                {
                    "number": sm.number,
                    "dealer": sm.dealer,
                    "caller": sm.caller,
                    "game": sm.game,
                    "forced": sm.forced,
                    "trump": sm.trump,
                    "result": dict(sm.result),
                    "points": dict(sm.points),
                    "scazzata": sm.scazzata,
                    "cappotto": sm.cappotto,
                }
                for sm in score.smazzate
            ],
            "totals": dict(score.totals),
            "penalties": dict(score.penalties),
        }

    def ties(self, rules: RuleSet, turno: Mapping[str, Any]) -> list[list[str]]:
        """The groups of a finished turno with equal totals that no spareggio settles yet."""
        score = score_caf_turno(rules, _turno_record(turno), require_complete=False)
        if not score.complete:
            return []
        _places, problems, tied = rank(score.totals, list(turno.get("tiebreak") or ()))
        if not any(p.code == "TIE_UNRESOLVED" for p in problems):
            return []
        seat = {p: i for i, p in enumerate(score.players)}
        return [sorted(group, key=seat.__getitem__) for group in tied]

    def seat_results(self, scored: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
        """Per player of a closed turno (:meth:`score_turno`): total, place and the ratio (the
        turno's own figure; the league points come from the season's chained giornate)."""
        return {
            p: {
                "total": scored["totals"][p],
                "place": scored["places"][p],
                "score": Decimal(scored["ratios"][p]),
                "extra": {"penalties": scored["penalties"][p], "ratio": scored["ratios"][p]},
            }
            for p in scored["totals"]
        }

    def player_notes(self, rules: RuleSet, turno: Mapping[str, Any]) -> dict[str, str]:
        progress = progress_of(rules, _turno_record(turno))
        return {progress.dealer: "mazziere"} if progress.dealer and not progress.complete else {}

    def smazzata_keys(self, scored: Mapping[str, Any]) -> dict[str, Any]:
        return {"game": scored["game"], "caller": scored["caller"]}

    def describe(self, smazzata: Mapping[str, Any]) -> str:
        games = caf().games
        game = smazzata["game"]
        parts = [f"{smazzata['caller']} chiama {games[game].name if game in games else game}"]
        if smazzata.get("trump"):
            parts.append(f"briscola {SUIT_NAMES.get(smazzata['trump'], smazzata['trump'])}")
        if smazzata.get("forced"):
            parts.append("obbligato")
        if smazzata.get("scazzata"):
            parts.append("scazzata")
        if smazzata.get("cappotto"):
            parts.append(f"cappotto di {smazzata['cappotto']}")
        return ", ".join(parts)

    def turno_columns(self) -> list[tuple[str, str]]:
        return [("penalties", "Penalità"), ("ratio", "Rapporto")]

    def standing_columns(self) -> list[tuple[str, str]]:
        return [
            ("league_points", "Punti classifica"),
            ("series", "Serie"),
            ("turni", "Turni"),
            ("absences", "Assenze"),
            ("scudetti", "Scudetti"),
        ]

    classifica_notes = (
        gettext_noop(
            "Pos.: a pari punti si condivide il posto (più Scudetti prima, poi per nome)."
        ),
        gettext_noop("Mov.: posti guadagnati o persi dalla giornata precedente."),
        gettext_noop("Media: punti per giornata, assenze comprese."),
    )

    def classifica_columns(self) -> list[Column]:
        """The series and the league points, the movement and the Scudetti, the turni, the
        absences and the average, then the other titles (SPEC §8.4)."""
        return [
            Column("series", gettext_noop("Serie"), "series"),
            Column("score", gettext_noop("Punti"), "score"),
            Column("movement", gettext_noop("Mov."), "movement"),
            Column("title_SCUDETTO", gettext_noop("Scudetti"), "count"),
            Column("turni", gettext_noop("Turni"), narrow=True),
            Column("absences", gettext_noop("Assenze"), narrow=True),
            Column("average", gettext_noop("Media"), "average", narrow=True),
            *(
                Column(f"title_{code}", TITLE_LABELS[code], "count", True, TITLE_SHORT[code])
                for code in TITLE_ORDER
                if code != "SCUDETTO"
            ),
        ]


register(CafSystem())
