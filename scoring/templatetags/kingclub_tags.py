"""Template filters of the members' pages: suits, games, signed numbers, series, titles.

``{% load kingclub_tags %}`` then, for example::

    {{ row.game|game:row.trump }}          NQ♠, N♥ (red), Briscola ♦ (red)
    {{ seat.league_points|signed }}        +1,03 / −0,28 (localised decimal separator)
    {{ row.series|series_badge:label }}    <span class="series series-A">A</span>
    {{ row.movement|movement }}            ↑2 / ↓1 / =

The functions are plain Python too, so ``scoring.tables`` formats cells with the same code; every
number, date and game goes through :mod:`scoring.formatting`, as in the PDFs and workbooks.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring import formatting
from scoring.rules.caf.ruleset import SUIT_SYMBOLS, TITLE_LABELS, TITLE_SHORT

register = template.Library()

RED_SUITS = formatting.RED_SUITS
SUIT_NAMES = {
    "S": gettext_lazy("picche"),
    "H": gettext_lazy("cuori"),
    "D": gettext_lazy("quadri"),
    "C": gettext_lazy("fiori"),
}
GAME_TEXT = formatting.GAME_TEXT
SERIES_SHORT = {
    "ECC": "Ecc",
    "PROM": "Prom",
    "1CAT": "1ª Cat",
    "2CAT": "2ª Cat",
    "3CAT": "3ª Cat",
}
format_number = formatting.number


@register.filter
def num(value: Any, places: int | None = None) -> str:
    """``{{ x|num }}``, ``{{ x|num:2 }}``: a localised number with a true minus sign."""
    return format_number(value, places)


@register.filter
def signed(value: Any, places: int | None = None) -> str:
    """``{{ x|signed }}``: like :func:`num` with ``+`` before positive numbers."""
    return format_number(value, places, plus=True)


@register.filter
def sign_class(value: Any) -> str:
    """``pos``, ``neg`` or ``""``: the CSS class that colours a number."""
    try:
        if value is None or value == "":
            return ""
        v = Decimal(str(value))
    except ArithmeticError:
        return ""
    return "pos" if v > 0 else "neg" if v < 0 else ""


@register.filter
def suit(code: str | None) -> SafeString:
    """``S``/``H``/``D``/``C`` as its symbol; hearts and diamonds red."""
    if not code or code not in SUIT_SYMBOLS:
        return mark_safe("")
    return format_html(
        '<span class="suit suit-{}{}" role="img" aria-label="{}">{}</span>',
        code,
        " red" if code in RED_SUITS else "",
        SUIT_NAMES[code],
        SUIT_SYMBOLS[code],
    )


@register.filter
def game(code: str, trump: str | None = "") -> SafeString:
    """A game as the club writes it: ``NJ``, ``NQ♠``, ``N♥``, ``Domino``, ``Briscola ♦``."""
    text, suit_code = GAME_TEXT.get(code, (code, ""))
    if trump:
        return format_html("{} {}", text, suit(trump))
    if suit_code:
        return format_html("{}{}", text, suit(suit_code))
    return format_html("{}", text)


def series_short(code: str) -> str:
    return SERIES_SHORT.get(code, code)


@register.filter
def series_badge(code: str | None, label: str = "") -> SafeString:
    """A small badge for a series code (``A``, ``C1``, ``ECC``...), its full label as a tip."""
    if not code:
        return mark_safe("")
    return format_html(
        '<span class="series series-{}" title="{}">{}</span>',
        code,
        label or code,
        series_short(code),
    )


@register.filter
def title_label(code: str) -> str:
    """The title's name: ``COPPA_CAMPIONI`` → ``Coppa dei Campioni``."""
    return TITLE_LABELS.get(code, code)


@register.filter
def title_short(code: str) -> str:
    return TITLE_SHORT.get(code, code)


@register.filter
def title_kind(code: str) -> str:
    """``malus`` for the Retrocessioni, ``bonus`` for every other title."""
    return "malus" if code.startswith("RETROCESSIONE") else "bonus"


@register.filter
def title_badges(codes: Any) -> SafeString:
    """Badges for a list of title codes (a seat's ``titles``) or ``(code, label, value)``."""
    parts = []
    for item in codes or ():
        code = item[0] if isinstance(item, (tuple, list)) else item
        parts.append(
            format_html(
                '<span class="badge badge-title badge-{}" data-title="{}">{}</span>',
                title_kind(code),
                code,
                title_label(code),
            )
        )
    return mark_safe(" ".join(parts))


@register.filter
def movement(value: int | None) -> SafeString:
    """Places gained since the previous giornata: ``↑2``, ``↓1``, ``=`` (nothing when unknown)."""
    if value is None:
        return mark_safe("")
    if value > 0:
        return format_html(
            '<span class="up" title="{}">↑{}</span>', _("guadagna %d posti") % value, value
        )
    if value < 0:
        return format_html(
            '<span class="down" title="{}">↓{}</span>', _("perde %d posti") % -value, -value
        )
    return format_html('<span class="same" title="{}">=</span>', _("stesso posto"))


