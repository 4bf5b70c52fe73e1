"""What the generic ledger asks of a King family rule set (:class:`..systems.LedgerSystem`):
the entry form of the next smazzata, the running score, the Verbale's lines and columns."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..problems import Problem, RuleViolation, Said, gettext_noop, said, said_joined
from ..systems import BaseSystem, posted_int
from . import turno as engine
from .contracts import CONTRACTS, MODE_NAMES, NAMES
from .rules import KingRules

TRUMP_LABELS = {
    "S": gettext_noop("♠ picche"),
    "H": gettext_noop("♥ cuori"),
    "D": gettext_noop("♦ quadri"),
    "C": gettext_noop("♣ fiori"),
    "NT": gettext_noop("senza briscola"),
}
MODE_LABELS = MODE_NAMES


class KingLedger(BaseSystem):
    """The generic ledger's side of a King family game system (mixed into its class)."""

    takes_penalties = True  # §0.5: penalità count in the turno total, not in the balance

    def score_running(self, rules: KingRules, turno: Mapping[str, Any]) -> dict[str, Any]:
        scored = engine.score_turno(rules, turno, require_complete=False)
        return {**scored, "totals": scored["totals"]}

    def entry_fields(
        self, rules: KingRules, turno: Mapping[str, Any], draft: Mapping[str, Any] | None = None
    ) -> list[dict[str, Any]]:
        step = engine.next_step(rules, turno)
        if step["complete"]:
            return []
        players = list(turno["players"])
        games = step["games"]
        fields: list[dict[str, Any]] = [
            {
                "name": "game",
                "kind": "choice",
                "label": gettext_noop("Contratto")
                if len(games) > 1
                else gettext_noop("Contratto (obbligato)"),
                "choices": [[g, NAMES.get(g, g)] for g in games],
                "required": True,
            }
        ]
        if step.get("modes"):
            fields.append(
                {
                    "name": "mode",
                    "kind": "choice",
                    "label": gettext_noop("Asta"),
                    "choices": [[m, MODE_LABELS.get(m, m)] for m in step["modes"]],
                    "required": True,
                }
            )
        # an asta that may be negative or unplayed has no trump: the form offers "none" (the
        # choice it starts with), so that a trump clicked before the mode can be taken back
        no_trump = (
            [["", gettext_noop("nessuna: asta negativa o non giocata")]]
            if any(m != "POSITIVE" for m in step.get("modes") or ())
            else []
        )
        if any(g in ("DICH", "RECUP", "ASTA") for g in games):
            fields.append(
                {
                    "name": "trump",
                    "kind": "choice",
                    "label": gettext_noop("Briscola"),
                    "help": gettext_noop("per la dichiarazione, la Récupération o l'asta positiva"),
                    "choices": no_trump + [[t, TRUMP_LABELS.get(t, t)] for t in step["trumps"]],
                }
            )
        if step.get("blind"):
            fields.append({"name": "blind", "kind": "bool", "label": gettext_noop("Al buio")})
        if step.get("seller"):
            price = (
                {
                    "label": gettext_noop("Offerta accettata"),
                    "min": min(step["offers"]),
                    "max": max(step["offers"]),
                }
                if step.get("offers")
                else {
                    "label": gettext_noop("Prese promesse"),
                    "min": 1,
                    "max": (step.get("tricks") or [1, 13])[1],
                }
            )
            fields.append(
                {
                    "name": "buyer",
                    "kind": "choice",
                    "label": said(
                        gettext_noop("Vendita: chi compra da %(seller)s"), seller=step["seller"]
                    ),
                    "help": gettext_noop("lasciare vuoto se non c'è vendita"),
                    "choices": [[b, b] for b in step["buyers"]],
                }
            )
            fields.append({"name": "price", "kind": "int", **price})
        fields.append(
            {
                "name": "result",
                "kind": "per_player",
                "label": gettext_noop("Conteggio (prese, carte, cuori… secondo il contratto)"),
                "help": gettext_noop("non per l'asta non giocata"),
                "players": players,
                "min": 0,
                "max": rules.deck(len(players)).tricks,
                "check": self.count_check(rules, step, len(players)),
            }
        )
        if "NU2" in games and rules.code == "le-king":
            fields.append(
                {
                    "name": "last",
                    "kind": "choice",
                    "label": gettext_noop("Deux der: chi prende l'ultima presa"),
                    "choices": [[p, p] for p in players],
                }
            )
        return fields

    @staticmethod
    def count_check(rules: KingRules, step: Mapping[str, Any], seats: int) -> dict[str, Any]:
        """The running check of the counts, as data (the live screen hard-codes no number): the
        check of each contract the step offers, chosen by the "game" field (§0.2), and none
        while an asta not played (no counts) is chosen."""
        deck = rules.deck(seats)
        check: dict[str, Any] = {
            "by": "game",
            "checks": {g: CONTRACTS[g].check(deck) for g in step["games"]},
        }
        if "UNPLAYED" in (step.get("modes") or ()):
            check["skip"] = {"mode": ["UNPLAYED"]}
        return check

    def parse_entry(
        self, rules: KingRules, turno: Mapping[str, Any], data: Mapping[str, Any]
    ) -> dict[str, Any]:
        problems: list[Problem] = []
        players = list(turno["players"])
        step = engine.next_step(rules, turno)
        game = str(data.get("game") or "").strip() or None
        record: dict[str, Any] = {"game": game}
        mode = str(data.get("mode") or "").strip() or None
        if mode:
            record["mode"] = mode
        trump = str(data.get("trump") or "").strip() or None
        if trump and (game in ("DICH", "RECUP") or (game == "ASTA" and mode == "POSITIVE")):
            record["trump"] = trump
        elif trump and game == "ASTA" and mode in ("NEGATIVE", "UNPLAYED"):
            # a trump chosen for an asta without one is a mistake to point out, not to drop
            problems.append(
                Problem.said(
                    "TRUMP",
                    gettext_noop(
                        "Briscola: l'asta negativa o non giocata si gioca senza briscola: "
                        "scegliere «nessuna»."
                    ),
                    {},
                    field="trump",
                )
            )
        if data.get("blind") and game == "DICH":
            record["blind"] = True
        buyer = str(data.get("buyer") or "").strip() or None
        if buyer:
            price = posted_int(data.get("price"), gettext_noop("Prezzo della vendita"), problems)
            key = "offer" if step.get("offers") else "tricks"
            record["sale"] = {"buyer": buyer, key: price}
        if mode != "UNPLAYED":
            result = {}
            for i, p in enumerate(players):
                what = said(gettext_noop("Conteggio di %(player)s"), player=p)
                value = posted_int(data.get(f"result-{i}"), what, problems, p)
                if value is not None:
                    result[p] = value
            record["result"] = result
        last = str(data.get("last") or "").strip() or None
        if last and game == "NU2":
            record["last"] = last
        if problems:
            raise RuleViolation(problems)
        return record

    def entry_data(
        self, rules: KingRules, turno: Mapping[str, Any], smazzata: Mapping[str, Any]
    ) -> dict[str, Any]:
        data: dict[str, Any] = {
            k: smazzata[k] for k in ("game", "mode", "trump", "last") if smazzata.get(k)
        }
        if smazzata.get("blind"):
            data["blind"] = "1"
        sale = smazzata.get("sale")
        if sale:
            data["buyer"] = sale["buyer"]
            data["price"] = str(sale.get("tricks", sale.get("offer")))
        for i, p in enumerate(turno["players"]):
            if p in (smazzata.get("result") or {}):
                data[f"result-{i}"] = str(smazzata["result"][p])
        return data

    def questions(
        self, rules: KingRules, turno: Mapping[str, Any], record: Mapping[str, Any]
    ) -> list[dict[str, Any]]:
        return []

    def ties(self, rules: KingRules, turno: Mapping[str, Any]) -> list[list[str]]:
        return []  # equal totals share the place (§0.5)

    def seat_results(self, scored: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
        return {
            p: {
                "total": scored["totals"][p],
                "place": scored["places"][p],
                "score": scored["matchpoints"][p],
                "extra": {
                    "penalties": scored["penalties"][p],
                    "matchpoints": scored["matchpoints"][p],
                },
            }
            for p in scored["totals"]
        }

    def player_notes(self, rules: KingRules, turno: Mapping[str, Any]) -> dict[str, str]:
        step = engine.next_step(rules, turno)
        notes = {}
        if step.get("chooser"):
            notes[step["chooser"]] = said(gettext_noop("sceglie"))
        if step.get("seller"):
            notes[step["seller"]] = said(gettext_noop("può vendere"))
        return notes

    def smazzata_keys(self, scored: Mapping[str, Any]) -> dict[str, Any]:
        return {"game": scored["game"], "caller": scored.get("chooser")}

    def describe(self, smazzata: Mapping[str, Any]) -> str:
        parts: list[Any] = [Said(NAMES.get(smazzata["game"], smazzata["game"]))]
        if smazzata.get("mode"):
            parts.append(Said(MODE_LABELS.get(smazzata["mode"], smazzata["mode"])))
        if smazzata.get("trump") == "NT":
            parts.append(Said(TRUMP_LABELS["NT"]))
        elif smazzata.get("trump"):
            trump = Said(TRUMP_LABELS.get(smazzata["trump"], smazzata["trump"]))
            parts.append(said(gettext_noop("briscola %(trump)s"), trump=trump))
        if smazzata.get("blind"):
            parts.append(said(gettext_noop("al buio")))
        if smazzata.get("chooser"):
            parts.append(said(gettext_noop("sceglie %(player)s"), player=smazzata["chooser"]))
        sale = smazzata.get("sale")
        if sale:
            parts.append(
                said(
                    gettext_noop(
                        "venduta da %(seller)s a %(buyer)s per %(price)s "
                        "(%(transfer)s al venditore)"
                    ),
                    seller=sale["seller"],
                    buyer=sale["buyer"],
                    price=sale.get("tricks", sale.get("offer")),
                    transfer=f"{sale['transfer']:+d}",
                )
            )
        if smazzata.get("last"):
            parts.append(said(gettext_noop("ultima presa %(player)s"), player=smazzata["last"]))
        return said_joined(", ", parts)

    def turno_columns(self) -> list[tuple[str, str]]:
        return [
            ("penalties", gettext_noop("Penalità")),
            ("matchpoints", gettext_noop("Matchpoints")),
        ]

    def standing_columns(self) -> list[tuple[str, str]]:
        return [
            ("matchpoints", gettext_noop("Matchpoints")),
            ("points", gettext_noop("Punti")),
            ("turni", gettext_noop("Turni")),
            ("wins", gettext_noop("Vittorie")),
        ]
