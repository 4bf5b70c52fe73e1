"""Ramino 101 (rule set ``ramino-101``, SPEC-ramino.md): pure Python, no Django.

- :mod:`.rules`: the rule set as data (``ramino-101.json``) and the checks of a club's edits;
- :mod:`.match`: one match replayed smazzata by smazzata (checks, points, eliminations,
  re-entries, the end and the places);
- :mod:`.document`: the ``kingclub/v1`` season document and the season standing;
- :mod:`.generator`: random valid matches;
- :mod:`.system`: the game-system object registered for ``ramino-101``.
"""

from .match import MatchState, ScoredHand, check_hand, play_hand
from .rules import RaminoRules, build_rules, ramino_101
from .system import SYSTEM

__all__ = [
    "SYSTEM",
    "MatchState",
    "RaminoRules",
    "ScoredHand",
    "build_rules",
    "check_hand",
    "play_hand",
    "ramino_101",
]
