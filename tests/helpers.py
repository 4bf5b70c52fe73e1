"""Helpers shared by the database tests: turni played through the services, deals they type
(``tools.redteam`` posts the Skat one too)."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Iterable, Sequence
from typing import Any

from scoring.models import Season, Turno
from scoring.rules.caf import SmazzataRecord, TurnoRecord, caf
from scoring.rules.caf.simulator import simulate_turno
from scoring.services.turni import smazzata_record, turno_close, turno_start


def record_smazzate(turno: Turno | int, smazzate: Iterable[SmazzataRecord], first: int = 1) -> None:
    """Record smazzate through the service, numbered from ``first``."""
    for i, sm in enumerate(smazzate, start=first):
        smazzata_record(
            turno=turno, game=sm.game, caller=sm.caller, counts=sm.result, trump=sm.trump, number=i
        )


def play_turno(
    season: Season,
    date: dt.date,
    players: Sequence[str],
    seed: int,
    close: bool = True,
    deals: int | None = None,
) -> tuple[Turno, TurnoRecord]:
    """A turno simulated card by card (``seed``), recorded smazzata by smazzata, closed; or in
    corso (``close=False``) with only its first ``deals`` smazzate."""
    record = simulate_turno(caf(), players, random.Random(seed), first_dealer=players[0])
    turno = turno_start(season=season, date=date, players=players, first_dealer=players[0])
    record_smazzate(turno, record.smazzate[:deals])
    if close:
        turno_close(turno=turno, tiebreak=record.tiebreak)
    return turno, record


def penalised_season() -> Season:
    """A C.A.F. season as the demo simulates it, imported: five members over two giornate
    (seed 3), a penalità and a sanction on every turno, every turno closed."""
    from scoring.demo import simulated_season
    from scoring.services.interchange import season_import

    return season_import(
        data=simulated_season(
            name="2026-27",
            players=["Anna", "Bruno", "Carla", "Dario", "Elena"],
            giornate=2,
            seed=3,
            penalty_chance=1.0,
            sanction_chance=1.0,
        )
    )


def grand_hand() -> dict[str, Any]:
    """SPEC-skat §13, preisskat.org's Grand hand with 4, schneider announced: the declarer Bruno
    takes 89 card points in 7 tricks (the opponents 31); 8 × 24 = 192, schneider missed: lost
    (−384 by default), as the engine records it."""
    return {
        "declarer": "Bruno",
        "game": "GRAND",
        "bid": 48,
        "matadors": 4,
        "with": True,
        "hand": True,
        "schneider_announced": True,
        "declarer_points": 89,
        "declarer_tricks": 7,
    }


# the same deal as the live screen's form posts it (a box ticked is "1")
GRAND_HAND_FORM = {k: "1" if v is True else str(v) for k, v in grand_hand().items()}


def bruno_closes() -> dict[str, Any]:
    """A Ramino deal of Anna, Bruno, Carla, Dario: Bruno closes normally (−10), Anna keeps 34
    points in hand, Carla 12, Dario 55."""
    return {
        "closer": "Bruno",
        "close": "NORMALE",
        "penalties": {"Anna": 34, "Carla": 12, "Dario": 55},
    }
