"""What the generic ledger asks of Skat (:class:`..systems.LedgerSystem`): the list's entry row,
the game value as the segretario types it (:meth:`SkatLedger.preview`), the running list, the
Spielliste's lines and columns (:meth:`SkatLedger.sheet`)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from ..problems import Problem, RuleViolation, Said, gettext_noop, said, said_joined
from ..systems import BaseSystem, posted_int
from . import lista
from .game import FIELD_LABELS
from .rules import GAMES, NULL, SkatRules, default_rules_dict

GAME_LABELS = {
    "DIAMONDS": gettext_noop("♦ quadri"),
    "HEARTS": gettext_noop("♥ cuori"),
    "SPADES": gettext_noop("♠ picche"),
    "CLUBS": gettext_noop("♣ fiori"),
    "GRAND": "Grand",
    "NULL": "Null",
}
FLAGS = tuple(
    (name, FIELD_LABELS[name])
    for name in ("hand", "ouvert", "schneider_announced", "schwarz_announced")
)
NUMBERS = (
    ("bid", FIELD_LABELS["bid"], 18, 264),
    ("matadors", FIELD_LABELS["matadors"], 1, 11),
    ("declarer_points", FIELD_LABELS["declarer_points"], 0, 120),
    ("declarer_tricks", FIELD_LABELS["declarer_tricks"], 0, 10),
)

# The options of the rule set a club chooses for a new season (docs/games/skat.md), the
# default (SPEC-skat's reading) first.
RULE_OPTIONS = (
    (
        "missed_announcement",
        gettext_noop("Skat: gioco perso con schneider o schwarz annunciato e non raggiunto"),
        (
            ("double", gettext_noop("conta doppio, come ogni gioco perso (ISkO)")),
            ("single", gettext_noop("conta una volta sola")),
        ),
    ),
    (
        "null_below_bid",
        gettext_noop("Skat: Null annunciato sotto la dichiarazione"),
        (
            (
                "invalid",
                gettext_noop(
                    "non si registra: il solista deve annunciare un gioco che la raggiunga"
                ),
            ),
            ("overbid", gettext_noop("si registra come dichiarazione superata: perso (JSkat)")),
        ),
    ),
)


class SkatLedger(BaseSystem):
    """The generic ledger's side of Skat (mixed into its system class)."""

    takes_penalties = True
    has_preview = True  # the game value as the segretario types it
    has_sheet = True  # the Spielliste on the Verbale
    game_names = {**GAME_LABELS, "PASSATO": gettext_noop("Passato")}

    def rule_options(self) -> list[dict[str, Any]]:
        defaults = default_rules_dict()
        return [
            {
                "key": key,
                "label": label,
                "choices": [[value, text] for value, text in choices],
                "default": defaults[key],
            }
            for key, label, choices in RULE_OPTIONS
        ]

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
            {"name": "passed", "kind": "bool", "label": FIELD_LABELS["passed"]},
            {
                "name": "declarer",
                "kind": "choice",
                "label": FIELD_LABELS["declarer"],
                "choices": [[p, p] for p in step["active"]],
            },
            {
                "name": "game",
                "kind": "choice",
                "label": FIELD_LABELS["game"],
                "choices": [[g, GAME_LABELS[g]] for g in GAMES],
            },
            {
                "name": "with",
                "kind": "choice",
                "label": FIELD_LABELS["with"],
                "help": gettext_noop("con il J♣ (con) o senza"),
                "choices": [["1", gettext_noop("con")], ["0", gettext_noop("senza")]],
            },
        ]
        fields += [
            {"name": name, "kind": "int", "label": label, "min": low, "max": high}
            for name, label, low, high in NUMBERS
        ]
        for f in fields:
            if f["name"] == "declarer_points":
                f["echo"] = True  # the opponents' 120 − x, shown by :meth:`preview`
                f["help"] = gettext_noop("gli avversari hanno 120 − x")
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
        if step.get("sitting_out"):
            return {step["sitting_out"]: said(gettext_noop("dà le carte e sta fuori"))}
        return {}

    def smazzata_keys(self, scored: Mapping[str, Any]) -> dict[str, Any]:
        return {"game": scored.get("game") or "PASSATO", "caller": scored.get("declarer")}

    def describe(self, smazzata: Mapping[str, Any]) -> str:
        if smazzata.get("passed"):
            return said(gettext_noop("passato: nessuno gioca"))
        if smazzata.get("overbid"):
            template = gettext_noop(
                "%(declarer)s: %(game)s, valore %(value)s, perso (superato la dichiarazione) "
                "%(score)s"
            )
        elif smazzata.get("won"):
            template = gettext_noop("%(declarer)s: %(game)s, valore %(value)s, vinto %(score)s")
        else:
            template = gettext_noop("%(declarer)s: %(game)s, valore %(value)s, perso %(score)s")
        return said(
            template,
            declarer=smazzata["declarer"],
            game=Said(GAME_LABELS.get(smazzata["game"], smazzata["game"])),
            value=smazzata["value"],
            score=f"{smazzata['score']:+d}",
        )

    def turno_columns(self) -> list[tuple[str, str]]:
        return [
            ("game_points", gettext_noop("Punti gioco")),
            ("won", gettext_noop("Vinte")),
            ("lost", gettext_noop("Perse")),
            ("opponents_lost", gettext_noop("Perse dagli avversari")),
            ("penalties", gettext_noop("Penalità")),
        ]

    def standing_columns(self) -> list[tuple[str, str]]:
        return [
            ("list_points", gettext_noop("Punti lista")),
            ("turni", gettext_noop("Liste")),
            ("won", gettext_noop("Vinte")),
            ("lost", gettext_noop("Perse")),
        ]

    # -- the game value as the segretario types it (the live screen's preview) -----------------
    def preview(
        self, rules: SkatRules, turno: Mapping[str, Any], data: Mapping[str, Any]
    ) -> dict[str, Any]:
        """The next game of ``turno`` as the form ``data`` stands, never stored: ``{"record":
        the parsed game or None, "facts": [(label, text)], "points": {player: list points} or
        None, "problems": [Problem], "echo": {field: text}}``. ``echo`` holds what is shown next
        to a field while it is typed (the opponents' 120 − x next to the declarer's card
        points), even while the rest of the game is incomplete."""
        out: dict[str, Any] = {
            "record": None,
            "facts": [],
            "points": None,
            "problems": [],
            "echo": self._echo(rules, data),
        }
        try:
            record = self.parse_entry(rules, turno, data)
        except RuleViolation as exc:
            out["problems"] = list(exc.problems)
            return out
        row, problems = lista.preview(rules, turno, record)
        if row is None:
            out["problems"] = problems
            return out
        out.update(record=record, facts=_facts(rules, row), points=row["points"])
        return out

    def _echo(self, rules: SkatRules, data: Mapping[str, Any]) -> dict[str, str]:
        if data.get("passed") or str(data.get("game") or "") == NULL:
            return {}
        text = str(data.get("declarer_points") or "").strip()
        if not (text.isascii() and text.isdigit() and len(text) <= 3):
            return {}
        points = int(text)
        if points > rules.total_points:
            return {}
        return {
            "declarer_points": said(
                gettext_noop("avversari %(points)s"), points=rules.total_points - points
            )
        }

    # -- the Spielliste on paper ---------------------------------------------------------------
    def sheet(self, rules: SkatRules, turno: Mapping[str, Any]) -> dict[str, Any]:
        """The list as Skat players keep it on paper (DSkV Spielliste): per game the number, the
        dealer, the declarer, the game, the card points (declarer : opponents, 120 − x), the
        value, won or lost and the game score; per player the running total of game scores
        ("Spielpunkte", only the declarer's changes) and the running count of games won (G) and
        lost (V); under it the Seeger-Fabian evaluation ending with the list points.

        ``summary`` rows carry a ``kind`` a spreadsheet can turn into formulas: ``carry`` (the
        last running line), ``won``/``lost``/``count`` (a count times ``factor``), ``value``,
        ``sum`` (of the rows above)."""
        scored = self.score_running(rules, turno)
        players = list(turno["players"])
        records = list(turno.get("smazzate") or [])
        running = dict.fromkeys(players, 0)
        won = dict.fromkeys(players, 0)
        lost = dict.fromkeys(players, 0)
        rows = []
        for row, record in zip(scored["smazzate"], records, strict=True):
            d = row["declarer"]
            if d is not None:
                running[d] += row["score"]
                (won if row["won"] else lost)[d] += 1
            rows.append(
                {
                    "number": row["number"],
                    "dealer": row["dealer"],
                    "sitting_out": row["sitting_out"],
                    "declarer": d,
                    "passed": row["passed"],
                    "won": row["won"],
                    "score": None if row["passed"] else row["score"],
                    "facts": _sheet_facts(rules, row, record),
                    "cells": [
                        {
                            "player": p,
                            "running": running[p],
                            "won": won[p],
                            "lost": lost[p],
                            "changed": p == d,
                            "out": p == row["sitting_out"],
                        }
                        for p in players
                    ],
                }
            )
        n = len(players)
        bonus = rules.opponents_bonus[n]
        game_points, penalties = scored["game_points"], scored["penalties"]

        def times(counts: Mapping[str, int], factor: int) -> dict[str, int]:
            return {p: counts[p] * factor for p in players}

        summary = [
            {
                "kind": "carry",
                "label": said(gettext_noop("Punti gioco (Spielpunkte)")),
                "values": dict(game_points),
                "won": dict(scored["won"]),
                "lost": dict(scored["lost"]),
            },
            {
                "kind": "won",
                "label": said(
                    gettext_noop("%(bonus)s per gioco vinto (gewonnen)"),
                    bonus=f"{rules.won_bonus:+d}",
                ),
                "factor": rules.won_bonus,
                "values": times(scored["won"], rules.won_bonus),
            },
            {
                "kind": "lost",
                "label": said(
                    gettext_noop("%(bonus)s per gioco perso (verloren)"),
                    bonus=f"{rules.lost_bonus:+d}",
                ),
                "factor": rules.lost_bonus,
                "values": times(scored["lost"], rules.lost_bonus),
            },
            {
                "kind": "count",
                "label": said(
                    gettext_noop(
                        "%(bonus)s per gioco perso da un avversario (Gegenspiel verloren)"
                    ),
                    bonus=f"{bonus:+d}",
                ),
                "factor": bonus,
                "counts": dict(scored["opponents_lost"]),
                "values": times(scored["opponents_lost"], bonus),
            },
            {"kind": "value", "label": said(gettext_noop("Penalità")), "values": dict(penalties)},
            {
                "kind": "sum",
                "label": said(gettext_noop("Punti lista (Seeger-Fabian)")),
                "values": dict(scored["totals"]),
            },
        ]
        return {
            "columns": [
                said(gettext_noop("Solista")),
                said(gettext_noop("Gioco")),
                said(gettext_noop("Punti carta")),
                said(gettext_noop("Valore")),
                said(gettext_noop("Esito")),
                said(gettext_noop("Punti gioco")),
            ],
            # Punti, G(ewonnen), V(erloren): the Spielliste's own letters
            "player_columns": [said(gettext_noop("Punti")), "G", "V"],
            "rows": rows,
            "summary": summary,
        }


