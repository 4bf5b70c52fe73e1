"""axe-core (WCAG 2.1 A/AA, 2.2 AA) on every page of every game, public and segreteria, at
1366 px and at 390 px.

Any serious or critical violation fails the test, and so does a page without a meta description
or one that scrolls sideways on a 390 px phone (the audit: :func:`tests.e2e.conftest.audit`, axe
loaded into every page of the context by :func:`tests.e2e.conftest.axe_context`).

The club is built once (the demo club: a C.A.F. season and a season of each of the five other
games, those imported from the same draws instead of recorded deal by deal; for each game a
turno in corso and a new season after its first close) on
``transactional_db``, and each half of the site is walked in one browser context, each page
audited at the desktop's size and then, narrowed, at the phone's (:func:`audit_every_page`). The
pages are listed by the functions of ``PAGES``: each returns the :class:`Audited` pages of one
part of the site for the club and the games it is given; a screen to cover is one more entry
there (the live screens of every game, in corso, after a rejected deal, a deal's correction and
closed: :func:`live_screens`). ``HALVES`` splits the parts and the games in two, one class each:
``make test`` sends a module to one worker whole but the classes of a module to any worker
(``--dist loadscope``), so the two workers audit a half each at the same time instead of one
worker auditing all of it while the other runs the rest of the suite; the two halves together
are every part of every game, each once (:func:`test_the_halves_are_every_page_once`). And the
audit itself is not blind: it reports what axe finds on a page made wrong on purpose.
"""

from __future__ import annotations

import datetime as dt
import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from unittest import mock

import pytest
from django.contrib.auth.models import Group, User
from django.core.management import call_command
from django.urls import reverse

from scoring import api
from scoring.management.commands import seed_demo
from scoring.models import Giornata, Player, Season, Seat, Turno
from tests.e2e.conftest import audit, axe_context, built_once, needs_axe
from tests.helpers import imported_game_season

VIEWPORTS = {"desktop": (1366, 768), "phone": (390, 844)}
# every game of the club: C.A.F. first, then the five kept by the generic ledger
GAMES = ("caf", "king-classico", "king-internazionale", "le-king", "skat-isko", "ramino-101")
FIVE_GAMES = GAMES[1:]
# who looks at a page, in the order the test logs in (username, password of the demo club)
ACCOUNTS = {
    "anonimo": None,
    "socio": ("socio", "socio-kingclub"),
    "segretario": ("segretario", "segretario-kingclub"),
    "admin": ("admin", "admin-kingclub"),
}

pytestmark = needs_axe


@dataclass(frozen=True)
class Audited:
    """One page audited: its label in a finding, its URL, who looks at it (a key of
    ``ACCOUNTS``) and, when the state audited is not the page as loaded, what to do first (a
    rejected form, a dialog open: ``then(page)`` after the page has loaded)."""

    label: str
    url: str
    who: str = "anonimo"
    then: Callable | None = None


@dataclass
class Club:
    """The club the pages show, by game (a rule-set code of ``GAMES``)."""

    season: dict[str, Season]  # the demo's season of each game (C.A.F.'s current one)
    closed: dict[str, Turno]  # a closed turno of that season
    open: dict[str, Turno]  # a turno in corso of that season
    member: dict[str, Player]  # a member who played that season
    first: dict[str, Season]  # a new season of each of the five games after its first close
    previous: Season  # C.A.F.'s closed season (the albo d'oro's)


def _open_turno(season: Season, user: User) -> Turno:
    """A turno of a generic game a week after the season's last evening, two deals recorded."""
    system, rules = season.system, season.game_rules
    last = Giornata.objects.filter(season=season).order_by("-date").first()
    players = sorted({s.player.name for s in Seat.objects.filter(turno__season=season)})[:4]
    if season.ruleset_code == "skat-isko":
        players = players[:3]
    record = system.random_turno(random.Random(11), players, rules)
    turno = api.turno_start(
        season=season,
        date=last.date + dt.timedelta(days=7),
        players=players,
        first_dealer=record["first_dealer"],
        table="Tavolo 1",
        user=user,
    )
    for smazzata in record["smazzate"][:2]:
        api.smazzata_record(turno=turno, record=smazzata, user=user)
    return turno


