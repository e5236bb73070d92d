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
from ..yamlio import LIST, NONEMPTY_TEXT, Fields, load_yaml_file

FILE = Fields({"rules": LIST}, required=("rules",))
FIELDS = Fields({"pattern": NONEMPTY_TEXT, "reason": NONEMPTY_TEXT}, required=("pattern", "reason"))


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
    data = FILE.check(load_yaml_file(path, display), display, "non_names.yaml", line=1)
    items = FILE.get(data, "rules", display)
    rules = []
    for item, line in zip(items, items.item_lines):
        item = FIELDS.check(item, display, "each rule", line)
        pattern, reason = FIELDS.get(item, "pattern", display), FIELDS.get(item, "reason", display)
        try:
            rules.append(NonNameRule(re.compile(pattern), reason))
        except re.error as err:
            raise CurationError(f"bad regular expression: {err}", file=display,
                                line=item.line_of("pattern")) from None
    return NonNames(rules)
