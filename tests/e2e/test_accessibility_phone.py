"""axe-core on every page of every game at the phone's size (390 x 844): the desktop size and
the pages audited are tests/e2e/test_accessibility.py's; this module only lets the two sizes run
on two workers."""

from tests.e2e.test_accessibility import VIEWPORTS, audit_every_page, club, pytestmark

__all__ = ["club", "pytestmark"]


def test_every_page_of_every_game_passes_axe_on_a_phone(browser, live_server, club, shot):
    assert VIEWPORTS["phone"] == (390, 844)
    audit_every_page(browser, live_server, club, shot, "phone")