def _first_close(code: str, user: User) -> Season:
    """A new season of ``code`` whose first turno is closed: its Classifica has no earlier
    giornata to move from."""
    season = api.season_create(name=f"{code} nuova", ruleset=code, current=False)
    players = list(Player.objects.order_by("name").values_list("name", flat=True)[:4])
    if code == "skat-isko":
        players = players[:3]
    record = season.system.random_turno(random.Random(5), players, season.game_rules)
    turno = api.turno_start(
        season=season,
        date=dt.date(2026, 11, 2),
        players=players,
        first_dealer=record["first_dealer"],
        user=user,
    )
    for smazzata in record["smazzate"]:
        api.smazzata_record(turno=turno, record=smazzata, user=user)
    api.turno_close(turno=turno, tiebreak=record.get("tiebreak") or None, user=user)
    return season


@pytest.fixture
def club(transactional_db) -> Club:
    """The club of :func:`demo_club`, built once for both sizes (``built_once``)."""
    return built_once(demo_club)


def demo_club() -> Club:
    """The demo club (three giornate of C.A.F., three evenings of each other game, those
    imported: :func:`imported_game_season`), a turno in corso of every game, a first-closed
    season of each of the five games; the member "socio" linked to a C.A.F. player."""
    for name in ("Segretario", "Socio"):  # a flushed database has lost the migration's groups
        Group.objects.get_or_create(name=name)
    with mock.patch.object(seed_demo, "game_season", imported_game_season):
        call_command("seed_demo", giornate=3, seed=7, verbosity=0)
    segretario = User.objects.get(username="segretario")
    caf = Season.objects.get(is_current=True)
    season = {"caf": caf} | {s.ruleset_code: s for s in Season.objects.exclude(ruleset_code="caf")}
    open_ = {"caf": Turno.objects.get(season=caf, status=Turno.IN_CORSO)}
    open_ |= {code: _open_turno(season[code], segretario) for code in FIVE_GAMES}
    closed = {
        code: Turno.objects.filter(season=season[code], status=Turno.CHIUSO).first()
        for code in GAMES
    }
    member = {
        code: Seat.objects.filter(turno=closed[code]).order_by("place").last().player
        for code in GAMES
    }
    member["caf"].user = User.objects.get(username="socio")
    member["caf"].save(update_fields=["user"])
    return Club(
        season=season,
        closed=closed,
        open=open_,
        member=member,
        first={code: _first_close(code, segretario) for code in FIVE_GAMES},
        previous=Season.objects.get(ruleset_code="caf", is_current=False),
    )


# -- the pages ----------------------------------------------------------------------------------
def _wrong_password(page) -> None:
    page.fill("input[name=username]", "socio")
    page.fill("input[name=password]", "not-the-password")
    page.click("main button[type=submit]")
    page.wait_for_load_state()
    assert page.locator(".errorlist").count() == 1


# -- what a page must show besides passing axe (issue 25, defects 2 and 5, every game) ----------
def _no_movement(page) -> None:
    """A season's Classifica after its first close: no movement arrow, a dash in every row."""
    movement = page.locator("table.classifica tbody td[data-col=movement]").all_inner_texts()
    assert movement and set(movement) == {"—"}, movement


def _games_named(page) -> None:
    """A member's page of a generic game: each game (contract, close, game type) by its name,
    never the rules' code; every average with two decimals, a decimal comma and U+2212."""
    rows = page.locator("tr[data-game]")
    assert rows.count() >= 1
    for i in range(rows.count()):
        row = rows.nth(i)
        code, name = row.get_attribute("data-game"), row.locator("th").inner_text()
        average = row.locator("td").last.inner_text()
        assert name != code and not re.fullmatch(r"[A-Z_]+", name), (code, name)
        assert re.fullmatch(r"−?\d{1,3}(\.\d{3})*,\d\d", average), (code, average)


def _no_ladder(page) -> None:
    """The Serie page of a game without the series ladder: says so, explains no C.A.F. ladder,
    is not offered in the menu, and the footer names the season's own rules."""
    assert page.locator("[data-no-series]").count() == 1
    assert page.locator(".ladder").count() == 0
    assert "Serie A" not in page.locator("main").inner_text()
    assert page.locator(".mainnav a[href='/serie/']").count() == 0
    footer = page.locator("footer").inner_text()
    assert "C.A.F." not in footer and "regolamento" in footer, footer


