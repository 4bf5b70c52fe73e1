"""The official documents: Verbale di Turno and Classifica Generale, as PDF and as Excel.

Every function here is pure: it takes the rows of :mod:`scoring.verbale` (the one row source)
and returns bytes. Nothing is computed here but formatting; the numbers are the engine's.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from decimal import Decimal

from django.utils import timezone
from django.utils.text import slugify

from scoring.verbale import Verbale

MONTHS_IT = (
    "gennaio",
    "febbraio",
    "marzo",
    "aprile",
    "maggio",
    "giugno",
    "luglio",
    "agosto",
    "settembre",
    "ottobre",
    "novembre",
    "dicembre",
)
WEEKDAYS_IT = ("lunedì", "martedì", "mercoledì", "giovedì", "venerdì", "sabato", "domenica")
DRAFT_MARK = "BOZZA — turno in corso"


def date_it(day: dt.date | None, *, weekday: bool = False) -> str:
    """``4 settembre 2026`` (``venerdì 4 settembre 2026`` with ``weekday``)."""
    if day is None:
        return "—"
    text = f"{day.day} {MONTHS_IT[day.month - 1]} {day.year}"
    return f"{WEEKDAYS_IT[day.weekday()]} {text}" if weekday else text


def short_date(day: dt.date | None) -> str:
    return "—" if day is None else f"{day:%d/%m/%Y}"


def local_datetime(moment: dt.datetime | None) -> str:
    """``22/11/2026 alle 18:51`` in the club's time zone."""
    if moment is None:
        return "—"
    if timezone.is_aware(moment):
        moment = timezone.localtime(moment)
    return f"{moment:%d/%m/%Y} alle {moment:%H:%M}"


def now() -> dt.datetime:
    return timezone.localtime(timezone.now())


def dec2(value: Decimal | None) -> str:
    """A ratio or league points as the club writes them: two decimals, ``-0.43``."""
    if value is None:
        return "—"
    return f"{Decimal(value).quantize(Decimal('0.01'))}"


def signed(value: int | Decimal) -> str:
    """A title value or a penalità with its sign: ``+1``, ``+0.3``, ``-5``."""
    if isinstance(value, Decimal):
        text = format(value.normalize(), "f")
        return text if value < 0 else f"+{text}"
    return f"{value:+d}"


def series_text(code: str, labels: Mapping[str, str] | None) -> str:
    if not code:
        return "—"
    return (labels or {}).get(code, code)


def verbale_title(v: Verbale) -> str:
    """``Verbale di Turno n. 3``; a turno in corso has no number yet."""
    return f"Verbale di Turno n. {v.verbale_number}" if v.verbale_number else "Verbale di Turno"


def verbale_doc_id(v: Verbale) -> str:
    """The running footer: ``Verbale n. 3 · 2026-27 · 20/11/2026 turno 1``."""
    head = f"Verbale n. {v.verbale_number}" if v.verbale_number else "Bozza di verbale"
    return f"{head} · {v.season} · {short_date(v.date)} turno {v.number}"


def verbale_basename(v: Verbale) -> str:
    """``verbale-2026-11-20-1`` (``-bozza`` while the turno is in corso)."""
    base = f"verbale-{v.date.isoformat()}-{v.number}"
    return base if v.closed else f"{base}-bozza"


def classifica_basename(season_name: str) -> str:
    return f"classifica-{slugify(season_name) or 'stagione'}"
