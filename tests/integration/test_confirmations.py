"""The Verbale countersigned: the players of a closed turno confirm it or contest it (logged in
or with their PIN at the table); a contestation flags the turno until withdrawn or reopened."""

from __future__ import annotations

import datetime as dt
import io
import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.hashers import check_password
from django.urls import reverse
from django.utils import timezone
from openpyxl import load_workbook
from pypdf import PdfReader

from scoring import formatting
from scoring.audit import turno_history
from scoring.models import Player, PlayerPin, Turno, TurnoEvent, VerbaleConfirmation
from scoring.rules.problems import RuleViolation
from scoring.selectors_confirmations import confirmation_lines, contested_turni
from scoring.services.confirmations import (
    PIN_LOCK,
    pin_set,
    verbale_confirm,
    verbale_confirm_at_table,
    verbale_contest,
    verbale_contest_withdraw,
)
from scoring.services.season import season_create
from scoring.services.turni import turno_reopen
from tests.conftest import kept_for_the_scope
from tests.helpers import play_turno

pytestmark = pytest.mark.django_db
PLAYERS = ["Anna", "Bruno", "Carla", "Dario"]


def members_of(user_model) -> dict[str, Any]:
    """Anna, Bruno, Carla, Dario at the table; Elena a member who did not play. Anna, Bruno and
    Elena have a login linked to their player."""
    users = {}
    for name in [*PLAYERS, "Elena"]:
        player = Player.objects.create(name=name)
        if name in ("Anna", "Bruno", "Elena"):
            user = user_model.objects.create_user(username=name.lower(), password="pw-kingclub-1")
            player.user = user
            player.save()
            users[name] = user
    return users


@pytest.fixture
def members(django_user_model):
    return members_of(django_user_model)


def turno_of() -> Turno:
    """The closed turno of the season "2026-27", played deal by deal by the four."""
    season = season_create(name="2026-27")
    closed, _record = play_turno(season, dt.date(2026, 11, 20), PLAYERS, seed=3)
    return closed


@pytest.fixture
def seg(segretario):
    """The segretario's own browser (``client`` is the player's)."""
    from django.test import Client

    c = Client()
    c.force_login(segretario)
    return c


def player(name: str) -> Player:
    return Player.objects.get(name=name)


def verbale_page(client, turno) -> str:
    return client.get(reverse("scoring:turno", args=[turno.pk])).content.decode()


def post(client, turno, **data):
    return client.post(reverse("scoring:confirm", args=[turno.pk]), data, follow=True)


def test_an_open_turno_cannot_be_confirmed(members):
    season = season_create(name="2026-27")
    open_turno, _r = play_turno(season, dt.date(2026, 11, 20), PLAYERS, seed=3, close=False)
    with pytest.raises(RuleViolation) as exc:
        verbale_confirm(turno=open_turno, player=player("Anna"))
    assert exc.value.problems[0].code == "TURNO_OPEN"
    assert not VerbaleConfirmation.objects.exists()


TRIVIAL_PINS = ("0000", "7777", "1234", "6789", "7890", "4321", "0987", "1357", "8642", "1212")


def test_a_trivial_pin_is_refused(client, members):
    """Issue 26, item 6d: a PIN anyone tries first would confirm a Verbale in anybody's name."""
    for pin in TRIVIAL_PINS:
        with pytest.raises(RuleViolation) as exc:
            pin_set(player=player("Anna"), pin=pin)
        assert exc.value.problems[0].code == "PIN_TRIVIAL", pin
    assert not PlayerPin.objects.exists()
    for pin in ("0007", "4821", "1358", "2469", "9021", "1122"):
        pin_set(player=player("Anna"), pin=pin)
        assert check_password(pin, PlayerPin.objects.get(player__name="Anna").pin_hash)
    client.force_login(members["Bruno"])
    url = reverse("scoring:profile")
    page = client.post(url, {"action": "pin", "pin": "0000", "pin2": "0000"})
    assert page.status_code == 422
    assert "PIN troppo facile da indovinare" in page.content.decode()
    client.get(reverse("scoring:language"), {"language": "en"})
    page = client.post(url, {"action": "pin", "pin": "1111", "pin2": "1111"})
    assert "PIN too easy to guess" in page.content.decode()
    assert not PlayerPin.objects.filter(player__name="Bruno").exists()


