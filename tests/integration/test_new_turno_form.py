"""The new-turno form (issue 11.5): the first dealer by name, type-ahead seats in a large club."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.urls import reverse

from scoring.models import Player, Seat, Turno
from scoring.services.season import season_create

URL = reverse("scoring:turno_new")


@pytest.fixture
def small_club(db):
    for name in ["Anna", "Bruno", "Carla", "Dario", "Elena"]:
        Player.objects.create(name=name)
    return season_create(name="2026-27")


@pytest.fixture
def large_club(db):
    names = [f"Socio {chr(65 + i)}" for i in range(13)]  # Socio A .. Socio M
    for name in names:
        Player.objects.create(name=name)
    return season_create(name="2026-27"), names


def _dealer_options(html: str) -> list[tuple[str, str]]:
    select = re.search(r'<select name="first_dealer_seat".*?</select>', html, re.S).group(0)
    return re.findall(r'<option value="(\d)"[^>]*>([^<]*)</option>', select)


def test_first_dealer_options_are_the_chosen_players(segretario_client, small_club):
    pk = {p.name: p.pk for p in Player.objects.all()}
    data = {
        "season": small_club.pk,
        "date": "2026-11-20",
        "first_dealer_seat": 7,  # empty: the form comes back, with the players' names
        "seat_1": pk["Carla"],
        "seat_2": pk["Anna"],
        "seat_3_new": "Zeno  Nuovo",
        "seat_4": pk["Dario"],
    }
    html = segretario_client.post(URL, data).content.decode()
    options = _dealer_options(html)
    assert options[:4] == [("1", "Carla"), ("2", "Anna"), ("3", "Zeno Nuovo"), ("4", "Dario")]
    assert all("Posto" not in label for _, label in options[:4])
    # the script that keeps the names in step while the seats are chosen (no inline script)
    assert '<script src="/static/js/turno_new.js" defer></script>' in html
    assert "onchange" not in html.split("<main", 1)[1]
    data["first_dealer_seat"] = 3
    r = segretario_client.post(URL, data)
    assert r.status_code == 302
    assert Turno.objects.get().first_dealer.name == "Zeno Nuovo"


def test_small_club_keeps_the_lists(segretario_client, small_club):
    html = segretario_client.get(URL).content.decode()
    assert '<select name="seat_1"' in html and "<datalist" not in html


def test_large_club_picks_seats_by_typing(segretario_client, large_club):
    season, names = large_club
    html = segretario_client.get(URL).content.decode()
    datalist = re.search(r'<datalist id="kc-members">(.*?)</datalist>', html, re.S).group(1)
    assert re.findall(r'<option value="([^"]+)">', datalist) == names
    assert '<select name="seat_1"' not in html
    for i in range(1, 8):
        assert re.search(rf'<input type="text" name="seat_{i}_new"[^>]*list="kc-members"', html)
    assert '<label for="id_seat_1_new" class="seat-label">Posto 1</label>' in html
    data = {
        "season": season.pk,
        "date": "2026-11-20",
        "first_dealer_seat": 2,
        "seat_1_new": "socio c",  # an existing member, typed in lower case
        "seat_2_new": "Socio K",
        "seat_3_new": "Socio A",
        "seat_4_new": "Teresa Nuova",  # not a member: a new one
    }
    r = segretario_client.post(URL, data)
    assert r.status_code == 302
    turno = Turno.objects.get()
    seats = list(
        Seat.objects.filter(turno=turno).order_by("position").values_list("player__name", flat=True)
    )
    assert seats == ["Socio C", "Socio K", "Socio A", "Teresa Nuova"]
    assert turno.first_dealer.name == "Socio K"
    assert Player.objects.count() == 14


def test_a_closed_season_is_not_offered(segretario_client, small_club):
    from scoring.models import Season

    Season.objects.filter(pk=small_club.pk).update(closed_at="2027-06-30T20:00:00Z")
    open_one = season_create(name="2027-28")
    html = segretario_client.get(URL).content.decode()
    select = re.search(r'<select name="season".*?</select>', html, re.S).group(0)
    assert re.findall(r'<option value="(\d+)"', select) == [str(open_one.pk)]
    # a forged POST for the closed season is refused by the form, nothing is written
    pk = {p.name: p.pk for p in Player.objects.all()}
    data = {"season": small_club.pk, "date": "2027-07-02", "first_dealer_seat": 1}
    data.update({f"seat_{i}": pk[n] for i, n in enumerate(["Anna", "Bruno", "Carla"], start=1)})
    r = segretario_client.post(URL, data)
    assert r.status_code == 200 and not Turno.objects.exists()  # the form again
    assert "opzione valida" in r.content.decode()  # the season refused by the form


# -- new members through scoring.api (the form's typed names) ------------------------------------
def test_turno_start_creates_the_new_members_with_the_turno(small_club):
    from scoring import api

    turno = api.turno_start(
        season=small_club,
        date=dt.date(2026, 11, 20),
        players=["Anna", "Bruno", "Carla", "Zeno Nuovo"],
        first_dealer="Zeno Nuovo",
        new_members=["Zeno Nuovo"],
    )
    assert [s.player.name for s in turno.seats.order_by("position")] == [
        "Anna",
        "Bruno",
        "Carla",
        "Zeno Nuovo",
    ]
    assert turno.first_dealer.name == "Zeno Nuovo"
    assert small_club.enrollments.filter(player__name="Zeno Nuovo").count() == 1


@pytest.mark.parametrize(
    ("language", "players", "message"),
    [
        # the turno is refused: the new member is not created either (one transaction)
        ("it", ["Anna", "Zeno Nuovo"], "un turno ha da 3 a 7 giocatori, non 2"),
        # a new member who does not sit at the table
        ("it", ["Anna", "Bruno", "Carla", "Dario"], "Zeno Nuovo non siede al tavolo"),
        ("en", ["Anna", "Bruno", "Carla", "Dario"], "Zeno Nuovo is not at the table"),
    ],
)
def test_turno_start_refused_creates_no_member(small_club, language, players, message):
    from django.utils import translation

    from scoring import api
    from scoring.problem_text import localized
    from scoring.rules.problems import RuleViolation

    with pytest.raises(RuleViolation) as refused, translation.override(language):
        api.turno_start(
            season=small_club,
            date=dt.date(2026, 11, 20),
            players=players,
            first_dealer="Anna",
            new_members=["Zeno Nuovo"],
        )
    with translation.override(language):
        assert [localized(p).message for p in refused.value.problems] == [message]
    assert {p.field for p in refused.value.problems} == {"players"}
    assert not Player.objects.filter(name="Zeno Nuovo").exists()
    assert not Turno.objects.exists()
