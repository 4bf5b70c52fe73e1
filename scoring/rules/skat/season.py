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
    figures: dict[str, dict[str, int]] = {}
    for t in scored:
        for p, total in t["totals"].items():
            row = figures.setdefault(p, dict.fromkeys(STANDING_FIGURES, 0))
            row["list_points"] += total
            row["turni"] += 1
            row["won"] += t["won"][p]
            row["lost"] += t["lost"][p]
    return rank_standing(roster, figures)


STANDING_FIGURES = ("list_points", "turni", "won", "lost")


def rank_standing(
    roster: Sequence[str], figures: Mapping[str, Mapping[str, int]]
) -> list[dict[str, Any]]:
    """The rows in display order from each player's season figures (list points, lists, games
    won and lost): see :func:`standing`."""
    members = list(dict.fromkeys([*roster, *figures]))
    rows = {
        p: {
            "place": 0,
            "player": p,
            **{k: int(figures.get(p, {}).get(k, 0)) for k in STANDING_FIGURES},
        }
        for p in members
    }

    def key(row: Mapping[str, Any]) -> tuple[int, int, int]:
        return (row["list_points"], row["won"], -row["lost"])

    for p, place in competition_places({p: key(row) for p, row in rows.items()}).items():
        rows[p]["place"] = place
    return sorted(rows.values(), key=lambda r: (r["place"], r["player"]))
