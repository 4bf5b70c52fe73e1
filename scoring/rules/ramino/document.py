"""Ramino 101 turni and seasons in the ``kingclub/v1`` format (SPEC-ramino §8, §11)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any

from ..problems import (
    NOT_AN_OBJECT,
    TURNI_NOT_A_LIST,
    Problem,
    RuleViolation,
    gettext_noop,
    wrong_format,
    wrong_ruleset,
)
from ..ranking import competition_places
from .match import MatchState, check_hand, fees, places, play_hand
from .rules import RaminoRules, build_rules

FORMAT = "kingclub/v1"
NOT_AT_TABLE = gettext_noop("%(player)s non è al tavolo")
CODE = "ramino-101"


def two(d: Decimal) -> str:
    return str(d.quantize(Decimal("0.01")))


def turno_label(turno: Mapping[str, Any]) -> str:
    return f"{turno.get('date')!s} #{turno.get('number', 1)!s}"


def check_header(rules: RaminoRules, turno: Any) -> list[Problem]:
    """The match's own fields: players, first dealer, smazzate, tiebreak (SPEC §10)."""
    problems: list[Problem] = []
    if not isinstance(turno, Mapping):
        return [Problem("FORMAT", gettext_noop("il turno deve essere un oggetto"))]
    players = turno.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) and p for p in players):
        problems.append(
            Problem("FORMAT", gettext_noop("players: serve una lista di nomi"), field="players")
        )
        return problems
    if not rules.min_players <= len(players) <= rules.max_players:
        problems.append(
            Problem.said(
                "PLAYERS_COUNT",
                gettext_noop(
                    "Giocatori: a Ramino giocano da %(low)s a %(high)s giocatori, non %(n)s."
                ),
                {"low": rules.min_players, "high": rules.max_players, "n": len(players)},
                field="players",
            )
        )
    for p in sorted({p for p in players if players.count(p) > 1}):
        problems.append(
            Problem.said(
                "PLAYERS_COUNT",
                gettext_noop("Giocatori: %(player)s siede due volte."),
                {"player": p},
                player=p,
                field="players",
            )
        )
    if turno.get("first_dealer") not in players:
        problems.append(
            Problem.said(
                "FIRST_DEALER",
                gettext_noop("Primo mazziere: scegliere uno dei giocatori al tavolo."),
                field="first_dealer",
            )
        )
    if not isinstance(turno.get("smazzate", []), list):
        problems.append(
            Problem("FORMAT", gettext_noop("smazzate: deve essere una lista"), field="smazzate")
        )
    tiebreak = turno.get("tiebreak") or []
    if not isinstance(tiebreak, list) or not all(isinstance(p, str) for p in tiebreak):
        problems.append(
            Problem(
                "FIELD_TYPE", gettext_noop("tiebreak: serve una lista di nomi"), field="tiebreak"
            )
        )
    else:
        for p in tiebreak:
            if p not in players:
                at = {"player": p, "field": "tiebreak"}
                problems.append(Problem.said("UNKNOWN_PLAYER", NOT_AT_TABLE, {"player": p}, **at))
    return problems


def replay(rules: RaminoRules, turno: Mapping[str, Any]) -> tuple[MatchState, list[dict], list]:
    """Replay a match's smazzate: (state, scored smazzate as dicts, problems).

    Stops at the first smazzata with a problem (later ones depend on it), after reporting every
    problem of that smazzata.
    """
    problems = check_header(rules, turno)
    if problems:
        return MatchState.start([], ""), [], problems
    state = MatchState.start(turno["players"], turno["first_dealer"])
    scored: list[dict[str, Any]] = []
    for hand in turno.get("smazzate", []):
        found = check_hand(rules, state, hand)
        if found:
            problems += found
            break
        scored.append(play_hand(rules, state, hand).to_dict())
    return state, scored, problems


