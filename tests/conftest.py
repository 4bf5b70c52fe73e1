"""Shared fixtures: the rule set, users with roles, simulated seasons in the database."""

from __future__ import annotations

import pytest

from scoring.demo import simulated_season
from scoring.rules import caf


@pytest.fixture
def rules():
    return caf()


@pytest.fixture
def make_season(db):
    """Import a simulated season: ``make_season(name=..., players=[...], giornate=3, seed=1)``."""
    from scoring.services.interchange import season_import

    def make(**kwargs):
        kwargs.setdefault("name", "2026-27")
        kwargs.setdefault("players", ["Anna", "Bruno", "Carla", "Dario", "Elena"])
        kwargs.setdefault("giornate", 3)
        return season_import(data=simulated_season(**kwargs))

    return make


def _user(django_user_model, username: str, group: str | None = None, **extra):
    from django.contrib.auth.models import Group

    user = django_user_model.objects.create_user(
        username=username, password="pw-kingclub-1", **extra
    )
    if group:
        user.groups.add(Group.objects.get(name=group))
    return user


@pytest.fixture
def segretario(db, django_user_model):
    return _user(django_user_model, "segretario", "Segretario")


@pytest.fixture
def socio(db, django_user_model):
    return _user(django_user_model, "socio", "Socio")


@pytest.fixture
def admin_user(db, django_user_model):
    return _user(django_user_model, "admin", is_superuser=True, is_staff=True)


@pytest.fixture
def segretario_client(client, segretario):
    client.force_login(segretario)
    return client


def dump_database() -> str:
    """A full dump of the club's data (to compare before and after a rejected request)."""
    import io

    from django.core.management import call_command

    out = io.StringIO()
    call_command("dumpdata", "scoring", "auth.user", stdout=out, indent=None)
    return out.getvalue()


@pytest.fixture
def db_dump(db):
    return dump_database
