"""One way to write a number, a date and a game, for every output: web pages, PDF, Excel, CSV.

The template filters (:mod:`scoring.templatetags.kingclub_tags`), the PDFs, the workbooks and the
CSV files all call these functions, so a value reads the same everywhere in a given language:

- numbers in the active language's notation (``1,03`` in Italian, ``1.03`` in English) with a
  true minus sign (``−0,43``); points and league points signed (``+7``, ``+1,03``), ratios not;
- dates ``venerdì 20 novembre 2026`` / ``Friday 20 November 2026`` (Italian writes the names of
  months and weekdays in lower case), short dates ``20/11/2026`` in both languages;
- games as the club writes them: ``NJ``, ``NQ♠``, ``N♥``, ``Domino``, ``Semplice``, ``Briscola``;
- a smazzata cell as ``(count) points``: ``(13) −15``;
- one name for league points: :data:`LEAGUE_POINTS` (``Punti classifica`` / ``League points``).

No Django model is imported here: the functions take plain values.
"""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal
from typing import Any

from django.utils import timezone
from django.utils.dates import MONTHS, WEEKDAYS
from django.utils.formats import get_format, number_format
from django.utils.translation import get_language, gettext, gettext_lazy

from scoring.rules.caf.ruleset import GAME_TEXT, SUIT_SYMBOLS  # how the club writes its games

MINUS = "−"  # U+2212, the typographic minus sign
DASH = "—"  # a missing value
RED_SUITS = frozenset({"H", "D"})
LEAGUE_POINTS = gettext_lazy("Punti classifica")
SPAREGGIO = gettext_lazy("per spareggio, carta più alta")
# languages that write month and weekday names in lower case
LOWER_CASE_NAMES = frozenset({"it"})


def _language() -> str:
    return (get_language() or "it").split("-")[0]


# -- numbers ------------------------------------------------------------------------------------


def number(value: Any, places: int | None = None, *, plus: bool = False) -> str:
    """A number in the active language (``1,03`` in Italian), with a true minus sign.

    ``places`` defaults to 0 for integers and 2 for anything else; ``plus`` writes ``+`` before
    positive numbers. ``None`` and ``""`` give ``""``.
    """
    if value is None or value == "":
        return ""
    if not isinstance(value, (int, Decimal)):
        try:
            value = Decimal(str(value))
        except ArithmeticError:
            return str(value)
    if places is None:
        places = 0 if isinstance(value, int) else 2
    text = number_format(abs(value), decimal_pos=places)
    rounded = Decimal(value).quantize(Decimal(1).scaleb(-places)) if places else round(value)
    if rounded < 0:
        return MINUS + text
    if rounded > 0 and plus:
        return "+" + text
    return text


def figure(value: Any) -> str:
    """A figure of a game's own tables (a total, a count, a fee, a running total), as it is:
    integers without decimals (``−46``, ``2704``), a decimal with the places it was stored with
    (the Ramino fee ``"1.00"`` is ``1,00`` in Italian), a true minus sign; ``None`` gives ``""``
    and a text that is no number is returned unchanged."""
    if value is None or value == "" or isinstance(value, bool):
        return "" if value is None else str(value)
    if isinstance(value, int):
        return number(value, 0)
    if isinstance(value, float):
        return number(Decimal(str(value)), 2)
    try:
        d = value if isinstance(value, Decimal) else Decimal(str(value).strip())
    except ArithmeticError:
        return str(value)
    if not d.is_finite():
        return str(value)
    return number(d, max(0, -d.as_tuple().exponent))  # type: ignore[operator]


def whole(value: Any, places: int = 2) -> str:
    """A season score that is whole points in most games (the albo d'oro, a player's seasons):
    ``916``, not ``916,00``; a value with a fraction keeps ``places`` decimals (``15,25``)."""
    if value is None or value == "":
        return DASH
    d = Decimal(str(value))
    return number(d, 0 if d == d.to_integral_value() else places)


def season_score(value: Any, *, decimals: int) -> str:
    """A season's score with the decimals its game declares (``season_score_decimals``):
    C.A.F.'s league points ``15,00``; with none, whole points (``916``)."""
    if value is None or value == "":
        return DASH
    return number(Decimal(str(value)), decimals) if decimals else whole(value)


# a hyphen-minus that signs a number in a line of text: not inside a word, a date or a range
_TEXT_MINUS = re.compile(r"(?<![\w\-/.,])-(?=\d)")


def text(value: Any) -> str:
    """A line of text holding numbers (a smazzata's description, a penalty, a title and its
    value) with a true minus sign before each negative number: ``perso −46``,
    ``Retrocessione −0,1``; words, dates and ranges (``1-4``, ``2026-11-20``) are kept."""
    if value is None:
        return ""
    return _TEXT_MINUS.sub(MINUS, str(value))


def points(value: int | None) -> str:
    """Points of a smazzata, a penalità or a turno total: ``+7``, ``−15``, ``0``."""
    return DASH if value is None else number(value, 0, plus=True)


def ratio(value: Decimal | None) -> str:
    """The rapporto: two decimals, no plus sign: ``1,00``, ``−0,43``."""
    return DASH if value is None else number(value, 2)


def league(value: Decimal | None) -> str:
    """League points (of a turno, or a title's value): two decimals, signed: ``+1,03``."""
    return DASH if value is None else number(value, 2, plus=True)


def score(value: Decimal | None) -> str:
    """A season score or average in the Classifica: two decimals, no plus sign."""
    return DASH if value is None else number(value, 2)


