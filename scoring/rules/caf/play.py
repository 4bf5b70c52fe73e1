"""The order of play of a turno (SPEC §3): dealers, the calling order, who may call what.

:class:`Progress` follows a turno call by call. It is the "what next" API of the live screen and
the walk that validation uses to check each call and derive the forced ones.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..problems import Problem, gettext_noop
from .ruleset import NEGATIVE, RuleSet


@dataclass(frozen=True)
class CallCheck:
    """The verdict on one call: whether it is legal, and whether it is forced."""

    problems: tuple[Problem, ...]
    forced: bool


class Progress:
    """The state of a turno after some smazzate: who deals, who may call what, what is left."""

    def __init__(self, rules: RuleSet, players: Sequence[str], first_dealer: str):
        self.rules = rules
        self.players: tuple[str, ...] = tuple(players)
        self.dealer: str | None = first_dealer if first_dealer in self.players else None
        self.played: list[tuple[str, str]] = []  # (game, caller) in order
        self.negatives_played: set[str] = set()
        self.positives_called: dict[str, set[str]] = {p: set() for p in self.players}

    @classmethod
    def after(
        cls,
        rules: RuleSet,
        players: Sequence[str],
        first_dealer: str,
        calls: Iterable[tuple[str, str]],
    ) -> Progress:
        progress = cls(rules, players, first_dealer)
        for game, caller in calls:
            progress.advance(game, caller)
        return progress

    # -- the state ---------------------------------------------------------------------------------
    @property
    def number(self) -> int:
        """The number (1-based) of the next smazzata."""
        return len(self.played) + 1

    @property
    def total(self) -> int:
        return self.rules.smazzate_count(len(self.players))

    @property
    def left(self) -> int:
        return max(self.total - len(self.played), 0)

    @property
    def complete(self) -> bool:
        return self.left == 0

    @property
    def phase(self) -> str | None:
        """``negative`` while a negative game is unplayed, then ``positive``; None when done."""
        if self.complete:
            return None
        if set(self.rules.negative_games) - self.negatives_played:
            return NEGATIVE
        return "positive"

    def callable_games(self, player: str) -> tuple[str, ...]:
        """The games ``player`` may call now (in the rule set's order)."""
        if player not in self.positives_called or self.complete:
            return ()
        if self.phase == NEGATIVE:
            return tuple(g for g in self.rules.negative_games if g not in self.negatives_played)
        mine = self.positives_called[player]
        return tuple(g for g in self.rules.positive_games if g not in mine)

    def remaining_games(self, player: str) -> tuple[str, ...]:
        """Games still to be called by ``player`` over the turno (shared negatives included)."""
        negatives = tuple(g for g in self.rules.negative_games if g not in self.negatives_played)
        mine = self.positives_called.get(player, set())
        return negatives + tuple(g for g in self.rules.positive_games if g not in mine)

    def seat_after(self, player: str) -> str:
        i = self.players.index(player)
        return self.players[(i + 1) % len(self.players)]

    def full_order(self) -> tuple[str, ...]:
        """Every player in calling order: from the one after the dealer round to the dealer."""
        if self.dealer is None:
            return ()
        i = self.players.index(self.dealer)
        n = len(self.players)
        return tuple(self.players[(i + 1 + k) % n] for k in range(n))

    def calling_order(self) -> tuple[str, ...]:
        """The players who may call now, in calling order (the dealer last)."""
        return tuple(p for p in self.full_order() if self.callable_games(p))

    def is_forced(self, player: str) -> bool:
        """Whether a call by ``player`` now would be obbligata (SPEC §3.3).

        Forced when every player after ``player`` in the calling order, up to and including the
        dealer, has nothing left to call.
        """
        order = self.full_order()
        if player not in order:
            return False
        after = order[order.index(player) + 1 :]
        return not any(self.callable_games(p) for p in after)

    # -- moving on -------------------------------------------------------------------------------
    def check(self, game: str, caller: str, number: int | None = None) -> CallCheck:
        """Check a call against the state, without applying it."""
        n = number if number is not None else self.number
        problems: list[Problem] = []

        def wrong(code: str, template: str, params: dict[str, object], **where: str) -> None:
            problems.append(Problem.said(code, template, params, smazzata=n, **where))

        if self.complete:
            wrong(
                "TURNO_TOO_MANY_SMAZZATE",
                gettext_noop("il turno è già completo con %(n)s smazzate"),
                {"n": self.total},
            )
            return CallCheck(tuple(problems), False)
        if game not in self.rules.games:
            wrong(
                "GAME_UNKNOWN",
                gettext_noop("gioco sconosciuto: %(value)s"),
                {"value": repr(game)},
                field="game",
            )
        if caller not in self.players:
            wrong(
                "CALLER_UNKNOWN",
                gettext_noop("il chiamante %(player)s non siede a questo tavolo"),
                {"player": repr(caller)},
                player=str(caller),
                field="caller",
            )
        if problems:
            return CallCheck(tuple(problems), False)
        rule = self.rules.games[game]
        if rule.phase == NEGATIVE and game in self.negatives_played:
            wrong(
                "GAME_ALREADY_PLAYED",
                gettext_noop("%(game)s (%(code)s) è già stato giocato in questo turno"),
                {"game": rule.name, "code": game},
                player=caller,
                field="game",
            )
        elif rule.phase != NEGATIVE and self.phase == NEGATIVE:
            left = ", ".join(g for g in self.rules.negative_games if g not in self.negatives_played)
            wrong(
                "GAME_PHASE",
                gettext_noop(
                    "%(game)s (%(code)s) non si può chiamare finché restano giochi alla meno "
                    "da giocare (%(left)s)"
                ),
                {"game": rule.name, "code": game, "left": left},
                player=caller,
                field="game",
            )
        elif rule.phase != NEGATIVE and game in self.positives_called[caller]:
            wrong(
                "GAME_ALREADY_CALLED",
                gettext_noop("%(player)s ha già chiamato %(game)s (%(code)s) in questo turno"),
                {"player": caller, "game": rule.name, "code": game},
                player=caller,
                field="game",
            )
        forced = not problems and self.is_forced(caller)
        return CallCheck(tuple(problems), forced)

    def advance(self, game: str, caller: str) -> CallCheck:
        """Check a call and apply it: the caller deals the next smazzata."""
        verdict = self.check(game, caller)
        self.played.append((game, caller))
        rule = self.rules.games.get(game)
        if rule is not None and caller in self.players:
            if rule.phase == NEGATIVE:
                self.negatives_played.add(game)
            else:
                self.positives_called[caller].add(game)
        self.dealer = caller if caller in self.players else None
        return verdict


def dealers(players: Sequence[str], first_dealer: str, callers: Sequence[str]) -> list[str]:
    """The dealer of every smazzata: the first dealer, then each previous chiamante (§3.1)."""
    return [first_dealer, *callers[:-1]] if callers else []
