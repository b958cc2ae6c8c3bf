"""The input rules JSON Schema cannot state, by name: the registry that docs/validation.md,
the schema fuzzing and the problem's ``rule`` member draw on.

Every other constraint is in the OpenAPI document (field bounds, patterns, ``multipleOf``,
``uniqueItems``, and the alternatives between fields that ``common.Requires`` states), and
the service refuses exactly what the document refuses. These rules are the exceptions: a
request the document calls valid may break one, and the 422 then says which. A 422 is
recognised as a named rule by its ``rule`` member, which the error handler copies from the
``FieldError`` (``engine.errors.Rule``) raised where the rule is checked: in the engine, or
in a schema's own check for the few that the API layer applies (``points-fall``,
``work-bound``). No message text is matched.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine.errors import Rule

FINAL_ROUND = "POST /v1/scrabble/final-round"
AUDIT = "POST /v1/scrabble/audit"


@dataclass(frozen=True)
class NamedRule:
    rule: Rule
    checks: str  # one line: what the rule requires of a request
    operations: tuple[str, ...]  # the stateless and creating operations that check it


_RULES = (
    NamedRule(
        Rule.UNIQUE_IDS,
        "An id (or a game's name) appears once where it names one thing: the players of a "
        "request, of a table, a board or a game, and a player's seat at the final.",
        (
            FINAL_ROUND,
            AUDIT,
            "POST /v1/strikes/score",
            "POST /v1/strikes/seating",
            "POST /v1/strikes/tournaments",
            "POST /v1/puffing-billy/board",
            "POST /v1/puffing-billy/event",
            "POST /v1/puffing-billy/events",
            "POST /v1/diagonal/round",
            "POST /v1/diagonal/simulate",
            "POST /v1/diagonal/events",
            "POST /v1/league/table",
            "POST /v1/league/formation",
        ),
    ),
    NamedRule(
        Rule.KNOWN_PLAYER,
        "An id that refers to a player (an opponent, a game's player, a paired player) "
        "names one listed in the same request.",
        (FINAL_ROUND, AUDIT, "POST /v1/diagonal/round", "POST /v1/diagonal/results"),
    ),
    NamedRule(
        Rule.CONSISTENT_HISTORY,
        "Earlier games are ones played rounds could produce: nobody played themselves, both "
        "players list a meeting as often, losses do not exceed games and add up to them, a "
        "game's winner played it, an eliminated player plays no more, round 1 has no history "
        "and a later round some.",
        (FINAL_ROUND, AUDIT, "POST /v1/diagonal/round", "POST /v1/diagonal/results"),
    ),
    NamedRule(
        Rule.RANKS_FOLLOW_WINS,
        "Given ranks are a permutation of 1..n that never puts a player above one with more wins.",
        (FINAL_ROUND, AUDIT),
    ),
    NamedRule(
        Rule.PLACES_ARE_A_RANKING,
        "Given places (positions) are a ranking: 1, 2, 2, 4 or 1, 2, 2, 3; in listing order "
        "where the listing is the finishing order; a player who dropped out below every "
        "finisher.",
        (
            "POST /v1/strikes/score",
            "POST /v1/puffing-billy/board",
            "POST /v1/puffing-billy/event",
            "POST /v1/league/table",
        ),
    ),
    NamedRule(
        Rule.POSITIONS_FOLLOW_SCORES,
        "A league game's positions follow its scores: among the players who finished, a "
        "higher score is a better position (equal scores may share one or be split).",
        ("POST /v1/league/table",),
    ),
    NamedRule(
        Rule.TSH_FILE,
        "A tsh division file reads as one (name, rating, opponents; scores on each line), its "
        "opponents are players of the file who list each other, and the round asked for "
        "exists.",
        (FINAL_ROUND, AUDIT, "POST /v1/scrabble/events/import-tsh"),
    ),
    NamedRule(
        Rule.WORK_BOUND,
        "A simulation or seating stays within its work bound: players x events x (threshold "
        "+ 12), events x players^2, plans x players.",
        (
            "POST /v1/strikes/plan",
            "POST /v1/strikes/seating",
            "POST /v1/strikes/tournaments",
            "POST /v1/diagonal/simulate",
        ),
    ),
    NamedRule(
        Rule.WITHDRAWN_CONTENDER,
        "A withdrawn player who can still finish as a victor has a known result (the spread "
        "their rounds left score, tsh's off), and only a withdrawn player has one.",
        (FINAL_ROUND, AUDIT),
    ),
    NamedRule(
        Rule.PAIRING_COVERS_FIELD,
        "A proposed pairing pairs every player who has not withdrawn exactly once, with a bye "
        "only in an odd field, and only one.",
        (AUDIT,),
    ),
    NamedRule(
        Rule.FINAL_SEATS,
        "A board of the final seats qualifiers, and a player who did not qualify only when "
        "marked an alternate; a qualifier is never an alternate.",
        ("POST /v1/puffing-billy/event",),
    ),
    NamedRule(
        Rule.GAME_SIZE,
        "Every game lists as many players as the points scale has places (4 with the rules' "
        "scale; the length of `points` when given).",
        ("POST /v1/league/table",),
    ),
    NamedRule(
        Rule.POINTS_FALL,
        "A points scale, or a list of prize amounts, never rises from one place to the next.",
        (
            FINAL_ROUND,
            AUDIT,
            "POST /v1/scrabble/events",
            "POST /v1/scrabble/events/import-tsh",
            "POST /v1/league/table",
            "POST /v1/league/organisations",
        ),
    ),
    NamedRule(
        Rule.VICTORS_OR_PRIZES,
        "The paid places are given once: as `victors` (equal places) or as `prizes` (the "
        "places that pay, in order), not both; in the body or the query string alike.",
        (FINAL_ROUND, AUDIT, "POST /v1/scrabble/events", "POST /v1/scrabble/events/import-tsh"),
    ),
    NamedRule(
        Rule.ROUND_RANGES,
        "Ranges of rounds (`repeats_by_round`) each run from `first` to a `last` no "
        "earlier, within the rounds planned, in order and not overlapping.",
        ("POST /v1/scrabble/events",),
    ),
    NamedRule(
        Rule.QUERY_FIELDS,
        "A field given in the query string is given once (not in the JSON body too; a "
        "list once, its values comma-separated, none empty), and a tsh file's `after` and "
        "`complete_rounds_only` (and its `spread_cap`) come with a tsh file.",
        (FINAL_ROUND, AUDIT, "POST /v1/scrabble/events/import-tsh"),
    ),
    NamedRule(
        Rule.FORMATION_RECORDS,
        "Every sign-up has a finish last season, a returner's finish or a new-player entry, "
        "and a returner did not play last season.",
        ("POST /v1/league/formation",),
    ),
    NamedRule(
        Rule.BACKUP_REPLAYS,
        "A backup is of this route's format, its log numbered 1, 2, 3, … from its creation "
        "to no later than its revision, its dates within the event's life (from its "
        "creation to now), each entry's data is what its kind records and its "
        "input a request the service takes, and the format's rules decide every entry "
        "again, on the state the entries before it give, as the entry records it.",
        (
            "POST /v1/strikes/tournaments/import",
            "POST /v1/diagonal/events/import",
            "POST /v1/puffing-billy/events/import",
            "POST /v1/league/organisations/import",
        ),
    ),
)

NAMED_RULES: dict[str, NamedRule] = {named.rule.value: named for named in _RULES}
