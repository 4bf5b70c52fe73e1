"""The C.A.F. forms and the pages read numbers as a person types them (issue 26, item 6c):
Django's IntegerField would take ``1_1_3`` as 113 and ``٢٧`` as 27."""

from __future__ import annotations

import pytest

from scoring.forms import PenalitaForm, SmazzataForm
from scoring.rules.caf import caf

PLAYERS = ["Anna", "Bruno", "Carla", "Dario"]


def smazzata_form(count: str) -> SmazzataForm:
    data = {"caller": "Anna", "game": "NJ", "count_0": count, "count_1": "1"}
    return SmazzataForm(data, rules=caf(), players=PLAYERS)


@pytest.mark.parametrize("typed", ["1_1", "٢", "２", "²", "+2", "2.0"])
def test_a_count_in_other_digits_is_a_field_error(typed):
    form = smazzata_form(typed)
    assert not form.is_valid()
    assert form.errors["count_0"] == ["il risultato di Anna deve essere un numero intero"]


def test_a_count_in_ascii_digits_is_read():
    form = smazzata_form(" 3 ")
    assert form.is_valid(), form.errors
    assert form.counts() == {"Anna": 3, "Bruno": 1}


@pytest.mark.parametrize(
    ("typed", "points"), [("-5", -5), ("5", 5), ("-1_0", None), ("-٥", None), ("٥", None)]
)
def test_a_penalita_reads_a_minus_and_ascii_digits_only(typed, points):
    form = PenalitaForm(
        {"pen-player": "Anna", "pen-points": typed, "pen-article": "6"}, players=PLAYERS
    )
    assert form.is_valid() is (points is not None)
    if points is None:
        assert form.errors["points"] == ["Inserisci un numero intero."]
    else:
        assert form.cleaned_data["points"] == points


@pytest.mark.django_db
def test_a_season_asked_in_other_digits_is_not_found(client, make_season):
    season = make_season(giornate=1)
    assert client.get("/", {"stagione": str(season.pk)}).status_code == 200
    for odd in (
        str(season.pk).translate(str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")),
        "0_1",
        "9" * 20,
    ):
        assert client.get("/", {"stagione": odd}).status_code == 404, odd
