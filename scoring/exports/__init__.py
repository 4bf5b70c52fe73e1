"""The official documents: Verbale di Turno and Classifica Generale, as PDF and as Excel.

Every function here is pure: it takes the rows of :mod:`scoring.verbale` (the one row source)
and returns bytes. Nothing is computed here but formatting; the numbers are the engine's.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping

from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring import formatting
from scoring.selectors_games import GameVerbale
from scoring.verbale import Verbale

DRAFT_MARK = gettext_lazy("BOZZA — turno in corso")


def date_it(day: dt.date | None, *, weekday: bool = False) -> str:
    """``4 settembre 2026`` (``venerdì 4 settembre 2026`` with ``weekday``), in the active
    language: see :func:`scoring.formatting.date_long`."""
    return formatting.date_long(day, weekday=weekday)


short_date = formatting.date_short
local_datetime = formatting.moment


def now() -> dt.datetime:
    return timezone.localtime(timezone.now())


def series_text(code: str, labels: Mapping[str, str] | None) -> str:
    if not code:
        return "—"
    return (labels or {}).get(code, code)


def verbale_title(v: Verbale | GameVerbale) -> str:
    """``Verbale di Turno n. 3``; a turno in corso has no number yet."""
    if v.verbale_number:
        return _("Verbale di Turno n. %(n)s") % {"n": v.verbale_number}
    return _("Verbale di Turno")


def verbale_doc_id(v: Verbale | GameVerbale) -> str:
    """The running footer: ``Verbale n. 3 · 2026-27 · 20/11/2026 turno 1``."""
    head = (
        _("Verbale n. %(n)s") % {"n": v.verbale_number}
        if v.verbale_number
        else _("Bozza di verbale")
    )
    when = _("%(date)s turno %(n)s") % {"date": short_date(v.date), "n": v.number}
    return f"{head} · {v.season} · {when}"


def verbale_basename(v: Verbale) -> str:
    """``verbale-2026-11-20-1`` (``-bozza`` while the turno is in corso)."""
    base = f"verbale-{v.date.isoformat()}-{v.number}"
    return base if v.closed else f"{base}-bozza"


def classifica_basename(season_name: str) -> str:
    return f"classifica-{slugify(season_name) or 'stagione'}"