def club_pages(club: Club, games: tuple[str, ...]) -> list[Audited]:
    """The club's pages of no game: home, albo d'oro, scoreboard, login (also rejected), password
    reset; and C.A.F.'s previous season when C.A.F. is among ``games``."""
    pages = [
        Audited("home", reverse("scoring:home")),
        Audited("albo d'oro", reverse("scoring:albo")),
        Audited("scoreboard", reverse("scoring:live")),
        Audited("login", reverse("login")),
        Audited("login, wrong password", reverse("login"), then=_wrong_password),
        Audited("password reset", reverse("password_reset")),
    ]
    if "caf" in games:
        previous = reverse("scoring:classifica", args=[club.previous.pk])
        pages.append(Audited("C.A.F. previous season", previous))
    return pages


def public_pages(club: Club, games: tuple[str, ...]) -> list[Audited]:
    """What anybody reads of each of ``games``: its Classifica, Serie, turni, the Verbale of a
    closed turno and of one in corso, the players and a player's page, a player's history, the
    scoreboard of its table; for the five, a new season's Classifica after its first close."""
    pages = []
    for code in games:
        s = club.season[code].pk
        pages += [
            Audited(f"{code} Classifica", reverse("scoring:classifica", args=[s])),
            Audited(
                f"{code} Serie",
                reverse("scoring:serie") + f"?stagione={s}",
                then=None if code == "caf" else _no_ladder,
            ),
            Audited(f"{code} turni", reverse("scoring:turni") + f"?stagione={s}"),
            Audited(f"{code} Verbale", reverse("scoring:turno", args=[club.closed[code].pk])),
            Audited(
                f"{code} Verbale in corso", reverse("scoring:turno", args=[club.open[code].pk])
            ),
            Audited(f"{code} giocatori", reverse("scoring:players") + f"?stagione={s}"),
            Audited(
                f"{code} player page",
                reverse("scoring:player", args=[club.member[code].pk]) + f"?stagione={s}",
                then=None if code == "caf" else _games_named,
            ),
            Audited(
                f"{code} player history",
                reverse("scoring:player_history", args=[club.member[code].pk]),
            ),
            Audited(
                f"{code} scoreboard table",
                reverse("scoring:live_turno", args=[club.open[code].pk]),
            ),
        ]
    for code in (g for g in games if g in FIVE_GAMES):
        pages.append(
            Audited(
                f"{code} Classifica after the first close",
                reverse("scoring:classifica", args=[club.first[code].pk]),
                then=_no_movement,
            )
        )
    return pages


def _saved_preferences(page) -> None:
    """The profile saved: the page comes back with its flash message."""
    page.click("button:has-text('Salva le preferenze')")
    page.wait_for_load_state()
    assert page.locator(".messages li").count() == 1


def member_pages(club: Club, games: tuple[str, ...]) -> list[Audited]:
    """What a logged-in member reads of their own."""
    return [
        Audited("home (socio)", reverse("scoring:home"), who="socio"),
        Audited("profile (socio)", reverse("scoring:profile"), who="socio"),
        Audited(
            "profile saved, a flash message (socio)",
            reverse("scoring:profile"),
            who="socio",
            then=_saved_preferences,
        ),
        Audited(
            "own page (socio)",
            reverse("scoring:player", args=[club.member["caf"].pk]),
            who="socio",
        ),
    ]


def segreteria_pages(club: Club, games: tuple[str, ...]) -> list[Audited]:
    """The segretario's desk, its forms (one rejected), the season forms."""

    def rejected_new_turno(page) -> None:
        page.click("button:has-text('Inizia il turno')")
        page.wait_for_load_state()

    caf = club.season["caf"].pk
    return [
        Audited("segreteria", reverse("scoring:segreteria"), who="segretario"),
        Audited("new turno", reverse("scoring:turno_new"), who="segretario"),
        Audited(
            "new turno, rejected",
            reverse("scoring:turno_new"),
            who="segretario",
            then=rejected_new_turno,
        ),
        Audited("new season", reverse("scoring:season_new"), who="segretario"),
        Audited("close season", reverse("scoring:season_close", args=[caf]), who="segretario"),
    ]


