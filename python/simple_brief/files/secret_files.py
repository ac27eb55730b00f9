"""Secrets files: paths no tool ever reads, lists, indexes or receives from the editor.

A path is denied when one of the deny globs matches it, with git's rules (SPEC
"Security"): a glob without `/` matches a file or folder name at any depth (so everything
inside a folder named `.env` is denied too), a glob with `/` matches the path from the
workspace root. The defaults are `DEFAULT_DENY`; the user's own config and the workspace
config add globs (`[secrets] deny`); only the user's own config may exempt a path
(`[secrets] allow`), because a cloned repository must not be able to open its own
secrets to an agent.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property

from pathspec.patterns.gitignore.spec import GitIgnoreSpecPattern

from simple_brief.errors import UserError

#: Deny globs always in force (SPEC "Security"; seed 004 "Security Constraints").
DEFAULT_DENY = (
    ".env",
    ".env.*",
    "*.pem",
    "*.key",
    "id_rsa*",
    "id_ed25519*",
    "*.p12",
    ".netrc",
    "credentials*",
    "secrets.*",
)


def _compile(globs: tuple[str, ...]) -> list[tuple[str, re.Pattern[str]]]:
    compiled = []
    for glob in globs:
        regex, include = GitIgnoreSpecPattern.pattern_to_regex(glob)
        if regex is not None and include:
            compiled.append((glob, re.compile(regex)))
    return compiled


@dataclass(frozen=True)
class SecretRules:
    """The deny and allow globs in force for one workspace.

    Attributes:
        deny: globs of paths never read (the defaults first, then the configs' own).
        allow: globs exempted from `deny` (from the user's own config only).
        allow_hint: where the person can allow a path, named in refusals.
    """

    deny: tuple[str, ...] = DEFAULT_DENY
    allow: tuple[str, ...] = ()
    allow_hint: str = field(default="~/.config/simple-brief/config.toml", compare=False)

    @cached_property
    def _deny(self) -> list[tuple[str, re.Pattern[str]]]:
        return _compile(self.deny)

    @cached_property
    def _allow(self) -> list[tuple[str, re.Pattern[str]]]:
        return _compile(self.allow)

    def rule_for(self, rel: str) -> str | None:
        """The deny glob that matches `rel` (a `/`-separated path from the workspace or
        library root), or None when the path may be read."""
        rel = rel.strip("/")
        if not rel or rel == ".":
            return None
        for glob, regex in self._deny:
            if regex.match(rel):
                if any(allow.match(rel) for _glob, allow in self._allow):
                    return None
                return glob
        return None

    def refusal(self, shown: str, rule: str, rel: str) -> UserError:
        """The one sentence that refuses a secrets path."""
        return UserError(
            f"{shown} matches the secrets rule `{rule}`, so simple-brief never reads it; "
            f'if it holds no secret, add `allow = ["{rel.strip("/")}"]` under [secrets] in {self.allow_hint}.'
        )

    def check(self, shown: str, rel: str) -> None:
        """Refuse a path that matches a deny glob.

        Raises:
            UserError: naming the rule and how to allow the path.
        """
        rule = self.rule_for(rel)
        if rule is not None:
            raise self.refusal(shown, rule, rel)
