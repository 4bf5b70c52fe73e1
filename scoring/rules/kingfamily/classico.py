"""``king-classico``: the classic Italian King (SPEC-king-family §A)."""

from __future__ import annotations

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
from .rules import CLASSICO_GAMES, KingRules


class Classico:
    code = "king-classico"

    def codes(self, rules: KingRules) -> tuple[str, ...]:
        return CLASSICO_GAMES

    def smazzate_count(self, rules: KingRules, players: int) -> int:
        """Each player, as dealer, chooses each game of the programme once (§A.3)."""
        return players * len(rules["games"])

    def slot(self, rules: KingRules, players: Seats, first_dealer: str, history: History) -> Slot:
        i = len(history)
        dealer = seat_after(players, first_dealer, i)
        n = len(players)
        chosen = {h.game for j, h in enumerate(history) if (i - j) % n == 0}
        left = tuple(g for g in rules["games"] if g not in chosen)
        return Slot(i + 1, dealer, dealer, left, seller=dealer if "DICH" in left else None)

    def offer(self, rules: KingRules, players: int, slot: Slot) -> dict[str, Any]:
        return {
            "tricks": [1, rules.deck(players).tricks] if slot.seller else None,
            "blind": bool(rules["blind_allowed"]) and "DICH" in slot.games,
        }

    def check(
        self, rules: KingRules, players: Sequence[str], slot: Slot, raw: Mapping[str, Any]
    ) -> Checked:
        c = Checker(slot.number)
        game = c.game(raw, CLASSICO_GAMES)
        if game is None:
            return Checked(None, slot.chooser, None, c.problems)
        if game not in rules["games"]:
            c.add(
                "GAME_NOT_IN_RULESET",
                gettext_noop("Contratto: %(game)s non è nel programma della stagione."),
                fld="game",
                game=Said(NAMES[game]),
            )
        elif game not in slot.games:
            c.add(
                "GAME_REPEATED",
                gettext_noop("Contratto: %(player)s ha già scelto %(game)s."),
                slot.dealer,
                "game",
                player=slot.dealer,
                game=Said(NAMES[game]),
            )
        is_dich = game == "DICH"
        c.keys(raw, ("sale", "trump", "blind") if is_dich else (), game)
        counts = c.result(rules, players, game, raw)
        trump, blind, sale = None, False, None
        if is_dich:
            trump = c.trump(raw, required=True)
            blind = raw.get("blind")
            if blind is None:
                blind = False
            elif not isinstance(blind, bool):
                c.add("FIELD_TYPE", gettext_noop("Al buio: deve essere sì o no."), fld="blind")
                blind = False
            elif blind and not rules["blind_allowed"]:
                c.add(
                    "BLIND_NOT_ALLOWED",
                    gettext_noop("Al buio: la dichiarazione al buio non è ammessa."),
                    slot.dealer,
                    "blind",
                )
            if blind and raw.get("sale") is not None:
                c.add(
                    "SALE_NOT_ALLOWED",
                    gettext_noop("Vendita: una dichiarazione al buio non si vende."),
                    fld="sale",
                )
            else:
                _, sale = c.sale(raw, players, slot.dealer, "tricks")
                sale = c.tricks_price(sale, rules.deck(len(players)).tricks)
        chooser = sale.buyer if sale else slot.dealer
        deal = None if c.problems else Deal(game, counts, trump, blind, sale=sale)
        return Checked(game, chooser, deal, c.problems)

    def score(self, rules: KingRules, players: Sequence[str], slot: Slot, deal: Deal) -> Scored:
        counts = deal.result
        assert counts is not None
        dealer, sale, transfer = slot.dealer, deal.sale, 0
        if deal.game == "DOMINO":
            v = rules.points["DOMINO"]
            assert v is not None
            pot = sum(counts.values())
            points = {p: v * pot if c == 0 else -v * c for p, c in counts.items()}
        elif deal.game == "DICH":
            v = rules.points["DICH"]
            assert v is not None
            points = {p: v * c for p, c in counts.items()}
            if deal.blind:
                points[dealer] *= rules["blind_factor"]
            if sale is not None:
                moved = min(sale.price, counts[sale.buyer])
                transfer = v * moved + rules["sale_shortfall"] * (sale.price - moved)
                move(points, sale, dealer, transfer)
        else:
            points = unit_points(rules, deal.game, counts)
        extra = {"trump": deal.trump, "blind": deal.blind} if deal.game == "DICH" else {}
        return Scored(
            slot.number,
            deal.game,
            dealer,
            sale.buyer if sale else dealer,
            sale_out(dealer, sale, "tricks", transfer),
            extra,
            points,
        )
