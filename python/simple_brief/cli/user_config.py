"""A table of the user's own config, read with the standard library only (the `simple-brief`
script's fast paths: whether to use the daemon, the hook's settings); the engine's
`files.config` reads and checks the whole file for every other purpose."""

from __future__ import annotations

import os

TYPE_CHECKING = False  # not typing's: importing typing costs the script's fast path milliseconds
if TYPE_CHECKING:
    from typing import Any


def user_table(name: str) -> Any:
    """The `[name]` table of the user's config (`files.config.user_config_path`'s rules);
    {} when the file is missing or does not mention it; None when it is not TOML."""
    override = os.environ.get("SIMPLE_BRIEF_CONFIG", "")
    if override:
        path = os.path.expanduser(override)
    else:
        base = os.environ.get("XDG_CONFIG_HOME", "")
        folder = base if os.path.isabs(base) else os.path.join(os.path.expanduser("~"), ".config")
        path = os.path.join(folder, "simple-brief", "config.toml")
    try:
        with open(path, "rb") as handle:
            raw = handle.read(256 * 1024 + 1)
    except OSError:
        return {}
    if name.encode() not in raw:
        return {}
    import tomllib

    try:
        return tomllib.loads(raw.decode("utf-8", "replace")).get(name, {})
    except tomllib.TOMLDecodeError:
        return None