def test_the_profile_sets_the_pin(client, members):
    client.force_login(members["Anna"])
    url = reverse("scoring:profile")
    assert "Non hai ancora un PIN." in client.get(url).content.decode()
    mismatch = client.post(url, {"action": "pin", "pin": "1234", "pin2": "1243"})
    assert mismatch.status_code == 422 and "i due PIN non coincidono" in mismatch.content.decode()
    short = client.post(url, {"action": "pin", "pin": "12", "pin2": "12"})
    assert short.status_code == 422 and "il PIN deve essere di 4 cifre" in short.content.decode()
    assert not PlayerPin.objects.exists()
    assert client.post(url, {"action": "pin", "pin": "2469", "pin2": "2469"}).status_code == 302
    assert check_password("2469", PlayerPin.objects.get(player__name="Anna").pin_hash)
    assert "Hai già un PIN" in client.get(url).content.decode()


def test_a_ramino_verbale_is_confirmed_and_a_reopen_clears_it(client, segretario, members):
    from scoring import api
    from scoring.selectors_games import verbale_rows
    from scoring.services.games import game_turni, game_turno_close, game_turno_reopen
    from scoring.services.turni import turno_start

    season = season_create(name="Ramino", ruleset_code="ramino-101")
    t = turno_start(season=season, date=dt.date(2026, 11, 20), players=PLAYERS, first_dealer="Anna")
    api.smazzata_record(
        turno=t,
        record={
            "closer": "Bruno",
            "close": "NORMALE",
            "penalties": {"Anna": 34, "Carla": 12, "Dario": 55},
        },
    )
    api.smazzata_record(turno=t, record={"closer": "Anna", "close": "SCALA_REALE"})
    game_turno_close(turno=t, tiebreak=["Carla", "Bruno", "Dario"])
    verbale_contest(turno=t, player=player("Dario"), comment="la scala non era reale")
    client.force_login(members["Anna"])
    page = verbale_page(client, t)
    assert 'data-contested="1"' in page and "la scala non era reale" in page
    gv = verbale_rows(game_turni().get(pk=t.pk))
    assert len(gv.confirmations) == 1 and gv.confirmations[0].startswith("Contestato da Dario il ")
    pdf = client.get(reverse("scoring:turno_pdf", args=[t.pk]))
    text = " ".join(
        "".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf.content)).pages).split()
    )
    assert gv.confirmations[0] in text
    classifica = client.get(
        reverse("scoring:classifica") + f"?stagione={season.pk}"
    ).content.decode()
    assert f'data-contested-turno="{t.pk}"' in classifica
    game_turno_reopen(turno=t, reason="scala da verificare", user=segretario)
    assert not VerbaleConfirmation.objects.exists()
    classifica = client.get(
        reverse("scoring:classifica") + f"?stagione={season.pk}"
    ).content.decode()
    assert "data-contested-turno" not in classifica


@pytest.fixture(scope="class")
def _closed_turno(django_db_setup, django_db_blocker) -> Iterator[tuple[dict[str, int], int]]:
    """The members and their closed turno (:func:`members`, :func:`turno`), built once for
    ``TestOneClosedTurno`` (a turno played deal by deal: it was played for each of its tests)."""
    from django.contrib.auth import get_user_model

    with kept_for_the_scope(django_db_blocker):
        with django_db_blocker.unblock():
            users = members_of(get_user_model())
            closed = turno_of()
        yield {name: user.pk for name, user in users.items()}, closed.pk


