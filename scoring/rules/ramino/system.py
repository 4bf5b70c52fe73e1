"""Ramino 101 (``ramino-101``) as a game system of the ledger (:mod:`scoring.rules.systems`)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from ..problems import Problem, RuleViolation, Said, gettext_noop, said, said_joined
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
    game_names = CLOSE_LABELS
    # where a smazzata record names a player (SPEC-ramino §11)
    player_fields = ("closer", "penalties.*", "reentries.[]")
    direction = "clockwise"  # SPEC-ramino §1
    points_are_penalties = True  # points in hand count against a player: 101 puts him out

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
        label = Said(CLOSE_LABELS.get(close, close))
        if close in rules.instant_wins:
            return said(gettext_noop("%(close)s (vince la partita)"), close=label)
        if close == rules.two_card_close:
            return said(
                gettext_noop("%(close)s (fino a %(max)s punti)"),
                close=label,
                max=rules.two_card_max,
            )
        value = rules.close_value(close)
        sign = "−" if rules.close_values_to == "CLOSER" else "+"
        return said(gettext_noop("%(close)s (%(points)s)"), close=label, points=f"{sign}{value}")

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
                # one input per player still in, the closer's too: empty for him, or the
                # points of the two cards he kept when he closes with two cards (SPEC-ramino
                # ``closer_points``): the form asks nothing else of the closer
                "name": "penalties",
                "kind": "per_player",
                "label": gettext_noop("Punti rimasti in mano"),
                "help": said(
                    gettext_noop(
                        "da 0 a %(max)s; chi chiude lascia vuoto, o scrive i punti delle due "
                        "carte tenute (da %(low)s a %(high)s) se chiude con due carte; nessun "
                        "punto con una chiusura che vince la partita"
                    ),
                    max=rules.max_penalty,
                    low=rules.two_card_min,
                    high=rules.two_card_max,
                ),
                "players": state.active,
                "min": 0,
                "max": rules.max_penalty,
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
                what = said(gettext_noop("Punti rimasti in mano di %(player)s"), player=p)
                value = posted_int(data.get(f"penalties-{i}"), what, problems, p)
                if p == closer:
                    # the closer's input: the two cards he kept, with that close; a number
                    # typed for him with another close is pointed out, not dropped
                    if close == rules.two_card_close or value:
                        record["closer_points"] = value
                elif value is not None:
                    penalties[p] = value
            record["penalties"] = penalties
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
            elif p == smazzata.get("closer") and smazzata.get("closer_points") is not None:
                data[f"penalties-{i}"] = str(smazzata["closer_points"])
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
                "help": said(
                    gettext_noop(
                        "eliminato: chi rientra paga la quota di %(fee)s e riparte dal punteggio "
                        "più alto tra chi è ancora in gioco; chi non rientra è fuori"
                    ),
                    fee=rules.reentry_fee,
                ),
                "choices": [
                    [p, said(gettext_noop("%(player)s rientra a %(total)s"), player=p, total=total)]
                    for p, total in offers.items()
                ],
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
        notes: dict[str, str] = {}
        for p in state.players:
            parts: list[Any] = []
            if p not in state.totals:
                parts.append(said(gettext_noop("fuori")))
            elif state.totals[p] > 0:  # at 0 the whole way to the threshold is still ahead
                parts.append(
                    said(
                        gettext_noop("ne mancano %(gap)s per uscire a %(limit)s"),
                        gap=rules.elimination - state.totals[p],
                        limit=rules.elimination,
                    )
                )
            if p in state.totals and state.reentries.get(p):
                parts.append(said(gettext_noop("rientrato")))
            if parts:
                notes[p] = said_joined(", ", parts)
        if state.winner:
            notes[state.winner] = said(gettext_noop("vince la partita"))
        return notes

    def smazzata_keys(self, scored: Mapping[str, Any]) -> dict[str, Any]:
        return {"game": scored["close"], "caller": scored["closer"]}

    def describe(self, smazzata: Mapping[str, Any]) -> str:
        close = Said(CLOSE_LABELS.get(smazzata["close"], smazzata["close"]))
        if smazzata.get("instant_win"):
            return said(
                gettext_noop("%(player)s chiude: %(close)s, vince la partita"),
                player=smazzata["closer"],
                close=close,
            )
        parts: list[Any] = [
            said(
                gettext_noop("%(player)s chiude: %(close)s"), player=smazzata["closer"], close=close
            )
        ]
        parts += [
            said(gettext_noop("%(player)s rientra a %(total)s"), player=p, total=t)
            for p, t in smazzata.get("reentered", {}).items()
        ]
        parts += [said(gettext_noop("%(player)s fuori"), player=p) for p in smazzata.get("out", [])]
        return said_joined("; ", parts)

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
