"""Analysis of finished riichi games (4 and 3 seats): every decision of a seat, looked at
from what that seat could see, beside what the efficient and defensive bots would do.

Pure functions over the replayed game, no JSON (the API layer writes it):

* ``moments``: replay a game (our own record, or an imported log's event stream)
  into the decisions taken, each with the seat's observation before it;
* ``danger``: how likely a tile deals into a threat's hand, with the reasons;
* ``decisions``: shanten and ukeire per candidate discard, bots' choices, waits;
* ``summary``: per player, agreement with the bots, deal-ins, riichi, key moments.

See docs/analysis.md.
"""

from server.analysis.decisions import Candidate, Decision, analyse_moment
from server.analysis.game import AnalysisError, GameAnalysis, analyse
from server.analysis.moments import DealIn, Moment, Replayed, imported_moments, played_moments
from server.analysis.summary import KeyMoment, SeatSummary

__all__ = [
    "AnalysisError",
    "Candidate",
    "DealIn",
    "Decision",
    "GameAnalysis",
    "KeyMoment",
    "Moment",
    "Replayed",
    "SeatSummary",
    "analyse",
    "analyse_moment",
    "imported_moments",
    "played_moments",
]
