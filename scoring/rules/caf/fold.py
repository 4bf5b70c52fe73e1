"""King C.A.F.'s season as a fold of closed seats, giornata by giornata (issue 24, "One ledger").

What the records ledger keeps of a closed C.A.F. turno is, per seat, what
:meth:`~.system.CafSystem.seat_results` gives: ``{"total", "place", "extra"}`` with the turno's
own ratio and the titles it carried (a Retrocessione per contatore among them is the sanction the
segretario recorded). The season is a chain (SPEC §8): a turno's series moves, titles and league
points depend on the series and the Scudetto streak *before its giornata*, and a roster member
absent from a giornata takes its lowest league points. So the fold plays each giornata with the
engine (:func:`.season.play_giornate`, the one scorer) from the state kept after the giornata
before it, and keeps, as plain JSON:

``{"giornate": n, "lowest": "sum", "players": {key: {"series", "streak", "score", "turni",
"present", "lowest", "titles"}}}``

- ``giornate`` and ``lowest``: the giornate with a closed turno so far and the sum of their
  lowest league points;
- per player (a member id for the ledger, a name for :func:`standing`): the series and Scudetto
  streak after the giornata, the league points of the turni played (``score``), the turni
  closed, the giornate present at (a closed turno, or a turno still open that excuses them) and
  the sum of those giornate's lowest scores, the titles won.

A roster member's absences are then ``giornate - present`` and their points
``lowest - present lowest``: a member enrolled late, or never seated, takes the lowest score of
every giornata without being named in it (SPEC §8.1). Decimals are strings (the state is stored
as JSON), never floats.

A turno whose seats have no place (``"place": None``) is a turno of the giornata still open: its
players are excused from that giornata (as the counts ledger's ``pending``), nothing else.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal
from typing import Any

from .interchange import classifica_row
from .records import SANCTION_CONTATORE, Sanction, SeasonState, Standing, TableResult
from .ruleset import RuleSet
from .season import play_giornate, rank_classifica, starting_state

# the date play_giornate is given for one giornata (the fold is told which turni are one day)
_DAY = dt.date(2000, 1, 1)

Seats = Mapping[str, Mapping[str, Any]]  # one turno: player key -> {"total", "place", "extra"}


def _entry(rules: RuleSet, series: str | None = None) -> dict[str, Any]:
    return {
        "series": series or rules.start_series,
        "streak": 0,
        "score": "0",
        "turni": 0,
        "present": 0,
        "lowest": "0",
        "titles": {},
    }


def start(rules: RuleSet, series: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The state a season starts from: every player at the rule set's start series except those
    given one carried over from the season before (checked: :func:`.season.starting_state`)."""
    state = starting_state(rules, series)
    return {
        "giornate": 0,
        "lowest": "0",
        "players": {str(k): _entry(rules, s) for k, s in state.series.items()},
    }


def _copy(state: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "giornate": state.get("giornate", 0),
        "lowest": state.get("lowest", "0"),
        "players": {
            k: {**v, "titles": dict(v.get("titles", {}))}
            for k, v in state.get("players", {}).items()
        },
    }


def chain(state: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """The series and Scudetto streaks of a state, as :meth:`.system.CafSystem.score_turno`
    reads them (``before``): a SeasonState's dict."""
    players = state.get("players", {})
    return {
        "series": {k: e["series"] for k, e in players.items()},
        "streak": {k: e["streak"] for k, e in players.items() if e["streak"]},
    }


def _closed(turno: Seats) -> bool:
    return bool(turno) and all(seat.get("place") is not None for seat in turno.values())


def play(
    rules: RuleSet, state: Mapping[str, Any], turni: Sequence[Seats]
) -> tuple[dict[str, Any], list[dict[str, dict[str, Any]]]]:
    """One giornata: ``state`` with the turni of that day (player key -> seat) played, and each
    closed turno's outcome per player, in the order given: ``{"series_before", "series_after",
    "titles" (list, SPEC §8.3's order), "league_points" (Decimal)}``. ``state`` is not changed;
    a day with no closed turno changes nothing (it has no lowest score yet)."""
    out = _copy(state)
    closed = [t for t in turni if _closed(t)]
    if not closed:
        return out, []
    players = out["players"]
    for turno in turni:
        for key in turno:
            players.setdefault(str(key), _entry(rules))
    before = SeasonState.from_dict(chain(out))
    tables = [
        TableResult(
            key=i,
            date=_DAY,
            number=i + 1,
            order=tuple(str(k) for k in sorted(t, key=lambda k: t[k]["place"])),
            ratios={str(k): Decimal(str(seat["extra"]["ratio"])) for k, seat in t.items()},
            sanctions=tuple(
                Sanction(str(k))
                for k, seat in t.items()
                if SANCTION_CONTATORE in seat["extra"].get("titles", ())
            ),
        )
        for i, t in enumerate(closed)
    ]
    outcomes, days, after = play_giornate(rules, (), tables, before)
    lowest = days[0].lowest
    outs: list[dict[str, dict[str, Any]]] = []
    for i, turno in enumerate(closed):
        o = outcomes[i]
        mine: dict[str, dict[str, Any]] = {}
        for key in turno:
            k = str(key)
            entry = players[k]
            entry["score"] = str(Decimal(entry["score"]) + o.league_points[k])
            entry["turni"] += 1
            for code in o.titles[k]:
                entry["titles"][code] = entry["titles"].get(code, 0) + 1
            mine[k] = {
                "series_before": o.series_before[k],
                "series_after": o.series_after[k],
                "titles": list(o.titles[k]),
                "league_points": o.league_points[k],
            }
        outs.append(mine)
    for k, entry in players.items():
        entry["series"] = after.series.get(k, entry["series"])
        entry["streak"] = after.streak.get(k, 0)
    for k in {str(key) for turno in turni for key in turno}:
        players[k]["present"] += 1
        players[k]["lowest"] = str(Decimal(players[k]["lowest"]) + lowest)
    out["giornate"] += 1
    out["lowest"] = str(Decimal(out["lowest"]) + lowest)
    return out, outs


def rank(rules: RuleSet, roster: Iterable[str], state: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The Classifica rows in display order (SPEC §8.4) from a state keyed by name: the keys
    ``kingscore`` prints (``place``, ``player``, ``league_points`` as a string with two decimals,
    ``series``, ``turni``, ``absences``, ``scudetti``) and every title's count (``titles``).
    The members are the roster and every player who closed a turno."""
    players = state.get("players", {})
    giornate, lowest = state.get("giornate", 0), Decimal(state.get("lowest", "0"))
    members = dict.fromkeys([*roster, *(p for p, e in players.items() if e["turni"])])
    standings = []
    for p in members:
        e = players.get(p) or _entry(rules)
        standings.append(
            Standing(
                player=p,
                score=Decimal(e["score"]) + lowest - Decimal(e["lowest"]),
                series=e["series"],
                turni=e["turni"],
                absences=giornate - e["present"],
                titles=dict(e["titles"]),
            )
        )
    return [
        {**classifica_row(place, st), "titles": dict(st.titles)}
        for place, st in rank_classifica(standings)
    ]
