"""Every invalid input of SPEC-king-family §D is rejected with its code, naming the turno, the
smazzata and the player where there is one; every problem is reported at once."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from scoring.rules.problems import RuleViolation
from scoring.rules.systems import system_of_document

from .conftest import A, B, C, D, r, sample

CL, IN, LK = "king-classico", "king-internazionale", "le-king"
LABEL = {CL: "2026-11-24 #1", IN: "2026-11-25 #1", LK: "2026-11-22 #1"}


def kingscore(doc: Any) -> dict:
    """What the kingscore command runs: the system the document names scores it."""
    return system_of_document(doc).score_document(doc)


def problems_of(doc: Any) -> list[tuple[str, str | None, int | None, str | None]]:
    with pytest.raises(RuleViolation) as exc:
        kingscore(doc)
    return [(p.code, p.turno, p.smazzata, p.player) for p in exc.value.problems]


def sm(doc: dict, k: int) -> dict:
    """Smazzata ``k`` (1-based) of the first turno."""
    return doc["turni"][0]["smazzate"][k - 1]


def turno(doc: dict) -> dict:
    return doc["turni"][0]


def at(k: int) -> Callable[[dict], dict]:
    return lambda d: sm(d, k)


def res(k: int) -> Callable[[dict], dict]:
    return lambda d: sm(d, k)["result"]


def sold(k: int) -> Callable[[dict], dict]:
    return lambda d: sm(d, k)["sale"]


def first_penalty(d: dict) -> dict:
    return turno(d)["penalties"][0]


def setter(path: Callable[[dict], Any], key: Any, value: Any) -> Callable[[dict], None]:
    def mutate(doc: dict) -> None:
        path(doc)[key] = value

    return mutate


def second_turno(**changes: Any) -> Callable[[dict], None]:
    def mutate(doc: dict) -> None:
        doc["turni"].append({**doc["turni"][0], **changes})

    return mutate


def swap(i: int, j: int) -> Callable[[dict], None]:
    def mutate(doc: dict) -> None:
        s = turno(doc)["smazzate"]
        s[i - 1], s[j - 1] = s[j - 1], s[i - 1]

    return mutate


CASES: list[tuple[str, str, Callable[[dict], None], tuple]] = [
    # (rule set, code, mutation, (turno label or None, smazzata, player))
    (LK, "FORMAT", setter(lambda d: d, "format", "kingclub/v2"), (None, None, None)),
    (IN, "FORMAT", setter(lambda d: d, "turni", {"a": 1}), (None, None, None)),
    (IN, "FORMAT", setter(lambda d: d, "season", 2026), (None, None, None)),
    (CL, "RULES", setter(lambda d: d, "rules", {"colour": "red"}), (None, None, None)),
    (CL, "RULES", setter(lambda d: d, "rules", {"blind_allowed": "yes"}), (None, None, None)),
    (CL, "RULES", setter(lambda d: d, "rules", {"games": ["NQ", "NQ"]}), (None, None, None)),
    (CL, "RULES", setter(lambda d: d, "rules", {"games": ["NQ", "ASTA"]}), (None, None, None)),
    (CL, "RULES", setter(lambda d: d, "rules", {"games": ["NQ", "P7H"]}), (None, None, None)),
    (CL, "RULES", setter(lambda d: d, "rules", {"points": {"NQ": "-3"}}), (None, None, None)),
    (CL, "RULES", setter(lambda d: d, "rules", {"table_sizes": [3, 4]}), (None, None, None)),
    (LK, "RULES", setter(lambda d: d, "rules", {"order": "RANDOM"}), (None, None, None)),
    (LK, "RULES", setter(lambda d: d, "rules", {"standing": "ELO"}), (None, None, None)),
    (LK, "RULES", setter(lambda d: d, "rules", {"nu2_points": [-2]}), (None, None, None)),
    (LK, "RULES", setter(lambda d: d, "rules", {"points": {"NU2": -2}}), (None, None, None)),
    (LK, "RULES", setter(lambda d: d, "rules", ["order"]), (None, None, None)),
    (
        IN,
        "RULES",
        setter(lambda d: d, "rules", {"unplayed_tricks": {"seller": 4, "others": 2}}),
        (None, None, None),
    ),
    (CL, "ROSTER", setter(lambda d: d, "roster", [A, A]), (None, None, None)),
    (CL, "ROSTER", setter(lambda d: d, "roster", "Anna"), (None, None, None)),
    (LK, "DATE", setter(turno, "date", "22/11/2026"), ("22/11/2026 #1", None, None)),
    (LK, "DATE", setter(turno, "date", "2026-02-30"), ("2026-02-30 #1", None, None)),
    (LK, "DUPLICATE_TURNO", second_turno(), (LABEL[LK], None, None)),
    (IN, "PLAYS_TWICE", second_turno(number=2), ("2026-11-25 #2", None, A)),
    (CL, "PLAYERS_COUNT", setter(turno, "players", [A, B, C, D, "Elena"]), (LABEL[CL], None, None)),
    (LK, "PLAYERS_COUNT", setter(turno, "players", [A, B]), (LABEL[LK], None, None)),
    (LK, "PLAYERS_COUNT", setter(turno, "players", "Anna, Bruno"), (LABEL[LK], None, None)),
    (IN, "PLAYER_DUPLICATE", setter(turno, "players", [A, B, C, C]), (LABEL[IN], None, C)),
    (IN, "FIRST_DEALER", setter(turno, "first_dealer", "Elena"), (LABEL[IN], None, None)),
    (LK, "SMAZZATE_COUNT", lambda d: turno(d)["smazzate"].pop(), (LABEL[LK], None, None)),
    (
        CL,
        "SMAZZATE_COUNT",
        lambda d: turno(d)["smazzate"].append(sm(d, 1)),
        (LABEL[CL], None, None),
    ),
    (CL, "GAME_UNKNOWN", setter(at(1), "game", "ASTA"), (LABEL[CL], 1, None)),
    (IN, "GAME_UNKNOWN", setter(at(1), "game", "DOMINO"), (LABEL[IN], 1, None)),
    (LK, "GAME_UNKNOWN", setter(lambda d: d, "rules", {"with_nu2": False}), (LABEL[LK], 10, None)),
    (CL, "GAME_NOT_IN_RULESET", setter(at(1), "game", "NJK"), (LABEL[CL], 1, None)),
    (  # Anna deals 1 and 5 and chooses NQ both times
        CL,
        "GAME_REPEATED",
        lambda d: turno(d)["smazzate"].__setitem__(4, sm(d, 1)),
        (LABEL[CL], 5, A),
    ),
    (IN, "GAME_ORDER", swap(1, 2), (LABEL[IN], 1, None)),
    (LK, "GAME_ORDER", swap(1, 3), (LABEL[LK], 3, None)),
    (LK, "RESULT_PLAYERS", lambda d: res(1)(d).pop(A), (LABEL[LK], 1, A)),
    (LK, "RESULT_PLAYERS", setter(res(1), "Elena", 0), (LABEL[LK], 1, "Elena")),
    (LK, "RESULT_PLAYERS", setter(at(1), "result", [6, 1, 5, 1]), (LABEL[LK], 1, None)),
    (LK, "COUNT_TYPE", setter(res(1), B, -1), (LABEL[LK], 1, B)),
    (LK, "COUNT_TYPE", setter(res(1), B, 1.5), (LABEL[LK], 1, B)),
    (LK, "COUNT_TYPE", setter(res(1), B, "1"), (LABEL[LK], 1, B)),
    (CL, "COUNT_RANGE", setter(res(2), A, 2), (LABEL[CL], 2, A)),  # NKH
    (IN, "COUNT_RANGE", setter(res(6), A, 3), (LABEL[IN], 6, A)),  # NU2
    (CL, "COUNT_RANGE", setter(res(4), A, 14), (LABEL[CL], 4, A)),  # Domino
    (LK, "COUNT_SUM", setter(res(3), A, 3), (LABEL[LK], 3, None)),  # NH
    (IN, "COUNT_SUM", setter(res(4), A, 3), (LABEL[IN], 4, None)),  # NJK
    (CL, "DOMINO_WINNER", setter(res(4), C, 0), (LABEL[CL], 4, None)),
    (CL, "DOMINO_WINNER", setter(res(4), B, 1), (LABEL[CL], 4, None)),
    (CL, "TRUMP", lambda d: sm(d, 17).pop("trump"), (LABEL[CL], 17, None)),
    (LK, "TRUMP", setter(at(2), "trump", "X"), (LABEL[LK], 2, None)),
    (IN, "TRUMP", lambda d: sm(d, 10).pop("trump"), (LABEL[IN], 10, None)),
    (IN, "TRUMP", setter(at(8), "trump", "S"), (LABEL[IN], 8, None)),
    (IN, "MODE", setter(at(10), "mode", "BOTH"), (LABEL[IN], 10, None)),
    (IN, "MODE", setter(at(8), "sale", {"buyer": D, "offer": 2}), (LABEL[IN], 8, None)),
    (IN, "UNPLAYED_DATA", setter(at(9), "trump", "S"), (LABEL[IN], 9, None)),
    (IN, "UNPLAYED_DATA", lambda d: sm(d, 9).update(result=r(1, 2, 3, 7)), (LABEL[IN], 9, None)),
    (CL, "SALE_BUYER", setter(sold(8), "buyer", D), (LABEL[CL], 8, D)),  # dealer
    (CL, "SALE_BUYER", setter(sold(8), "buyer", "Elena"), (LABEL[CL], 8, "Elena")),
    (IN, "SALE_BUYER", setter(sold(7), "buyer", A), (LABEL[IN], 7, A)),  # banditore
    (LK, "SALE_BUYER", setter(sold(4), "buyer", A), (LABEL[LK], 4, A)),  # the Main
    (CL, "SALE_PRICE", setter(sold(8), "tricks", 0), (LABEL[CL], 8, None)),
    (LK, "SALE_PRICE", setter(sold(4), "tricks", 14), (LABEL[LK], 4, None)),
    (IN, "SALE_PRICE", setter(sold(7), "offer", 9), (LABEL[IN], 7, None)),
    (IN, "SALE_PRICE", setter(sold(8), "offer", -3), (LABEL[IN], 8, None)),
    (IN, "SALE_PRICE", setter(sold(8), "offer", 0), (LABEL[IN], 8, None)),
    (
        LK,
        "SALE_NOT_ALLOWED",
        setter(at(7), "sale", {"buyer": C, "tricks": 1}),
        (LABEL[LK], 7, None),
    ),
    (
        CL,
        "SALE_NOT_ALLOWED",
        setter(at(11), "sale", {"buyer": A, "tricks": 1}),
        (LABEL[CL], 11, None),
    ),
    (
        CL,
        "BLIND_NOT_ALLOWED",
        setter(lambda d: d, "rules", {"blind_allowed": False}),
        (LABEL[CL], 11, C),
    ),
    (LK, "NU2_LAST", setter(at(10), "last", A), (LABEL[LK], 10, A)),
    (LK, "NU2_LAST", setter(at(10), "last", "Elena"), (LABEL[LK], 10, "Elena")),
    (
        LK,
        "NU2_LAST",
        lambda d: (sm(d, 10).pop("last"), d.update(rules={"nu2_points": [-2, -3]})),
        (LABEL[LK], 10, None),
    ),
    (CL, "FIELD_TYPE", setter(at(8), "sale", {"buyer": A, "offer": 5}), (LABEL[CL], 8, None)),
    (CL, "FIELD_TYPE", setter(at(11), "blind", "yes"), (LABEL[CL], 11, None)),
    (IN, "FIELD_TYPE", setter(at(7), "sale", {"buyer": C, "tricks": 3}), (LABEL[IN], 7, None)),
    (LK, "FIELD_TYPE", setter(turno, "number", 0), ("2026-11-22 #0", None, None)),
    (LK, "FIELD_TYPE", lambda d: d["turni"].append("turno 2"), ("turni[2]", None, None)),
    (LK, "FIELD_TYPE", setter(lambda d: turno(d)["smazzate"], 0, "NF"), (LABEL[LK], 1, None)),
    (CL, "FIELD_UNEXPECTED", setter(at(1), "trump", "S"), (LABEL[CL], 1, None)),
    (CL, "FIELD_UNEXPECTED", setter(at(1), "sale", {"buyer": B, "tricks": 1}), (LABEL[CL], 1, None)),  # noqa: E501
    (IN, "FIELD_UNEXPECTED", setter(at(1), "sale", {"buyer": B, "offer": 1}), (LABEL[IN], 1, None)),
    (LK, "FIELD_UNEXPECTED", setter(at(1), "last", A), (LABEL[LK], 1, None)),
    (
        CL,
        "FIELD_UNEXPECTED",
        setter(turno, "sanctions", [{"player": A, "kind": "RETROCESSIONE_CONTATORE"}]),
        (LABEL[CL], None, None),
    ),
    (CL, "PENALTY", setter(first_penalty, "player", "Elena"), (LABEL[CL], None, "Elena")),
    (CL, "PENALTY", setter(first_penalty, "points", "-2"), (LABEL[CL], None, D)),
    (LK, "PENALTY", setter(turno, "penalties", {"Anna": -2}), (LABEL[LK], None, None)),
    (CL, "PENALTY", setter(first_penalty, "points", -10**6), (LABEL[CL], None, D)),
    (LK, "TIEBREAK", setter(turno, "tiebreak", [A, D]), (LABEL[LK], None, None)),
]  # fmt: skip


@pytest.mark.parametrize(("code", "name", "mutate", "where"), CASES)
def test_invalid_input_is_rejected(code, name, mutate, where):
    doc = sample(code)
    mutate(doc)
    found = problems_of(doc)
    assert (name, *where) in found, found


def test_every_code_of_section_d_is_covered():
    section_d = {
        "FORMAT", "RULESET", "RULES", "ROSTER", "DATE", "DUPLICATE_TURNO", "PLAYS_TWICE",
        "PLAYERS_COUNT", "PLAYER_DUPLICATE", "FIRST_DEALER", "SMAZZATE_COUNT", "GAME_UNKNOWN",
        "GAME_NOT_IN_RULESET", "GAME_REPEATED", "GAME_ORDER", "RESULT_PLAYERS", "COUNT_TYPE",
        "COUNT_RANGE", "COUNT_SUM", "DOMINO_WINNER", "TRUMP", "MODE", "UNPLAYED_DATA",
        "SALE_BUYER", "SALE_PRICE", "SALE_NOT_ALLOWED", "BLIND_NOT_ALLOWED", "RECUP_TWICE",
        "NU2_LAST", "FIELD_TYPE", "FIELD_UNEXPECTED", "PENALTY", "TIEBREAK",
    }  # fmt: skip
    # RULESET goes through the dispatch (test below); RECUP_TWICE and le-king's GAME_REPEATED
    # in FREE order are in test_kf_leking.py
    assert section_d - {c for _, c, _, _ in CASES} == {"RULESET", "RECUP_TWICE"}


def test_unknown_ruleset_is_refused():
    doc = sample(LK)
    doc["ruleset"] = "le-roi"
    # the document goes to C.A.F.'s parser, which names the unknown rule set first
    assert next(c for c, *_ in problems_of(doc)) == "RULESET"


def test_every_problem_at_once():
    doc = sample(IN)
    sm(doc, 2)["result"][A] += 1  # COUNT_SUM
    sm(doc, 7)["sale"]["buyer"] = "Zorro"  # SALE_BUYER
    doc["turni"].append({**doc["turni"][0], "number": 2, "first_dealer": "Zorro"})
    found = problems_of(doc)
    assert ("COUNT_SUM", LABEL[IN], 2, None) in found
    assert ("SALE_BUYER", LABEL[IN], 7, "Zorro") in found
    assert ("FIRST_DEALER", "2026-11-25 #2", None, None) in found
    assert ("PLAYS_TWICE", "2026-11-25 #2", None, A) in found
    assert len(found) == 4 + 3  # and PLAYS_TWICE for the three others


def test_penalty_problems_do_not_hide_smazzata_problems():
    doc = sample(CL)
    turno(doc)["penalties"][0]["player"] = "Elena"
    sm(doc, 3)["result"][A] = 30
    codes = [c for c, *_ in problems_of(doc)]
    assert codes == ["PENALTY", "COUNT_RANGE"]
