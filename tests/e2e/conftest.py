"""Browser tests: headless Chromium (Debian's package) driven by Playwright, against a live
server with a real database. Skipped, with a clear reason, when Chromium is not installed."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("KINGCLUB_CHROMIUM", "/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "e2e"

# Playwright's sync API runs an event loop in this thread; the ORM calls made by the tests
# themselves (fixtures, assertions) are synchronous and safe here.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


def _chromium_missing() -> str | None:
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        return f"Chromium not found at {CHROMIUM} (apt-get install chromium chromium-driver)"
    try:
        import playwright  # noqa: F401
    except ImportError:
        return "the playwright package is not installed (make install)"
    return None


def pytest_collection_modifyitems(config, items):
    reason = _chromium_missing()
    for item in items:
        if "tests/e2e/" in str(item.fspath).replace(os.sep, "/"):
            item.add_marker(pytest.mark.e2e)
            if reason:
                item.add_marker(pytest.mark.skip(reason=f"browser tests skipped: {reason}"))


def pytest_terminal_summary(terminalreporter):
    reason = _chromium_missing()
    if reason:
        terminalreporter.write_line(f"NOTE: browser tests (tests/e2e) were skipped: {reason}")


@pytest.fixture(scope="session")
def live_server(live_server):
    """pytest-django's live server, whose request threads leave the shared connection alone.

    Django's live server closes every database connection when a request's socket closes, in
    that request's thread. On SQLite the test database is in memory and the server's threads
    borrow the test thread's connection: closing it does nothing there but check the thread,
    and a socket closed after the server stopped (Chromium's kept-alive connections) raised
    "DatabaseWrapper objects created in a thread can only be used in that same thread"
    (PytestUnhandledThreadExceptionWarning). A request thread closes only its own connections.
    """
    from django.db import connections

    shared = set(live_server.thread.connections_override)

    def close_own_connections() -> None:
        for conn in connections.all(initialized_only=True):
            if conn.alias not in shared:
                conn.close()

    # ThreadedWSGIServer._close_connections is Django's own hook for this ("used for mocking")
    live_server.thread.httpd._close_connections = close_own_connections
    return live_server


@pytest.fixture(scope="session")
def browser(live_server):
    """Chromium, closed before the live server stops (its kept-alive sockets close first)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ],
        )
        yield browser
        browser.close()


@pytest.fixture
def shot(request):
    """``shot(page, "step")`` saves a screenshot under test-artifacts/e2e/<test>/."""
    folder = ARTIFACTS / request.node.name.replace("[", "-").replace("]", "")
    folder.mkdir(parents=True, exist_ok=True)
    counter = {"n": 0}

    def take(page, name: str, full_page: bool = True) -> Path:
        counter["n"] += 1
        path = folder / f"{counter['n']:02d}-{name}.png"
        page.screenshot(path=str(path), full_page=full_page)
        return path

    return take
