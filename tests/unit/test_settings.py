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
