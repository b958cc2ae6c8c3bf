"""Load the rule data files of rules/ once, at start-up, and validate them."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

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


# libyaml's parser where PyYAML was built with it: it reads the rules' YAML in about a
# tenth of the time (6 ms, not 50), which every start of the service waits for.
if TYPE_CHECKING:
    _SafeLoader = yaml.SafeLoader
else:
    _SafeLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _UniqueKeyLoader(_SafeLoader):
    """yaml's safe loader, refusing a key given twice in one mapping: plain YAML keeps
    the last silently, so an edited row could carry a stale copy that nothing reads."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[object, object]:
        seen = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)
            if not isinstance(key, Hashable):
                break  # the safe loader refuses it below, naming it
            if key in seen:
                raise yaml.constructor.ConstructorError(
                    None, None, f"key {key!r} given twice", key_node.start_mark
                )
            seen.add(key)
        return super().construct_mapping(node, deep=deep)


def _read(path: Path) -> Any:
    with path.open(encoding="utf-8") as handle:
        return yaml.load(handle, Loader=_UniqueKeyLoader)  # a SafeLoader: no tags run code


def load_rules(directory: Path | str = DEFAULT_RULES_DIR) -> Rules:
    folder = Path(directory)
    return Rules(
        scrabble=RuleTable.from_data(_read(folder / "scrabble_final_round.yaml")),
        strikes=StrikesRules.from_data(_read(folder / "strikes.yaml")),
        puffing_billy=BoardRules.from_data(_read(folder / "puffing_billy.yaml")),
        league=LeagueRules.from_data(_read(folder / "meeple_league.yaml")),
    )
