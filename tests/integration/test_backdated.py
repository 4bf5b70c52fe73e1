"""A back-dated turno is never a surprise (issue 11.7): the new-turno form warns and asks for a
confirmation, the close shows what will change (computed by the engine on a copy of the facts)
and asks again, and the Classifica's header says the season was replayed."""

from __future__ import annotations

import datetime as dt
import random

import pytest
from django.urls import reverse

from scoring.models import Absence, Player, Season, Seat, Standing, TitleAward, Turno
from scoring.rules.caf import caf, score_turno
from scoring.rules.caf.simulator import simulate_turno
from scoring.services.preview import close_preview, is_backdated
from scoring.services.turni import turno_close, turno_start
from scoring.verbale import classifica_dates
from tests.helpers import deal_record

TABLE = ["Anna", "Bruno", "Carla", "Dario"]  # Elena stays home
BACK = dt.date(2026, 9, 7)  # between the first giornata (4 Sept) and the second (11 Sept)


def _untied(seed: int):
    while True:
        record = simulate_turno(caf(), TABLE, random.Random(seed), first_dealer="Anna")
        if len(set(score_turno(caf(), record).totals.values())) == len(TABLE):
            return record
        seed += 1


def _played(season: Season, date: dt.date = BACK, seed: int = 3) -> Turno:
    record = _untied(seed)
    turno = turno_start(season=season, date=date, players=TABLE, first_dealer="Anna")
    for i, sm in enumerate(record.smazzate, start=1):
        deal_record(
            turno=turno, game=sm.game, caller=sm.caller, counts=sm.result, trump=sm.trump, number=i
        )
    return turno


@pytest.fixture
def season(make_season):
    return make_season(giornate=3, seed=5)  # 4, 11 and 18 September 2026


def test_backdated_is_a_date_before_the_last_closed_giornata(season):
    assert is_backdated(season.pk, dt.date(2026, 9, 7)) == dt.date(2026, 9, 18)
    assert is_backdated(season.pk, dt.date(2026, 9, 18)) is None
    assert is_backdated(season.pk, dt.date(2026, 9, 25)) is None


def test_preview_is_exactly_what_the_close_does(season):
    turno = _played(season)
    before_standings = dict(
        Standing.objects.filter(season=season).values_list("player__name", "place")
    )
    preview = close_preview(turno=turno)

    # Elena was not at the table on 7 September: the replay gives her that giornata's lowest
    # league points, which is the last place's at the only table
    scored = score_turno(caf(), turno_of(turno))
    last = scored.order()[-1]
    elena = [a for a in preview.absences if a.player == "Elena" and a.date == BACK]
    assert len(elena) == 1 and elena[0].before is None
    assert "Elena" in preview.others_affected
    assert preview.at_table == tuple(TABLE)
    assert preview.last_closed == dt.date(2026, 9, 18)

    turno_close(turno=turno)
    assert elena[0].after == Seat.objects.get(turno=turno, player__name=last).league_points
    assert Absence.objects.get(giornata__date=BACK, player__name="Elena").league_points == (
        elena[0].after
    )
    # every absence the preview announced is stored, and nothing else changed
    stored = {
        (d, n): lp
        for d, n, lp in Absence.objects.filter(season=season, giornata__date__gte=BACK).values_list(
            "giornata__date", "player__name", "league_points"
        )
    }
    for change in preview.absences:
        assert stored.get((change.date, change.player)) == change.after
    # series and places as announced; everybody else where they were
    after = {
        name: (series, place)
        for name, series, place in Standing.objects.filter(season=season).values_list(
            "player__name", "series", "place"
        )
    }
    for change in preview.series:
        assert after[change.player][0] == change.after
    moved = {c.player: c for c in preview.places}
    for name, (_series, place) in after.items():
        assert place == (moved[name].after if name in moved else before_standings[name])
    # titles of the other turni, as announced
    for change in preview.titles:
        has = TitleAward.objects.filter(
            player__name=change.player,
            code=change.code,
            seat__turno__giornata__date=dt.date.fromisoformat(change.turno.split()[0]),
        ).exists()
        assert has is change.gained