# the flags of a game as a list writes them
SHEET_FLAGS = (
    ("hand", gettext_noop("mano")),
    ("schneider_announced", gettext_noop("schneider ann.")),
    ("schwarz_announced", gettext_noop("schwarz ann.")),
    ("ouvert", "ouvert"),
)


def _game_text(record: Mapping[str, Any]) -> Said:
    """The game as a list writes it: "♣ fiori con 2, mano, ouvert", "Null ouvert"."""
    game = record["game"]
    name = Said(GAME_LABELS.get(game, game))
    parts: list[Any] = [name]
    if game != NULL:
        template = gettext_noop("%(game)s con %(n)s") if record.get("with") else None
        template = template or gettext_noop("%(game)s senza %(n)s")
        parts = [said(template, game=name, n=record.get("matadors"))]
    parts += [Said(text) for flag, text in SHEET_FLAGS if record.get(flag)]
    return said_joined(", ", parts)


def _outcome_text(row: Mapping[str, Any]) -> Said:
    if row["overbid"]:
        return said(gettext_noop("perso (superato)"))
    return said(gettext_noop("vinto")) if row["won"] else said(gettext_noop("perso"))


def _value_text(rules: SkatRules, row: Mapping[str, Any]) -> str:
    """The value with its arithmetic: "6 × 24 = 144" (suit, grand), "46" (Null)."""
    if row["multiplier"] is None:
        return str(row["value"])
    return f"{row['multiplier']} × {rules.base_values[row['game']]} = {row['value']}"