def title_value(value: Decimal | int) -> str:
    """A title's value as the rule set states it: ``+1``, ``+0,3``, ``−0,1``."""
    d = Decimal(value).normalize()
    places = max(0, -d.as_tuple().exponent)  # type: ignore[operator]
    return number(d, places, plus=True)


def place(value: int | None, *, spareggio: bool = False) -> str:
    """``1°``; ``1° per spareggio, carta più alta`` when the spareggio decided it."""
    if not value:
        return DASH
    return f"{value}° {SPAREGGIO}" if spareggio else f"{value}°"


def cell(count: int, pts: int) -> str:
    """A player's smazzata as every output writes it: ``(13) −15``."""
    return f"({count}) {points(pts)}"


# -- dates --------------------------------------------------------------------------------------


def date_long(day: dt.date | None, *, weekday: bool = True) -> str:
    """``venerdì 20 novembre 2026`` (``Friday 20 November 2026``); without ``weekday`` the
    weekday is left out."""
    if day is None:
        return DASH
    month, name = str(MONTHS[day.month]), str(WEEKDAYS[day.weekday()])
    if _language() in LOWER_CASE_NAMES:
        month, name = month.lower(), name.lower()
    text = f"{day.day} {month} {day.year}"
    return f"{name} {text}" if weekday else text


def date_short(day: dt.date | None) -> str:
    """``20/11/2026`` in every language."""
    return DASH if day is None else f"{day:%d/%m/%Y}"


def turno_label(day: dt.date, number: int) -> str:
    """A turno as a reader names it: ``20/11/2026 #1`` (the records keep ``2026-11-20 #1``)."""
    return f"{date_short(day)} #{number}"


def moment(value: dt.datetime | None) -> str:
    """``21/11/2026 alle 00:05`` (``at 00:05``) in the club's time zone."""
    if value is None:
        return DASH
    if timezone.is_aware(value):
        value = timezone.localtime(value)
    return gettext("%(date)s alle %(time)s") % {
        "date": date_short(value.date()),
        "time": f"{value:%H:%M}",
    }


# -- games --------------------------------------------------------------------------------------


def rules_name(label: str, rules: Any = None) -> str:
    """The season's own rules as the documents and the pages' footer name them: the name its
    rule set carries (``Skat (ISkO, lista Seeger-Fabian)``), or the game's (``King C.A.F.``,
    ``Ramino 101``) when the rule set names none or only a part of it (C.A.F.'s ``C.A.F.``);
    a name without the game's gets it first: ``King classico (regole del circolo)``."""
    name = ""
    if isinstance(rules, dict):
        name = str(rules.get("name") or rules.get("label") or "").strip()
    if not name or name.casefold() in label.casefold():
        return label
    if label.casefold() in name.casefold():
        return name
    return f"{label} ({name})"


def game_parts(code: str) -> tuple[str, str]:
    """``NH`` -> (``N``, ``H``): the text and the suit printed after it (red for ♥ ♦)."""
    return GAME_TEXT.get(code, (code, ""))


def season_game(season: Any, code: str) -> str:
    """A smazzata's game as people read it in ``season``: its game system's name for the code
    (``Asta``, ``Passato``; C.A.F.'s ``NJ``, ``Domino``), in the active language where the
    system's names are translated."""
    system = season.system
    name = system.game_name(code)
    return gettext(name) if system.game_names_translated else name


def game_label(code: str, trump: str | None = "") -> str:
    """``NJ``, ``NQ♠``, ``N♥``, ``Domino``; with a trump ``Briscola ♦``."""
    text, suit = game_parts(code)
    if trump:
        return f"{text} {SUIT_SYMBOLS.get(trump, trump)}"
    return text + SUIT_SYMBOLS.get(suit, "")


# -- spreadsheets -------------------------------------------------------------------------------

# OWASP "CSV injection": a cell starting with one of these is read as a formula by spreadsheets.
FORMULA_TRIGGERS = ("=", "+", "-", "@", "\t", "\r")


# a number kept as text by a record (the Ramino fee ``"1.00"``): a number in a CSV cell too
_DECIMAL_TEXT = re.compile(r"-?\d+\.\d+")


def csv_dialect() -> tuple[str, str]:
    """(field separator, decimal separator) of a CSV file for the active language: a spreadsheet
    set to Italian reads ``;`` and ``0,43``, one set to English ``,`` and ``0.43``."""
    decimal = str(get_format("DECIMAL_SEPARATOR"))
    return (";" if decimal == "," else ","), decimal


def csv_cell(value: Any, decimal: str = ".") -> str:
    """A CSV cell: a number as a spreadsheet of the language reads it (plain minus, no
    grouping, ``decimal`` before the fraction: ``-0,43``), any other text through
    :func:`csv_text`."""
    if isinstance(value, float):
        value = Decimal(str(value))
    if isinstance(value, str) and _DECIMAL_TEXT.fullmatch(value):
        value = Decimal(value)
    if isinstance(value, Decimal):
        return format(value, "f").replace(".", decimal)
    return csv_text(value)


def csv_text(value: Any) -> str:
    """A text for a CSV cell that no spreadsheet reads as a formula: a leading ``=``, ``+``,
    ``-``, ``@``, tab or carriage return gets a single quote before it (OWASP).

    Numbers (int, Decimal) are written as they are: they are data, not user text.
    """
    if value is None:
        return ""
    if isinstance(value, (int, Decimal)) and not isinstance(value, bool):
        return str(value)
    text = str(value)
    return "'" + text if text.startswith(FORMULA_TRIGGERS) else text