def score_match(rules: RaminoRules, turno: Mapping[str, Any]) -> dict[str, Any]:
    """A complete match scored as the output writes it; RuleViolation listing every problem."""
    state, scored, problems = replay(rules, turno)
    label = turno_label(turno) if isinstance(turno, Mapping) else None
    if not problems and not state.over:
        left = ", ".join(state.active)
        problems.append(
            Problem.said(
                "MATCH_UNFINISHED",
                gettext_noop("La partita non ha smazzate.")
                if not scored
                else gettext_noop("La partita non è finita: sono ancora in gioco %(players)s."),
                {"players": left} if scored else None,
                smazzata=None if not scored else state.played,
            )
        )
    if problems:
        raise RuleViolation([p.in_turno(label) for p in problems] if label else problems)
    placed, tie_problems = places(state, turno.get("tiebreak") or [])
    if tie_problems:
        raise RuleViolation([p.in_turno(label) for p in tie_problems])
    n = len(state.players)
    final = {p: state.totals.get(p, state.final_totals.get(p)) for p in state.players}
    return {
        "date": turno.get("date"),
        "number": turno.get("number", 1),
        "smazzate": scored,
        "winner": state.winner,
        "places": {p: placed[p] for p in state.players},
        "final_totals": final,
        "reentries": [{**r, "fee": two(r["fee"])} for r in state.reentry_log],
        "fees": {p: two(v) for p, v in fees(rules, state).items()},
        "league_points": {p: n - placed[p] for p in state.players},
    }


def standing(roster: Sequence[str], scored: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The season's Classifica (SPEC §8): league points, matches played and won."""
    figures: dict[str, dict[str, int]] = {}
    for t in scored:
        for p, place in t["places"].items():
            row = figures.setdefault(p, dict.fromkeys(STANDING_FIGURES, 0))
            row["league_points"] += t["league_points"][p]
            row["turni"] += 1
            row["wins"] += place == 1
    return rank_standing(roster, figures)


STANDING_FIGURES = ("league_points", "turni", "wins")


def rank_standing(
    roster: Sequence[str], figures: Mapping[str, Mapping[str, int]]
) -> list[dict[str, Any]]:
    """The Classifica rows in display order from each player's season figures (league points,
    matches played and won): by league points, then wins, then name."""
    names = list(dict.fromkeys([*roster, *figures]))
    row = {p: {k: int(figures.get(p, {}).get(k, 0)) for k in STANDING_FIGURES} for p in names}
    points = {p: row[p]["league_points"] for p in names}
    order = sorted(names, key=lambda p: (-points[p], -row[p]["wins"], p))
    place = competition_places(points)
    return [{"place": place[p], "player": p, **row[p]} for p in order]


def _check_turno_keys(turno: Mapping[str, Any], problems: list[Problem]) -> None:
    label = turno_label(turno)
    try:
        dt.date.fromisoformat(turno.get("date"))
    except (TypeError, ValueError):
        problems.append(
            Problem("FORMAT", gettext_noop("date: data non valida (AAAA-MM-GG)"), turno=label)
        )
    number = turno.get("number", 1)
    if not isinstance(number, int) or isinstance(number, bool) or not 1 <= number <= 10**6:
        problems.append(
            Problem("FORMAT", gettext_noop("number: deve essere un intero ≥ 1"), turno=label)
        )


def score_season(data: Any) -> dict[str, Any]:
    """A whole ``ramino-101`` season document scored (``kingscore``)."""
    if not isinstance(data, Mapping):
        raise RuleViolation([NOT_AN_OBJECT])
    problems: list[Problem] = []
    if data.get("format") != FORMAT:
        problems.append(wrong_format(data.get("format"), FORMAT))
    if data.get("ruleset") != CODE:
        problems.append(wrong_ruleset(data.get("ruleset"), CODE))
    try:
        rules = build_rules(data.get("rules"))
    except RuleViolation as exc:
        problems += exc.problems
        rules = build_rules()
    roster = data.get("roster") or []
    if not isinstance(roster, list) or not all(isinstance(p, str) for p in roster):
        problems.append(Problem("FORMAT", gettext_noop("roster: serve una lista di nomi")))
        roster = []
    turni = data.get("turni")
    if not isinstance(turni, list):
        problems.append(TURNI_NOT_A_LIST)
        turni = []
    seen: set[tuple[Any, Any]] = set()
    scored: list[dict[str, Any]] = []
    for turno in turni:
        if not isinstance(turno, Mapping):
            problems.append(Problem("FORMAT", gettext_noop("ogni turno deve essere un oggetto")))
            continue
        before = len(problems)
        _check_turno_keys(turno, problems)
        key = (turno.get("date"), turno.get("number", 1))
        if key in seen:
            problems.append(
                Problem(
                    "DUPLICATE_TURNO",
                    gettext_noop("due partite con la stessa data e numero"),
                    turno=turno_label(turno),
                )
            )
        seen.add(key)
        if len(problems) > before:
            continue
        try:
            scored.append(score_match(rules, turno))
        except RuleViolation as exc:
            problems += exc.problems
    if problems:
        raise RuleViolation(problems)
    return {
        "format": FORMAT,
        "ruleset": CODE,
        "turni": scored,
        "classifica": standing(roster, scored),
    }
