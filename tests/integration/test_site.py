"""The site around the ledger: Content-Security-Policy, pickers without inline handlers, the
lockout behind proxies, error pages, favicon, password reset, the admin in Italian."""

from __future__ import annotations

import re

import pytest
from django.conf import settings as django_settings
from django.core import mail
from django.template.loader import render_to_string
from django.test import Client, RequestFactory
from django.urls import reverse

from kingclub.proxy import client_ip
from scoring.models import Season, Turno
from scoring.services.season import season_create

pytestmark = pytest.mark.django_db

INLINE_SCRIPT = re.compile(r"<script(?![^>]*\ssrc=)[^>]*>", re.I)
INLINE_HANDLER = re.compile(r"<[^>]+\son[a-z]+\s*=", re.I)


@pytest.fixture
def pages(make_season, admin_user) -> list[str]:
    season = make_season(giornate=1, seed=3)
    season_create(name="2025-26", current=False)
    turno = Turno.objects.filter(season=season).first()
    player = turno.seats.first().player_id
    return [
        reverse("scoring:home"),
        reverse("scoring:classifica", args=[season.pk]),
        reverse("scoring:serie"),
        reverse("scoring:turni"),
        reverse("scoring:turno", args=[turno.pk]),
        reverse("scoring:players"),
        reverse("scoring:player", args=[player]),
        reverse("scoring:segreteria"),
        reverse("scoring:turno_new"),
        reverse("scoring:turno_live", args=[turno.pk]),
        reverse("login"),
        reverse("password_reset"),
        reverse("admin:index"),
        reverse("admin:scoring_turno_change", args=[turno.pk]),
        "/no-such-page/",
    ]


def test_every_page_sends_the_policy_and_has_no_inline_script(client, pages, admin_user):
    client.force_login(admin_user)
    for url in pages:
        r = client.get(url)
        assert r.status_code in (200, 404), url
        policy = r["Content-Security-Policy"]
        assert "script-src 'self'" in policy and "unsafe-inline" not in policy, url
        assert "unsafe-eval" not in policy and "default-src 'self'" in policy, url
        html = r.content.decode()
        assert INLINE_SCRIPT.findall(html) == [], url
        assert INLINE_HANDLER.findall(html) == [], url


def test_htmx_is_configured_for_the_policy(client, pages):
    html = client.get(reverse("scoring:home")).content.decode()
    assert '"includeIndicatorStyles": false' in html and '"allowEval": false' in html
    assert "django_htmx/htmx" in html


def test_the_pickers_navigate_only_with_their_button(client, pages):
    html = client.get(reverse("scoring:home")).content.decode()
    assert Season.objects.count() == 2
    for form_class in ("lang", "season-switch"):
        form = re.search(rf'<form[^>]*class="{form_class}".*?</form>', html, re.S).group(0)
        assert "onchange" not in form and "<noscript>" not in form
        assert re.search(r'<button type="submit"', form), form_class


# -- the lockout behind proxies ----------------------------------------------------------------
def _request(remote: str, forwarded: str | None = None):
    extra = {"REMOTE_ADDR": remote}
    if forwarded is not None:
        extra["HTTP_X_FORWARDED_FOR"] = forwarded
    return RequestFactory().post("/accounts/login/", **extra)


def test_the_client_address_without_proxies_is_the_connection(settings):
    settings.KINGCLUB_TRUSTED_PROXIES = 0
    assert client_ip(_request("203.0.113.7", "198.51.100.1")) == "203.0.113.7"


def test_the_client_address_behind_trusted_proxies(settings):
    settings.KINGCLUB_TRUSTED_PROXIES = 1
    assert client_ip(_request("10.0.0.2", "198.51.100.1")) == "198.51.100.1"
    # what the client wrote into the header itself is ignored
    assert client_ip(_request("10.0.0.2", "1.2.3.4, 198.51.100.1")) == "198.51.100.1"
    assert client_ip(_request("10.0.0.2")) == "10.0.0.2"
    settings.KINGCLUB_TRUSTED_PROXIES = 2
    assert client_ip(_request("10.0.0.3", "1.2.3.4, 198.51.100.1, 10.0.0.2")) == "198.51.100.1"


