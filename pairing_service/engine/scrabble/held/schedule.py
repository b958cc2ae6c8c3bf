"""The default schedule: which method pairs each round, and the repeats it allows, when
the director does not choose (``docs/scrabble.md``, "Held events: the default schedule").

- round 1: ``seeded`` (by rating, top half against bottom half: the favourites meet
  in the later rounds, not the first);
- the middle rounds: ``swiss`` within win groups at the round's cost
  (``cost.py``): a repeat within the allowance is weighed against the distance
  from the Swiss order, never avoided by sending a player far down the field;
- the last planned round: the final-round ``advisor`` (the seed's table and the
  principles GP1-GP4, then the round's cost);
- with ``prizes`` that pay differently, the last ``PRIZE_RACE_ROUNDS`` rounds (never round
  1): the advisor too, with the rounds left counted, as tsh's ChewPair pairs the last
  rounds: each player who can still reach a better prize place (at their best possible
  finish) plays the others in that race KOTH, even past the allowance, and players whose
  place is settled are Gibsonized (``pairing/prize_plan.py``). Equal places keep the
  Swiss until the last round: the seed's principles are for the final round.

Every round's allowance is the event's ``repeats_allowed`` unless ``repeats_by_round``
gives its range another (the director's, as tsh's ``pair`` and ``koth`` take one). In
every round a player whose place is settled is Gibsonized, whatever the method
(``held/gibsonization.py``).

An event whose ``pairing_system`` is ``round_robin`` pairs every round from the round
robin's circle (``round_robin.py``): results never pair it, so neither the seeded first
round nor the advisor's last; the allowance plays no part in it.
"""

from __future__ import annotations

from ..prize_places import PrizePlaces
from .log_events import EventSettings, Method

PRIZE_RACE_ROUNDS = 3  # the rounds where prize races are decided (ChewPair's span)


def scheduled(number: int, settings: EventSettings) -> tuple[Method, int]:
    """Round ``number``'s method and repeat allowance by the default schedule."""
    if settings.pairing_system == "round_robin":
        return "round_robin", 0
    allowance = settings.allowance(number)
    if number == 1:
        return "seeded", allowance
    if number >= settings.rounds or (
        settings.prizes is not None
        and PrizePlaces(settings.prizes).graded
        and number > settings.rounds - PRIZE_RACE_ROUNDS
    ):
        return "advisor", allowance
    return "swiss", allowance
