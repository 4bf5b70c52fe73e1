"""The rules engine: pure Python, no Django. Everything that computes a point lives here.

One package per game system (:mod:`.caf` King C.A.F., :mod:`.kingfamily`, :mod:`.skat`,
:mod:`.ramino`), each registered behind the game-system boundary (:mod:`.systems`); beside them
what every system shares: problems and their codes (:mod:`.problems`), typed numbers
(:mod:`.numbers`), text checks (:mod:`.text`), places (:mod:`.ranking`), records keyed by seat
(:mod:`.players`) and the checkpointed season standing (:mod:`.seasonfold`).
"""

from .problems import Problem, RuleViolation

__all__ = ["Problem", "RuleViolation"]