def _rejected_deal(page) -> None:
    """ "Registra" with nothing chosen: the live screen shows its errors, the error summary
    focused (the screen's own script, after htmx has settled the swap) and the fields it names
    marked invalid."""
    with page.expect_response(lambda r: r.request.method == "POST"):
        page.click("#smazzata-form button.big")
    page.wait_for_function(
        "document.activeElement && document.activeElement.id === 'smazzata-errors'"
    )
    assert page.locator(".errorlist").count() >= 1
    assert page.locator("#smazzata-form [aria-invalid=true]").count() >= 1


def live_screens(club: Club, games: tuple[str, ...]) -> list[Audited]:
    """The segretario's live screen of each of ``games``: the turno in corso (two deals or more
    recorded), the same screen after a rejected deal, the correction of deal 2 and the screen of
    a closed turno."""
    pages = []
    for code in games:
        open_ = reverse("scoring:turno_live", args=[club.open[code].pk])
        pages += [
            Audited(f"{code} live screen", open_, who="segretario"),
            Audited(
                f"{code} live screen, rejected smazzata",
                open_,
                who="segretario",
                then=_rejected_deal,
            ),
            Audited(
                f"{code} correction of smazzata 2",
                reverse("scoring:turno_correct", args=[club.open[code].pk]) + "?numero=2",
                who="segretario",
            ),
            Audited(
                f"{code} live screen, closed turno",
                reverse("scoring:turno_live", args=[club.closed[code].pk]),
                who="segretario",
            ),
        ]
    return pages


def admin_pages(club: Club, games: tuple[str, ...]) -> list[Audited]:
    """The admin's index and its password change."""
    return [
        Audited("admin", reverse("admin:index"), who="admin"),
        Audited("admin password change", reverse("admin:password_change"), who="admin"),
    ]


# the parts of the site; each lists its pages for the club and the games asked (the parts of no
# game list theirs whatever the games)
PAGES: tuple[Callable[[Club, tuple[str, ...]], list[Audited]], ...] = (
    club_pages,
    public_pages,
    member_pages,
    segreteria_pages,
    live_screens,
    admin_pages,
)
# the two halves the two workers audit at the same time (about 50 pages each): the parts of no
# game in one half or the other, every game's public pages and live screens in one half
FIRST, SECOND = "club, member, C.A.F., two Kings", "Le King, Skat, Ramino, segreteria, admin"
HALVES: dict[str, tuple[tuple[Callable, ...], tuple[str, ...]]] = {
    FIRST: (
        (club_pages, public_pages, member_pages, live_screens),
        ("caf", "king-classico", "king-internazionale"),
    ),
    SECOND: (
        (public_pages, segreteria_pages, live_screens, admin_pages),
        ("le-king", "skat-isko", "ramino-101"),
    ),
}


