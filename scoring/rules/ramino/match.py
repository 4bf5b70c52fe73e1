"""One Ramino 101 match (a kingclub turno): validate and score its smazzate (SPEC-ramino §3-§7).

A match is replayed smazzata by smazzata on a :class:`MatchState`; every check of SPEC §10 is made
before a smazzata changes the state, and every problem is reported at once.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from typing import Any

from ..problems import Problem, gettext_noop
from .rules import CLOSE_CODES, RaminoRules

HAND_KEYS = frozenset({"closer", "close", "penalties", "closer_points", "reentries"})


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass
class MatchState:
    """Where a match stands after the smazzate played so far."""

    players: tuple[str, ...]
    first_dealer: str
    totals: dict[str, int]  # players still in the match, their running totals
    reentries: dict[str, int] = field(default_factory=dict)  # re-entries made, per player
    out: list[list[str]] = field(default_factory=list)  # who left for good, smazzata by smazzata
    final_totals: dict[str, int] = field(default_factory=dict)  # of the players out for good
    reentry_log: list[dict[str, Any]] = field(default_factory=list)
    last_dealer: str | None = None
    played: int = 0
    winner: str | None = None
    instant_win: bool = False
    over: bool = False
    nobody_in: list[str] = field(default_factory=list)  # §7.3: everyone out in the last smazzata

    @classmethod
    def start(cls, players: Sequence[str], first_dealer: str) -> MatchState:
        return cls(tuple(players), first_dealer, {p: 0 for p in players})

    @property
    def active(self) -> list[str]:
        """The players still in the match, in seat order."""
        return [p for p in self.players if p in self.totals]

    @property
    def number(self) -> int:
        """The number of the next smazzata."""
        return self.played + 1

    def next_dealer(self) -> str:
        """The first dealer, then the next seat still in the match (SPEC §1)."""
        if self.last_dealer is None:
            return self.first_dealer
        n = len(self.players)
        start = self.players.index(self.last_dealer)
        for step in range(1, n + 1):
            p = self.players[(start + step) % n]
            if p in self.totals:
                return p
        return self.last_dealer  # nobody in: the match is over anyway

    def reentry_total(self, eliminated: Sequence[str], totals: Mapping[str, int]) -> int | None:
        """The total a player eliminated now re-enters with: the highest still in (SPEC §6)."""
        still_in = [p for p in self.active if p not in eliminated]
        return max(totals[p] for p in still_in) if still_in else None


@dataclass(frozen=True)
class ScoredHand:
    """One smazzata as the output writes it (SPEC §11)."""

    number: int
    dealer: str
    closer: str
    close: str
    instant_win: bool
    points: dict[str, int]
    totals: dict[str, int]
    eliminated: list[str]
    reentered: dict[str, int]
    out: list[str]

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "dealer": self.dealer,
            "closer": self.closer,
            "close": self.close,
            "instant_win": self.instant_win,
            "points": dict(self.points),
            "totals": dict(self.totals),
            "eliminated": list(self.eliminated),
            "reentered": dict(self.reentered),
            "out": list(self.out),
        }


def close_codes(rules: RaminoRules) -> tuple[str, ...]:
    """The closes this rule set knows, in the SPEC's order."""
    known = {*rules.close_values, rules.two_card_close, *rules.instant_wins}
    return tuple(c for c in CLOSE_CODES if c in known)


def hand_points(rules: RaminoRules, state: MatchState, hand: Mapping[str, Any]) -> dict[str, int]:
    """The change of every player still in (the hand must already be checked)."""
    closer, close = hand["closer"], hand["close"]
    if close in rules.instant_wins:
        return {p: 0 for p in state.active}
    penalties = hand.get("penalties") or {}
    points = {p: (0 if p == closer else penalties[p]) for p in state.active}
    if close == rules.two_card_close:
        points[closer] = hand["closer_points"]
    elif rules.close_values_to == "CLOSER":
        points[closer] = -rules.close_value(close)
    else:
        for p in points:
            if p != closer:
                points[p] += rules.close_value(close)
    return points