class TestOneClosedTurno:
    """The tests on one closed C.A.F. turno of the four members (``_closed_turno``, built once
    for the class; each test confirms, contests, reopens in a savepoint of it)."""

    @pytest.fixture
    def members(self, django_user_model, _closed_turno):
        return {n: django_user_model.objects.get(pk=pk) for n, pk in _closed_turno[0].items()}

    @pytest.fixture
    def turno(self, _closed_turno):
        return Turno.objects.get(pk=_closed_turno[1])

    def test_a_player_confirms_from_their_login(self, client, members, turno):
        client.force_login(members["Anna"])
        page = verbale_page(client, turno)
        assert "Confermo il verbale" in page  # Anna played: her buttons
        response = post(client, turno, action="conferma")
        assert response.status_code == 200
        row = VerbaleConfirmation.objects.get(turno=turno)
        assert (row.player.name, row.verdict, row.via, row.user) == (
            "Anna", "confermato", "web", members["Anna"],
        )  # fmt: skip
        page = response.content.decode()
        assert "Hai confermato il verbale." in page
        expected = f"Confermato da Anna il {formatting.moment(row.at)}"
        assert expected in page
        assert re.search(r"Confermato da Anna il \d\d/\d\d/\d{4} alle \d\d:\d\d", page)
        assert 'data-contested="0"' in page
        assert "Confermo il verbale" not in page  # confirmed once: no second button
        # twice: refused, nothing added
        again = post(client, turno, action="conferma").content.decode()
        assert "Anna ha già confermato questo verbale" in again
        assert VerbaleConfirmation.objects.count() == 1
        event = TurnoEvent.objects.get(turno=turno, kind=TurnoEvent.CONFIRM)
        assert (event.reason, event.user) == ("Anna", members["Anna"])

    def test_contest_needs_a_comment_then_flags_dashboard_and_classifica(
        self, client, seg, members, turno
    ):
        client.force_login(members["Bruno"])
        empty = post(client, turno, action="contesta", comment="   ").content.decode()
        assert "per contestare il verbale serve un commento" in empty
        assert not VerbaleConfirmation.objects.exists()
        assert (
            'data-contested-turno="' not in seg.get(reverse("scoring:segreteria")).content.decode()
        )

        post(client, turno, action="contesta", comment="la smazzata 7 era di Carla")
        row = VerbaleConfirmation.objects.get(turno=turno)
        assert (row.player.name, row.verdict, row.comment) == (
            "Bruno", "contestato", "la smazzata 7 era di Carla",
        )  # fmt: skip
        assert list(contested_turni(turno.season)) == [turno]
        dashboard = seg.get(reverse("scoring:segreteria")).content.decode()
        assert f'data-contested-turno="{turno.pk}"' in dashboard
        assert 'data-contested-count="1"' in dashboard
        classifica = client.get(reverse("scoring:classifica")).content.decode()
        assert f'data-contested-turno="{turno.pk}"' in classifica
        assert "Verbali contestati" in classifica
        page = verbale_page(client, turno)
        assert 'data-contested="1"' in page
        assert "Contestato da Bruno il" in page and "la smazzata 7 era di Carla" in page
        assert "Ritira la mia contestazione" in page

        # withdrawn by its author: the flag goes
        post(client, turno, action="ritira")
        assert not VerbaleConfirmation.objects.exists()
        assert list(contested_turni(turno.season)) == []
        classifica = client.get(reverse("scoring:classifica")).content.decode()
        assert "data-contested-turno" not in classifica
        dashboard = seg.get(reverse("scoring:segreteria")).content.decode()
        assert "data-contested-turno" not in dashboard
        kinds = list(
            TurnoEvent.objects.filter(turno=turno)
            .exclude(kind=TurnoEvent.CLOSE)
            .values_list("kind", "reason")
        )
        assert kinds == [
            ("contest", "Bruno: la smazzata 7 era di Carla"),
            ("withdraw", "Bruno: la smazzata 7 era di Carla"),
        ]

    def test_confirmed_then_contested_replaces_the_confirmation(self, members, turno):
        verbale_confirm(turno=turno, player=player("Anna"), user=members["Anna"])
        verbale_contest(
            turno=turno, player=player("Anna"), comment="ripensato", user=members["Anna"]
        )
        assert list(VerbaleConfirmation.objects.values_list("player__name", "verdict")) == [
            ("Anna", "contestato")
        ]
        with pytest.raises(RuleViolation) as exc:
            verbale_confirm(turno=turno, player=player("Anna"))
        assert exc.value.problems[0].code == "CONTESTED_BY_PLAYER"
        with pytest.raises(RuleViolation) as exc:
            verbale_contest_withdraw(turno=turno, player=player("Bruno"))
        assert exc.value.problems[0].code == "NOT_CONTESTED"

    def test_a_player_who_did_not_play_cannot_confirm(
        self, client, django_user_model, members, turno
    ):
        client.force_login(members["Elena"])
        page = verbale_page(client, turno)
        assert "Confermo il verbale" not in page  # no buttons for her
        response = post(client, turno, action="conferma")
        assert "Elena non ha giocato il turno 20/11/2026 #1" in response.content.decode()
        english = client.post(
            reverse("scoring:confirm", args=[turno.pk]),
            {"action": "conferma"},
            follow=True,
            HTTP_ACCEPT_LANGUAGE="en",
        )
        assert "Elena did not play turno 20/11/2026 #1" in english.content.decode()
        assert not VerbaleConfirmation.objects.exists()
        # a login without a player: 403; anonymous: the login page
        other = django_user_model.objects.create_user(username="ospite", password="pw-kingclub-1")
        client.force_login(other)
        assert (
            client.post(
                reverse("scoring:confirm", args=[turno.pk]), {"action": "conferma"}
            ).status_code
            == 403
        )
        client.logout()
        anon = client.post(reverse("scoring:confirm", args=[turno.pk]), {"action": "conferma"})
        assert anon.status_code == 302 and reverse("login") in anon["Location"]
        assert not VerbaleConfirmation.objects.exists()
        # GET is not allowed
        client.force_login(members["Anna"])
        assert client.get(reverse("scoring:confirm", args=[turno.pk])).status_code == 405

    def test_reopen_clears_confirmations_and_the_flag_audit_keeps_it_all(
        self, segretario, members, turno
    ):
        verbale_confirm(turno=turno, player=player("Anna"), user=members["Anna"])
        verbale_contest(turno=turno, player=player("Bruno"), comment="manca una penalità")
        assert list(contested_turni(turno.season)) == [turno]
        turno_reopen(turno=turno, reason="penalità dimenticata", user=segretario)
        assert not VerbaleConfirmation.objects.filter(turno=turno).exists()
        assert list(contested_turni(turno.season)) == []
        history = [
            (e.action, e.detail)
            for e in turno_history(turno)
            if e.what == "turno" and e.action not in ("creazione", "modifica")
        ]
        assert history == [
            ("chiusura", ""),
            ("conferma del verbale", "Anna"),
            ("contestazione del verbale", "Bruno: manca una penalità"),
            ("riapertura", "penalità dimenticata"),
        ]

    def test_pin_is_stored_hashed_and_confirms_at_the_table(self, seg, members, turno):
        pin_set(player=player("Carla"), pin="4821")
        stored = PlayerPin.objects.get(player__name="Carla")
        assert stored.pin_hash != "4821" and check_password("4821", stored.pin_hash)
        url = reverse("scoring:confirm_at_table", args=[turno.pk])
        form = seg.get(url).content.decode()
        assert [n for n in re.findall(r'<option value="\d+">([^<]+)</option>', form)] == PLAYERS
        ok = seg.post(url, {"player": player("Carla").pk, "pin": "4821", "verdict": "conferma"})
        assert ok.status_code == 302
        row = VerbaleConfirmation.objects.get()
        assert (row.player.name, row.verdict, row.via) == ("Carla", "confermato", "pin")
        assert confirmation_lines(turno.pk) == [
            f"Confermato da Carla il {formatting.moment(row.at)} (al tavolo con il PIN)"
        ]
        event = TurnoEvent.objects.get(kind=TurnoEvent.CONFIRM)
        assert event.reason == "Carla (al tavolo con il PIN)"
        # a contest at the table, with its comment
        pin_set(player=player("Dario"), pin="0007")
        seg.post(
            url,
            {
                "player": player("Dario").pk,
                "pin": "0007",
                "verdict": "contesta",
                "comment": "totale",
            },
        )
        assert VerbaleConfirmation.objects.get(player__name="Dario").comment == "totale"

    def test_pin_wrong_then_locked_after_five_tries(self, seg, members, turno):
        pin_set(player=player("Carla"), pin="4821")
        url = reverse("scoring:confirm_at_table", args=[turno.pk])
        carla = player("Carla").pk
        for i in range(1, 5):
            page = seg.post(url, {"player": carla, "pin": "1111", "verdict": "conferma"})
            assert page.status_code == 422
            assert f"PIN errato per Carla (ancora {5 - i} tentativi)" in page.content.decode()
            assert PlayerPin.objects.get(player_id=carla).failed_attempts == i
        fifth = seg.post(url, {"player": carla, "pin": "1111", "verdict": "conferma"})
        assert "troppi PIN errati per Carla: riprovare dopo le" in fifth.content.decode()
        pin = PlayerPin.objects.get(player_id=carla)
        assert pin.locked_until is not None
        assert pin.locked_until - timezone.now() <= PIN_LOCK
        assert pin.locked_until - timezone.now() > PIN_LOCK - dt.timedelta(minutes=1)
        assert TurnoEvent.objects.filter(kind=TurnoEvent.PIN_LOCKED).get().reason == (
            "Carla: 5 PIN errati"
        )
        # locked: even the right PIN is refused
        right = seg.post(url, {"player": carla, "pin": "4821", "verdict": "conferma"})
        assert right.status_code == 422 and "troppi PIN errati" in right.content.decode()
        english = seg.post(
            url, {"player": carla, "pin": "4821", "verdict": "conferma"}, HTTP_ACCEPT_LANGUAGE="en"
        )
        until = f"{timezone.localtime(pin.locked_until):%H:%M}"
        assert f"too many wrong PINs for Carla: try again after {until}" in english.content.decode()
        assert not VerbaleConfirmation.objects.exists()
        # 15 minutes later the right PIN works
        PlayerPin.objects.filter(player_id=carla).update(
            locked_until=timezone.now() - dt.timedelta(seconds=1)
        )
        later = seg.post(url, {"player": carla, "pin": "4821", "verdict": "conferma"})
        assert later.status_code == 302
        assert VerbaleConfirmation.objects.get().player.name == "Carla"

    def test_pin_rules(self, members, turno, segretario):
        for bad in ("123", "12345", "abcd", "", "١٢٣٤"):
            with pytest.raises(RuleViolation) as exc:
                pin_set(player=player("Anna"), pin=bad)
            assert exc.value.problems[0].message == "il PIN deve essere di 4 cifre"
        with pytest.raises(RuleViolation) as exc:  # no PIN yet
            verbale_confirm_at_table(
                turno=turno, player=player("Bruno"), pin="1234", user=segretario
            )
        assert exc.value.problems[0].code == "PIN_MISSING"
        pin_set(player=player("Elena"), pin="5830")
        with pytest.raises(RuleViolation) as exc:  # did not play: refused before the PIN is tried
            verbale_confirm_at_table(
                turno=turno, player=player("Elena"), pin="9999", user=segretario
            )
        assert exc.value.problems[0].code == "NOT_AT_TABLE"
        assert PlayerPin.objects.get(player__name="Elena").failed_attempts == 0

    def test_only_the_segretario_uses_the_table_screen(self, client, members, turno):
        url = reverse("scoring:confirm_at_table", args=[turno.pk])
        client.force_login(members["Anna"])
        assert client.get(url).status_code == 403

    def test_the_documents_show_who_confirmed(self, client, members, turno):
        verbale_confirm(turno=turno, player=player("Anna"))
        verbale_contest(turno=turno, player=player("Bruno"), comment="smazzata 3")
        lines = confirmation_lines(turno.pk)
        anna, bruno = VerbaleConfirmation.objects.order_by("at", "id")
        assert lines == [
            f"Confermato da Anna il {formatting.moment(anna.at)}",
            f"Contestato da Bruno il {formatting.moment(bruno.at)}: smazzata 3",
        ]
        pdf = client.get(reverse("scoring:turno_pdf", args=[turno.pk]))
        text = "".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf.content)).pages)
        text = " ".join(text.split())
        assert "Conferme dei giocatori" in text
        assert lines[0] in text and lines[1] in text
        xlsx = client.get(reverse("scoring:turno_xlsx", args=[turno.pk]))
        sheet = load_workbook(io.BytesIO(xlsx.content))["Verbale"]
        cells = [c for row in sheet.iter_rows(values_only=True) for c in row if c]
        assert "Conferme dei giocatori" in cells
        assert lines[0] in cells and lines[1] in cells

    def test_required_an_incomplete_turno_cannot_be_requested_and_optional_seasons_close(
        self, segretario, members, turno
    ):
        from scoring.services.confirmations import turno_close_request

        season = season_create(name="2027-28")
        season.confirmation_required = True
        season.save(update_fields=["confirmation_required"])
        from scoring.services.turni import turno_start

        started = turno_start(
            season=season, date=dt.date(2026, 11, 27), players=PLAYERS, first_dealer="Anna"
        )
        with pytest.raises(RuleViolation):
            turno_close_request(turno=started, user=segretario)
        assert not started.__class__.objects.filter(close_request__isnull=False).exists()
        with pytest.raises(RuleViolation) as exc:  # closed already
            turno_close_request(turno=turno, user=segretario)
        assert exc.value.problems[0].code == "TURNO_CLOSED"
        optional, _r = play_turno(turno.season, dt.date(2026, 11, 27), PLAYERS, 5, close=False)
        with pytest.raises(RuleViolation) as exc:  # the fixture's season: confirmation optional
            turno_close_request(turno=optional, user=segretario)
        assert exc.value.problems[0].code == "CONFIRMATION_OPTIONAL"


