"""``le-king``: the French King (SPEC-king-family §C)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from ..problems import Said, gettext_noop
from .contracts import NAMES
from .records import (
    Checked,
    Checker,
    Deal,
    History,
    Scored,
    Seats,
    Slot,
    move,
    sale_out,
    seat_after,
    unit_points,
)
from .rules import KingRules

RECUP = "RECUP"
# The negatives that alternate with the Récupérations in ALTERNATE order (§C.3).
ALTERNATING = 4


def negatives(rules: KingRules) -> tuple[str, ...]:
    """The negative phases in their order (NF, NH, NJK, NQ, NKH, NU2; no NU2 without it)."""
    return tuple(g for g in rules.sequence if g != "NU2" or rules["with_nu2"])


def sequence(rules: KingRules, players: int) -> tuple[str, ...]:
    """The phases in the order the rule set imposes (FREE: the multiset, in table order)."""
    negs = negatives(rules)
    if rules["order"] == "ALTERNATE":
        k = min(players, ALTERNATING)
        paired = [g for neg in negs[:k] for g in (neg, RECUP)]
        return (*paired, *[RECUP] * (players - k), *negs[k:])
    return (*negs, *[RECUP] * players)


def dealer_seat(rules: KingRules, players: int, i: int) -> int:
    """Seats after the first dealer of deal ``i`` (0-based): ALTERNATE deals two consecutive
    deals per player, then the deal passes every deal; the other orders pass it every deal."""
    if rules["order"] == "ALTERNATE" and i < 2 * players:
        return i // 2
    if rules["order"] == "ALTERNATE":
        return i - players
    return i


class LeKing:
    code = "le-king"

    def codes(self, rules: KingRules) -> tuple[str, ...]:
        return (*negatives(rules), RECUP)

    def smazzate_count(self, rules: KingRules, players: int) -> int:
        return len(sequence(rules, players))

    def slot(self, rules: KingRules, players: Seats, first_dealer: str, history: History) -> Slot:
        i, n = len(history), len(players)
        dealer = seat_after(players, first_dealer, dealer_seat(rules, n, i))
        main = seat_after(players, dealer)
        phases = sequence(rules, n)
        if rules["order"] != "FREE":
            game = phases[i] if i < len(phases) else RECUP
            recup = game == RECUP
            return Slot(i + 1, dealer, main if recup else None, (game,), main if recup else None)
        left = Counter(phases) - Counter(h.game for h in history)
        taken = {h.chooser for h in history if h.game == RECUP}
        return Slot(
            i + 1,
            dealer,
            main,
            tuple(g for g in self.codes(rules) if left[g] > 0),
            main,
            tuple(p for p in players if p not in taken),
        )

    def offer(self, rules: KingRules, players: int, slot: Slot) -> dict[str, Any]:
        extra: dict[str, Any] = {"tricks": [1, rules.deck(players).tricks] if slot.seller else None}
        if rules["order"] == "FREE":
            extra["recup_takers"] = list(slot.recup_takers)
        return extra

    def check(
        self, rules: KingRules, players: Sequence[str], slot: Slot, raw: Mapping[str, Any]
    ) -> Checked:
        c = Checker(slot.number)
        game = c.game(raw, self.codes(rules))
        if game is None:
            return Checked(None, slot.chooser, None, c.problems)
        free = rules["order"] == "FREE"
        if not free and game != slot.games[0]:
            c.out_of_order(slot, game)
        if free and game not in slot.games:
            c.add(
                "GAME_REPEATED",
                gettext_noop("Contratto: %(game)s è già stato giocato tutte le volte previste."),
                fld="game",
                game=Said(NAMES[game]),
            )
        allowed = ("sale",) + (("trump",) if game == RECUP else ()) + (("last",) * (game == "NU2"))
        c.keys(raw, allowed, game)
        counts = c.result(rules, players, game, raw)
        trump = c.trump(raw, required=True) if game == RECUP else None
        main, sale = slot.chooser or seat_after(players, slot.dealer), None
        if not free and game != RECUP and raw.get("sale") is not None:
            c.add(
                "SALE_NOT_ALLOWED",
                gettext_noop("Vendita: in %(game)s non c'è niente da vendere."),
                fld="sale",
                game=Said(NAMES[game]),
            )
        else:
            _, sale = c.sale(raw, players, main, "tricks")
            sale = c.tricks_price(sale, rules.deck(len(players)).tricks)
        chooser = sale.buyer if sale else main
        if free and game == RECUP and chooser not in slot.recup_takers:
            c.add(
                "RECUP_TWICE",
                gettext_noop("Contratto: %(player)s ha già scelto una Récupération."),
                chooser,
                "game",
                player=chooser,
            )
        last = self._last(c, rules, players, game, raw, counts)
        deal = None if c.problems else Deal(game, counts, trump, sale=sale, last=last)
        return Checked(game, chooser if (free or game == RECUP) else None, deal, c.problems)

    def _last(
        self,
        c: Checker,
        rules: KingRules,
        players: Sequence[str],
        game: str,
        raw: Mapping[str, Any],
        counts: Mapping[str, int] | None,
    ) -> str | None:
        if game != "NU2":
            return None
        last = raw.get("last")
        if last is not None and not isinstance(last, str):
            c.add(
                "FIELD_TYPE",
                gettext_noop("Deux der: serve il nome di un giocatore."),
                fld="last",
            )
            return None
        second, final = rules["nu2_points"]
        if last is None and second != final:
            c.add(
                "NU2_LAST",
                gettext_noop("Deux der: scegliere chi ha fatto l'ultima presa."),
                fld="last",
            )
        elif last is not None and counts is not None and counts.get(last, 0) == 0:
            c.add(
                "NU2_LAST",
                gettext_noop("Deux der: %(player)s non ha fatto nessuna delle ultime due prese."),
                last,
                "last",
                player=last,
            )
        return last

    def score(self, rules: KingRules, players: Sequence[str], slot: Slot, deal: Deal) -> Scored:
        counts = deal.result
        assert counts is not None
        main = seat_after(players, slot.dealer)
        if deal.game == "NU2":
            second, final = rules["nu2_points"]
            points = {
                p: second + final if c == 2 else (final if p == deal.last else second) * c
                for p, c in counts.items()
            }
        else:
            points = unit_points(rules, deal.game, counts)
        transfer = deal.sale.price if deal.sale else 0
        move(points, deal.sale, main, transfer)
        chooses = rules["order"] == "FREE" or deal.game == RECUP
        extra: dict[str, Any] = {}
        if deal.game == RECUP:
            extra["trump"] = deal.trump
        if deal.game == "NU2":
            extra["last"] = deal.last
        return Scored(
            slot.number,
            deal.game,
            slot.dealer,
            (deal.sale.buyer if deal.sale else main) if chooses else None,
            sale_out(main, deal.sale, "tricks", transfer),
            extra,
            points,
        )
