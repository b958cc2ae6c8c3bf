"""The default schedule: which method pairs each round, and the repeats it allows, when
the director does not choose (``docs/scrabble.md``, "Held events: the default schedule").

- round 1: ``seeded`` (by rating, top half against bottom half: the favourites meet
  in the later rounds, not the first);
- the middle rounds: ``swiss`` within win groups, allowing no repeat: a pair meets again
  only when no pairing of the field avoids it (tsh's default; with the allowance at 1 the
  Swiss takes a second meeting whenever it is closer to the Swiss order, which at 100
  players already happens in round 6);
- the last planned round: the final-round ``advisor`` (the seed's table and the
  principles GP1-GP4, then the pairing policy), with the event's ``repeats_allowed``;
- with ``prizes`` that pay differently, the last ``PRIZE_RACE_ROUNDS`` rounds (never round
  1): the advisor too, with the rounds left counted, as tsh's ChewPair pairs the last
  rounds: each player who can still reach a better prize place (at their best possible
  finish) plays the others in that race KOTH, and players whose place is settled are
  Gibsonized (``pairing/prize_plan.py``). Equal places keep the Swiss until the last
  round, as before: the seed's principles are for the final round.

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
    if number == 1:
        return "seeded", 0
    if number >= settings.rounds or (
        settings.prizes is not None
        and PrizePlaces(settings.prizes).graded
        and number > settings.rounds - PRIZE_RACE_ROUNDS
    ):
        return "advisor", settings.repeats_allowed
    return "swiss", 0