def _facts(rules: SkatRules, row: Mapping[str, Any]) -> list[tuple[str, str]]:
    """What the live screen's preview says about a game's output row."""
    if row["passed"]:
        return [(gettext_noop("Passato"), gettext_noop("nessuno gioca: 0 punti a tutti"))]
    facts = [(gettext_noop("Valore"), _value_text(rules, row))]
    if row["overbid"]:
        facts.append(
            (
                gettext_noop("Superato"),
                gettext_noop("il valore non raggiunge la dichiarazione: perso"),
            )
        )
    facts.append(
        (
            gettext_noop("Esito"),
            said_joined(" ", [_outcome_text(row), f"{row['score']:+d}"]),
        )
    )
    return facts


def _sheet_facts(rules: SkatRules, row: Mapping[str, Any], record: Mapping[str, Any]) -> list[str]:
    """A game's cells on the Spielliste, in the order of ``sheet()["columns"]``."""
    if row["passed"]:
        return ["", said(gettext_noop("passato")), "", "", "", ""]
    points = record.get("declarer_points")
    card = "" if points is None else f"{points} : {rules.total_points - points}"
    return [
        row["declarer"],
        _game_text(record),
        card,
        str(row["value"]),
        _outcome_text(row),
        f"{row['score']:+d}",
    ]
