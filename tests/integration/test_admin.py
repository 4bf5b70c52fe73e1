"""The Django admin: every model of the ledger is registered and its pages open."""

from __future__ import annotations

import pytest
from django.apps import apps
from django.contrib import admin
from django.urls import reverse

from scoring.models import Enrollment, Player, Season
from tests.conftest import kept_for_the_scope
from tests.helpers import every_model_world, took

pytestmark = pytest.mark.django_db

MODELS = [
    m
    for m in apps.get_app_config("scoring").get_models()
    if not m.__name__.startswith("Historical")
]


def test_every_scoring_model_is_registered():
    missing = [m.__name__ for m in MODELS if m not in admin.site._registry]
    assert missing == []


@pytest.fixture(scope="class")
def _crawl_club(django_db_setup, django_db_blocker, tmp_path_factory):
    """The crawl's club, a row in every model (tests/helpers.py, every_model_world), built once
    for the class (kept_for_the_scope) instead of a season for each of its 27 tests."""
    from django.contrib.auth.models import User
    from django.test.utils import override_settings

    media = tmp_path_factory.mktemp("media-crawl")
    with kept_for_the_scope(django_db_blocker):
        with django_db_blocker.unblock(), override_settings(MEDIA_ROOT=str(media)):
            admin_user = User.objects.create_user(
                username="crawl-admin", password="pw-kingclub-1", is_superuser=True, is_staff=True
            )
            every_model_world(admin_user, document="xlsx")
        yield admin_user


@pytest.fixture
def crawl_client(db, _crawl_club, client):
    client.force_login(_crawl_club)
    return client


class TestTheCrawl:
    """Every model's list, add and change pages, and the history of the official record, on one
    club that has a row in every model (no change page left out for want of a row)."""

    def test_the_club_has_a_row_in_every_model(self, crawl_client):
        assert [m.__name__ for m in MODELS if not m.objects.exists()] == []

    @pytest.mark.parametrize("model", MODELS, ids=lambda m: m.__name__)
    def test_changelist_add_and_change_pages_open(self, crawl_client, model):
        opts = model._meta
        changelist = crawl_client.get(
            reverse(f"admin:{opts.app_label}_{opts.model_name}_changelist")
        )
        assert changelist.status_code == 200
        add = crawl_client.get(reverse(f"admin:{opts.app_label}_{opts.model_name}_add"))
        # the official record is never added to from the admin (issue 12): members, seasons and
        # the roster are
        assert add.status_code == (200 if model in (Player, Season, Enrollment) else 403)
        obj = model.objects.order_by("pk").first()
        change = crawl_client.get(
            reverse(f"admin:{opts.app_label}_{opts.model_name}_change", args=[obj.pk])
        )
        assert change.status_code == 200

    @pytest.mark.parametrize("model_name", ["turno", "smazzata", "result", "penalita", "sanction"])
    def test_history_pages_open(self, crawl_client, model_name):
        model = apps.get_model("scoring", model_name)
        obj = model.objects.order_by("pk").first()
        r = crawl_client.get(reverse(f"admin:scoring_{model_name}_history", args=[obj.pk]))
        assert r.status_code == 200


def test_computed_fields_are_read_only(client, admin_user, make_season):
    make_season(giornate=1, seed=3)
    client.force_login(admin_user)
    from scoring.models import Seat, Smazzata

    smazzata = Smazzata.objects.first()
    html = client.get(reverse("admin:scoring_smazzata_change", args=[smazzata.pk])).content
    assert b'name="forced"' not in html and b'name="scazzata"' not in html
    assert b'name="results-0-points"' not in html
    seat = Seat.objects.first()
    html = client.get(reverse("admin:scoring_seat_change", args=[seat.pk])).content
    assert b'name="total"' not in html and b'name="league_points"' not in html
    html = client.get(reverse("admin:scoring_turno_change", args=[seat.turno_id])).content
    # the seats are read-only too: a seat's player changed on a closed turno broke its pages
    assert b'name="seats-0-total"' not in html and b'name="seats-0-player"' not in html


