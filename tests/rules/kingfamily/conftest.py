"""Shared by the King family tests: the sample documents and small scoring helpers."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from scoring.rules.systems import get_system

ROOT = Path(__file__).resolve().parents[3]
A, B, C, D = "Anna", "Bruno", "Carla", "Dario"
PLAYERS = [A, B, C, D]


def r(*counts: int, players: list[str] = PLAYERS) -> dict[str, int]:
    """A result in seat order: r(1, 2, 0, 1) -> {"Anna": 1, "Bruno": 2, ...}."""
    return dict(zip(players, counts, strict=True))


def sample(code: str) -> dict[str, Any]:
    return json.loads((ROOT / "fixtures" / f"{code}-sample.json").read_text(encoding="utf-8"))


class Table:
    """Score the first smazzate of a turno in progress (one table, one rule set)."""

    def __init__(self, code: str, edits: dict | None = None, players: list[str] = PLAYERS):
        self.system = get_system(code)
        self.rules = self.system.rules(edits)
        self.players = players

    def turno(self, first_dealer: str, smazzate: list[dict], **extra: Any) -> dict[str, Any]:
        return {
            "date": "2026-11-22",
            "number": 1,
            "players": self.players,
            "first_dealer": first_dealer,
            "smazzate": copy.deepcopy(smazzate),
            **extra,
        }

    def score(self, first_dealer: str, smazzate: list[dict]) -> dict[str, Any]:
        return self.system.score_turno(
            self.rules, self.turno(first_dealer, smazzate), require_complete=False
        )

    def points(self, first_dealer: str, smazzate: list[dict]) -> list[list[int]]:
        """Each smazzata's points in seat order."""
        out = self.score(first_dealer, smazzate)["smazzate"]
        return [[s["points"][p] for p in self.players] for s in out]

    def problems(self, first_dealer: str, smazzate: list[dict]) -> list[tuple]:
        """(code, smazzata, player) of every problem of the last smazzata as the next one."""
        head = self.turno(first_dealer, smazzate[:-1])
        found = self.system.check_smazzata(self.rules, head, smazzate[-1])
        return [(p.code, p.smazzata, p.player) for p in found]


@pytest.fixture
def samples() -> dict[str, dict[str, Any]]:
    return {code: sample(code) for code in ("king-classico", "king-internazionale", "le-king")}