def check_hand(
    rules: RaminoRules, state: MatchState, hand: Any, number: int | None = None
) -> list[Problem]:
    """Every problem of ``hand`` played as the next smazzata of ``state`` (SPEC §10)."""
    k = state.number if number is None else number
    problems: list[Problem] = []

    def add(
        code: str,
        message: str,
        who: str | None = None,
        fld: str | None = None,
        **params: Any,
    ) -> None:
        """A problem; its message a translatable sentence (the values in ``params``)."""
        problems.append(
            Problem.said(code, message, params or None, smazzata=k, player=who, field=fld)
        )

    if state.over:
        add(
            "HAND_AFTER_END",
            gettext_noop("La partita è già finita: nessuna smazzata dopo la fine."),
        )
        return problems
    if not isinstance(hand, Mapping):
        add("FIELD_TYPE", gettext_noop("La smazzata deve essere un oggetto JSON."))
        return problems
    for key in hand:
        if key not in HAND_KEYS:
            add("FIELD_TYPE", gettext_noop("Campo sconosciuto: «%(key)s»."), fld=str(key), key=key)
    active = state.active
    closer = hand.get("closer")
    closer_ok = False
    if not isinstance(closer, str) or not closer:
        add("CLOSER_INVALID", gettext_noop("Chi chiude: scegliere il giocatore."), fld="closer")
    elif closer not in state.players:
        add(
            "UNKNOWN_PLAYER",
            gettext_noop("Chi chiude: %(player)s non è al tavolo."),
            closer,
            "closer",
            player=closer,
        )
    elif closer not in active:
        add(
            "PLAYER_OUT",
            gettext_noop("Chi chiude: %(player)s è fuori dalla partita e non può chiudere."),
            closer,
            "closer",
            player=closer,
        )
    else:
        closer_ok = True
    close = hand.get("close")
    if close not in close_codes(rules):
        if close is None or close == "":
            problem = Problem.said(
                "CLOSE_UNKNOWN", gettext_noop("Chiusura: scegliere come si è chiuso."), {}
            )
        else:
            problem = Problem.said(
                "CLOSE_UNKNOWN",
                gettext_noop("Chiusura: «%(value)s» non è una chiusura di questo regolamento."),
                {"value": str(close)},
            )
        problems.append(replace(problem, smazzata=k, field="close"))
        return problems
    instant = close in rules.instant_wins
    penalties = hand.get("penalties")
    if instant:
        if penalties:
            add(
                "PENALTIES_ON_INSTANT_WIN",
                gettext_noop(
                    "Punti rimasti in mano: con scala reale o pokerissimo la partita è vinta, "
                    "niente punti agli altri."
                ),
                fld="penalties",
            )
    elif not isinstance(penalties, Mapping):
        add(
            "FIELD_TYPE",
            gettext_noop("Punti rimasti in mano: serve un oggetto giocatore → punti."),
            fld="penalties",
        )
    else:
        for player, value in penalties.items():
            if player not in state.players:
                add(
                    "UNKNOWN_PLAYER",
                    gettext_noop("Punti rimasti in mano: %(player)s non è al tavolo."),
                    player,
                    "penalties",
                    player=player,
                )
            elif player == closer:
                add(
                    "CLOSER_HAS_PENALTY",
                    gettext_noop(
                        "Punti rimasti in mano: %(player)s chiude e non prende punti di passivo."
                    ),
                    player,
                    "penalties",
                    player=player,
                )
            elif player not in active:
                add(
                    "PLAYER_OUT",
                    gettext_noop("Punti rimasti in mano: %(player)s è fuori dalla partita."),
                    player,
                    "penalties",
                    player=player,
                )
            elif not _is_int(value):
                add(
                    "FIELD_TYPE",
                    gettext_noop("Punti rimasti in mano: i punti di %(player)s sono un intero."),
                    player,
                    "penalties",
                    player=player,
                )
            elif not 0 <= value <= rules.max_penalty:
                add(
                    "PENALTY_RANGE",
                    gettext_noop(
                        "Punti rimasti in mano: %(value)s per %(player)s, ma dieci carte valgono "
                        "da 0 a %(max)s."
                    ),
                    player,
                    "penalties",
                    player=player,
                    value=value,
                    max=rules.max_penalty,
                )
        for player in active if closer_ok else ():  # who owes points depends on the closer
            if player != closer and player not in penalties:
                add(
                    "PENALTIES_PLAYERS",
                    gettext_noop("Punti rimasti in mano: scrivere i punti di %(player)s."),
                    player,
                    "penalties",
                    player=player,
                )
    cp = hand.get("closer_points")
    if close == rules.two_card_close:
        low, high = rules.two_card_min, rules.two_card_max
        # the closer's two cards are typed in his own "points left in hand" input
        if cp is None:
            add(
                "TWO_CARD_RANGE",
                gettext_noop(
                    "Punti rimasti in mano: chi chiude con due carte scrive i loro punti "
                    "(da %(low)s a %(high)s)."
                ),
                closer if closer_ok else None,
                "penalties",
                low=low,
                high=high,
            )
        elif not _is_int(cp):
            add(
                "FIELD_TYPE",
                gettext_noop("Punti rimasti in mano: i punti delle due carte sono un intero."),
                closer if closer_ok else None,
                "penalties",
            )
        elif not low <= cp <= high:
            add(
                "TWO_CARD_RANGE",
                gettext_noop(
                    "Punti rimasti in mano: le due carte di chi chiude valgono da %(low)s a "
                    "%(high)s, non %(value)s."
                ),
                closer if closer_ok else None,
                "penalties",
                low=low,
                high=high,
                value=cp,
            )
    elif cp is not None:
        add(
            "CLOSER_POINTS_FIELD",
            gettext_noop(
                "Punti rimasti in mano: chi chiude scrive dei punti solo se chiude con due "
                "carte; lasciare vuoto."
            ),
            closer if closer_ok else None,
            "penalties",
        )
    reentries = hand.get("reentries") or []
    if not isinstance(reentries, list) or not all(isinstance(p, str) for p in reentries):
        add("FIELD_TYPE", gettext_noop("Rientra?: serve una lista di nomi."), fld="reentries")
        return problems
    unknown = [p for p in reentries if p not in state.players]
    for p in unknown:
        add(
            "UNKNOWN_PLAYER",
            gettext_noop("Rientra?: %(player)s non è al tavolo."),
            p,
            "reentries",
            player=p,
        )
    if problems or not reentries:
        return problems
    if instant:
        for p in reentries:
            add(
                "REENTRY_NOT_ELIGIBLE",
                gettext_noop("Rientra?: la partita è vinta, nessun rientro."),
                p,
                "reentries",
            )
        return problems
    points = hand_points(rules, state, hand)
    totals = {p: state.totals[p] + points[p] for p in active}
    eliminated = [p for p in active if totals[p] >= rules.elimination]
    still_in = len(active) - len(eliminated)
    seen: set[str] = set()
    for p in reentries:
        if p in seen or state.reentries.get(p, 0) >= rules.reentries_per_player:
            add(
                "REENTRY_LIMIT",
                gettext_noop("Rientra?: %(player)s è già rientrato una volta ed è fuori."),
                p,
                "reentries",
                player=p,
            )
        elif p not in eliminated:
            add(
                "REENTRY_NOT_ELIGIBLE",
                gettext_noop("Rientra?: %(player)s non è stato eliminato in questa smazzata."),
                p,
                "reentries",
                player=p,
            )
        elif still_in < rules.reentry_min_in:
            add(
                "REENTRY_NOT_ELIGIBLE",
                gettext_noop(
                    "Rientra?: nessun giocatore rimasto in gioco di cui copiare il punteggio."
                ),
                p,
                "reentries",
            )
        seen.add(p)
    return problems