# -- confirmation required: the close waits for every player ------------------------------------
@pytest.fixture
def required_season(members):
    season = season_create(name="2026-27")
    season.confirmation_required = True
    season.save(update_fields=["confirmation_required"])
    return season


def test_required_the_turno_counts_only_when_the_last_player_confirms(
    segretario, members, required_season
):
    from scoring.models import CloseRequest, Standing, Turno
    from scoring.services.confirmations import turno_close_request

    turno, record = play_turno(required_season, dt.date(2026, 11, 20), PLAYERS, 3, close=False)
    turno_close_request(turno=turno, tiebreak=list(record.tiebreak), user=segretario)
    turno.refresh_from_db()
    assert turno.status == Turno.IN_CORSO and turno.verbale_number is None
    assert not Standing.objects.filter(season=required_season).exists()  # not in the Classifica
    assert CloseRequest.objects.get(turno=turno).tiebreak == [
        player(name).pk for name in record.tiebreak
    ]  # by player: a name corrected meanwhile keeps the spareggio
    pin_set(player=player("Dario"), pin="1358")
    for name in ("Anna", "Bruno", "Carla"):
        verbale_confirm(turno=turno, player=player(name))
        turno.refresh_from_db()
        assert turno.status == Turno.IN_CORSO
    assert not Standing.objects.filter(season=required_season).exists()
    # the last one, at the table: the real close runs
    verbale_confirm_at_table(turno=turno, player=player("Dario"), pin="1358", user=segretario)
    turno.refresh_from_db()
    assert turno.status == Turno.CHIUSO and turno.verbale_number == 1
    assert turno.closed_by == segretario  # the segretario who asked for the close
    assert not CloseRequest.objects.exists()
    assert VerbaleConfirmation.objects.filter(turno=turno, verdict="confermato").count() == 4
    assert sorted(
        Standing.objects.filter(season=required_season).values_list("turni", flat=True)
    ) == [1, 1, 1, 1]
    kinds = list(TurnoEvent.objects.filter(turno=turno).values_list("kind", flat=True))
    assert kinds == ["close_ask", "confirm", "confirm", "confirm", "confirm", "close"]
    # the ledger replay (autouse fixture) checks the stored results equal the engine's


