"""Shared fixtures: the rule set, users with roles, simulated seasons in the database."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator

import hypothesis
import pytest

from scoring.demo import simulated_season
from scoring.rules.caf import caf

# -- hypothesis profiles ------------------------------------------------------------------------
# "ci", the default: each property test's own max_examples (sized for the CI run). "long":
# KINGCLUB_HYPOTHESIS=long multiplies every property test's examples by 10 (a night's run).
# Both print the blob that replays a failure (@reproduce_failure).
hypothesis.settings.register_profile("ci", print_blob=True)
hypothesis.settings.register_profile("long", print_blob=True)
HYPOTHESIS_PROFILE = os.environ.get("KINGCLUB_HYPOTHESIS", "ci")
hypothesis.settings.load_profile(HYPOTHESIS_PROFILE)
LONG_RUN_FACTOR = 10


def pytest_collection_modifyitems(config, items):
    """Under the "long" profile, every property test draws ten times its own max_examples
    (they set it per test, which a profile alone does not override)."""
    if HYPOTHESIS_PROFILE != "long":
        return
    done = set()
    for item in items:
        test = getattr(item, "obj", None)
        given = getattr(getattr(test, "hypothesis", None), "inner_test", None)
        if given is None or id(test) in done:
            continue
        done.add(id(test))
        own = getattr(test, "_hypothesis_internal_use_settings", hypothesis.settings.default)
        test._hypothesis_internal_use_settings = hypothesis.settings(
            own, max_examples=own.max_examples * LONG_RUN_FACTOR
        )


TEST_PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(scope="session", autouse=True)
def _fast_password_hasher():
    """Django's PBKDF2 hashes a password in 0.3 s on an idle core and several seconds on a busy
    one, and the suite makes thousands (every user of a fixture, every login through the form,
    every PIN): the tests hash with MD5. What a hash proves (stored hashed, checked, refused)
    holds with any hasher; the club's own setting is checked in tests/unit/test_suite.py."""
    from django.test.utils import override_settings

    with override_settings(PASSWORD_HASHERS=TEST_PASSWORD_HASHERS):
        yield


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
    if group:  # made by a migration; made here too when the tests run with --nomigrations
        user.groups.add(Group.objects.get_or_create(name=group)[0])
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
    """Every row of the club's data (the ``scoring`` tables, their history and link tables, the
    users with their groups and permissions), to compare before and after a rejected request.

    What ``dumpdata scoring auth.user`` printed, read as rows instead of serialized objects:
    the same comparison (stricter: the base managers, every link table) at a fraction of the
    cost, and the property tests and the URL walk compare thousands of times."""
    from django.apps import apps
    from django.contrib.auth.models import User

    models = [
        *apps.get_app_config("scoring").get_models(include_auto_created=True),
        User,
        User.groups.through,
        User.user_permissions.through,
    ]
    lines = []
    for model in models:
        label = model._meta.label
        rows = model._base_manager.order_by("pk").values_list()
        lines.extend(f"{label} {row!r}" for row in rows)
    return "\n".join(lines)


@contextlib.contextmanager
def kept_for_the_scope(django_db_blocker) -> Iterator[None]:
    """Data built once for a module (or a class) and seen by each of its tests: built inside a
    transaction left open until the scope ends, then rolled back. Each test runs in a savepoint
    of it (pytest-django's ``db``), so a test's own writes are undone before the next one.

    Only for tests on ``db``: a ``transactional_db`` test in the same module would flush the
    shared rows. Usage (see docs/testing.md)::

        @pytest.fixture(scope="module")
        def club(django_db_setup, django_db_blocker):
            with kept_for_the_scope(django_db_blocker):
                with django_db_blocker.unblock():
                    data = build_the_club()
                yield data
    """
    from django.db import transaction

    with django_db_blocker.unblock():
        atomic = transaction.atomic()
        atomic.__enter__()
    try:
        yield
    finally:
        with django_db_blocker.unblock():
            transaction.set_rollback(True)
            atomic.__exit__(None, None, None)


_RENDERED_PDFS: dict[tuple[str, str], bytes] = {}


@pytest.fixture
def pdf_rendered_once(monkeypatch):
    """For tests that ask for documents but test something else (who may download them): a
    document's HTML is laid out by WeasyPrint the first time only, later requests for the same
    HTML in this process get the same bytes. The views, the read model and the HTML template
    still run for every request; the PDFs themselves are tested in test_documents.py."""
    from scoring.exports import pdf

    real = pdf.HTML

    class HTML:
        def __init__(self, string: str, **options):
            self.string, self.options = string, options

        def write_pdf(self, **options) -> bytes:
            key = (self.string, repr(sorted(options)))
            if key not in _RENDERED_PDFS:
                if len(_RENDERED_PDFS) >= 256:  # a few MB at most
                    _RENDERED_PDFS.clear()
                _RENDERED_PDFS[key] = real(string=self.string, **self.options).write_pdf(**options)
            return _RENDERED_PDFS[key]

    monkeypatch.setattr(pdf, "HTML", HTML)


@pytest.fixture
def db_dump(db):
    return dump_database


@pytest.fixture
def ledger_unchecked():
    """Request it in a test that corrupts the ledger on purpose: the replay check is skipped."""


@pytest.fixture(autouse=True)
def _ledger_replays(request):
    """After every database test, the stored ledger must equal the engine's replay of its facts
    (``check_ledger``). The database fixture is taken first, so the check runs before the test
    database is rolled back or flushed."""
    names = request.fixturenames
    marker = request.node.get_closest_marker("django_db")
    if "ledger_unchecked" in names or (
        marker is None and not {"db", "transactional_db", "live_server"} & set(names)
    ):
        yield
        return
    transactional = "transactional_db" in names or "live_server" in names
    if marker is not None and (marker.kwargs.get("transaction") or marker.args[:1] == (True,)):
        transactional = True
    request.getfixturevalue("transactional_db" if transactional else "db")
    yield
    from scoring.models import Giornata
    from scoring.services.ledger import ledger_differences

    if Giornata.objects.exists():
        found = ledger_differences()
        assert not found, "the ledger differs from the replay:\n" + "\n".join(
            str(d) for d in found[:30]
        )


@pytest.fixture(autouse=True)
def _media_root(settings, tmp_path_factory):
    """Stored documents go to a folder of the test's own, never into the project."""
    settings.MEDIA_ROOT = tmp_path_factory.mktemp("media")


@pytest.fixture(autouse=True)
def _club_language():
    """Every test starts in the club's language: a request in English (LocaleMiddleware) leaves
    English active in the thread after the response, and the next test in the same process would
    render its documents in English (seen in random order: "no row 'Totale del turno'")."""
    from django.utils import translation

    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _kept_pages():
    """The pages kept in memory for anonymous visitors, and the live boards' versions and HTML,
    are per process: every test starts without them (two tests' seasons may look alike to the
    key, and tests run in any order)."""
    from django.core.cache import caches

    from scoring.views import pagecache

    pagecache.clear()
    caches["live"].clear()
    yield
    pagecache.clear()
    caches["live"].clear()


def pytest_terminal_summary(terminalreporter, config):
    """The random order's seed (pytest-randomly), to replay a failure in the same order."""
    seed = getattr(config.option, "randomly_seed", None)
    if isinstance(seed, int) and config.pluginmanager.hasplugin("randomly"):
        terminalreporter.write_line(
            f"random order, seed {seed}: replay it with `pytest --randomly-seed={seed}` and the "
            "same paths (`-p no:randomly` for the files' order)"
        )
