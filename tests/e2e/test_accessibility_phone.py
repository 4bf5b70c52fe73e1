"""axe-core on every page of every game at the phone's size (390 x 844): the desktop size and
the pages audited are tests/e2e/test_accessibility.py's; this module only lets the two sizes run
on two workers. And the audit itself (tests/e2e/conftest.py) is not blind: it reports what axe
finds on a page made wrong on purpose."""

import re

from tests.e2e.conftest import audit, axe_context
from tests.e2e.test_accessibility import VIEWPORTS, audit_every_page, club, pytestmark

__all__ = ["club", "pytestmark"]

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


def test_every_page_of_every_game_passes_axe_on_a_phone(browser, live_server, club, shot):
    assert VIEWPORTS["phone"] == (390, 844)
    audit_every_page(browser, live_server, club, shot, "phone")


def test_the_audit_reports_what_axe_finds(browser, live_server):
    context = axe_context(browser, *VIEWPORTS["phone"])
    page = context.new_page()
    page.goto(f"{live_server.url}/accounts/login/")
    assert audit(page, "login") == []
    page.evaluate(BROKEN)
    found = audit(page, "login")
    context.close()
    rules = sorted(line.split()[2] for line in found if line.split()[1] in {"serious", "critical"})
    assert rules == ["button-name", "color-contrast", "image-alt", "label", "target-size"], found
    assert "login: critical button-name (2×) Buttons must have discernible text" in found[0]
    assert found[-2] == "login: no meta description"
    wide = re.fullmatch(r"login: scrolls sideways \((\d+) px wide on a 390 px screen\)", found[-1])
    assert wide and int(wide[1]) >= 1200, found[-1]
