"""One Skat list (Spielliste) at one table (SPEC-skat §1, §2, §7, §8): the dealer and who sits
out, every game checked and scored, the Seeger-Fabian list points, totals and places.

A list is the ``kingclub/v1`` turno record: ``{"date", "number", "players", "first_dealer",
"smazzate": [games], "penalties": [...], "tiebreak": [...]}``. Its scored form is exactly the
turno of the ``kingscore`` output (SPEC-skat §12).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import pairwise
from typing import Any

from ..problems import Problem, RuleViolation, gettext_noop
from .game import (
    Game,
    bonus_receivers,
    dealer_of,
    game_list_points,
    outcome,
    read_game,
    sitting_out_of,
)
from .rules import SkatRules


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _stranger(code: str, message: str, name: object, field: str) -> Problem:
    """A problem naming someone who does not sit at the table: ``message`` (marked with
    gettext_noop) names them as ``%(name)s`` (written as a value)."""
    return Problem.said(
        code,
        message,
        {"name": repr(name)},
        player=name if isinstance(name, str) else None,
        field=field,
    )


def _format(message: str, field: str | None = None) -> Problem:
    """A problem of the list's shape (``message`` marked with gettext_noop)."""
    return Problem.said("FORMAT", message, field=field)


def label_of(turno: Mapping[str, Any]) -> str:
    """How problems name a list: ``"2026-11-20 #1"``."""
    return f"{turno.get('date')!s} #{turno.get('number', 1)!s}"


def check_table(
    rules: SkatRules, turno: Mapping[str, Any]
) -> tuple[list[str] | None, list[Problem]]:
    """The players of a list if the table is valid (3 or 4 distinct names, the first dealer
    among them), and the problems found."""
    problems: list[Problem] = []
    players = turno.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) and p for p in players):
        problems.append(_format(gettext_noop("players: deve essere una lista di nomi"), "players"))
        return None, problems
    if len(set(players)) != len(players) or len(players) not in rules.table_sizes:
        sizes = " / ".join(str(n) for n in rules.table_sizes)
        problems.append(
            Problem.said(
                "PLAYERS_COUNT",
                gettext_noop(
                    "Giocatori: una lista di Skat ha %(sizes)s giocatori distinti (sono %(n)s: "
                    "%(players)s)."
                ),
                {"sizes": sizes, "n": len(players), "players": ", ".join(players)},
                field="players",
            )
        )
        return None, problems
    first = turno.get("first_dealer")
    if first not in players:
        problems.append(
            _stranger(
                "FIRST_DEALER",
                gettext_noop("il primo mazziere è %(name)s, che non siede a questo tavolo"),
                first,
                "first_dealer",
            )
        )
        return None, problems
    return list(players), problems


def next_step(rules: SkatRules, turno: Mapping[str, Any]) -> dict[str, Any]:
    """What comes next in a list recorded so far: the game number, the dealer, who sits out at a
    4-table, who may declare, the legal bids, and whether the list is complete.

    Raises RuleViolation if the table itself is invalid (players, first dealer).
    """
    players, problems = check_table(rules, turno)
    if players is None:
        raise RuleViolation(problems)
    played = turno.get("smazzate") or []
    total = rules.games_per_list[len(players)]
    number = len(played) + 1
    complete = len(played) >= total
    dealer = dealer_of(players, turno["first_dealer"], number)
    sitting_out = sitting_out_of(players, dealer)
    return {
        "number": number,
        "dealer": dealer,
        "complete": complete,
        "games": total,
        "left": max(0, total - len(played)),
        "sitting_out": sitting_out,
        "active": [p for p in players if p != sitting_out],
        "bids": list(rules.legal_bids),
    }


def check_game(
    rules: SkatRules, turno: Mapping[str, Any], record: Mapping[str, Any]
) -> list[Problem]:
    """Every problem of ``record`` recorded as the next game of the list ``turno``."""
    players, problems = check_table(rules, turno)
    if players is None:
        return problems
    played = turno.get("smazzate") or []
    number = len(played) + 1
    total = rules.games_per_list[len(players)]
    if number > total:
        problems.append(
            Problem.said(
                "GAMES_COUNT",
                gettext_noop("La lista è completa: %(total)s giochi con %(n)s giocatori."),
                {"total": total, "n": len(players)},
                smazzata=number,
            )
        )
    dealer = dealer_of(players, turno["first_dealer"], number)
    read = read_game(
        rules,
        record,
        players=players,
        sitting_out=sitting_out_of(players, dealer),
        number=number,
    )
    return [*problems, *read.problems]


