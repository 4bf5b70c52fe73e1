"""The Skat season standing (SPEC-skat §9): the sum of list points over every list."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..ranking import competition_places


def standing(roster: Sequence[str], scored: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The season's rows in display order from scored lists (:func:`.lista.score_list` output).

    Every roster member and every player of a list has a row: place, list points, lists played,
    games won, games lost. Place = 1 + the number of players better by (list points, games won,
    fewer games lost); players equal on all three share the place; within a place, by name.
    """
    members = list(dict.fromkeys([*roster, *(p for t in scored for p in t["totals"])]))
    rows = {
        p: {"place": 0, "player": p, "list_points": 0, "turni": 0, "won": 0, "lost": 0}
        for p in members
    }
    for t in scored:
        for p, total in t["totals"].items():
            row = rows[p]
            row["list_points"] += total
            row["turni"] += 1
            row["won"] += t["won"][p]
            row["lost"] += t["lost"][p]

    def key(row: Mapping[str, Any]) -> tuple[int, int, int]:
        return (row["list_points"], row["won"], -row["lost"])

    for p, place in competition_places({p: key(row) for p, row in rows.items()}).items():
        rows[p]["place"] = place
    return sorted(rows.values(), key=lambda r: (r["place"], r["player"]))
