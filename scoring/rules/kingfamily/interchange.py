"""The ``kingclub/v1`` documents of the King family: a season document checked (every problem
at once) and scored into exactly the output of SPEC-king-family §0.7."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..calendar import calendar_of
from ..problems import NOT_AN_OBJECT, Problem, RuleViolation, gettext_noop, wrong_format
from .records import is_int
from .rules import CODES, KingRules, make_rules
from .turno import label_of, read_head, replay, score_replay, standing, valid_date

FORMAT = "kingclub/v1"


def _roster(value: Any, problems: list[Problem]) -> list[str]:
    if value is None:
        return []
    if (
        not isinstance(value, list)
        or not all(isinstance(p, str) and p for p in value)
        or len(set(value)) != len(value)
    ):
        problems.append(
            Problem("ROSTER", gettext_noop("roster deve essere una lista di nomi distinti"))
        )
        return []
    return list(value)


def _across_turni(turni: list[Any], one_turno_a_day: bool = True) -> list[Problem]:
    """DUPLICATE_TURNO (same date and number) and PLAYS_TWICE (one player, two turni a day,
    unless the rule set's calendar lets a member sit at several: ``one_turno_a_day``)."""
    problems: list[Problem] = []
    seen: set[tuple[str, int]] = set()
    seated: dict[tuple[str, str], int] = {}
    for t in turni:
        if not isinstance(t, Mapping) or not valid_date(t.get("date")):
            continue
        date, number = t["date"], t.get("number", 1)
        if not is_int(number):
            continue  # FIELD_TYPE, reported with the turno
        label = label_of(t)
        if (date, number) in seen:
            problems.append(
                Problem(
                    "DUPLICATE_TURNO",
                    gettext_noop("due turni con la stessa data e numero"),
                    turno=label,
                )
            )
        seen.add((date, number))
        players = t.get("players")
        names = [p for p in players if isinstance(p, str)] if isinstance(players, list) else []
        for p in dict.fromkeys(names):
            other = seated.get((date, p))
            if one_turno_a_day and other is not None and other != number:
                problems.append(
                    Problem.said(
                        "PLAYS_TWICE",
                        gettext_noop(
                            "%(player)s gioca già il turno #%(other)s dello stesso giorno"
                        ),
                        {"player": p, "other": other},
                        player=p,
                        turno=label,
                    )
                )
            seated.setdefault((date, p), number)
    return problems


def read_document(data: Any) -> tuple[KingRules, list[str], list[Any]]:
    """The rules, the roster and the turni of a document; RuleViolation listing every problem
    of its shape and rules (the turni are checked by :func:`score_document`)."""
    if not isinstance(data, Mapping):
        raise RuleViolation([NOT_AN_OBJECT])
    problems: list[Problem] = []
    if data.get("format") != FORMAT:
        problems.append(wrong_format(data.get("format"), FORMAT))
    code = data.get("ruleset")
    rules = None
    if code not in CODES:
        unknown = gettext_noop("regolamento sconosciuto: %(code)s")
        problems.append(Problem.said("RULESET", unknown, {"code": repr(code)}))
    else:
        try:
            rules = make_rules(code, data.get("rules"))
        except RuleViolation as exc:
            problems.extend(exc.problems)
    if not isinstance(data.get("season", ""), str):
        problems.append(Problem("FORMAT", gettext_noop("season deve essere un testo")))
    roster = _roster(data.get("roster"), problems)
    turni = data.get("turni")
    if not isinstance(turni, list):
        problems.append(Problem("FORMAT", gettext_noop("turni deve essere una lista")))
    if problems:
        raise RuleViolation(problems)
    assert rules is not None and isinstance(turni, list)
    return rules, roster, turni


def score_document(data: Any) -> dict[str, Any]:
    """A whole season document scored (the ``kingscore`` command); RuleViolation otherwise."""
    rules, roster, turni = read_document(data)
    problems: list[Problem] = []
    replays = []
    for index, raw in enumerate(turni, start=1):
        head, head_problems = read_head(rules, raw)
        label = label_of(raw, index)
        problems.extend(p.in_turno(label) for p in head_problems)
        if head is None:
            continue
        rep = replay(rules, head)
        problems.extend(p.in_turno(label) for p in rep.problems)
        replays.append(rep)
    calendar = calendar_of(data.get("rules"), one_turno_a_day=True)  # checked by read_document
    problems.extend(_across_turni(turni, calendar.one_turno_a_day))
    if problems:
        raise RuleViolation(problems)
    scored = [score_replay(rules, rep) for rep in replays]
    return {
        "format": FORMAT,
        "ruleset": rules.code,
        "turni": scored,
        "classifica": standing(rules, roster, scored),
    }
