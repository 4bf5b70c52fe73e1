"""Production settings come from the environment and refuse to run unsafely."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
KEY = "k" * 20 + "-Zq8_unit-test-secret-key-abcdefghijklmnopqrstuv"


def manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    drop = {"SECRET_KEY", "DEBUG", "ALLOWED_HOSTS", "DJANGO_ALLOW_ASYNC_UNSAFE", "DATABASE_URL"}
    clean = {k: v for k, v in os.environ.items() if k not in drop}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


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


def test_each_https_setting_can_be_switched_off_for_a_plain_http_club():
    code = (
        "from django.conf import settings as s;"
        "print(s.SECURE_SSL_REDIRECT, s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE,"
        " s.SECURE_HSTS_SECONDS, s.DEBUG, s.ALLOWED_HOSTS)"
    )
    on = manage("shell", "-c", code, DEBUG="0", SECRET_KEY=KEY, ALLOWED_HOSTS="a.org,b.org")
    assert on.stdout.strip().splitlines()[-1].split() == [
        "True",
        "True",
        "True",
        "31536000",
        "False",
        "['a.org',",
        "'b.org']",
    ]
    off = manage(
        "shell",
        "-c",
        code,
        DEBUG="0",
        SECRET_KEY=KEY,
        ALLOWED_HOSTS="club.lan",
        SECURE_SSL_REDIRECT="0",
        SESSION_COOKIE_SECURE="0",
        CSRF_COOKIE_SECURE="0",
        SECURE_HSTS_SECONDS="0",
    )
    assert off.stdout.strip().splitlines()[-1].split() == [
        "False",
        "False",
        "False",
        "0",
        "False",
        "['club.lan']",
    ]


def _settings_line(code: str, **env: str) -> str:
    proc = manage("shell", "-c", code, **env)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout.strip().splitlines()[-1]


DB_CODE = (
    "from django.conf import settings as s; d = s.DATABASES['default'];"
    "print(d.get('OPTIONS', {}).get('pool'), d['CONN_MAX_AGE'], d['CONN_HEALTH_CHECKS'],"
    " s.CACHES['default']['BACKEND'])"
)
PG = "postgres://king@127.0.0.1:5432/king"


def test_the_pool_persistent_connections_and_the_cache_come_from_the_environment():
    db_cache = "django.core.cache.backends.db.DatabaseCache"
    # PostgreSQL keeps its connections 60 s by default, checked before each reuse
    assert _settings_line(DB_CODE, DATABASE_URL=PG) == f"None 60 True {db_cache}"
    assert _settings_line(DB_CODE, DATABASE_URL=PG, CONN_MAX_AGE="0") == (f"None 0 True {db_cache}")
    assert _settings_line(DB_CODE, DATABASE_URL=PG, CONN_MAX_AGE="300") == (
        f"None 300 True {db_cache}"
    )
    assert _settings_line(DB_CODE).startswith("None 0 True")  # SQLite: a connection a request
    # Django's pool needs CONN_MAX_AGE 0: the pool keeps the connections
    assert _settings_line(DB_CODE, DATABASE_URL=PG, DB_POOL="2,8", CONN_MAX_AGE="60") == (
        f"{{'min_size': 2, 'max_size': 8, 'timeout': 10}} 0 True {db_cache}"
    )
    assert _settings_line(DB_CODE, DATABASE_URL=PG, DB_POOL="1").startswith("True 0 True")
    assert _settings_line(DB_CODE, DATABASE_URL=PG, DB_POOL="6").startswith(
        "{'min_size': 2, 'max_size': 6, 'timeout': 10} 0"
    )
    assert _settings_line(
        DB_CODE, DATABASE_URL=PG, CONN_HEALTH_CHECKS="0", REDIS_URL="redis://127.0.0.1:6379/0"
    ) == ("None 60 False kingclub.cache.RedisCache")


def test_a_bad_pool_setting_refuses_to_start():
    proc = manage("check", DATABASE_URL=PG, DB_POOL="8,2")
    assert proc.returncode != 0 and "DB_POOL='8,2'" in proc.stderr
    proc = manage("check", DB_POOL="4")  # SQLite
    assert proc.returncode != 0 and "DB_POOL needs a PostgreSQL DATABASE_URL" in proc.stderr


def test_an_empty_database_url_means_the_sqlite_file_of_the_project():
    code = "from django.conf import settings as s; print(s.DATABASES['default']['NAME'])"
    for value in ("", "  "):
        proc = manage("shell", "-c", code, DATABASE_URL=value)
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout.strip().splitlines()[-1] == str(ROOT / "db.sqlite3")