@register.filter
def series_move(value: int) -> SafeString:
    """A series change at the last giornata: ``↑`` promoted, ``↓`` relegated."""
    if value > 0:
        return format_html('<span class="up" title="{}">↑</span>', _("promosso"))
    if value < 0:
        return format_html('<span class="down" title="{}">↓</span>', _("retrocesso"))
    return mark_safe("")


@register.filter
def get_item(mapping: Any, key: Any) -> Any:
    """``{{ dict|get_item:key }}``."""
    try:
        return mapping[key]
    except (KeyError, IndexError, TypeError):
        return None


@register.filter
def date_long(day: Any, weekday: bool = True) -> str:
    """``{{ d|date_long }}``: ``venerdì 20 novembre 2026``; ``{{ d|date_long:False }}`` without
    the weekday."""
    return formatting.date_long(day, weekday=weekday)


@register.filter
def date_short(day: Any) -> str:
    """``{{ d|date_short }}``: ``20/11/2026``."""
    return formatting.date_short(day)


@register.filter
def moment(value: Any) -> str:
    """``{{ t|moment }}``: ``21/11/2026 alle 00:05`` in the club's time zone."""
    return formatting.moment(value)


@register.filter
def bdi(value: Any) -> SafeString:
    """User text (a name, a reason) isolated from the text around it: ``<bdi>…</bdi>``, so that
    a right-to-left name or a stray direction mark never reorders the page's own words."""
    return format_html("<bdi>{}</bdi>", value)


@register.filter
def ratio(value: Any) -> str:
    """``{{ s.ratio|ratio }}``: ``0,62``, ``−0,43`` (``—`` when missing)."""
    return formatting.ratio(value)


@register.filter
def league(value: Any) -> str:
    """``{{ s.league_points|league }}``: ``+1,03``, ``−0,28`` (``—`` when missing)."""
    return formatting.league(value)


@register.filter
def title_value(value: Any) -> str:
    """``{{ value|title_value }}``: a title's value, ``+1``, ``+0,3``."""
    return formatting.title_value(value)


@register.filter
def figure(value: Any) -> str:
    """``{{ v|figure }}``: a game's own figure as stored: ``−46``, ``2704``, the fee ``1,00``."""
    return formatting.figure(value)


@register.filter
def whole(value: Any) -> str:
    """``{{ score|whole }}``: whole points without ``,00`` (``916``), a fraction with two
    decimals."""
    return formatting.whole(value)


@register.filter
def season_score(value: Any, season: Any) -> str:
    """``{{ st.score|season_score:season }}``: a season's score with the decimals its game
    declares (C.A.F.'s league points ``15,00``, the other games' whole points ``916``)."""
    return formatting.season_score(value, decimals=season.system.season_score_decimals)


@register.filter
def minus(value: Any) -> str:
    """``{{ line|minus }}``: a line of text with a true minus sign before each negative number
    (``perso −46``)."""
    return formatting.text(value)


@register.filter
def turno_label(turno: Any) -> str:
    """``{{ turno|turno_label }}``: a turno as a reader names it, ``20/11/2026 #1`` (the
    model's ``label`` keeps the records' ``2026-11-20 #1``)."""
    return formatting.turno_label(turno.date, turno.number)


@register.filter
def rules_name(season: Any) -> str:
    """``{{ season|rules_name }}``: the season's own rules as the documents and the pages'
    footer name them (``Skat (ISkO, lista Seeger-Fabian)``, ``King C.A.F.``); ``""`` without a
    season."""
    system = getattr(season, "system", None)
    if system is None:
        return ""
    return formatting.rules_name(system.label, season.rules)


@register.simple_tag
def league_points_label() -> str:
    """``{% league_points_label %}``: the one name of league points (``Punti classifica``)."""
    return str(formatting.LEAGUE_POINTS)


# The formatting module's functions as filters, unchanged (``—`` when a value is missing):
# ``{{ d|date_short }}`` 20/11/2026, ``{{ t|moment }}`` 21/11/2026 alle 00:05,
# ``{{ s.ratio|ratio }}`` 0,62, ``{{ s.league_points|league }}`` +1,03,
# ``{{ value|title_value }}`` +0,3, ``{{ code|game_text }}`` Domino, NQ♠.
for _name, _func in (
    ("date_short", formatting.date_short),
    ("moment", formatting.moment),
    ("ratio", formatting.ratio),
    ("league", formatting.league),
    ("title_value", formatting.title_value),
    ("game_text", formatting.game_label),
):
    register.filter(_name, _func)
