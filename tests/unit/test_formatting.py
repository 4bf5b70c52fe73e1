"""scoring.formatting: the one way every page, document, CSV and mail writes a number."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.utils import translation

from scoring import formatting


@pytest.mark.parametrize(
    ("value", "it", "en"),
    [
        (-46, "−46", "−46"),
        (2704, "2704", "2704"),
        ("1.00", "1,00", "1.00"),  # the Ramino fee keeps its two places
        (Decimal("-0.1"), "−0,1", "−0.1"),
        (40.5, "40,50", "40.50"),
        ("Grand", "Grand", "Grand"),
        (None, "", ""),
    ],
)
def test_figure(value, it, en):
    with translation.override("it"):
        assert formatting.figure(value) == it
    with translation.override("en"):
        assert formatting.figure(value) == en


def test_whole_points_have_no_trailing_zeros():
    with translation.override("it"):
        assert formatting.whole(Decimal("916.00")) == "916"
        assert formatting.whole(Decimal("-15.25")) == "−15,25"
        assert formatting.season_score(Decimal("916.00"), decimals=0) == "916"
        assert formatting.season_score(Decimal("15.00"), decimals=2) == "15,00"


def test_text_gets_a_true_minus_before_numbers_only():
    line = "Anna: Null, valore 23, perso -46; 2026-11-20, art. 1-4, Retrocessione -0,1"
    assert formatting.text(line) == (
        "Anna: Null, valore 23, perso −46; 2026-11-20, art. 1-4, Retrocessione −0,1"
    )


def test_turno_label_and_dates_in_the_languages_way():
    import datetime as dt

    day = dt.date(2026, 11, 26)
    assert formatting.turno_label(day, 2) == "26/11/2026 #2"
    with translation.override("it"):
        assert formatting.date_long(day) == "giovedì 26 novembre 2026"
    with translation.override("en"):
        assert formatting.date_long(day) == "Thursday 26 November 2026"