def test_required_a_changed_turno_is_not_closed_and_the_request_can_be_cancelled(
    segretario, members, required_season
):
    from scoring import api
    from scoring.models import CloseRequest, Turno
    from scoring.services.confirmations import turno_close_request, turno_close_request_cancel

    turno, record = play_turno(required_season, dt.date(2026, 11, 20), PLAYERS, 3, close=False)
    with pytest.raises(RuleViolation) as exc:  # an open turno without a request
        verbale_confirm(turno=turno, player=player("Anna"))
    assert exc.value.problems[0].code == "TURNO_OPEN"
    turno_close_request(turno=turno, tiebreak=list(record.tiebreak), user=segretario)
    with pytest.raises(RuleViolation) as exc:
        turno_close_request(turno=turno, tiebreak=list(record.tiebreak))
    assert exc.value.problems[0].code == "CLOSE_PENDING"
    verbale_confirm(turno=turno, player=player("Anna"))
    verbale_contest(turno=turno, player=player("Bruno"), comment="manca la penalità di Carla")
    assert list(contested_turni(required_season)) == [turno]  # flagged while waiting
    api.penalita_add(turno=turno, player="Carla", points=-5, article="9", reason="carte toccate")
    with pytest.raises(RuleViolation) as exc:
        verbale_confirm(turno=turno, player=player("Carla"))
    assert exc.value.problems[0].code == "CLOSE_REQUEST_STALE"
    turno_close_request_cancel(turno=turno, user=segretario)
    assert not CloseRequest.objects.exists() and not VerbaleConfirmation.objects.exists()
    assert list(contested_turni(required_season)) == []
    turno_close_request(turno=turno, tiebreak=list(record.tiebreak), user=segretario)
    for name in PLAYERS:
        verbale_confirm(turno=turno, player=player(name))
    turno.refresh_from_db()
    assert turno.status == Turno.CHIUSO
    assert turno.seats.get(player__name="Carla").penalty_total == -5
    cancel = TurnoEvent.objects.get(kind=TurnoEvent.CLOSE_CANCEL)
    assert (cancel.reason, cancel.user) == ("richiesta annullata dal segretario", segretario)