def play_hand(rules: RaminoRules, state: MatchState, hand: Mapping[str, Any]) -> ScoredHand:
    """Apply a checked smazzata to ``state`` and return it scored."""
    number, dealer = state.number, state.next_dealer()
    active = state.active
    closer, close = hand["closer"], hand["close"]
    points = hand_points(rules, state, hand)
    totals = {p: state.totals[p] + points[p] for p in active}
    state.played, state.last_dealer = number, dealer
    if close in rules.instant_wins:
        state.over, state.instant_win, state.winner = True, True, closer
        return ScoredHand(number, dealer, closer, close, True, points, totals, [], {}, [])
    eliminated = [p for p in active if totals[p] >= rules.elimination]
    back = state.reentry_total(eliminated, totals)
    reentering = [p for p in eliminated if p in (hand.get("reentries") or [])]
    reentered = {p: back for p in reentering} if back is not None else {}
    out = [p for p in eliminated if p not in reentered]
    state.totals = {p: totals[p] for p in active if p not in out}
    for p, total in reentered.items():
        state.totals[p] = total
        state.reentries[p] = state.reentries.get(p, 0) + 1
        state.reentry_log.append(
            {"smazzata": number, "player": p, "total": total, "fee": rules.reentry_fee}
        )
    for p in out:
        state.final_totals[p] = totals[p]
    if out:
        state.out.append(out)
    if len(state.totals) == 1:
        state.over, state.winner = True, next(iter(state.totals))
    elif not state.totals:
        state.over, state.nobody_in = True, list(out)
    return ScoredHand(
        number, dealer, closer, close, False, points, totals, eliminated, reentered, out
    )


