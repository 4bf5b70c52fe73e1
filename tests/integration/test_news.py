"""The news by mail: members who opted in get a mail when a turno closes or is reopened (the
Verbale PDF attached), after the commit; a failing mail server never breaks a close and the
outbox row is retried by ``manage.py send_news``; the weekly digest."""

from __future__ import annotations

import datetime as dt
import io
import smtplib

import pytest
from django.core import mail
from django.core.mail.backends.base import BaseEmailBackend
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone
from pypdf import PdfReader

from scoring import formatting
from scoring.models import NewsMail, NewsPreference, Player, Seat, Standing, Turno
from scoring.services.news import MAX_ATTEMPTS, send_pending
from scoring.services.season import season_create
from scoring.services.turni import turno_reopen
from tests.helpers import play_turno

pytestmark = pytest.mark.django_db
PLAYERS = ["Anna", "Bruno", "Carla", "Dario"]
FAILING = "tests.integration.test_news.FailingBackend"
LOCMEM = "django.core.mail.backends.locmem.EmailBackend"


class FailingBackend(BaseEmailBackend):
    """A mail server that is down."""

    def send_messages(self, email_messages):
        raise smtplib.SMTPServerDisconnected("connessione rifiutata")


@pytest.fixture
def members(django_user_model):
    """Anna wants a mail at each turno (on her profile address), Bruno nothing, Elena the
    weekly digest only."""
    users = {}
    for name in [*PLAYERS, "Elena"]:
        user = django_user_model.objects.create_user(
            username=name.lower(), password="pw-kingclub-1", email=f"{name.lower()}@login.it"
        )
        Player.objects.create(name=name, user=user)
        users[name] = user
    NewsPreference.objects.create(user=users["Anna"], email="anna@casa.it", each_turno=True)
    NewsPreference.objects.create(user=users["Bruno"], email="bruno@casa.it")
    NewsPreference.objects.create(user=users["Elena"], weekly_digest=True)
    return users


@pytest.fixture
def season(members):
    s = season_create(name="2026-27")
    play_turno(s, dt.date(2026, 11, 13), PLAYERS, seed=1)  # a first giornata: no mail captured
    return s


def close_second(season, django_capture_on_commit_callbacks) -> Turno:
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        turno, _r = play_turno(season, dt.date(2026, 11, 20), PLAYERS, seed=3)
    assert len(callbacks) == 1  # one news callback for the close, none per smazzata
    return turno


def expected_table(turno: Turno) -> list[str]:
    lines = []
    for s in Seat.objects.filter(turno=turno).select_related("player").order_by("place"):
        total, league = formatting.points(s.total), formatting.league(s.league_points)
        line = f"  {s.place}° {s.player.name}: {total} ({league} punti classifica)"
        if s.series_after != s.series_before:
            line += f", serie {s.series_before} → {s.series_after}"
        lines.append(line)
    return lines


def test_a_close_mails_the_members_who_opted_in_with_the_pdf(
    season, django_capture_on_commit_callbacks
):
    mail.outbox.clear()
    turno = close_second(season, django_capture_on_commit_callbacks)
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["anna@casa.it"]  # the profile's address; Bruno and Elena: nothing
    assert message.subject == "Turno 1 del 20/11/2026 chiuso · 2026-27"
    body = message.body
    assert "Il turno 1 del 20/11/2026 è chiuso." in body
    for line in expected_table(turno):
        assert line + "\n" in body
    for st in Standing.objects.filter(season=season, player__name__in=PLAYERS):
        moved = st.previous_place - st.place
        text = f"  {st.player.name}: {st.place}°"
        if moved:
            n = abs(moved)
            word = "su" if moved > 0 else "giù"
            text += f" ({word} di {n} {'posto' if n == 1 else 'posti'})"
        assert text + "\n" in body
    assert f"http://127.0.0.1:8000/turni/{turno.pk}/" in body
    assert len(message.attachments) == 1
    name, content, mimetype = message.attachments[0]
    assert mimetype == "application/pdf"
    assert name == "verbale-2026-11-20-1.pdf"  # as the site serves it
    assert content.startswith(b"%PDF")
    text = "".join(p.extract_text() for p in PdfReader(io.BytesIO(content)).pages)
    assert "Verbale di Turno" in text and "20/11/2026" in text
    row = NewsMail.objects.get()
    assert (row.kind, row.to, row.attempts, row.error) == ("close", "anna@casa.it", 1, "")
    assert row.sent_at is not None


