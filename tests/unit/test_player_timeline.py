"""The rows of a member's giornate (``scoring.tables.player_timeline_html``): a plain loop in
place of the template's, every cell as the template wrote it."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from types import SimpleNamespace

import pytest
from django.utils import translation

from scoring.selectors_games import Giorno
from scoring.tables import player_timeline_html


def _seat(**kw):
    turno = SimpleNamespace(number=kw.pop("number", 1), is_open=kw.pop("is_open", False))
    base = {
        "turno_id": 7,
        "turno": turno,
        "place": 1,
        "total": 12,
        "ratio": Decimal("1.25"),
        "titles": [],
        "league_points": Decimal("3.50"),
        "series_before": "A",
        "series_after": "A",
    }
    return SimpleNamespace(**(base | kw))


@pytest.fixture(autouse=True)
def italian():
    with translation.override("it"):
        yield


def test_a_closed_turno_row():
    html = player_timeline_html([Giorno(dt.date(2026, 9, 4), _seat(), None)])
    assert html == (
        '<tr data-turno="7" data-date="2026-09-04">\n'
        '<td><a href="/turni/7/">04/09/2026</a></td>\n'
        '<td class="num" data-col="place">1°</td>\n'
        '<td class="num pos" data-col="total">+12</td>\n'
        '<td class="num" data-col="ratio">1,25</td>\n'
        '<td class="hide-narrow"></td>\n'
        '<td class="num pos" data-col="league_points" data-value="3.50">'
        "<strong>+3,50</strong></td>\n"
        '<td><span class="series series-A" title="A">A</span></td>\n'
        "</tr>\n"
    )


def test_an_open_second_turno_with_nothing_stored_yet():
    seat = _seat(
        number=2,
        is_open=True,
        place=None,
        total=-4,
        ratio=None,
        league_points=None,
        series_before="",
    )
    html = player_timeline_html([Giorno(dt.date(2026, 9, 11), seat, None)])
    assert '<a href="/turni/7/">11/09/2026</a> <span class="muted small">#2</span>' in html
    assert ' <span class="badge badge-open">in corso</span></td>' in html
    assert '<td class="num" data-col="place">—</td>' in html
    assert '<td class="num neg" data-col="total">\u22124</td>' in html
    assert '<td class="num" data-col="ratio">—</td>' in html
    assert 'data-col="league_points" data-value=""><strong>—</strong></td>' in html
    assert "<td></td>\n</tr>" in html


def test_titles_and_a_promotion():
    seat = _seat(titles=["SCUDETTO"], series_before="B", series_after="A", league_points=0)
    html = player_timeline_html([Giorno(dt.date(2026, 9, 4), seat, None)])
    assert 'data-title="SCUDETTO"' in html
    assert (
        '<td><span class="series series-B" title="B">B</span> → '
        '<span class="series series-A" title="A">A</span></td>'
    ) in html
    assert '<td class="num " data-col="league_points" data-value="0"><strong>0,00</strong>' in html


def test_an_absence_and_no_giornate():
    html = player_timeline_html([Giorno(dt.date(2026, 9, 18), None, Decimal("-2.00"))])
    assert html == (
        '<tr class="absent" data-date="2026-09-18">\n<td>18/09/2026</td>\n'
        '<td colspan="3" class="muted">assente: il punteggio più basso della giornata</td>\n'
        '<td class="hide-narrow"></td>\n'
        '<td class="num neg" data-col="league_points" data-value="-2.00">\u22122,00</td>\n'
        "<td></td>\n</tr>\n"
    )
    assert player_timeline_html([]) == '<tr><td colspan="7" class="muted">Nessun turno.</td></tr>'
    with translation.override("en"):
        assert "No turni." in player_timeline_html([])
        absent = player_timeline_html([Giorno(dt.date(2026, 9, 18), None, Decimal("-2.00"))])
        assert "absent: the lowest score of the match day" in absent
        seat = _seat(is_open=True)
        assert "in progress" in player_timeline_html([Giorno(dt.date(2026, 9, 4), seat, None)])