def _ordered(
    group: Sequence[str],
    key: Mapping[str, int],
    tiebreak: Sequence[str],
    problems: list[Problem],
    ties: list[list[str]],
) -> list[str]:
    """``group`` by ``key``, lowest first; equal keys in the recorded ``tiebreak`` order."""
    ordered = sorted(group, key=lambda p: key[p])
    for value in sorted({key[p] for p in group}):
        tied = [p for p in ordered if key[p] == value]
        if len(tied) > 1:
            ties.append(tied)
        if len(tied) > 1 and not all(p in tiebreak for p in tied):
            problems.append(
                Problem.said(
                    "TIE_UNSETTLED",
                    gettext_noop(
                        "Spareggio: %(players)s sono pari a %(value)s, serve l'ordine estratto."
                    ),
                    {"players": ", ".join(tied), "value": value},
                    field="tiebreak",
                )
            )
    rank = {p: i for i, p in enumerate(tiebreak)}
    return sorted(group, key=lambda p: (key[p], rank.get(p, len(rank))))


def places(
    state: MatchState, tiebreak: Sequence[str], ties: list[list[str]] | None = None
) -> tuple[dict[str, int], list[Problem]]:
    """Strict places of a finished match (SPEC §7); ``ties`` collects every group of players
    whose order needs the recorded ``tiebreak`` (settled or not)."""
    problems: list[Problem] = []
    ties = [] if ties is None else ties
    order: list[str] = []
    groups = [list(g) for g in state.out]
    if state.nobody_in:  # §7.3: the lowest total of the last smazzata wins
        last = _ordered(groups.pop(), state.final_totals, tiebreak, problems, ties)
        state.winner = last[0]
        order.append(last[0])
        groups.append(last[1:])
    else:
        assert state.winner is not None
        order.append(state.winner)
        others = [p for p in state.active if p != state.winner]
        order += _ordered(others, state.totals, tiebreak, problems, ties)
    for group in reversed(groups):
        order += _ordered(group, state.final_totals, tiebreak, problems, ties)
    return {p: i for i, p in enumerate(order, start=1)}, problems


def fees(rules: RaminoRules, state: MatchState) -> dict[str, Decimal]:
    return {p: rules.reentry_fee * state.reentries.get(p, 0) for p in state.players}
