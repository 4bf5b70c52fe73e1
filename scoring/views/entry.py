"""What the one set of live-screen views (:mod:`scoring.views.segreteria`) asks of a deal's form.

A game system declares how its deals are entered (``BaseSystem.entry_form``); each way is a module
(:mod:`.entry_calls`: C.A.F.'s chiamante, game and counts; :mod:`.entry_fields`: the fields a
system declares) offering the same names:

- ``PARTS``: the templates of the live screen's parts (the deal's form, the close, the results,
  the deals so far);
- ``context(request, pk, *, correcting=None, close_form=None, **entry)``: what the live screen
  shows of the turno (``players``, ``closable``... and the form as ``entry`` leaves it);
- ``read(request, turno, correcting)``: the posted deal as a :class:`Reading`;
- ``rejected(request, pk, reading, problems)``: the screen's ``entry`` after the ledger refused
  the deal (the problems beside their fields);
- ``recorded(smazzata, reading)``: the message after a new deal is recorded;
- ``after(smazzata)``: the screen's ``entry`` to render the turno as the ledger left it;
- ``close_input(data, pk)``: the draw for ties as posted, and the close form to show again;
- ``refresh`` and ``preview``: the form's own partial views, or None (a 404).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.http import Http404

from scoring.problem_text import localized
from scoring.rules.numbers import typed_int_or_none
from scoring.rules.problems import Problem, RuleViolation, gettext_noop


@dataclass(frozen=True)
class Reading:
    """A posted deal: its ``record`` as :mod:`scoring.api` takes it (``number``: the deal the
    form believed next), or None with the ``screen`` to show instead (the form with its errors,
    or the questions the deal raises, ``asked``)."""

    record: Mapping[str, Any] | None = None
    number: int | None = None
    screen: Mapping[str, Any] = field(default_factory=dict)
    asked: bool = False


DEAL_NOT_A_NUMBER = gettext_noop("il numero della smazzata va scritto in cifre")
DEAL_NOT_PLAYED = gettext_noop("la smazzata %(number)s non esiste: il turno ne ha %(played)s")


def deal_number(raw: object, played: int) -> int | None:
    """The one reader of a recorded deal's number as a form or an address gives it (the
    correction's ``correggi``/``numero``, the undo's ``number``): None when none is given
    (empty); one of the ``played`` deals, typed in ASCII digits; otherwise a
    :class:`RuleViolation` naming the field ``number``: ``DEAL_NUMBER`` for what is not a number
    ("abc", "²", "٢", "1_0", thousands of digits), ``DEAL_NOT_PLAYED`` for 0, a negative number
    or a deal beyond the last."""
    text = "" if raw is None else str(raw).strip()
    if not text:
        return None
    number = typed_int_or_none(text, signed=True)
    if number is None:
        raise RuleViolation([Problem.said("DEAL_NUMBER", DEAL_NOT_A_NUMBER, field="number")])
    if not 1 <= number <= played:
        said = {"number": number, "played": played}
        raise RuleViolation(
            [Problem.said("DEAL_NOT_PLAYED", DEAL_NOT_PLAYED, said, field="number")]
        )
    return number


def deal_asked(raw: object, played: int) -> int | None:
    """:func:`deal_number` where an address names the deal (``?correggi=k``): what names no deal
    of this turno is not found (404, with the reader's message)."""
    try:
        return deal_number(raw, played)
    except RuleViolation as exc:
        raise Http404(localized(exc.problems[0]).message) from None


def parts(folder: str, entry: str, close: str, results: str, rows: str) -> dict[str, str]:
    """The templates of the live screen's parts for one way of entering a deal: the deal's
    form, the close, the results and the deals so far (``folder`` + name + ``.html``)."""
    names = {"entry": entry, "close": close, "results": results, "rows": rows}
    return {part: f"{folder}{name}.html" for part, name in names.items()}
