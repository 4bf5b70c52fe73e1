"""Browser tests: headless Chromium (Debian's package) driven by Playwright, against a live
server with a real database. Skipped, with a clear reason, when Chromium is not installed."""

from __future__ import annotations

import contextlib
import copy
import json
import os
import shutil
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import pytest

CHROMIUM = os.environ.get("KINGCLUB_CHROMIUM", "/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "e2e"

# -- axe-core: the accessibility audit of a page ------------------------------------------------
# axe-core comes from the npm registry (package.json/package-lock.json, installed into the
# git-ignored node_modules/ by `make install`), injected from disk, never from a CDN.
AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
# WCAG 2.1 A/AA and 2.2 AA (24 px targets)
AXE_TAGS = ("wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa")
# the impacts that fail an audit
BLOCKING = ("serious", "critical")
# a module of axe tests: `pytestmark = needs_axe`
needs_axe = pytest.mark.skipif(
    not AXE.exists(), reason=f"axe-core not installed at {AXE} (make install needs npm)"
)
# One round trip: axe's violations of the chosen tags (resultTypes: the passes, the incomplete
# and the inapplicable rules are not collected node by node, which is most of axe's work and of
# its result), only the blocking ones, three targets each, with the page's description and width.
_AXE_RUN = """async ([tags, blocking]) => {
    const result = await axe.run(document, {
        runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']});
    return {
        violations: result.violations.filter(v => blocking.includes(v.impact)).map(v => ({
            id: v.id, impact: v.impact, help: v.help, count: v.nodes.length,
            targets: v.nodes.slice(0, 3).map(n => n.target)})),
        described: document.querySelector('meta[name=description]')?.content || '',
        scrollWidth: document.documentElement.scrollWidth,
    };
}"""

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
    httpd = live_server.thread.httpd
    httpd._close_connections = close_own_connections
    if shared:
        # Borrowed, the one in-memory connection would serve two requests at once (the live
        # preview's GET beside the deal's POST): SQLite then refused the INSERT with "database
        # table is locked" (a 500 seen at load). A club's server has a connection per thread
        # (WAL on a file, or PostgreSQL); here the requests take turns.
        app, turn = httpd.get_app(), threading.Lock()

        def one_at_a_time(environ, start_response):
            with turn:
                return app(environ, start_response)

        httpd.set_app(one_at_a_time)
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


# -- a club built once, restored for each test -----------------------------------------------
T = TypeVar("T")
# the database as a club's build left it, and what the build returned, by the build's name
_BUILT: dict[str, tuple[sqlite3.Connection, object]] = {}
# on xdist workers, the run's folder the workers share (the first worker to build a club leaves
# it there for the others)
_SHARED: list[Path] = []


@pytest.fixture(scope="session", autouse=True)
def _built_clubs(tmp_path_factory):
    if os.environ.get("PYTEST_XDIST_WORKER"):
        _SHARED[:] = [tmp_path_factory.getbasetemp().parent]
    yield
    for snapshot, _value in _BUILT.values():
        snapshot.close()
    _BUILT.clear()
    _SHARED.clear()


def built_once(build: Callable[[], T]) -> T:
    """``build()``'s club, built through the services the first time the run asks for it; later
    the test database is restored to what that build left (SQLite's backup of the in-memory
    database, a few ms) and a copy of what it returned is given back. For ``transactional_db``
    tests: the flush after each test still empties the database, and what a test wrote goes
    with it, so each test starts from the club as built, whatever the order.

    On xdist workers the first worker to ask builds and leaves the database (a file) and what
    the build returned (pickled) in the run's shared folder; another worker asking for the same
    build waits for it and restores that. The ids are the build's (the backup carries
    ``sqlite_sequence``); the objects returned are copies, so a test that changes one
    (``refresh_from_db``) changes nothing for the next. On another database (or a test database
    on disk) the club is built every time."""
    from django.db import connection

    if connection.vendor != "sqlite" or not connection.is_in_memory_db():
        return build()
    key = f"{build.__module__}.{build.__qualname__}"
    connection.ensure_connection()
    if key not in _BUILT:
        if not _SHARED:
            value = build()
            _BUILT[key] = (_snapshot(), copy.deepcopy(value))
            return value
        _BUILT[key] = _shared_build(key, build)
    snapshot, value = _BUILT[key]
    _restore(snapshot)
    return copy.deepcopy(value)


def _snapshot() -> sqlite3.Connection:
    from django.db import connection

    snapshot = sqlite3.connect(":memory:", check_same_thread=False)
    connection.connection.backup(snapshot)
    return snapshot


def _restore(snapshot: sqlite3.Connection) -> None:
    from django.contrib.contenttypes.models import ContentType
    from django.db import connection

    snapshot.backup(connection.connection)
    ContentType.objects.clear_cache()  # the flush made new content types; these are the build's


def _shared_build(key: str, build: Callable[[], T]) -> tuple[sqlite3.Connection, T]:
    """The build, or another worker's copy of it, under a lock in the run's shared folder."""
    import fcntl
    import pickle

    folder = _SHARED[0]
    database, returned = folder / f"club-{key}.sqlite3", folder / f"club-{key}.pickle"
    with open(folder / f"club-{key}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if database.exists():
            snapshot = sqlite3.connect(":memory:", check_same_thread=False)
            with contextlib.closing(sqlite3.connect(database)) as disk:
                disk.backup(snapshot)
            return snapshot, pickle.loads(returned.read_bytes())
        value = build()
        snapshot = _snapshot()
        with contextlib.closing(sqlite3.connect(folder / f"club-{key}.part")) as disk:
            snapshot.backup(disk)
        returned.write_bytes(pickle.dumps(value))
        (folder / f"club-{key}.part").rename(database)
        return snapshot, value


# htmx marks its work on the page: a request in flight (``htmx-request``, on the element that
# sent it), a swap (``htmx-swapping``, on the target) and its settling (``htmx-settling``, taken
# off in the task that fires ``htmx:afterSettle``, whose handlers run there: the live screen's
# focus, its running check). None of them: the page is at rest. (A function, not an expression:
# Playwright would evaluate an expression's text, which a page's script-src 'self' refuses.)
HTMX_AT_REST = "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')"


def htmx_settled(page, timeout: float = 10000) -> None:
    """Wait until htmx is at rest on ``page``: the requests sent (a key or a click sends its
    request as it is dispatched) answered, swapped in and settled. Instead of a fixed wait
    after each response (50-120 ms each, 20 s of a run's wall in all, idle)."""
    page.wait_for_function(HTMX_AT_REST, timeout=timeout)


def logged_in(context, base: str, username: str) -> None:
    """``context`` logged in as ``username`` without the login form: a session made by Django's
    test client, its cookie given to the browser. For tests of the pages behind the login; the
    form itself is driven by test_segretario, test_confirm and the axe audit (which audits it,
    rejected too). Three page loads less than the form (the form, its POST, the home page)."""
    from django.conf import settings
    from django.contrib.auth.models import User
    from django.test import Client

    client = Client()
    client.force_login(User.objects.get(username=username))
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": base}])


def axe_context(browser, width: int, height: int):
    """A browser context of that screen size, in Italian, with axe-core loaded into every page
    it opens (an init script: read from disk once, not sent again for each page). The page's
    policy (``script-src 'self'``) would refuse axe: the context bypasses it."""
    context = browser.new_context(
        locale="it-IT", viewport={"width": width, "height": height}, bypass_csp=True
    )
    context.add_init_script(path=str(AXE))
    return context


def audit(page, label: str) -> list[str]:
    """axe's serious and critical violations (WCAG 2.1 A/AA, 2.2 AA) of the page as loaded in
    an :func:`axe_context`, a sideways scroll on a phone (narrower than 800 px) and a missing
    meta description (the admin's pages have none of ours), as lines of text naming ``label``."""
    result = page.evaluate(_AXE_RUN, [list(AXE_TAGS), list(BLOCKING)])
    found = [
        f"{label}: {v['impact']} {v['id']} ({v['count']}×) {v['help']} "
        f"{[json.dumps(t) for t in v['targets']]}"
        for v in result["violations"]
    ]
    if not result["described"].strip() and "/admin/" not in page.url:
        found.append(f"{label}: no meta description")
    width, scroll = page.viewport_size["width"], result["scrollWidth"]
    if width < 800 and scroll > width:
        found.append(f"{label}: scrolls sideways ({scroll} px wide on a {width} px screen)")
    return found


# the screenshots are taken when asked (a full page costs Chromium about 0.15 s of CPU, and the
# tests took 45 of them): KINGCLUB_E2E_SHOTS=1, or KINGCLUB_README_SHOTS=1 for the README's
SHOTS = bool(os.environ.get("KINGCLUB_E2E_SHOTS") or os.environ.get("KINGCLUB_README_SHOTS"))


@pytest.fixture
def shot(request):
    """``shot(page, "step")`` saves a screenshot under test-artifacts/e2e/<test>/ when the run
    asks for them (``SHOTS``), and returns its path either way."""
    folder = ARTIFACTS / request.node.name.replace("[", "-").replace("]", "")
    counter = {"n": 0}

    def take(page, name: str, full_page: bool = True) -> Path:
        counter["n"] += 1
        path = folder / f"{counter['n']:02d}-{name}.png"
        if SHOTS:
            folder.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(path), full_page=full_page)
        return path

    return take
