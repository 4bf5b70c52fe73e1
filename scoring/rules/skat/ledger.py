"""What the generic ledger asks of Skat (:class:`..systems.LedgerSystem`): the list's entry row,
the running list, the Spielliste's lines and columns."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from ..problems import Problem, RuleViolation
from ..systems import posted_int
from . import lista
from .rules import GAMES, SkatRules

GAME_LABELS = {
    "DIAMONDS": "♦ quadri",
    "HEARTS": "♥ cuori",
    "SPADES": "♠ picche",
    "CLUBS": "♣ fiori",
    "GRAND": "Grand",
    "NULL": "Null",
}
FLAGS = (
    ("hand", "Mano (senza skat)"),
    ("ouvert", "Ouvert"),
    ("schneider_announced", "Schneider annunciato"),
    ("schwarz_announced", "Schwarz annunciato"),
)
NUMBERS = (
    ("bid", "Dichiarazione (licitazione)", 18, 264),
    ("matadors", "Matadori (con/senza)", 1, 11),
    ("declarer_points", "Punti carta del dichiarante (l'avversario ha 120 − x)", 0, 120),
    ("declarer_tricks", "Prese del dichiarante", 0, 10),
)


class SkatLedger:
    """The generic ledger's side of Skat (mixed into its system class)."""

    generic_ledger = True
    takes_penalties = True

    def score_running(self, rules: SkatRules, turno: Mapping[str, Any]) -> dict[str, Any]:
        """The list so far, unranked: the places are fixed at the close (with the draw)."""
        dated = {**turno, "date": turno.get("date") or dt.date.today().isoformat()}
        return lista.score_list(rules, dated, require_complete=False, ranked=False)

    def entry_fields(
        self, rules: SkatRules, turno: Mapping[str, Any], draft: Mapping[str, Any] | None = None
    ) -> list[dict[str, Any]]:
        step = lista.next_step(rules, turno)
        if step["complete"]:
            return []
        fields: list[dict[str, Any]] = [
            {"name": "passed", "kind": "bool", "label": "Eingepasst: tutti hanno passato"},
            {
                "name": "declarer",
                "kind": "choice",
                "label": "Dichiarante",
                "choices": [[p, p] for p in step["active"]],
            },
            {
                "name": "game",
                "kind": "choice",
                "label": "Gioco",
                "choices": [[g, GAME_LABELS[g]] for g in GAMES],
            },
            {
                "name": "with",
                "kind": "choice",
                "label": "Matadori",
                "help": "con il J♣ (con) o senza",
                "choices": [["1", "con"], ["0", "senza"]],
            },
        ]
        fields += [
            {"name": name, "kind": "int", "label": label, "min": low, "max": high}
            for name, label, low, high in NUMBERS
        ]
        fields += [{"name": name, "kind": "bool", "label": label} for name, label in FLAGS]
        return fields

    def parse_entry(
        self, rules: SkatRules, turno: Mapping[str, Any], data: Mapping[str, Any]
    ) -> dict[str, Any]:
        if data.get("passed"):
            return {"passed": True}
        problems: list[Problem] = []
        game = str(data.get("game") or "").strip() or None
        record: dict[str, Any] = {
            "declarer": str(data.get("declarer") or "").strip() or None,
            "game": game,
        }
        for name, label, _low, _high in NUMBERS:
            if name in ("matadors", "declarer_points") and game == "NULL":
                continue
            value = posted_int(data.get(name), label, problems)
            if value is not None:
                record[name] = value
        if game != "NULL" and str(data.get("with") or "") in ("0", "1"):
            record["with"] = data["with"] == "1"
        for name, _label in FLAGS:
            if data.get(name):
                record[name] = True
        if problems:
            raise RuleViolation(problems)
        return record

    def entry_data(
        self, rules: SkatRules, turno: Mapping[str, Any], smazzata: Mapping[str, Any]
    ) -> dict[str, Any]:
        if smazzata.get("passed"):
            return {"passed": "1"}
        data: dict[str, Any] = {
            k: str(smazzata[k]) for k in ("declarer", "game") if smazzata.get(k) is not None
        }
        for name, *_ in NUMBERS:
            if smazzata.get(name) is not None:
                data[name] = str(smazzata[name])
        if smazzata.get("with") is not None:
            data["with"] = "1" if smazzata["with"] else "0"
        for name, _label in FLAGS:
            if smazzata.get(name):
                data[name] = "1"
        return data

    def questions(
        self, rules: SkatRules, turno: Mapping[str, Any], record: Mapping[str, Any]
    ) -> list[dict[str, Any]]:
        return []

    def ties(self, rules: SkatRules, turno: Mapping[str, Any]) -> list[list[str]]:
        """Players equal on list points, games won and games lost: the draw decides (§8)."""
        scored = self.running_list(rules, turno)
        key = {
            p: (scored["totals"][p], scored["won"][p], scored["lost"][p]) for p in turno["players"]
        }
        groups: dict[tuple, list[str]] = {}
        for p in turno["players"]:
            groups.setdefault(key[p], []).append(p)
        return [g for g in groups.values() if len(g) > 1]

    def seat_results(self, scored: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
        return {
            p: {
                "total": scored["totals"][p],
                "place": scored["places"][p],
                "score": scored["totals"][p],
                "extra": {
                    "game_points": scored["game_points"][p],
                    "won": scored["won"][p],
                    "lost": scored["lost"][p],
                    "opponents_lost": scored["opponents_lost"][p],
                    "penalties": scored["penalties"][p],
                },
            }
            for p in scored["totals"]
        }

    def player_notes(self, rules: SkatRules, turno: Mapping[str, Any]) -> dict[str, str]:
        step = lista.next_step(rules, turno)
        if step["complete"]:
            return {}
        notes = {p: "" for p in turno["players"]}
        if step.get("sitting_out"):
            notes[step["sitting_out"]] = "dà le carte e sta fuori"
        return {p: n for p, n in notes.items() if n}

    def smazzata_keys(self, scored: Mapping[str, Any]) -> dict[str, Any]:
        return {"game": scored.get("game") or "PASSATO", "caller": scored.get("declarer")}

    def describe(self, smazzata: Mapping[str, Any]) -> str:
        if smazzata.get("passed"):
            return "eingepasst: nessuno gioca"
        game = GAME_LABELS.get(smazzata["game"], smazzata["game"])
        outcome = "vinto" if smazzata.get("won") else "perso"
        line = f"{smazzata['declarer']}: {game}, valore {smazzata['value']}, {outcome}"
        if smazzata.get("overbid"):
            line += " (superato la dichiarazione)"
        return f"{line} {smazzata['score']:+d}"

    def turno_columns(self) -> list[tuple[str, str]]:
        return [
            ("game_points", "Punti gioco"),
            ("won", "Vinte"),
            ("lost", "Perse"),
            ("opponents_lost", "Perse dagli avversari"),
            ("penalties", "Penalità"),
        ]

    def standing_columns(self) -> list[tuple[str, str]]:
        return [
            ("list_points", "Punti lista"),
            ("turni", "Liste"),
            ("won", "Vinte"),
            ("lost", "Perse"),
        ]