def test_admin_search_and_filters(client, admin_user, make_season):
    make_season(giornate=1, seed=3)
    client.force_login(admin_user)
    r = client.get(reverse("admin:scoring_turno_changelist"), {"q": "Anna", "status": "chiuso"})
    assert r.status_code == 200
    r = client.get(reverse("admin:scoring_smazzata_changelist"), {"game": "NJ", "q": "Bruno"})
    assert r.status_code == 200


def test_season_rules_locked_in_the_admin_unless_recomputed(client, admin_user, make_season):
    """SPEC §9: after the first close the rule set changes only with an explicit recompute."""
    import json

    from scoring.models import Season, SeasonEvent, Smazzata

    season = make_season(giornate=2, seed=3)
    client.force_login(admin_user)
    url = f"/admin/scoring/season/{season.pk}/change/"
    rules = dict(season.rules)
    rules["games"] = dict(rules["games"])
    rules["games"]["NQS"] = {**rules["games"]["NQS"], "per_unit": -10}
    data = {
        "name": season.name,
        "ruleset_code": "caf",
        "rules": json.dumps(rules),
        "is_current": "on",
        "enrollments-TOTAL_FORMS": "0",
        "enrollments-INITIAL_FORMS": "0",
        "enrollments-MIN_NUM_FORMS": "0",
        "enrollments-MAX_NUM_FORMS": "1000",
    }
    r = client.post(url, data)
    assert r.status_code == 200
    assert "solo con il ricalcolo esplicito" in r.content.decode()
    assert Season.objects.get(pk=season.pk).rules["games"]["NQS"]["per_unit"] == -8
    r = client.post(url, {**data, "recompute": "on", "reason": "il circolo passa a -10"})
    assert r.status_code == 302, r.content.decode()[:3000]
    assert Season.objects.get(pk=season.pk).rules["games"]["NQS"]["per_unit"] == -10
    assert SeasonEvent.objects.filter(season=season, kind="recompute").exists()
    # every Q♠ is rescored: -10 now, or the scazzata's -12 for a voluntary caller who took it
    nqs = Smazzata.objects.filter(turno__season=season, game="NQS")
    assert nqs.count() >= 2
    for sm in nqs:
        taker = took(sm, 1)
        assert taker.points == (-12 if sm.scazzata and taker.player_id == sm.caller_id else -10)


@pytest.mark.parametrize(
    ("code", "rules", "lang", "said"),
    [
        # C.A.F. stores its whole table: {} names no game (its words said once)
        ("caf", {}, "it", "Regolamento non valido: regolamento, code: manca"),
        ("caf", {}, "en", "Invalid rule set: rules, code: is missing"),
        (
            "skat-isko",
            {"opponents_bonus": "tanti"},
            "it",
            "Regolamento non valido: opponents_bonus",
        ),
    ],
)
def test_a_bad_rule_table_is_refused_by_the_seasons_game_in_its_words(
    client, admin_user, code, rules, lang, said
):
    import json

    from scoring.services.season import season_create

    season = season_create(name="2026-27", ruleset_code=code)
    before = dict(season.rules)
    client.force_login(admin_user)
    data = {
        "name": season.name,
        "ruleset_code": code,
        "rules": json.dumps(rules),
        "is_current": "on",
        "enrollments-TOTAL_FORMS": "0",
        "enrollments-INITIAL_FORMS": "0",
        "enrollments-MIN_NUM_FORMS": "0",
        "enrollments-MAX_NUM_FORMS": "1000",
    }
    r = client.post(f"/admin/scoring/season/{season.pk}/change/", data, HTTP_ACCEPT_LANGUAGE=lang)
    assert r.status_code == 200
    html = r.content.decode()
    assert said in html
    assert "[RULES]" not in html and "[RULESET]" not in html  # no internal code
    assert "regolamento non valido: regolamento non valido" not in html.lower()
    assert Season.objects.get(pk=season.pk).rules == before