# -- the audit ----------------------------------------------------------------------------------
def _login(page, base: str, username: str, password: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("main button[type=submit]")
    page.wait_for_load_state()
    assert "/accounts/login" not in page.url


def half_pages(club: Club, half: str) -> list[Audited]:
    """The pages of one of ``HALVES``."""
    parts, games = HALVES[half]
    return [p for part in parts for p in part(club, games)]


def audit_every_page(browser, live_server, club: Club, shot, half: str) -> None:
    """Every page of one of ``HALVES`` at both screen sizes, as its accounts see it: each page is
    loaded (and brought to its state, ``then``) at the desktop's size and audited, then the
    viewport is narrowed to the phone's and the same page audited again.

    The second size needs no second load: the pages' layout by width is CSS alone (media
    queries, which apply on a resize as on a load) and no script of ours reads the width, so
    the page narrowed is the page a phone loads; a load is about half of a page's CPU. For the
    same reason a state reached from a page (``then``: a rejected form, a saved profile) listed
    right after that page as loaded is reached from it, widened back, not from a second load of
    the same URL (9 loads of the 101)."""
    desktop, phone = VIEWPORTS["desktop"], VIEWPORTS["phone"]
    pages = half_pages(club, half)
    base = live_server.url
    problems: list[str] = []
    context = axe_context(browser, *desktop)
    page = context.new_page()
    for who, account in ACCOUNTS.items():
        if not any(p.who == who for p in pages):
            continue
        context.clear_cookies()
        if account is not None:
            _login(page, base, *account)
        as_loaded = None  # the URL of the page on screen while it is as loaded
        for audited in (p for p in pages if p.who == who):
            page.set_viewport_size({"width": desktop[0], "height": desktop[1]})
            if audited.then is None or audited.url != as_loaded:
                response = page.goto(base + audited.url)
                assert response.status == 200, (audited.label, response.status)
            as_loaded = audited.url if audited.then is None else None
            if audited.then is not None:
                audited.then(page)
            problems += audit(page, f"{audited.label} [desktop] {audited.url}")
            page.set_viewport_size({"width": phone[0], "height": phone[1]})
            problems += audit(page, f"{audited.label} [phone] {audited.url}")
    shot(page, "last-phone")
    context.close()
    assert not problems, "\n".join(problems)


class TestTheClubCafAndTheItalianKings:
    def test_every_page_passes_axe_at_both_sizes(self, browser, live_server, club, shot):
        audit_every_page(browser, live_server, club, shot, FIRST)


class TestLeKingSkatRaminoSegreteriaAdmin:
    def test_every_page_passes_axe_at_both_sizes(self, browser, live_server, club, shot):
        audit_every_page(browser, live_server, club, shot, SECOND)


def test_the_halves_are_every_page_once():
    """The two halves together audit every part of the site for every game, each page once, and
    every account looks at some page; each half about half of the 101 pages. (The pages of a
    club of stand-ins: the list depends on the club's ids alone.)"""
    assert VIEWPORTS == {"desktop": (1366, 768), "phone": (390, 844)}
    ids = iter(range(1, 100))
    club = Club(
        season={code: Season(pk=next(ids)) for code in GAMES},
        closed={code: Turno(pk=next(ids)) for code in GAMES},
        open={code: Turno(pk=next(ids)) for code in GAMES},
        member={code: Player(pk=next(ids)) for code in GAMES},
        first={code: Season(pk=next(ids)) for code in FIVE_GAMES},
        previous=Season(pk=next(ids)),
    )
    every = [(p.label, p.url, p.who) for part in PAGES for p in part(club, GAMES)]
    halves = [[(p.label, p.url, p.who) for p in half_pages(club, half)] for half in (FIRST, SECOND)]
    assert list(HALVES) == [FIRST, SECOND]
    assert sorted(halves[0] + halves[1]) == sorted(every)
    assert len(set(every)) == len(every) == 101
    assert {who for _label, _url, who in every} == set(ACCOUNTS)
    assert [len(half) for half in halves] == [52, 49]


# a login page made wrong: grey on white, a field without a label, an image without alt, two
# buttons of 10 px without a name, a box wider than the phone, and no meta description
BROKEN = """() => {
    document.querySelector('meta[name=description]').remove();
    document.querySelector('main').insertAdjacentHTML('beforeend',
        '<p style="color:#aaa;background:#fff">grigio</p><input type="text"><img src="data:,">'
        + '<button style="width:10px;height:10px;padding:0;border:0"></button>'
        + '<button style="width:10px;height:10px;padding:0;border:0"></button>'
        + '<div style="width:1200px">largo</div>');
}"""


def test_the_audit_reports_what_axe_finds(browser, live_server):
    """The audit is not blind: on a login page made wrong on purpose it reports each finding,
    the sideways scroll at the phone's size only, including after a resize from the desktop's
    (how the pages are audited at the phone's size)."""
    context = axe_context(browser, *VIEWPORTS["desktop"])
    page = context.new_page()
    page.goto(f"{live_server.url}/accounts/login/")
    assert audit(page, "login") == []
    page.evaluate(BROKEN)
    at_desktop = audit(page, "login")
    page.set_viewport_size({"width": 390, "height": 844})
    found = audit(page, "login")
    context.close()
    rules = sorted(line.split()[2] for line in found if line.split()[1] in {"serious", "critical"})
    assert rules == ["button-name", "color-contrast", "image-alt", "label", "target-size"], found
    assert "login: critical button-name (2×) Buttons must have discernible text" in found[0]
    assert found[-2] == "login: no meta description"
    wide = re.fullmatch(r"login: scrolls sideways \((\d+) px wide on a 390 px screen\)", found[-1])
    assert wide and int(wide[1]) >= 1200, found[-1]
    assert at_desktop == found[:-1], at_desktop
