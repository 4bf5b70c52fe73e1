"""Numbers as a person types them (issue 26, item 6c): ASCII digits only, everywhere a number is
typed: the helper, and every game's live-screen entry (``posted_int``)."""

from __future__ import annotations

import random

import pytest

from scoring.rules.numbers import is_typed_int, typed_int, typed_int_or_none
from scoring.rules.problems import RuleViolation
from scoring.rules.systems import get_system, posted_int, systems

ARABIC_INDIC = str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")


@pytest.mark.parametrize(
    ("text", "signed", "value"),
    [
        ("113", False, 113),
        (" 27 ", False, 27),
        ("0", False, 0),
        ("-5", True, -5),
        ("007", False, 7),
        ("9" * 18, False, 10**18 - 1),
    ],
)
def test_the_digits_a_person_types(text, signed, value):
    assert typed_int(text, signed=signed) == value
    assert typed_int_or_none(text, signed=signed) == value


@pytest.mark.parametrize(
    "text",
    [
        "1_1_3",
        "٢٧",
        "²",
        "１２",
        "+3",
        "-5",
        "3.0",
        "1e3",
        "",
        " ",
        "0x1f",
        "9" * 19,
        "- 5",
        None,
        7,
    ],
)
def test_what_else_int_reads_is_refused(text):
    assert not is_typed_int(text)
    assert typed_int_or_none(text) is None
    with pytest.raises(ValueError):
        typed_int(text)


def test_a_minus_only_where_negatives_are_allowed():
    assert is_typed_int("-12", signed=True) and not is_typed_int("-12")
    assert not is_typed_int("--12", signed=True) and not is_typed_int("1-2", signed=True)


def test_posted_int_reports_the_field():
    problems = []
    assert posted_int("1_1_3", "prezzo della vendita", problems) is None
    assert posted_int("٢٧", "conteggio di Anna", problems, "Anna") is None
    assert posted_int("-4", "punti", problems) == -4
    assert [(p.code, p.message, p.player) for p in problems] == [
        ("FIELD_TYPE", "prezzo della vendita: «1_1_3» non è un numero intero.", None),
        ("FIELD_TYPE", "conteggio di Anna: «٢٧» non è un numero intero.", "Anna"),
    ]


NUMERIC = ("int", "per_player")
GENERIC = [s.code for s in systems() if s.ledger == "records"]


@pytest.mark.parametrize("code", GENERIC)
def test_every_game_refuses_other_digits_on_the_live_screen(code):
    """Each number of a real smazzata, typed with Arabic-Indic digits or with underscores, is a
    FIELD_TYPE problem of that game's entry, not the number ``int()`` makes of it."""
    system = get_system(code)
    rules = system.rules()
    rng = random.Random(11)
    players = ["Anna", "Bruno", "Carla", "Dario"]
    record = system.random_turno(rng, players, rules)
    head = {**record, "smazzate": []}
    numeric = []
    for smazzata in record["smazzate"]:
        data = system.entry_data(rules, head, smazzata)
        typed = [f["name"] for f in system.entry_fields(rules, head) if f["kind"] in NUMERIC]
        numeric = [
            k
            for k, v in data.items()
            if k.split("-")[0] in typed and isinstance(v, str) and v.isascii() and v.isdigit()
        ]
        if numeric:
            break
        head = {**head, "smazzate": [*head["smazzate"], smazzata]}
    assert numeric, f"{code}: no number typed in any smazzata"
    system.parse_entry(rules, head, data)  # as typed: accepted
    for key in numeric:
        for odd in (data[key].translate(ARABIC_INDIC), "_".join(data[key]) + "_0"):
            with pytest.raises(RuleViolation) as exc:
                system.parse_entry(rules, head, {**data, key: odd})
            assert "FIELD_TYPE" in {p.code for p in exc.value.problems}, (code, key, odd)
