"""Issue 25: the C.A.F. turno checks and the Skat list checks, built with values (a table's
size, a player named twice, the first dealer, the spareggio, the penalties and the sanctions),
said in the reader's language: the Italian exactly as before, the English a sentence naming the
field; codes and fields unchanged."""

from __future__ import annotations

import pytest
from django.utils import translation

from scoring.problem_text import described, localized_all
from scoring.rules.caf import caf
from scoring.rules.caf.records import Penalty, Sanction, TurnoRecord
from scoring.rules.caf.turno import rank, score_turno
from scoring.rules.problems import RuleViolation
from scoring.rules.ramino.rules import build_rules
from scoring.rules.skat.game import read_game
from scoring.rules.skat.lista import check_table
from scoring.rules.skat.rules import skat_rules
from scoring.rules.text import user_text
from scoring.services.season import season_create
from scoring.services.turni import _players_by_name


def _said(problems, lang: str) -> list[tuple[str, str | None, str]]:
    with translation.override(lang):
        return [(p.code, p.field, p.message) for p in localized_all(problems)]


def test_a_caf_table_seated_wrong_in_italian_and_english():
    turno = TurnoRecord(players=("Anna", "Bruno", "Anna"), first_dealer="Zeno")
    problems = score_turno(caf(), turno).problems
    assert _said(problems, "it") == [
        ("PLAYER_DUPLICATE", "players", "Anna compare due volte al tavolo"),
        ("FIRST_DEALER", "first_dealer", "il primo mazziere 'Zeno' non siede a questo tavolo"),
    ]
    assert _said(problems, "en") == [
        ("PLAYER_DUPLICATE", "players", "Players: Anna sits twice at the table."),
        ("FIRST_DEALER", "first_dealer", "First mazziere: 'Zeno' does not sit at this table."),
    ]


def test_caf_penalties_and_sanctions_in_italian_and_english():
    turno = TurnoRecord(
        players=("Anna", "Bruno", "Carla", "Dario"),
        first_dealer="Anna",
        penalties=(Penalty("Zeno", 0),),
        sanctions=(Sanction("Anna", "AMMONIZIONE", "ritardo"),),
    )
    problems = score_turno(caf(), turno, require_complete=False).problems
    assert _said(problems, "it") == [
        ("PENALTY_PLAYER", "penalties", "penalità per 'Zeno', che non siede a questo tavolo"),
        (
            "PENALTY_POINTS",
            "penalties",
            "i punti di una penalità sono un numero intero diverso da zero, tra -9999 e 9999",
        ),
        (
            "PENALTY_ARTICLE",
            "penalties",
            "una penalità deve citare l'articolo dello Statuto (6, 9, 15, 16 o altro)",
        ),
        (
            "SANCTION_KIND",
            "sanctions",
            "sanzione sconosciuta: 'AMMONIZIONE' (solo RETROCESSIONE_CONTATORE)",
        ),
    ]
    assert _said(problems, "en") == [
        (
            "PENALTY_PLAYER",
            "penalties",
            "Penalties: a penalty for 'Zeno', who does not sit at this table.",
        ),
        (
            "PENALTY_POINTS",
            "penalties",
            "Penalties: a penalty's points are a whole number other than zero, "
            "between -9999 and 9999.",
        ),
        (
            "PENALTY_ARTICLE",
            "penalties",
            "Article of the Statute: a penalty must cite the Statute's article "
            "(6, 9, 15, 16 or other).",
        ),
        (
            "SANCTION_KIND",
            "sanctions",
            "Disciplinary relegation: unknown sanction 'AMMONIZIONE' "
            "(only RETROCESSIONE_CONTATORE).",
        ),
    ]


