"""Helpers shared by the database tests: turni played through the services."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Iterable, Sequence

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
    season: Season, date: dt.date, players: Sequence[str], seed: int, close: bool = True
) -> tuple[Turno, TurnoRecord]:
    """A turno simulated card by card (``seed``), recorded smazzata by smazzata, closed."""
    record = simulate_turno(caf(), players, random.Random(seed), first_dealer=players[0])
    turno = turno_start(season=season, date=date, players=players, first_dealer=players[0])
    record_smazzate(turno, record.smazzate)
    if close:
        turno_close(turno=turno, tiebreak=record.tiebreak)
    return turno, record
