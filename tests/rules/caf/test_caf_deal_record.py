"""A deal's record as the one recording path takes it (SPEC §10): C.A.F.'s ``deal_record`` names
each missing or mistyped key on its field and keeps a good record in the interchange's order;
every other system keeps a record as recorded, a copy, and leaves its checks to the turno."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.rules.problems import RuleViolation
from scoring.rules.systems import get_system

CAF = get_system("caf")
GOOD = {"game": "B", "caller": "Anna", "trump": "C", "result": {"Anna": 4, "Bruno": 9}}


def refused(record: Any) -> list[tuple[str, str | None]]:
    with pytest.raises(RuleViolation) as exc:
        CAF.deal_record(record)
    return [(p.code, p.field) for p in exc.value.problems]


def test_a_good_record_is_kept_in_the_interchange_order_without_an_empty_trump():
    shuffled = {"result": {"Anna": 4, "Bruno": 0}, "caller": "Anna", "game": "NK"}
    kept = CAF.deal_record(shuffled)
    assert kept == {"game": "NK", "caller": "Anna", "result": {"Anna": 4, "Bruno": 0}}
    assert list(kept) == ["game", "caller", "result"]
    assert list(CAF.deal_record(GOOD)) == ["game", "caller", "trump", "result"]
    assert "trump" not in CAF.deal_record({**GOOD, "trump": ""})


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        ({"game": ""}, ("GAME_MISSING", "game")),
        ({"game": None}, ("GAME_MISSING", "game")),
        ({"game": 7}, ("GAME_MISSING", "game")),
        ({"caller": ""}, ("CALLER_MISSING", "caller")),
        ({"caller": ["Anna"]}, ("CALLER_MISSING", "caller")),
        ({"result": [4, 9]}, ("RESULT_MISSING", "result")),
        ({"result": None}, ("RESULT_MISSING", "result")),
        ({"trump": 3}, ("TRUMP_TYPE", "trump")),
    ],
)
def test_one_bad_key_is_one_problem_on_its_field(change, problem):
    assert refused({**GOOD, **change}) == [problem]


def test_every_bad_key_is_named_at_once_and_a_non_object_is_refused_whole():
    assert refused({"game": "", "caller": None, "result": "4-9", "trump": 1}) == [
        ("GAME_MISSING", "game"),
        ("CALLER_MISSING", "caller"),
        ("RESULT_MISSING", "result"),
        ("TRUMP_TYPE", "trump"),
    ]
    assert refused(["B", "Anna"]) == [("RECORD", "record")]


def test_another_system_keeps_the_record_as_recorded_a_copy():
    ramino = get_system("ramino-101")
    record = {"closer": "Bruno", "hands": {"Anna": 34}}
    kept = ramino.deal_record(record)
    assert kept == record and kept is not record
    assert ramino.deal_record(["not", "an", "object"]) == ["not", "an", "object"]