def test_each_member_reads_the_news_in_the_language_of_the_profile(
    season, members, django_capture_on_commit_callbacks
):
    """Bruno chose English: his mail and the Verbale attached are in English, Anna's (the club's
    language) in Italian; each language rendered once."""
    NewsPreference.objects.filter(user=members["Bruno"]).update(each_turno=True, language="en")
    mail.outbox.clear()
    close_second(season, django_capture_on_commit_callbacks)
    sent = {m.to[0]: m for m in mail.outbox}
    assert sorted(sent) == ["anna@casa.it", "bruno@casa.it"]
    italian, english = sent["anna@casa.it"], sent["bruno@casa.it"]
    assert italian.subject == "Turno 1 del 20/11/2026 chiuso · 2026-27"
    assert english.subject == "Turno 1 of 20/11/2026 closed · 2026-27"
    assert "Turno 1 of 20/11/2026 is closed." in english.body
    assert "Il turno 1 del 20/11/2026 è chiuso." in italian.body
    texts = {
        m.to[0]: "".join(p.extract_text() for p in PdfReader(io.BytesIO(m.attachments[0][1])).pages)
        for m in (italian, english)
    }
    assert "Stagione 2026-27" in texts["anna@casa.it"]
    assert "Season 2026-27" in texts["bruno@casa.it"]


def test_a_reopen_mails_the_reason(
    season, segretario, django_capture_on_commit_callbacks, pdf_rendered_once
):
    turno = close_second(season, django_capture_on_commit_callbacks)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        turno_reopen(turno=turno, reason="smazzata 4 da correggere", user=segretario)
    assert [m.subject for m in mail.outbox] == ["Turno 1 del 20/11/2026 riaperto · 2026-27"]
    body = mail.outbox[0].body
    assert "Il turno 1 del 20/11/2026 è stato riaperto dal segretario." in body
    assert "Motivazione: smazzata 4 da correggere" in body
    assert mail.outbox[0].attachments[0][2] == "application/pdf"
    assert mail.outbox[0].attachments[0][1].startswith(b"%PDF")


def test_no_mail_before_the_commit_and_none_after_a_rollback(season):
    """Without the commit (the test transaction) nothing is sent."""
    mail.outbox.clear()
    play_turno(season, dt.date(2026, 11, 20), PLAYERS, seed=3)
    assert mail.outbox == []
    assert not NewsMail.objects.exists()


def test_a_failing_mail_server_does_not_break_a_close_and_is_retried(
    season, settings, django_capture_on_commit_callbacks, caplog, pdf_rendered_once
):
    """Each attempt renders the mail again, its Verbale too: laid out once per distinct HTML
    (``pdf_rendered_once``), the PDF's text is test_a_close_mails_the_members_who_opted_in's."""
    settings.EMAIL_BACKEND = FAILING
    turno = close_second(season, django_capture_on_commit_callbacks)  # no exception
    turno.refresh_from_db()
    assert turno.status == Turno.CHIUSO and turno.verbale_number == 2
    row = NewsMail.objects.get()
    assert (row.attempts, row.sent_at) == (1, None)
    assert row.error == "SMTPServerDisconnected: connessione rifiutata"
    assert "news: mail" in caplog.text and "not sent" in caplog.text
    # the command retries while the server is still down...
    call_command("send_news", stdout=io.StringIO())
    row.refresh_from_db()
    assert (row.attempts, row.sent_at) == (2, None)
    # ...and sends once it is back
    settings.EMAIL_BACKEND = LOCMEM
    mail.outbox.clear()
    out = io.StringIO()
    call_command("send_news", stdout=out)
    assert out.getvalue() == "notizie in sospeso: 1 inviata, 0 non inviate\n"
    row.refresh_from_db()
    assert row.attempts == 3 and row.sent_at is not None and row.error == ""
    assert [m.to for m in mail.outbox] == [["anna@casa.it"]]
    assert mail.outbox[0].attachments[0][1].startswith(b"%PDF")
    # a sent mail is not sent again
    call_command("send_news", stdout=io.StringIO())
    assert len(mail.outbox) == 1


def test_a_mail_stops_being_retried_after_max_attempts(season, settings):
    settings.EMAIL_BACKEND = LOCMEM
    NewsMail.objects.create(
        kind="digest", to="x@y.it", subject="s", body="b", attempts=MAX_ATTEMPTS
    )
    assert send_pending() == (0, 0)
    assert mail.outbox == []