def test_the_lockout_keys_on_the_client_behind_the_proxy(settings, segretario):
    settings.KINGCLUB_TRUSTED_PROXIES = 1
    url = reverse("login")
    attacker = Client(REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR="198.51.100.66")
    for _ in range(django_settings.AXES_FAILURE_LIMIT):
        attacker.post(url, {"username": "segretario", "password": "wrong"})
    r = attacker.post(url, {"username": "segretario", "password": "pw-kingclub-1"})
    assert r.status_code == django_settings.AXES_HTTP_RESPONSE_CODE
    # the segretario at another address, through the same proxy, still logs in
    member = Client(REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR="198.51.100.7")
    r = member.post(url, {"username": "segretario", "password": "pw-kingclub-1"})
    assert r.status_code == 302


# -- error pages, favicon, password reset ------------------------------------------------------
def test_error_pages_in_the_site_layout(client, socio, settings):
    settings.DEBUG = False
    r = client.get("/no-such-page/")
    assert r.status_code == 404 and "Pagina non trovata" in r.content.decode()
    assert 'class="topbar"' in r.content.decode()
    client.force_login(socio)
    r = client.get(reverse("scoring:segreteria"))
    assert r.status_code == 403 and "Accesso negato" in r.content.decode()
    csrf = Client(enforce_csrf_checks=True)
    r = csrf.post(reverse("login"), {"username": "x", "password": "y"})
    assert r.status_code == 403 and "Modulo scaduto" in r.content.decode()
    assert "Errore del server" in render_to_string("500.html")


def test_the_lockout_page_is_in_the_site_layout():
    html = render_to_string("registration/lockout.html")
    assert "Troppi tentativi" in html and 'class="topbar"' in html


def test_favicon(client):
    html = client.get(reverse("login")).content.decode()
    assert re.search(r'<link rel="icon" href="/static/favicon.svg"', html)
    assert (django_settings.BASE_DIR / "static" / "favicon.svg").read_text().startswith("<svg")


def test_password_reset_is_reachable_from_the_login(client, segretario, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    segretario.email = "segretario@example.org"
    segretario.save()
    html = client.get(reverse("login")).content.decode()
    assert f'href="{reverse("password_reset")}"' in html and "Password dimenticata?" in html
    r = client.post(reverse("password_reset"), {"email": "segretario@example.org"})
    assert r.status_code == 302, r.content.decode()[-1500:] and r["Location"] == reverse(
        "password_reset_done"
    )
    assert len(mail.outbox) == 1 and "segretario@example.org" in mail.outbox[0].to
    assert "Messaggio inviato" in client.get(reverse("password_reset_done")).content.decode()


# -- the admin in Italian ----------------------------------------------------------------------
def test_the_admin_speaks_italian(client, admin_user, make_season):
    make_season(giornate=1, seed=3)
    client.force_login(admin_user)
    html = client.get(reverse("admin:index")).content.decode()
    for name in ("Giocatori", "Turni", "Posti", "Titoli vinti", "Assenze", "Eventi dei turni"):
        assert name in html, name
    html = client.get(reverse("admin:scoring_seat_changelist")).content.decode()
    for label in ("Piazzamento", "Rapporto", "Punti classifica", "Posto al tavolo"):
        assert label in html, label


def test_the_admin_names_have_an_english_catalogue():
    from django.utils import translation

    from scoring.models import Seat, Standing

    with translation.override("en"):
        assert str(Seat._meta.get_field("league_points").verbose_name) == "league points"
        assert str(Standing._meta.verbose_name_plural) == "Classifica Generale"
