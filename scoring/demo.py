"""Simulated seasons: the demo club, test data and benchmark data, all from the card-level
simulator (so every turno is a real, legal game)."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Sequence
from typing import Any

from scoring.rules import RuleSet, caf
from scoring.rules.interchange import input_document
from scoring.rules.simulator import simulate_turno

DEMO_MEMBERS = [
    "Anna Bertini",
    "Bruno Cecchi",
    "Carla Dini",
    "Dario Fanucchi",
    "Elena Giusti",
    "Franco Lazzari",
    "Giulia Marchi",
    "Luca Nardini",
    "Marta Orsetti",
    "Nicola Pardini",
    "Paola Ricci",
    "Roberto Salvi",
    "Silvia Tognetti",
]


def simulated_season(
    *,
    name: str,
    players: Sequence[str],
    giornate: int,
    seed: int = 1,
    start: dt.date = dt.date(2026, 9, 4),
    every_days: int = 7,
    table_sizes: Sequence[int] = (4,),
    attendance: float = 0.85,
    rules: RuleSet | None = None,
    penalty_chance: float = 0.02,
    sanction_chance: float = 0.0,
) -> dict[str, Any]:
    """A ``kingclub/v1`` document of a season played by ``players``.

    Each giornata, about ``attendance`` of the members come; they sit at tables of the sizes in
    ``table_sizes`` (tried in turn, largest first, while enough players are left).
    """
    rules = rules or caf()
    rng = random.Random(seed)
    turni = []
    for g in range(giornate):
        date = start + dt.timedelta(days=every_days * g)
        present = [p for p in players if rng.random() < attendance]
        rng.shuffle(present)
        number = 1
        sizes = sorted(table_sizes, reverse=True)
        while True:
            size = next((s for s in sizes if s <= len(present)), None)
            if size is None:
                break
            table, present = present[:size], present[size:]
            record = simulate_turno(
                rules, table, rng, date=date, number=number, penalty_chance=penalty_chance
            )
            if sanction_chance and rng.random() < sanction_chance:
                from dataclasses import replace

                from scoring.rules import Sanction

                record = replace(
                    record,
                    sanctions=(
                        Sanction(rng.choice(table), reason="contatore: assenze ingiustificate"),
                    ),
                )
            turni.append(record)
            number += 1
    return input_document(name, list(players), turni)
