"""What the segretario records (the engine's input) and what the engine computes (its output)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal

SANCTION_CONTATORE = "RETROCESSIONE_CONTATORE"


@dataclass(frozen=True)
class SmazzataRecord:
    game: str
    caller: str
    result: Mapping[str, int]  # per player, the count of SPEC §2
    trump: str | None = None


@dataclass(frozen=True)
class Penalty:
    player: str
    points: int
    article: str = ""
    reason: str = ""


@dataclass(frozen=True)
class Sanction:
    player: str
    kind: str = SANCTION_CONTATORE
    reason: str = ""


@dataclass(frozen=True)
class TurnoRecord:
    players: tuple[str, ...]  # seat order, counterclockwise (SPEC §3.1)
    first_dealer: str
    smazzate: tuple[SmazzataRecord, ...] = ()
    penalties: tuple[Penalty, ...] = ()
    tiebreak: tuple[str, ...] = ()
    sanctions: tuple[Sanction, ...] = ()
    date: dt.date | None = None
    number: int = 1

    @property
    def label(self) -> str:
        return f"{self.date.isoformat() if self.date else '?'} #{self.number}"


@dataclass(frozen=True)
class ScoredSmazzata:
    number: int
    game: str
    dealer: str | None
    caller: str
    forced: bool
    trump: str | None
    result: Mapping[str, int]
    points: Mapping[str, int]
    scazzata: bool
    cappotto: str | None


@dataclass(frozen=True)
class TurnoScore:
    """A turno scored: complete and closable when ``problems`` is empty and ``places`` is set."""

    players: tuple[str, ...]
    smazzate: tuple[ScoredSmazzata, ...]
    penalties: Mapping[str, int]
    totals: Mapping[str, int]
    complete: bool
    places: Mapping[str, int] | None  # None while incomplete or with an unsettled tie
    ratios: Mapping[str, Decimal] | None
    problems: tuple = ()
    tied: tuple[tuple[str, ...], ...] = ()  # groups of players with equal totals

    @property
    def ok(self) -> bool:
        return not self.problems

    def order(self) -> tuple[str, ...]:
        """Players from first place to last."""
        assert self.places is not None
        return tuple(sorted(self.players, key=lambda p: self.places[p]))

    def player_figures(self) -> dict[str, dict]:
        """Per player, the turno's figures the player page shows: calls, forced calls,
        scazzate, cappotti made, and per game ``[points, smazzate]``."""
        out: dict[str, dict] = {
            p: {"calls": 0, "forced": 0, "scazzate": 0, "cappotti": 0, "games": {}}
            for p in self.players
        }
        for sm in self.smazzate:
            mine = out[sm.caller]
            mine["calls"] += 1
            mine["forced"] += sm.forced
            mine["scazzate"] += sm.scazzata
            if sm.cappotto is not None:
                out[sm.cappotto]["cappotti"] += 1
            for p, points in sm.points.items():
                game = out[p]["games"].setdefault(sm.game, [0, 0])
                game[0] += points
                game[1] += 1
        return out


@dataclass(frozen=True)
class TableResult:
    """A closed turno, as the season sees it."""

    key: Hashable
    date: dt.date
    number: int
    order: tuple[str, ...]  # players from first place to last
    ratios: Mapping[str, Decimal]
    sanctions: tuple[Sanction, ...] = ()


@dataclass(frozen=True)
class TableOutcome:
    key: Hashable
    series_before: Mapping[str, str]
    series_after: Mapping[str, str]
    titles: Mapping[str, tuple[str, ...]]
    league_points: Mapping[str, Decimal]


@dataclass(frozen=True)
class GiornataOutcome:
    date: dt.date
    lowest: Decimal
    absences: Mapping[str, Decimal]  # absent roster member -> league points received
    state_after: SeasonState | None = None


@dataclass
class SeasonState:
    """Where every player stands after a giornata: series and running Scudetto streak."""

    series: dict[str, str] = field(default_factory=dict)
    streak: dict[str, int] = field(default_factory=dict)

    def copy(self) -> SeasonState:
        return SeasonState(dict(self.series), dict(self.streak))

    def to_dict(self) -> dict:
        return {"series": dict(self.series), "streak": dict(self.streak)}

    @classmethod
    def from_dict(cls, d: Mapping | None) -> SeasonState:
        d = d or {}
        return cls(dict(d.get("series", {})), {k: int(v) for k, v in d.get("streak", {}).items()})


@dataclass(frozen=True)
class Standing:
    player: str
    score: Decimal
    series: str
    turni: int
    absences: int
    titles: Mapping[str, int]  # title code -> times won

    @property
    def scudetti(self) -> int:
        return self.titles.get("SCUDETTO", 0)

    @property
    def average(self) -> Decimal | None:
        played = self.turni + self.absences
        return (self.score / played).quantize(Decimal("0.01")) if played else None


@dataclass(frozen=True)
class SeasonResult:
    tables: Mapping[Hashable, TableOutcome]
    giornate: tuple[GiornataOutcome, ...]
    state: SeasonState
    classifica: tuple[tuple[int, Standing], ...]
