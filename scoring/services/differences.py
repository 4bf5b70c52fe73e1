"""What ``check_ledger`` reports: one stored value that a replay of the facts does not give.

Shared by both ledgers' checks (:mod:`.ledger` for C.A.F., :func:`.games.game_differences` for
the other games), below both.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Difference:
    """One stored value that is not what the engine's replay gives."""

    season: str
    where: str
    field: str
    stored: object
    expected: object

    def __str__(self) -> str:
        return (
            f"{self.season} · {self.where} · {self.field}: "
            f"registrato {self.stored!r}, atteso {self.expected!r}"
        )