def test_required_through_the_caf_close_screen(seg, members, required_season):
    from scoring.models import CloseRequest, Turno

    turno, _record = play_turno(required_season, dt.date(2026, 11, 20), PLAYERS, 3, close=False)
    data = {"tie_0_0": "Anna", "tie_0_1": "Bruno"}  # seed 3: Anna and Bruno tie on +39
    r = seg.post(reverse("scoring:turno_close", args=[turno.pk]), data, follow=True)
    page = r.content.decode()
    assert "il turno è in attesa di conferma" in page and 'data-pending="0/4"' in page
    turno.refresh_from_db()
    assert turno.status == Turno.IN_CORSO
    assert CloseRequest.objects.get(turno=turno).tiebreak == [player("Anna").pk, player("Bruno").pk]
    for url in (reverse("scoring:segreteria"), reverse("scoring:classifica")):
        shown = seg.get(url).content.decode()
        assert f'data-waiting-turno="{turno.pk}"' in shown and "In attesa di conferma" in shown
    for name in PLAYERS:
        verbale_confirm(turno=turno, player=player(name))
    turno.refresh_from_db()
    assert turno.status == Turno.CHIUSO
    for url in (reverse("scoring:segreteria"), reverse("scoring:classifica")):
        assert "data-waiting-turno" not in seg.get(url).content.decode()
    assert turno.seats.get(player__name="Anna").place == 1


