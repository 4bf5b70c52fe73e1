"""Production settings come from the environment and refuse to run unsafely."""

from __future__ import annotations

import os
import runpy
import subprocess
import sys
from pathlib import Path
from typing import Any
from unittest import mock

ROOT = Path(__file__).resolve().parents[2]
KEY = "k" * 20 + "-Zq8_unit-test-secret-key-abcdefghijklmnopqrstuv"


DROP = {"SECRET_KEY", "DEBUG", "ALLOWED_HOSTS", "DJANGO_ALLOW_ASYNC_UNSAFE", "DATABASE_URL"}


def manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k not in DROP}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def settings_under(**env: str) -> dict[str, Any]:
    """The settings module run in this process in the environment ``manage`` gives a child
    (``env`` over the cleaned one): its names, as ``django.conf.settings`` would read them there.
    What the children printed from ``manage.py shell -c``, without starting Django for each
    (half a second of CPU a child); the tests above still start the real commands."""
    clean = {k: v for k, v in os.environ.items() if k not in DROP}
    with mock.patch.dict(os.environ, {**clean, **env}, clear=True):
        return runpy.run_path(str(ROOT / "kingclub" / "settings.py"))


def test_no_secret_key_in_production_refuses_to_start():
    for command in (["check"], ["migrate", "--plan"], ["runserver", "--noreload", "127.0.0.1:0"]):
        proc = manage(*command, DEBUG="0")
        assert proc.returncode != 0
        assert "SECRET_KEY is not set" in proc.stderr


def test_deploy_check_passes_with_production_environment():
    proc = manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        DEBUG="0",
        SECRET_KEY=KEY,
        ALLOWED_HOSTS="king.example.org",
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def _https(**env: str) -> list[Any]:
    s = settings_under(**env)
    return [
        s["SECURE_SSL_REDIRECT"],
        s["SESSION_COOKIE_SECURE"],
        s["CSRF_COOKIE_SECURE"],
        s["SECURE_HSTS_SECONDS"],
        s["DEBUG"],
        s["ALLOWED_HOSTS"],
    ]


def test_each_https_setting_can_be_switched_off_for_a_plain_http_club():
    on = _https(DEBUG="0", SECRET_KEY=KEY, ALLOWED_HOSTS="a.org,b.org")
    assert on == [True, True, True, 31536000, False, ["a.org", "b.org"]]
    off = _https(
        DEBUG="0",
        SECRET_KEY=KEY,
        ALLOWED_HOSTS="club.lan",
        SECURE_SSL_REDIRECT="0",
        SESSION_COOKIE_SECURE="0",
        CSRF_COOKIE_SECURE="0",
        SECURE_HSTS_SECONDS="0",
    )
    assert off == [False, False, False, 0, False, ["club.lan"]]


def _db_line(**env: str) -> str:
    """The line the children printed: the pool, CONN_MAX_AGE, CONN_HEALTH_CHECKS and the
    default cache's backend."""
    s = settings_under(**env)
    d = s["DATABASES"]["default"]
    return (
        f"{d.get('OPTIONS', {}).get('pool')} {d['CONN_MAX_AGE']} {d['CONN_HEALTH_CHECKS']}"
        f" {s['CACHES']['default']['BACKEND']}"
    )


PG = "postgres://king@127.0.0.1:5432/king"


def test_the_pool_persistent_connections_and_the_cache_come_from_the_environment():
    db_cache = "django.core.cache.backends.db.DatabaseCache"
    # PostgreSQL keeps its connections 60 s by default, checked before each reuse
    assert _db_line(DATABASE_URL=PG) == f"None 60 True {db_cache}"
    assert _db_line(DATABASE_URL=PG, CONN_MAX_AGE="0") == (f"None 0 True {db_cache}")
    assert _db_line(DATABASE_URL=PG, CONN_MAX_AGE="300") == (f"None 300 True {db_cache}")
    assert _db_line().startswith("None 0 True")  # SQLite: a connection a request
    # Django's pool needs CONN_MAX_AGE 0: the pool keeps the connections
    assert _db_line(DATABASE_URL=PG, DB_POOL="2,8", CONN_MAX_AGE="60") == (
        f"{{'min_size': 2, 'max_size': 8, 'timeout': 10}} 0 True {db_cache}"
    )
    assert _db_line(DATABASE_URL=PG, DB_POOL="1").startswith("True 0 True")
    assert _db_line(DATABASE_URL=PG, DB_POOL="6").startswith(
        "{'min_size': 2, 'max_size': 6, 'timeout': 10} 0"
    )
    assert _db_line(
        DATABASE_URL=PG, CONN_HEALTH_CHECKS="0", REDIS_URL="redis://127.0.0.1:6379/0"
    ) == ("None 60 False kingclub.cache.RedisCache")


def test_a_bad_pool_setting_refuses_to_start():
    proc = manage("check", DATABASE_URL=PG, DB_POOL="8,2")
    assert proc.returncode != 0 and "DB_POOL='8,2'" in proc.stderr
    proc = manage("check", DB_POOL="4")  # SQLite
    assert proc.returncode != 0 and "DB_POOL needs a PostgreSQL DATABASE_URL" in proc.stderr


def test_an_empty_database_url_means_the_sqlite_file_of_the_project():
    for value in ("", "  "):
        name = settings_under(DATABASE_URL=value)["DATABASES"]["default"]["NAME"]
        assert str(name) == str(ROOT / "db.sqlite3")
