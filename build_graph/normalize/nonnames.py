"""Tokens that sit in author lists but are not people.

The PyTorch RPC paper lists ``NameError`` among its authors: a scraping
accident. The rules live in ``non_names.yaml`` (``build_graph/data/``) so that reviewers can see
and extend them; a match is dropped from the author list and reported.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ..errors import CurationError
from ..yamlio import LineDict, LineList, load_yaml_file


@dataclass(frozen=True)
class NonNameRule:
    pattern: re.Pattern
    reason: str


class NonNames:
    def __init__(self, rules: list[NonNameRule]):
        self.rules = rules

    def reason(self, name: str) -> str | None:
        for rule in self.rules:
            if rule.pattern.fullmatch(name):
                return rule.reason
        return None


def load_non_names(path: Path, display: str) -> NonNames:
    data = load_yaml_file(path, display)
    items = data.get("rules") if isinstance(data, LineDict) else None
    if not isinstance(items, LineList):
        raise CurationError("expected a top-level 'rules:' list", file=display, line=1)
    rules = []
    for item, line in zip(items, items.item_lines):
        if not isinstance(item, LineDict) or set(item) != {"pattern", "reason"}:
            raise CurationError("each rule needs exactly 'pattern' and 'reason'", file=display, line=line)
        try:
            rules.append(NonNameRule(re.compile(item["pattern"]), str(item["reason"])))
        except re.error as err:
            raise CurationError(f"bad regular expression: {err}", file=display, line=line) from None
    return NonNames(rules)