def turno_of(turno: Turno):
    from scoring.selectors import turno_record, turno_with_everything

    return turno_record(turno_with_everything(Turno.objects.filter(pk=turno.pk)).get())


def test_preview_writes_nothing(season, db_dump):
    turno = _played(season)
    before = db_dump()
    close_preview(turno=turno)
    assert db_dump() == before


# -- the pages ----------------------------------------------------------------------------------
def _start_data(season, date, **extra) -> dict:
    data = {"season": season.pk, "date": date.isoformat(), "first_dealer_seat": 1}
    for i, name in enumerate(TABLE, start=1):
        data[f"seat_{i}"] = Player.objects.get(name=name).pk
    return data | extra


def test_new_turno_form_warns_and_asks_for_confirmation(segretario_client, season):
    url = reverse("scoring:turno_new")
    page = segretario_client.get(url).content.decode()
    # the last closed giornata of each season, for the warning shown while typing the date
    assert f"data-last-closed='{{&quot;{season.pk}&quot;: &quot;2026-09-18&quot;}}'" in page
    r = segretario_client.post(url, _start_data(season, BACK))
    assert r.status_code == 200
    html = r.content.decode()
    assert "è prima dell&#x27;ultima giornata chiusa (18/09/2026)" in html
    assert Turno.objects.filter(giornata__date=BACK).count() == 0
    r = segretario_client.post(url, _start_data(season, BACK, confirm_backdated="on"))
    assert r.status_code == 302
    assert Turno.objects.filter(giornata__date=BACK).count() == 1
    # a turno after the last giornata needs no confirmation
    later = _start_data(season, dt.date(2026, 9, 25))
    assert segretario_client.post(url, later).status_code == 302


def test_close_of_a_backdated_turno_shows_the_changes_and_asks(segretario_client, season):
    turno = _played(season)
    url = reverse("scoring:turno_close", args=[turno.pk])
    r = segretario_client.post(url, {})
    html = r.content.decode()
    assert r.status_code == 200
    assert Turno.objects.get(pk=turno.pk).status == Turno.IN_CORSO  # nothing closed yet
    assert 'id="close-preview"' in html
    preview = close_preview(turno=turno)
    lowest = next(a for a in preview.absences if a.player == "Elena").after
    assert f'data-absence="Elena 2026-09-07 {lowest}"' in html
    assert 'name="conferma" value="1"' in html
    r = segretario_client.post(url, {"conferma": "1"})
    assert r.status_code == 302
    assert Turno.objects.get(pk=turno.pk).status == Turno.CHIUSO

    # the Classifica's header follows: the season was replayed from 7 September
    page = segretario_client.get(reverse("scoring:home")).content.decode()
    assert classifica_dates(season) == (dt.date(2026, 9, 18), turno)
    assert f'data-backdated="{turno.pk}"' in page
    assert "turno retrodatato al 7 settembre 2026" in page.lower()


@pytest.mark.parametrize(
    ("language", "line"),
    [
        ("it", "Anna perde Coppa UEFA (turno 11/09/2026 #1)"),
        ("en", "Anna loses Coppa UEFA (turno 11/09/2026 #1)"),
    ],
)
def test_close_preview_names_the_other_turni_by_their_date(
    segretario_client, season, language, line
):
    """Issue #25: "flash messages with ISO dates"; the preview said "(turno 2026-09-11 #1)"."""
    turno = _played(season)
    r = segretario_client.post(
        reverse("scoring:turno_close", args=[turno.pk]), {}, HTTP_ACCEPT_LANGUAGE=language
    )
    html = r.content.decode()
    change = html.split('data-title-change="Anna UEFA">', 1)[1].split("</li>", 1)[0]
    assert change == line
    assert "2026-09-11 #1" not in html


def test_close_of_a_current_turno_needs_no_confirmation(segretario_client, season):
    turno = _played(season, date=dt.date(2026, 9, 25))
    r = segretario_client.post(reverse("scoring:turno_close", args=[turno.pk]), {})
    assert r.status_code == 302
    assert Turno.objects.get(pk=turno.pk).status == Turno.CHIUSO
    page = segretario_client.get(reverse("scoring:home")).content.decode()
    assert "data-backdated" not in page
    assert classifica_dates(season) == (dt.date(2026, 9, 25), None)
