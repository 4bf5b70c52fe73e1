"""Simulated seasons: the demo club, test data and benchmark data, all from the card-level
simulator (so every turno is a real, legal game)."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Mapping, Sequence
from typing import Any

from scoring.rules.caf import RuleSet, caf
from scoring.rules.caf.interchange import input_document
from scoring.rules.caf.simulator import simulate_turno

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

                from scoring.rules.caf import Sanction

                record = replace(
                    record,
                    sanctions=(
                        Sanction(rng.choice(table), reason="contatore: assenze ingiustificate"),
                    ),
                )
            turni.append(record)
            number += 1
    return input_document(name, list(players), turni)


# the hand-checked season (fixtures/season-hand.json) as the demo club's previous season: the same
# turni, played by the demo's own members, so that the club has one list of members
HAND_TO_DEMO = {
    "Anna": "Anna Bertini",
    "Bruno": "Bruno Cecchi",
    "Carla": "Carla Dini",
    "Dario": "Dario Fanucchi",
    "Elena": "Elena Giusti",
}


def renamed(doc: object, names: Mapping[str, str]) -> object:
    """A ``kingclub/v1`` document with every player name in ``names`` replaced: each string
    (value or key) equal to a name; free text such as a penalità's reason is left alone."""
    if isinstance(doc, dict):
        return {names.get(k, k): renamed(v, names) for k, v in doc.items()}
    if isinstance(doc, list):
        return [renamed(v, names) for v in doc]
    if isinstance(doc, str):
        return names.get(doc, doc)
    return doc


def demo_calendar(today: dt.date, giornate: int, every_days: int = 7) -> tuple[dt.date, str]:
    """The first date and the name of a demo season of ``giornate`` whose last giornata is a
    week before ``today``: a turno recorded today comes after every demo giornata."""
    start = today - dt.timedelta(days=every_days * giornate)
    year = start.year if start.month >= 8 else start.year - 1  # seasons start in late summer
    return start, f"{year}-{(year + 1) % 100:02d}"
