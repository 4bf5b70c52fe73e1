"""``king-internazionale``: the international King with its aste (SPEC-king-family §B)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..problems import Said, gettext_noop
from .contracts import MODE_NAMES
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

MODES = ("POSITIVE", "NEGATIVE", "UNPLAYED")


def offer_value(rules: KingRules, offer: int) -> int:
    """What an accepted offer moves from the buyer to the banditore (§B.4)."""
    return rules["plus_unit"] * offer if offer > 0 else rules["minus_unit"] * -offer


def offers(rules: KingRules) -> tuple[int, ...]:
    """Every offer a buyer may make, −max_minus..−1 and +1..+max_plus."""
    return (*range(-rules["max_minus"], 0), *range(1, rules["max_plus"] + 1))


class Internazionale:
    code = "king-internazionale"

    def codes(self, rules: KingRules) -> tuple[str, ...]:
        return (*rules.sequence, "ASTA")

    def sequence(self, rules: KingRules, players: int) -> tuple[str, ...]:
        """The six negative deals in their order, then one asta per player (§B.3)."""
        return (*rules.sequence, *["ASTA"] * players)

    def smazzate_count(self, rules: KingRules, players: int) -> int:
        return len(self.sequence(rules, players))

    def slot(self, rules: KingRules, players: Seats, first_dealer: str, history: History) -> Slot:
        i = len(history)
        dealer = seat_after(players, first_dealer, i)
        sequence = self.sequence(rules, len(players))
        game = sequence[i] if i < len(sequence) else "ASTA"
        asta = game == "ASTA"
        return Slot(i + 1, dealer, dealer if asta else None, (game,), dealer if asta else None)

    def offer(self, rules: KingRules, players: int, slot: Slot) -> dict[str, Any]:
        return {
            "modes": list(MODES) if slot.seller else [],
            "offers": list(offers(rules)) if slot.seller else [],
        }

    def check(
        self, rules: KingRules, players: Sequence[str], slot: Slot, raw: Mapping[str, Any]
    ) -> Checked:
        c = Checker(slot.number)
        game = c.game(raw, self.codes(rules))
        if game is None:
            return Checked(None, slot.chooser, None, c.problems)
        if game != slot.games[0]:
            c.out_of_order(slot, game)
        if game != "ASTA":
            c.keys(raw, (), game)
            counts = c.result(rules, players, game, raw)
            return Checked(game, None, None if c.problems else Deal(game, counts), c.problems)
        c.keys(raw, ("mode", "trump", "sale"), game)
        mode = raw.get("mode")
        banditore = slot.dealer
        if mode not in MODES:
            if mode is None or mode == "":
                c.add(
                    "MODE",
                    gettext_noop("Asta: scegliere positiva, negativa o non giocata."),
                    fld="mode",
                )
            else:
                c.add(
                    "MODE",
                    gettext_noop("Asta: «%(value)s» non è un modo dell'asta."),
                    fld="mode",
                    value=str(mode),
                )
            return Checked(game, banditore, None, c.problems)
        if mode == "UNPLAYED":
            extra = [k for k in ("result", "trump", "sale") if raw.get(k) is not None]
            if extra:
                c.add(
                    "UNPLAYED_DATA",
                    gettext_noop(
                        "Asta: un'asta non giocata non registra conteggi, briscola né vendita "
                        "(c'è: %(fields)s)."
                    ),
                    fld="mode",
                    fields=", ".join(extra),
                )
            deal = None if c.problems else Deal(game, None, mode=mode)
            return Checked(game, banditore, deal, c.problems)
        counts = c.result(rules, players, game, raw)
        trump = c.trump(raw, required=mode == "POSITIVE")
        _, sale = c.sale(raw, players, banditore, "offer")
        if sale is not None:
            if sale.price not in offers(rules):
                c.add(
                    "SALE_PRICE",
                    gettext_noop(
                        "Offerta accettata: %(value)s non va bene (da +1 a +%(plus)s, o da −1 a "
                        "−%(minus)s)."
                    ),
                    fld="sale",
                    value=f"{sale.price:+d}",
                    plus=rules["max_plus"],
                    minus=rules["max_minus"],
                )
            elif (sale.price > 0) != (mode == "POSITIVE"):
                c.add(
                    "MODE",
                    gettext_noop("Asta: l'offerta %(offer)s contraddice il modo %(mode)s."),
                    fld="mode",
                    offer=f"{sale.price:+d}",
                    mode=Said(MODE_NAMES.get(mode, mode)),
                )
        chooser = sale.buyer if sale else banditore
        deal = None if c.problems else Deal(game, counts, trump, mode=mode, sale=sale)
        return Checked(game, chooser, deal, c.problems)

    def score(self, rules: KingRules, players: Sequence[str], slot: Slot, deal: Deal) -> Scored:
        banditore = slot.dealer
        if deal.game != "ASTA":
            assert deal.result is not None
            points = unit_points(rules, deal.game, deal.result)
            return Scored(slot.number, deal.game, banditore, None, None, {}, points)
        trick = rules.points["ASTA"]
        assert trick is not None
        transfer = 0
        if deal.mode == "UNPLAYED":
            u = rules["unplayed_tricks"]
            points = {p: trick * (u["seller"] if p == banditore else u["others"]) for p in players}
        else:
            assert deal.result is not None
            if deal.mode == "POSITIVE":
                points = {p: trick * t for p, t in deal.result.items()}
            else:
                base, per = rules["negative_base"], rules["negative_per_trick"]
                points = {p: base + per * t for p, t in deal.result.items()}
            if deal.sale is not None:
                transfer = offer_value(rules, deal.sale.price)
                move(points, deal.sale, banditore, transfer)
        return Scored(
            slot.number,
            deal.game,
            banditore,
            deal.sale.buyer if deal.sale else banditore,
            sale_out(banditore, deal.sale, "offer", transfer),
            {"mode": deal.mode, "trump": deal.trump if deal.mode == "POSITIVE" else None},
            points,
        )