def test_required_through_the_screens_of_a_ramino_season(client, seg, members):
    from scoring import api
    from scoring.models import CloseRequest, Turno
    from scoring.services.turni import turno_start

    season = season_create(name="Ramino", ruleset_code="ramino-101")
    season.confirmation_required = True
    season.save(update_fields=["confirmation_required"])
    t = turno_start(season=season, date=dt.date(2026, 11, 20), players=PLAYERS, first_dealer="Anna")
    api.smazzata_record(
        turno=t,
        record={
            "closer": "Bruno",
            "close": "NORMALE",
            "penalties": {"Anna": 34, "Carla": 12, "Dario": 55},
        },
    )
    api.smazzata_record(turno=t, record={"closer": "Anna", "close": "SCALA_REALE"})
    data = {"spareggio-0": "Carla", "spareggio-1": "Bruno", "spareggio-2": "Dario"}
    r = seg.post(reverse("scoring:turno_close", args=[t.pk]), data, follow=True)
    page = r.content.decode()
    assert "il turno è in attesa di conferma" in page
    assert 'data-pending="0/4"' in page
    t.refresh_from_db()
    assert t.status == Turno.IN_CORSO and CloseRequest.objects.filter(turno=t).exists()
    client.force_login(members["Anna"])
    post(client, t, action="conferma")
    assert 'data-pending="1/4"' in verbale_page(client, t)
    for name in ("Bruno", "Carla", "Dario"):
        verbale_confirm(turno=t, player=player(name))
    t.refresh_from_db()
    assert t.status == Turno.CHIUSO and t.verbale_number == 1
    assert "data-pending" not in verbale_page(client, t)


