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

from scoring.rules.numbers import typed_int_or_none


@dataclass(frozen=True)
class Reading:
    """A posted deal: its ``record`` as :mod:`scoring.api` takes it (``number``: the deal the
    form believed next), or None with the ``screen`` to show instead (the form with its errors,
    or the questions the deal raises, ``asked``)."""

    record: Mapping[str, Any] | None = None
    number: int | None = None
    screen: Mapping[str, Any] = field(default_factory=dict)
    asked: bool = False


def deal_to_correct(raw: str | None, played: int) -> int:
    """The deal to correct, as asked (``k`` typed in ASCII digits, among the ``played`` ones);
    the last one otherwise (empty, "²", "٢", "1_1", text, a deal not played)."""
    number = typed_int_or_none(raw)
    return number if number is not None and 1 <= number <= played else played


def parts(folder: str, entry: str, close: str, results: str, rows: str) -> dict[str, str]:
    """The templates of the live screen's parts for one way of entering a deal: the deal's
    form, the close, the results and the deals so far (``folder`` + name + ``.html``)."""
    names = {"entry": entry, "close": close, "results": results, "rows": rows}
    return {part: f"{folder}{name}.html" for part, name in names.items()}