def preview(
    rules: SkatRules, turno: Mapping[str, Any], record: Mapping[str, Any]
) -> tuple[dict[str, Any] | None, list[Problem]]:
    """The next game's output row (value, won, overbid, list points) as the segretario types it,
    or None and every problem of the record (the live screen's "value as you type")."""
    problems = check_game(rules, turno, record)
    if problems:
        return None, problems
    players = list(turno["players"])
    number = len(turno.get("smazzate") or []) + 1
    dealer = dealer_of(players, turno["first_dealer"], number)
    sitting_out = sitting_out_of(players, dealer)
    read = read_game(rules, record, players=players, sitting_out=sitting_out, number=number)
    return _row(rules, players, number, dealer, sitting_out, read.game), []


def _penalties(
    rules: SkatRules, turno: Mapping[str, Any], players: Sequence[str], problems: list[Problem]
) -> dict[str, int]:
    out = dict.fromkeys(players, 0)
    raw = turno.get("penalties") or []
    if not isinstance(raw, list):
        problems.append(_format(gettext_noop("penalties: deve essere una lista"), "penalties"))
        return out
    for item in raw:
        if not isinstance(item, Mapping):
            message = gettext_noop("penalties: ogni penalità è un oggetto")
            problems.append(_format(message, "penalties"))
            continue
        player, points = item.get("player"), item.get("points")
        if not rules.penalties_allowed:
            problems.append(
                Problem.said(
                    "PENALTY_NOT_ALLOWED",
                    gettext_noop("Penalità: il regolamento di questa stagione non ne prevede."),
                    None,
                    player=player if isinstance(player, str) else None,
                    field="penalties",
                )
            )
            continue
        if player not in players:
            problems.append(
                _stranger(
                    "UNKNOWN_PLAYER",
                    gettext_noop("la penalità nomina %(name)s, che non siede a questo tavolo"),
                    player,
                    "penalties",
                )
            )
        if not _is_int(points):
            problems.append(
                Problem.said(
                    "FIELD_TYPE",
                    gettext_noop(
                        "penalità: i punti devono essere un numero intero (trovato %(found)s)"
                    ),
                    {"found": repr(points)},
                    player=player if isinstance(player, str) else None,
                    field="penalties",
                )
            )
        elif player in out:
            out[player] += points
    return out


def _tiebreak(turno: Mapping[str, Any], players: Sequence[str], problems: list[Problem]) -> list:
    raw = turno.get("tiebreak") or []
    if not isinstance(raw, list) or not all(isinstance(p, str) for p in raw):
        problems.append(
            _format(gettext_noop("tiebreak: deve essere una lista di nomi"), "tiebreak")
        )
        return []
    for p in raw:
        if p not in players:
            problems.append(
                _stranger(
                    "UNKNOWN_PLAYER",
                    gettext_noop("il sorteggio nomina %(name)s, che non siede a questo tavolo"),
                    p,
                    "tiebreak",
                )
            )
    for p in sorted({p for p in raw if raw.count(p) > 1}):
        problems.append(
            Problem.said(
                "TIE_UNSETTLED",
                gettext_noop("%(player)s compare due volte nel sorteggio"),
                {"player": p},
                player=p,
                field="tiebreak",
            )
        )
    return [p for p in raw if p in players]


def rank(
    players: Sequence[str],
    totals: Mapping[str, int],
    won: Mapping[str, int],
    lost: Mapping[str, int],
    tiebreak: Sequence[str],
) -> tuple[dict[str, int] | None, list[Problem]]:
    """Places 1..n (SPEC-skat §8): list points, then more games won, then fewer games lost,
    then the recorded draw. Returns (places or None, problems)."""
    problems: list[Problem] = []

    def key(p: str) -> tuple[int, int, int]:
        return (totals[p], won[p], -lost[p])

    for a, b in pairwise(dict.fromkeys(tiebreak)):
        if key(a) < key(b):
            problems.append(
                Problem.said(
                    "TIE_UNSETTLED",
                    gettext_noop(
                        "Spareggio: il sorteggio mette %(a)s (%(a_points)s punti, %(a_won)s vinti, "
                        "%(a_lost)s persi) prima di %(b)s (%(b_points)s punti, %(b_won)s vinti, "
                        "%(b_lost)s persi), contro i risultati."
                    ),
                    {
                        "a": a,
                        "a_points": totals[a],
                        "a_won": won[a],
                        "a_lost": lost[a],
                        "b": b,
                        "b_points": totals[b],
                        "b_won": won[b],
                        "b_lost": lost[b],
                    },
                    player=a,
                    field="tiebreak",
                )
            )
    drawn = {p: i for i, p in enumerate(dict.fromkeys(tiebreak))}
    groups: dict[tuple[int, int, int], list[str]] = {}
    for p in players:
        groups.setdefault(key(p), []).append(p)
    for group in groups.values():
        missing = [p for p in group if p not in drawn]
        if len(group) > 1 and missing:
            problems.append(
                Problem.said(
                    "TIE_UNSETTLED",
                    gettext_noop(
                        "Spareggio: parità tra %(players)s a %(points)s punti, %(won)s giochi "
                        "vinti e %(lost)s persi; registrare l'ordine sorteggiato."
                    ),
                    {
                        "players": ", ".join(group),
                        "points": totals[group[0]],
                        "won": won[group[0]],
                        "lost": lost[group[0]],
                    },
                    player=missing[0],
                    field="tiebreak",
                )
            )
    if problems:
        return None, problems
    order = sorted(players, key=lambda p: (tuple(-x for x in key(p)), drawn.get(p, 0)))
    return {p: order.index(p) + 1 for p in players}, problems