def test_a_caf_spareggio_against_the_scores_in_italian_and_english():
    _, problems, _ = rank({"Anna": 10, "Bruno": 10, "Carla": 5}, ("Carla", "Anna"))
    assert _said(problems, "it") == [
        (
            "TIEBREAK_ORDER",
            "tiebreak",
            "lo spareggio mette Carla (5) prima di Anna (10), contro i punteggi",
        ),
        (
            "TIE_UNRESOLVED",
            "tiebreak",
            "parità a 10 punti tra Anna, Bruno: registrare lo spareggio "
            "(carta più alta al meglio delle 5 prove)",
        ),
    ]
    with translation.override("en"):
        lines = [described(p) for p in problems]
    assert lines == [
        "player Carla: [TIEBREAK_ORDER] Spareggio: it puts Carla (5) before Anna (10), "
        "against the scores.",
        "player Bruno: [TIE_UNRESOLVED] Spareggio: Anna, Bruno are tied at 10 points; "
        "record the spareggio (highest card, best of 5 draws).",
    ]


def test_a_skat_list_whose_first_dealer_does_not_sit_in_italian_and_english():
    _, problems = check_table(
        skat_rules(), {"players": ["Anna", "Bruno", "Carla"], "first_dealer": "Zeno"}
    )
    assert _said(problems, "it") == [
        (
            "FIRST_DEALER",
            "first_dealer",
            "il primo mazziere è 'Zeno', che non siede a questo tavolo",
        )
    ]
    assert _said(problems, "en") == [
        ("FIRST_DEALER", "first_dealer", "First dealer: 'Zeno' does not sit at this table.")
    ]


def test_skat_games_of_the_wrong_shape_in_italian_and_english():
    players = ["Anna", "Bruno", "Carla"]
    problems = [
        *read_game(skat_rules(), {"passed": "no"}, players=players, sitting_out=None).problems,
        *read_game(
            skat_rules(), {"passed": True, "bid": 18}, players=players, sitting_out=None
        ).problems,
    ]
    assert _said(problems, "it") == [
        ("FIELD_TYPE", "passed", "passed: deve essere true o false (trovato 'no')"),
        (
            "PASSED_WITH_DATA",
            "passed",
            "gioco passato (nessuno gioca) con dati di un gioco giocato: bid",
        ),
    ]
    assert _said(problems, "en") == [
        ("FIELD_TYPE", "passed", "passed: must be true or false (found 'no')"),
        (
            "PASSED_WITH_DATA",
            "passed",
            "Passed: nobody plays this game, yet it has a played game's data: bid",
        ),
    ]


def test_a_text_too_long_under_its_label_in_italian_and_english():
    with pytest.raises(RuleViolation) as caught:
        user_text("abcd", field="reason", label="motivo", max_length=3)
    problems = caught.value.problems
    assert _said(problems, "it") == [
        ("TEXT_INVALID", "reason", "motivo: al massimo 3 caratteri (sono 4)")
    ]
    assert _said(problems, "en") == [
        ("TEXT_INVALID", "reason", "reason: at most 3 characters (there are 4)")
    ]


def test_a_ramino_deck_too_small_in_italian_and_english():
    # 6 players × 10 cards > one deck of 52 without jokers
    with pytest.raises(RuleViolation) as caught:
        build_rules({"decks": 1, "jokers": 0, "table_sizes": [2, 6]})
    problems = caught.value.problems
    assert _said(problems, "it") == [
        ("RULES", None, "regolamento: il mazzo non basta per servire ogni giocatore")
    ]
    assert _said(problems, "en") == [
        ("RULES", None, "Rules: the deck is too small to deal every player a hand.")
    ]


@pytest.mark.django_db
def test_a_player_not_of_the_club_in_italian_and_english():
    with pytest.raises(RuleViolation) as caught:
        _players_by_name(["Zeno"])
    problems = caught.value.problems
    assert _said(problems, "it") == [
        ("PLAYER_UNKNOWN", None, "'Zeno' non è un giocatore del circolo")
    ]
    assert _said(problems, "en") == [
        ("PLAYER_UNKNOWN", None, "Players: 'Zeno' is not a member of the club.")
    ]


@pytest.mark.django_db
def test_a_season_named_twice_in_italian_and_english():
    season_create(name="Inverno", ruleset_code="caf")
    with pytest.raises(RuleViolation) as caught:
        season_create(name="Inverno", ruleset_code="caf")
    problems = caught.value.problems
    assert _said(problems, "it") == [("SEASON_EXISTS", None, "la stagione Inverno esiste già")]
    assert _said(problems, "en") == [
        ("SEASON_EXISTS", None, "Name: the season Inverno already exists.")
    ]
