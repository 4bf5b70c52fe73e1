"""Ramino 101 (``ramino-101``) as a game system of the ledger (:mod:`scoring.rules.systems`)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from ..problems import Problem, RuleViolation, gettext_noop
from ..seasonfold import SeasonFold
from ..systems import BaseSystem, posted_int, register
from .document import rank_standing, replay, score_match, score_season, standing
from .generator import random_match
from .match import MatchState, check_hand, close_codes, hand_points, places
from .rules import RaminoRules, build_rules, default_rules_dict

CLOSE_LABELS = {
    "NORMALE": gettext_noop("normale"),
    "COLORE": gettext_noop("colore"),
    "FIGURA": gettext_noop("figura"),
    "DUE_CARTE": gettext_noop("due carte"),
    "SCALA_REALE": gettext_noop("scala reale"),
    "POKERISSIMO": gettext_noop("pokerissimo"),
}


class RaminoSystem(SeasonFold, BaseSystem):
    code = "ramino-101"
    label = "Ramino 101"
    generic_ledger = True
    game_names = CLOSE_LABELS
    # where a smazzata record names a player (SPEC-ramino §11)
    player_fields = ("closer", "penalties.*", "reentries.[]")
    direction = "clockwise"  # SPEC-ramino §1

    def table_sizes(self, rules: RaminoRules) -> tuple[int, ...]:
        return tuple(range(rules.min_players, rules.max_players + 1))

    def default_rules(self) -> dict[str, Any]:
        return dict(default_rules_dict())

    def rules(self, edits: Mapping[str, Any] | None = None) -> RaminoRules:
        return build_rules(edits)

    def _state(self, rules: RaminoRules, turno: Mapping[str, Any]) -> MatchState:
        state, _, problems = replay(rules, turno)
        if problems:
            raise RuleViolation(problems)
        return state

    def next_step(self, rules: RaminoRules, turno: Mapping[str, Any]) -> dict[str, Any]:
        """The live sheet's header: dealer, totals, distance to the threshold, who is out."""
        state = self._state(rules, turno)
        return {
            "number": state.number,
            "dealer": None if state.over else state.next_dealer(),
            "complete": state.over,
            "in": state.active,
            "totals": dict(state.totals),
            "danger": {p: rules.elimination - t for p, t in state.totals.items()},
            "reentries_left": {
                p: rules.reentries_per_player - state.reentries.get(p, 0) for p in state.active
            },
            "out": [p for group in state.out for p in group],
            "closes": list(close_codes(rules)),
            "winner": state.winner,
        }

    def reentry_offers(
        self, rules: RaminoRules, turno: Mapping[str, Any], smazzata: Mapping[str, Any]
    ) -> dict[str, int]:
        """Who this smazzata eliminates and may re-enter, with the total they would get
        ("rientra?" on the live sheet). The smazzata is taken without its ``reentries``."""
        state = self._state(rules, turno)
        hand = {k: v for k, v in smazzata.items() if k != "reentries"}
        if check_hand(rules, state, hand) or hand["close"] in rules.instant_wins:
            return {}
        points = hand_points(rules, state, hand)
        totals = {p: state.totals[p] + points[p] for p in state.active}
        eliminated = [p for p in state.active if totals[p] >= rules.elimination]
        back = state.reentry_total(eliminated, totals)
        if back is None or len(state.active) - len(eliminated) < rules.reentry_min_in:
            return {}
        return {
            p: back for p in eliminated if state.reentries.get(p, 0) < rules.reentries_per_player
        }

    def close_label(self, rules: RaminoRules, close: str) -> str:
        label = CLOSE_LABELS.get(close, close)
        if close in rules.instant_wins:
            return f"{label} (vince la partita)"
        if close == rules.two_card_close:
            return f"{label} (fino a {rules.two_card_max} punti)"
        value = rules.close_value(close)
        return f"{label} ({'−' if rules.close_values_to == 'CLOSER' else '+'}{value})"

    def score_running(self, rules: RaminoRules, turno: Mapping[str, Any]) -> dict[str, Any]:
        state, scored, problems = replay(rules, turno)
        if problems:
            raise RuleViolation(problems)
        totals = {p: state.totals.get(p, state.final_totals.get(p, 0)) for p in state.players}
        return {"smazzate": scored, "totals": totals, "in": state.active}

    def entry_fields(
        self,
        rules: RaminoRules,
        turno: Mapping[str, Any],
        draft: Mapping[str, Any] | None = None,
    ) -> list[dict[str, Any]]:
        state = self._state(rules, turno)
        fields: list[dict[str, Any]] = [
            {
                "name": "closer",
                "kind": "choice",
                "label": gettext_noop("Chi chiude"),
                "choices": [[p, p] for p in state.active],
                "required": True,
            },
            {
                "name": "close",
                "kind": "choice",
                "label": gettext_noop("Chiusura"),
                "choices": [[c, self.close_label(rules, c)] for c in close_codes(rules)],
                "required": True,
            },
            {
                "name": "penalties",
                "kind": "per_player",
                "label": gettext_noop("Punti rimasti in mano"),
                "help": f"da 0 a {rules.max_penalty}; non per chi chiude, non con una "
                "chiusura che vince la partita",
                "players": state.active,
                "min": 0,
                "max": rules.max_penalty,
            },
            {
                "name": "closer_points",
                "kind": "int",
                "label": gettext_noop("Due carte: i loro punti"),
                "help": gettext_noop("solo con la chiusura a due carte"),
                "min": rules.two_card_min,
                "max": rules.two_card_max,
            },
        ]
        if draft is not None:
            fields += self.questions(rules, turno, draft)
        return fields

    def parse_entry(
        self, rules: RaminoRules, turno: Mapping[str, Any], data: Mapping[str, Any]
    ) -> dict[str, Any]:
        state = self._state(rules, turno)
        problems: list[Problem] = []
        closer = str(data.get("closer") or "").strip() or None
        close = str(data.get("close") or "").strip() or None
        record: dict[str, Any] = {"closer": closer, "close": close}
        if close not in rules.instant_wins:
            penalties = {}
            for i, p in enumerate(state.active):
                if p == closer:
                    continue
                value = posted_int(data.get(f"penalties-{i}"), f"punti di {p}", problems, p)
                if value is not None:
                    penalties[p] = value
            record["penalties"] = penalties
        if close == rules.two_card_close:
            record["closer_points"] = posted_int(data.get("closer_points"), "due carte", problems)
        reentries = data.get("reentries") or []
        if isinstance(reentries, str):
            reentries = [reentries]
        if reentries:
            record["reentries"] = [str(p) for p in reentries]
        if problems:
            raise RuleViolation(problems)
        return record

    def entry_data(
        self, rules: RaminoRules, turno: Mapping[str, Any], smazzata: Mapping[str, Any]
    ) -> dict[str, Any]:
        state = self._state(rules, turno)
        data: dict[str, Any] = {"closer": smazzata.get("closer"), "close": smazzata.get("close")}
        for i, p in enumerate(state.active):
            if p in (smazzata.get("penalties") or {}):
                data[f"penalties-{i}"] = str(smazzata["penalties"][p])
        if smazzata.get("closer_points") is not None:
            data["closer_points"] = str(smazzata["closer_points"])
        if smazzata.get("reentries"):
            data["reentries"] = list(smazzata["reentries"])
        return data

    def questions(
        self, rules: RaminoRules, turno: Mapping[str, Any], record: Mapping[str, Any]
    ) -> list[dict[str, Any]]:
        offers = self.reentry_offers(rules, turno, record)
        if not offers:
            return []
        return [
            {
                "name": "reentries",
                "kind": "multi",
                "label": gettext_noop("Rientra?"),
                "help": f"eliminato: chi rientra paga la quota di {rules.reentry_fee} e riparte "
                "dal punteggio più alto tra chi è ancora in gioco; chi non rientra è fuori",
                "choices": [[p, f"{p} rientra a {total}"] for p, total in offers.items()],
            }
        ]

    def ties(self, rules: RaminoRules, turno: Mapping[str, Any]) -> list[list[str]]:
        state = self._state(rules, turno)
        if not state.over:
            return []
        groups: list[list[str]] = []
        places(state, [], groups)
        seat = {p: i for i, p in enumerate(state.players)}
        return [sorted(g, key=seat.__getitem__) for g in groups]

    def seat_results(self, scored: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
        return {
            p: {
                "total": scored["final_totals"][p],
                "place": place,
                "score": scored["league_points"][p],
                "extra": {
                    "reentries": sum(r["player"] == p for r in scored["reentries"]),
                    "fees": scored["fees"][p],
                    "league_points": scored["league_points"][p],
                },
            }
            for p, place in scored["places"].items()
        }

    def player_notes(self, rules: RaminoRules, turno: Mapping[str, Any]) -> dict[str, str]:
        state = self._state(rules, turno)
        notes = {}
        for p in state.players:
            if p in state.totals:
                gap = rules.elimination - state.totals[p]
                note = f"a {gap} da {rules.elimination}"
                if state.reentries.get(p):
                    note += ", rientrato"
            else:
                note = "fuori"
            notes[p] = note
        if state.winner:
            notes[state.winner] = "vince la partita"
        return notes

    def smazzata_keys(self, scored: Mapping[str, Any]) -> dict[str, Any]:
        return {"game": scored["close"], "caller": scored["closer"]}

    def describe(self, smazzata: Mapping[str, Any]) -> str:
        line = (
            f"{smazzata['closer']} chiude: {CLOSE_LABELS.get(smazzata['close'], smazzata['close'])}"
        )
        if smazzata.get("instant_win"):
            return f"{line}, vince la partita"
        parts = [line]
        parts += [f"{p} rientra a {t}" for p, t in smazzata.get("reentered", {}).items()]
        parts += [f"{p} fuori" for p in smazzata.get("out", [])]
        return "; ".join(parts)

    def turno_columns(self) -> list[tuple[str, str]]:
        return [
            ("reentries", gettext_noop("Rientri")),
            ("fees", gettext_noop("Quote")),
            ("league_points", gettext_noop("Punti classifica")),
        ]

    def standing_columns(self) -> list[tuple[str, str]]:
        return [
            ("league_points", gettext_noop("Punti")),
            ("turni", gettext_noop("Partite")),
            ("wins", gettext_noop("Vinte")),
        ]

    def check_smazzata(
        self, rules: RaminoRules, turno: Mapping[str, Any], smazzata: Mapping[str, Any]
    ) -> list[Problem]:
        return check_hand(rules, self._state(rules, turno), smazzata)

    def score_turno(self, rules: RaminoRules, turno: Mapping[str, Any]) -> dict[str, Any]:
        return score_match(rules, turno)

    def standing(
        self, rules: RaminoRules, roster: Sequence[str], turni: Sequence[Mapping[str, Any]]
    ) -> list[dict[str, Any]]:
        return standing(roster, [score_match(rules, t) for t in turni])

    def standing_figures(self, seat: Mapping[str, Any]) -> dict[str, int]:
        return {
            "league_points": seat["extra"]["league_points"],
            "turni": 1,
            "wins": int(seat["place"] == 1),
        }

    def standing_rank(
        self, rules: RaminoRules, roster: Sequence[str], figures: Mapping[str, Mapping[str, int]]
    ) -> list[dict[str, Any]]:
        return rank_standing(roster, figures)

    def score_document(self, data: Mapping[str, Any]) -> dict[str, Any]:
        return score_season(data)

    def random_turno(
        self, rng: random.Random, players: Sequence[str], rules: RaminoRules
    ) -> dict[str, Any]:
        return random_match(rng, players, rules)


SYSTEM = register(RaminoSystem())