def _engine_fingerprint(turno, *, by_name: bool = False) -> str:
    """The fingerprint a close request kept before issue 24: the engine's TurnoRecord of the
    turno (every deal with its "trump", null where none), players by key (or by name)."""
    import dataclasses
    import hashlib
    import json

    from scoring.models import Seat, Turno
    from scoring.selectors import turno_record, turno_with_everything
    from scoring.services.confirmations import _by_player

    full = turno_with_everything(Turno.objects.filter(pk=turno.pk)).get()
    data = dataclasses.asdict(turno_record(full, tiebreak=[]))
    if not by_name:  # as the code of then: each name at the table written "#pk", then sorted
        ids = dict(Seat.objects.filter(turno=turno).values_list("player__name", "player_id"))
        data = _by_player(data, ids)
    text = json.dumps(data, sort_keys=True, default=str, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


@pytest.mark.parametrize("by_name", [False, True])
def test_required_a_request_made_before_the_one_input_path_still_closes(
    segretario, members, required_season, by_name
):
    """A close request kept before C.A.F. read its turni as its interchange record (its
    fingerprint hashed the engine's TurnoRecord) is honoured: the last confirmation closes the
    turno; a deal recorded since then still makes it stale."""
    from scoring.models import CloseRequest, Turno
    from scoring.services.confirmations import turno_close_request, turno_fingerprint

    turno, record = play_turno(required_season, dt.date(2026, 11, 20), PLAYERS, 3, close=False)
    turno_close_request(turno=turno, tiebreak=list(record.tiebreak), user=segretario)
    old = _engine_fingerprint(turno, by_name=by_name)
    assert turno_fingerprint(turno) != old  # the deals without a trump hash without the key
    assert turno_fingerprint(turno, by_name=by_name, every_key=True) == old
    CloseRequest.objects.filter(turno=turno).update(fingerprint=old)
    for name in PLAYERS:
        verbale_confirm(turno=turno, player=player(name))
    assert Turno.objects.get(pk=turno.pk).status == Turno.CHIUSO


def test_required_an_old_request_of_a_changed_turno_is_stale(segretario, members, required_season):
    from scoring import api
    from scoring.models import CloseRequest, Turno
    from scoring.services.confirmations import turno_close_request

    turno, record = play_turno(required_season, dt.date(2026, 11, 20), PLAYERS, 3, close=False)
    turno_close_request(turno=turno, tiebreak=list(record.tiebreak), user=segretario)
    CloseRequest.objects.filter(turno=turno).update(fingerprint=_engine_fingerprint(turno))
    api.penalita_add(turno=turno, player="Carla", points=-5, article="9", reason="carte toccate")
    with pytest.raises(RuleViolation) as exc:
        verbale_confirm(turno=turno, player=player("Carla"))
    assert exc.value.problems[0].code == "CLOSE_REQUEST_STALE"
    assert Turno.objects.get(pk=turno.pk).status == Turno.IN_CORSO