def test_the_weekly_digest(season, members, django_capture_on_commit_callbacks):
    close_second(season, django_capture_on_commit_callbacks)
    mail.outbox.clear()
    # the first turno was closed "a month ago"
    Turno.objects.filter(giornata__date=dt.date(2026, 11, 13)).update(
        closed_at=timezone.now() - dt.timedelta(days=30)
    )
    out = io.StringIO()
    call_command("send_news", "--digest", stdout=out)
    assert out.getvalue().splitlines()[0] == "riepilogo: 1 inviato, 0 in sospeso"
    assert [m.to for m in mail.outbox] == [["elena@login.it"]]  # her login's address
    body = mail.outbox[0].body
    assert "1 turno chiuso questa settimana:" in body
    assert "2026-27 · turno 1 del 20/11/2026" in body
    assert "turno 1 del 13/11/2026" not in body
    turno = Turno.objects.get(giornata__date=dt.date(2026, 11, 20))
    for s in Seat.objects.filter(turno=turno).select_related("player"):
        total = str(s.total).replace("-", "\N{MINUS SIGN}")  # a true minus, as on every page
        assert f"  {s.place}° {s.player.name}: {total}\n" in body
    assert mail.outbox[0].attachments == []
    # run twice in a week: no second digest
    call_command("send_news", "--digest", stdout=io.StringIO())
    assert len(mail.outbox) == 1


def test_the_profile_manages_the_choices(client, members):
    url = reverse("scoring:profile")
    assert client.get(url).status_code == 302  # login required
    client.force_login(members["Bruno"])
    page = client.get(url).content.decode()
    assert 'value="bruno@casa.it"' in page
    bad = client.post(url, {"action": "news", "email": "non-un-indirizzo", "each_turno": "on"})
    assert bad.status_code == 422 and "indirizzo email non valido" in bad.content.decode()
    empty = client.post(url, {"action": "news", "email": "", "weekly_digest": "on"})
    assert empty.status_code == 422
    assert "per ricevere le notizie serve un indirizzo email" in empty.content.decode()
    pref = NewsPreference.objects.get(user=members["Bruno"])
    assert (pref.email, pref.each_turno, pref.weekly_digest) == ("bruno@casa.it", False, False)
    assert pref.language == ""  # the club's language
    ok = client.post(
        url, {"action": "news", "email": "b@club.it", "each_turno": "on", "language": "en"}
    )
    assert ok.status_code == 302
    pref.refresh_from_db()
    assert (pref.email, pref.each_turno, pref.weekly_digest) == ("b@club.it", True, False)
    assert pref.language == "en"
    bad = client.post(url, {"action": "news", "email": "other@club.it", "language": "fr"})
    assert bad.status_code == 422
    assert (
        '<ul class="errorlist" id="id_language_error"><li>Scegli un&#x27;opzione valida. '
        "fr non è tra quelle disponibili.</li></ul>"
    ) in bad.content.decode()
    pref.refresh_from_db()  # refused: nothing of the form kept, the language still English
    assert (pref.email, pref.each_turno, pref.weekly_digest, pref.language) == (
        "b@club.it",
        True,
        False,
        "en",
    )


def test_a_new_member_profile_starts_from_the_login_address(client, django_user_model):
    user = django_user_model.objects.create_user(
        username="nuovo", password="pw-kingclub-1", email="nuovo@login.it"
    )
    client.force_login(user)
    page = client.get(reverse("scoring:profile")).content.decode()
    assert 'value="nuovo@login.it"' in page
    assert "non è collegato a un giocatore" in page
    assert not NewsPreference.objects.exists()  # nothing stored until saved


def test_an_imported_season_is_not_news(members, django_capture_on_commit_callbacks):
    from scoring.services.games import game_season_import

    doc = {
        "format": "kingclub/v1",
        "ruleset": "ramino-101",
        "season": "Ramino importato",
        "turni": [
            {
                "date": "2026-11-20",
                "players": PLAYERS,
                "first_dealer": "Anna",
                "smazzate": [
                    {
                        "closer": "Bruno",
                        "close": "NORMALE",
                        "penalties": {"Anna": 34, "Carla": 12, "Dario": 55},
                    },
                    {"closer": "Anna", "close": "SCALA_REALE"},
                ],
                "tiebreak": ["Carla", "Bruno", "Dario"],
            }
        ],
    }
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        season = game_season_import(data=doc)
    assert Turno.objects.filter(season=season, status=Turno.CHIUSO).count() == 1
    assert callbacks == [] and mail.outbox == [] and not NewsMail.objects.exists()
