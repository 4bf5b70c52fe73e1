"""``kingclub/v1`` documents of rule set ``skat-isko`` (SPEC-skat §12): read, score, write."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
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
from .lista import label_of, score_list
from .rules import CODE, SkatRules, skat_rules
from .season import standing

FORMAT = "kingclub/v1"


def document_rules(data: Mapping[str, Any]) -> SkatRules:
    """The rule set a document scores with: the defaults, or its own edited copy (``rules``)."""
    edits = data.get("rules")
    return skat_rules(edits if isinstance(edits, Mapping) else None)


def _header_problems(data: Any) -> list[Problem]:
    if not isinstance(data, Mapping):
        return [NOT_AN_OBJECT]
    problems = []
    if data.get("format") != FORMAT:
        problems.append(wrong_format(data.get("format"), FORMAT))
    if data.get("ruleset") != CODE:
        problems.append(wrong_ruleset(data.get("ruleset"), CODE))
    if "season" in data and not isinstance(data["season"], str):
        problems.append(Problem("FORMAT", gettext_noop("season: deve essere un testo")))
    roster = data.get("roster", [])
    if not isinstance(roster, list) or not all(isinstance(p, str) and p for p in roster):
        problems.append(Problem("FORMAT", gettext_noop("roster: deve essere una lista di nomi")))
    if "rules" in data and not isinstance(data["rules"], Mapping):
        problems.append(Problem("FORMAT", gettext_noop("rules: deve essere una tabella")))
    if not isinstance(data.get("turni"), list):
        problems.append(TURNI_NOT_A_LIST)
    return problems


def _turno_problems(t: Any, index: int) -> list[Problem]:
    """The date and number of one list (the rest is :func:`.lista.score_list`'s)."""
    if not isinstance(t, Mapping):
        not_object = gettext_noop("turni[%(index)s]: deve essere un oggetto")
        return [Problem.said("FORMAT", not_object, {"index": index})]
    label = label_of(t)
    problems = []
    try:
        dt.date.fromisoformat(t.get("date"))
    except (TypeError, ValueError):
        problems.append(
            Problem("FORMAT", gettext_noop("date: data non valida (AAAA-MM-GG)"), turno=label)
        )
    number = t.get("number", 1)
    if not isinstance(number, int) or isinstance(number, bool) or number < 1:
        problems.append(
            Problem("FORMAT", gettext_noop("number: deve essere un intero ≥ 1"), turno=label)
        )
    return problems


def score_document(data: Any) -> dict[str, Any]:
    """A whole ``skat-isko`` season document scored: the ``kingscore`` output (SPEC-skat §12).

    Raises RuleViolation listing every problem of every list.
    """
    problems = _header_problems(data)
    if problems:
        raise RuleViolation(problems)
    rules = document_rules(data)
    scored: list[dict[str, Any]] = []
    seen: set[tuple[Any, Any]] = set()
    for i, t in enumerate(data["turni"], start=1):
        head = _turno_problems(t, i)
        problems.extend(head)
        if head:
            continue
        key = (t.get("date"), t.get("number", 1))
        if key in seen:
            problems.append(
                Problem(
                    "DUPLICATE_TURNO",
                    gettext_noop("due liste con la stessa data e lo stesso numero"),
                    turno=label_of(t),
                )
            )
        seen.add(key)
        try:
            scored.append(score_list(rules, {**t, "number": t.get("number", 1)}))
        except RuleViolation as exc:
            problems.extend(exc.problems)
    if problems:
        raise RuleViolation(problems)
    return {
        "format": FORMAT,
        "ruleset": CODE,
        "turni": scored,
        "classifica": standing(data.get("roster", []), scored),
    }
