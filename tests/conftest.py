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

# The commands speak the reader's language, read from the environment when no --lingua is given
# (scoring/management/commands/_language.py): the suite reads them in Italian wherever it runs
# (a subprocess inherits it); a test of another language passes --lingua or its own environment.
os.environ["KINGCLUB_LANGUAGE"] = "it"


def pytest_collection_modifyitems(config, items):
    """On an xdist worker, the longest modules first (see ``longest_first``); under the "long"
    profile, every property test draws ten times its own max_examples (they set it per test,
    which a profile alone does not override)."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        items[:] = longest_first(items)
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


# -- the order of the modules on parallel workers -----------------------------------------------
# `make test` runs `--dist loadscope --no-loadscope-reorder`: every module goes whole to one
# worker (each class of a module is a scope of its own and may go to another), in the order the
# workers collected them, each worker taking the next scope as it finishes one. Longest first
# (the longest-processing-time rule) leaves only short scopes for the end, so the workers finish
# together; xdist's own reorder (most tests first) sent the one-test benchmark smoke runs last,
# and one worker ran them alone for minutes.
# Seconds per scope (a module, or a class: ``module::Class``), the longest ones, on one scale:
# the scope's CPU seconds in the suite times 0.35, the ratio of the axe audit's 68 s in a quiet
# run of the suite to its CPU measured at load (docs/testing.md says how to refresh them). The
# browser modules: issue 27's fourth pass (process tree, less start-up, migrations and
# Chromium's start); the axe audit in two halves since the fifth, each a class, each with the
# club's build or the wait for it. The integration modules: the fifth pass (2026-11-28, all of
# tests/integration in one process at load 5: 704 s of CPU over 1,488 s of wall, each module's
# wall times 0.47 for its CPU); test_english_pages after its ledger checks were skipped (a
# third less CPU), test_history after its second season was built once (a quarter less).
# The property modules, the benchmarks' smoke runs and the settings: the third pass.
MODULE_SECONDS: dict[str, float] = {
    "tests/e2e/test_accessibility.py::TestTheClubCafAndTheItalianKings": 20,
    "tests/e2e/test_accessibility.py::TestLeKingSkatRaminoSegreteriaAdmin": 24,
    "tests/integration/test_documents.py": 25,
    "tests/integration/test_history.py": 17,
    "tests/integration/test_every_game_formats.py": 12,
    "tests/integration/test_english_pages.py": 20,
    "tests/e2e/test_segretario.py": 20,
    "tests/property/test_hostile_records.py": 12.5,
    "tests/property/test_hostile_forms.py": 14,
    "tests/integration/test_confirmations.py": 11.5,
    "tests/property/test_ledger_walks.py": 12,
    "tests/property/test_hostile_import.py": 4.5,
    "tests/e2e/test_games.py": 11,
    "tests/property/test_api_walks.py": 10,
    "tests/unit/test_benchmarks_documents_smoke.py": 4,
    "tests/e2e/test_live_screen.py": 8,
    "tests/property/test_generic_ledger.py": 9,
    "tests/e2e/test_live_every_game.py": 9,
    "tests/e2e/test_scoreboard.py": 8,
    "tests/integration/test_permissions.py": 8,
    "tests/integration/test_stored_documents.py": 8,
    "tests/integration/test_command_languages.py": 8,
    "tests/integration/test_backup.py": 6,
    "tests/integration/test_demo.py": 7,
    "tests/unit/test_benchmarks_smoke.py": 7,
    "tests/integration/test_document_frame.py": 5.6,
    "tests/integration/test_admin_official.py": 6,
    "tests/integration/test_admin.py": 5.5,
    "tests/integration/test_news.py": 5.5,
    "tests/e2e/test_albo.py": 5,
    "tests/integration/test_public.py": 5,
    "tests/integration/test_deal_number.py": 4.7,
    "tests/integration/test_rename.py": 4.1,
    "tests/integration/test_games_scale.py": 3.9,
    "tests/integration/test_ledger.py": 3.8,
    "tests/integration/test_pages_speed.py": 3.6,
    "tests/integration/test_every_game_forms.py": 3.5,
    "tests/integration/test_live_board.py": 3.5,
    "tests/integration/test_segreteria.py": 3.3,
    "tests/unit/test_settings.py": 3,
}
SECONDS_PER_TEST = {"e2e": 4.0, "property": 1.0, "integration": 0.25, "unit": 0.05, "rules": 0.01}


def _scope(nodeid: str) -> str:
    """What ``--dist loadscope`` sends to one worker whole: a class of a module, or the rest of
    the module (xdist's own split of a test's id)."""
    return nodeid.rsplit("::", 1)[0]


def longest_first(items: list) -> list:
    """The items with their scopes (``_scope``) longest first; within a scope, and among scopes
    of the same estimate, pytest-randomly's order (a stable sort of its shuffle). A scope's
    seconds: its own entry in ``MODULE_SECONDS`` (a class: ``module::Class``), else its share of
    its module's entry by number of tests, else the folder's seconds per test."""
    in_scope: dict[str, int] = {}
    in_module: dict[str, int] = {}
    first: dict[str, int] = {}
    for i, item in enumerate(items):
        scope = _scope(item.nodeid)
        module = scope.split("::", 1)[0]
        in_scope[scope] = in_scope.get(scope, 0) + 1
        in_module[module] = in_module.get(module, 0) + 1
        first.setdefault(scope, i)

    def seconds(scope: str) -> float:
        module = scope.split("::", 1)[0]
        if scope != module and scope in MODULE_SECONDS:
            return MODULE_SECONDS[scope]
        if module in MODULE_SECONDS:
            return MODULE_SECONDS[module] * in_scope[scope] / in_module[module]
        folder = module.split("/")[1] if module.count("/") >= 2 else ""
        return in_scope[scope] * SECONDS_PER_TEST.get(folder, 0.1)

    def key(item) -> tuple[float, int]:
        scope = _scope(item.nodeid)
        return -seconds(scope), first[scope]

    return sorted(items, key=key)


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
    _KEPT.append({"replayed": False})
    try:
        yield
    finally:
        _KEPT.pop()
        with django_db_blocker.unblock():
            transaction.set_rollback(True)
            atomic.__exit__(None, None, None)


@pytest.fixture
def sequences_high_water(db) -> Iterator[None]:
    """For a test that restores a backup over data kept for its module: on PostgreSQL the
    restore sets each table's sequence to its own rows (``setval`` is not undone by the test's
    rollback), the kept rows come back with the rollback, and the next insert of the module
    would take an id they hold. Each sequence is put back to at least where it stood."""
    from django.db import connection

    if connection.vendor != "postgresql":
        yield
        return

    def marks() -> dict[str, int]:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT quote_ident(schemaname) || '.' || quote_ident(sequencename), last_value"
                " FROM pg_sequences WHERE schemaname = current_schema()"
            )
            return {name: value for name, value in cursor.fetchall() if value is not None}

    before = marks()
    yield
    after = marks()
    with connection.cursor() as cursor:
        for name, value in before.items():
            if after.get(name, 0) < value:
                cursor.execute("SELECT setval(%s, %s)", [name, value])


# the data kept for the scopes now open (innermost last): whether the ledger check found the
# kept data equal to its replay after a test that wrote nothing (_ledger_replays)
_KEPT: list[dict[str, bool]] = []


def database_writes() -> int | None:
    """How many rows the test's database connection has inserted, updated or deleted so far,
    rolled back or not: SQLite's ``total_changes()``, PostgreSQL's counts for the transaction
    (``pg_stat_xact_user_tables``); None on another database. The same number before and after
    a request: the request wrote nothing, so what the database holds is what it held."""
    from django.db import connection

    queries = {
        "sqlite": "SELECT total_changes()",
        "postgresql": "SELECT coalesce(sum(n_tup_ins + n_tup_upd + n_tup_del), 0) "
        "FROM pg_stat_xact_user_tables",
    }
    if connection.vendor not in queries:
        return None
    with connection.cursor() as cursor:
        cursor.execute(queries[connection.vendor])
        return int(cursor.fetchone()[0])


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
    # a test on data kept for its module that writes nothing leaves that data as it found it:
    # once the kept data has been checked, the check is not repeated after such a test
    kept = _KEPT[-1] if _KEPT and not transactional else None
    writes = database_writes() if kept is not None else None
    yield
    from scoring.models import Giornata
    from scoring.services.ledger import ledger_differences

    read_only = writes is not None and database_writes() == writes
    if read_only and kept["replayed"]:
        return
    if Giornata.objects.exists():
        # where a state can come back (data kept for the scope, a club restored for a browser
        # test), the check is not repeated on rows it has already found equal to their replay
        repeats = kept is not None or transactional
        if not (repeats and checked_before()):
            found, read = replayed_reading() if repeats else (ledger_differences(), None)
            assert not found, "the ledger differs from the replay:\n" + "\n".join(
                str(d) for d in found[:30]
            )
            if read is not None:
                _CHECKED.setdefault(read, set()).add(rows_of(read))
    if read_only:
        kept["replayed"] = True


# the ledger check's outcome is a function of the rows it reads: for each set of tables a check
# read, the states of those tables (``rows_of``) found equal to their replay, in this process
_CHECKED: dict[frozenset[str], set[str]] = {}


def replayed_reading() -> tuple[list, frozenset[str]]:
    """``ledger_differences()``, and every table of the database named in a statement it ran
    (its reads: the ORM and any SQL of its own, on this connection; a name counts wherever it
    appears in the text, so the set holds every table read and perhaps a few more)."""
    import re

    from django.db import connection

    from scoring.services.ledger import ledger_differences

    names = sorted(connection.introspection.table_names(), key=len, reverse=True)
    named = re.compile(r"\b(" + "|".join(map(re.escape, names)) + r")\b")
    read: set[str] = set()

    def reading(execute, sql, params, many, context):
        read.update(named.findall(sql))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(reading):
        found = ledger_differences()
    return found, frozenset(read)


def rows_of(tables: frozenset[str]) -> str:
    """A digest of every row of ``tables`` (each table's rows as text, sorted)."""
    import hashlib

    from django.db import connection

    digest = hashlib.sha256()
    with connection.cursor() as cursor:
        for table in sorted(tables):
            cursor.execute(f"SELECT * FROM {connection.ops.quote_name(table)}")
            rows = sorted(
                repr(tuple(bytes(v) if isinstance(v, memoryview) else v for v in row))
                for row in cursor.fetchall()
            )
            digest.update(f"{table} {len(rows)}\n".encode())
            digest.update("\n".join(rows).encode())
    return digest.hexdigest()


def checked_before() -> bool:
    """Whether the tables some earlier check read hold now rows that check found equal to their
    replay: the check would read the same rows again (it reads nothing else, and it is a
    function of what it reads) and find the same."""
    return any(rows_of(read) in states for read, states in _CHECKED.items())


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
