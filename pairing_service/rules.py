"""Load the rule data files of rules/ once, at start-up, and validate them."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import yaml

from .engine.league import LeagueRules
from .engine.puffing_billy import BoardRules
from .engine.scrabble import RuleTable
from .engine.strikes import StrikesRules

DEFAULT_RULES_DIR = Path(__file__).resolve().parent.parent / "rules"


@dataclass(frozen=True)
class Rules:
    scrabble: RuleTable
    strikes: StrikesRules
    puffing_billy: BoardRules
    league: LeagueRules

    def summary(self) -> dict[str, int]:
        return {
            "scrabble_final_round_rows": len(self.scrabble.rows),
            "strikes_table_plans": sum(
                len(game.by_players) for game in self.strikes.plans.values()
            ),
        }


def load_rules(directory: Path | str = DEFAULT_RULES_DIR) -> Rules:
    folder = Path(directory)
    with (folder / "scrabble_final_round.yaml").open(encoding="utf-8") as handle:
        scrabble = RuleTable.from_data(yaml.safe_load(handle))
    with (folder / "strikes.yaml").open(encoding="utf-8") as handle:
        strikes = StrikesRules.from_data(yaml.safe_load(handle))
    with (folder / "puffing_billy.yaml").open(encoding="utf-8") as handle:
        puffing_billy = BoardRules.from_data(yaml.safe_load(handle))
    with (folder / "meeple_league.yaml").open(encoding="utf-8") as handle:
        league = LeagueRules.from_data(yaml.safe_load(handle))
    return Rules(scrabble=scrabble, strikes=strikes, puffing_billy=puffing_billy, league=league)
