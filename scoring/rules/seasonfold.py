"""The season standing of a game kept by the generic ledger as a fold (issue 24).

A season's Classifica is, for every game of the generic ledger, a ranking of per-player figures
accumulated over the closed turni (matchpoints, list points, turni played, wins...). The ledger
keeps that accumulated *state* after each giornata (a checkpoint), so a close or a reopen folds
only the turni from the changed giornata on into the state kept before it, instead of replaying
the whole season; ``check_ledger`` compares every checkpoint with a full replay.

The fold reads what the ledger stores of a closed turno for each player: the ``total``, the
``place`` and the ``extra`` of :meth:`~scoring.rules.systems.LedgerSystem.seat_results` (plain
JSON values). A *state* maps a player key (the ledger uses member ids, so a corrected name moves
no figure) to ``{figure: int}``; it is plain data, stored as it is.

:class:`SeasonFold` holds the defaults (a sum of each turno's figures); a system gives
:meth:`SeasonFold.standing_figures` (one seat's contribution) and :meth:`SeasonFold.standing_rank`
(the Classifica rows, ranked as the system's own season standing ranks them).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

State = dict[str, dict[str, int]]


class SeasonFold:
    """Defaults of the season fold, mixed into each generic game system."""

    def standing_figures(self, seat: Mapping[str, Any]) -> dict[str, int]:
        """What one closed seat (``{"total", "place", "extra"}``) adds to its player's figures."""
        raise NotImplementedError

    def standing_rank(
        self, rules: Any, roster: Sequence[str], figures: Mapping[str, Mapping[str, int]]
    ) -> list[dict[str, Any]]:
        """The Classifica rows in display order from each player's accumulated figures (by
        name; a roster member without figures has played nothing)."""
        raise NotImplementedError

    def standing_add(
        self, state: Mapping[str, Mapping[str, int]], turno: Mapping[str, Any]
    ) -> State:
        """``state`` with one closed turno (player key -> seat) added; ``state`` is not changed."""
        return self.standing_fold(state, [turno])

    def standing_fold(
        self, state: Mapping[str, Mapping[str, int]], turni: Iterable[Mapping[str, Any]]
    ) -> State:
        """``state`` with every closed turno of ``turni`` (player key -> seat) added, in order;
        ``state`` is not changed."""
        out: State = {k: dict(v) for k, v in state.items()}
        for turno in turni:
            for key, seat in turno.items():
                mine = out.setdefault(str(key), {})
                for name, value in self.standing_figures(seat).items():
                    mine[name] = mine.get(name, 0) + value
        return out