def score_list(
    rules: SkatRules,
    turno: Mapping[str, Any],
    *,
    require_complete: bool = True,
    ranked: bool = True,
) -> dict[str, Any]:
    """The scored list as the ``kingscore`` output writes one turno (SPEC-skat §12).

    With ``require_complete=False`` a list in progress is scored too (the live screen's running
    list): its ``places`` are ``None`` until the list is complete (always with ``ranked=False``,
    which the generator uses to find the ties a draw must settle). Raises RuleViolation listing
    every problem, each naming the list, the game and the player.
    """
    label = label_of(turno)
    players, problems = check_table(rules, turno)
    raw = turno.get("smazzate")
    if not isinstance(raw, list):
        problems.append(_format(gettext_noop("smazzate: deve essere una lista dei giochi")))
    if players is None or not isinstance(raw, list):
        # Without a valid table the games cannot be placed; report what is known.
        raise RuleViolation([p.in_turno(label) for p in problems])
    n = len(players)
    total = rules.games_per_list[n]
    if len(raw) > total or (require_complete and len(raw) != total):
        problems.append(
            Problem.said(
                "GAMES_COUNT",
                gettext_noop("Una lista a %(n)s giocatori ha %(total)s giochi (sono %(found)s)."),
                {"n": n, "total": total, "found": len(raw)},
            )
        )
    rows: list[dict[str, Any]] = []
    won = dict.fromkeys(players, 0)
    lost = dict.fromkeys(players, 0)
    opponents_lost = dict.fromkeys(players, 0)
    game_points = dict.fromkeys(players, 0)
    running = dict.fromkeys(players, 0)
    for k, record in enumerate(raw, start=1):
        dealer = dealer_of(players, turno["first_dealer"], k)
        sitting_out = sitting_out_of(players, dealer)
        read = read_game(rules, record, players=players, sitting_out=sitting_out, number=k)
        problems.extend(read.problems)
        if read.problems:
            continue
        row = _row(rules, players, k, dealer, sitting_out, read.game)
        rows.append(row)
        for p, v in row["points"].items():
            running[p] += v
        if read.game is not None:
            d = read.game.declarer
            game_points[d] += row["score"]
            (won if row["won"] else lost)[d] += 1
            if not row["won"]:
                for p in bonus_receivers(rules, players, sitting_out, d):
                    opponents_lost[p] += 1
    penalties = _penalties(rules, turno, players, problems)
    tiebreak = _tiebreak(turno, players, problems)
    if problems:
        raise RuleViolation([p.in_turno(label) for p in problems])
    totals = {p: running[p] + penalties[p] for p in players}
    places: dict[str, int] | None = None
    if ranked and len(raw) == total:
        places, tie_problems = rank(players, totals, won, lost, tiebreak)
        if tie_problems:
            raise RuleViolation([p.in_turno(label) for p in tie_problems])
    return {
        "date": turno.get("date"),
        "number": turno.get("number", 1),
        "smazzate": rows,
        "penalties": penalties,
        "game_points": game_points,
        "won": won,
        "lost": lost,
        "opponents_lost": opponents_lost,
        "totals": totals,
        "places": places,
    }


def _row(
    rules: SkatRules,
    players: Sequence[str],
    number: int,
    dealer: str,
    sitting_out: str | None,
    game: Game | None,
) -> dict[str, Any]:
    """One game of the list as the output writes it (SPEC-skat §12)."""
    if game is None:  # passed in ("eingepasst")
        return {
            "number": number,
            "dealer": dealer,
            "sitting_out": sitting_out,
            "declarer": None,
            "game": None,
            "passed": True,
            "multiplier": None,
            "value": 0,
            "overbid": False,
            "won": None,
            "score": 0,
            "points": dict.fromkeys(players, 0),
        }
    result = outcome(rules, game)
    return {
        "number": number,
        "dealer": dealer,
        "sitting_out": sitting_out,
        "declarer": game.declarer,
        "game": game.game,
        "passed": False,
        "multiplier": result.multiplier,
        "value": result.value,
        "overbid": result.overbid,
        "won": result.won,
        "score": result.score,
        "points": game_list_points(rules, players, sitting_out, game.declarer, result),
    }
