"""Values an agent passes (a test filter, the file to profile, a debugged program's
environment) are data: they never become an option or a code-loading setting of a
program the person trusted.

In a declared argv a value fills a placeholder (`simple_brief.tasks.declared`). It may
start with `-` only where no program reads it as an option:

- attached to a declared option: `--filter={filter}`, `-k{filter}` (the person wrote the
  option; the value cannot start a new word);
- after two end-of-options markers `--`. One is not enough: some programs pass what
  follows their `--` to another program that reads options again (`cargo test -- X`: the
  test binary, whose `--logfile=PATH` writes a file; `npm run test -- X`: the script's
  program), and pytest 9 reads `pytest -- --junitxml=PATH` as its option (seen, not
  guessed). A second `--` ends the options of the program after the first.

A separate word after a declared option (`-k {filter}`) does not count: whether `-k` takes
a value is the program's business, and `--exact {filter}` takes none. Everywhere else a
value starting with `-` is refused with one sentence (no test name starts with one). Where
make reads a word with `=` as a variable (`SHELL=...`, `MAKE_ASSIGNS`), such a value is
refused too.

The environment an agent asks for (`debug_launch(env=...)`) must not set a variable that
makes a program load or run other code (`CODE_LOADING_ENV`, `CODE_LOADING_PREFIXES` less
`HARMLESS_ENV`), unless the trusted config names it (`[debug.NAME] agent_env`).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from pathlib import Path

from simple_brief.errors import UserError, excerpt

#: The end-of-options marker, and how many of them make a value data (see the module doc).
END_OF_OPTIONS = "--"
MARKERS_NEEDED = 2
#: Programs that read a word `NAME=value` as a variable of theirs (make's `SHELL=…`).
MAKE_ASSIGNS = frozenset({"make", "gmake", "bmake", "remake"})

#: Variables that make a program load or run other code, by exact name.
CODE_LOADING_ENV = frozenset(
    {
        "BASH_ENV", "ENV", "ZDOTDIR", "SHELL", "SHELLOPTS", "BASHOPTS", "PS4", "PROMPT_COMMAND", "IFS", "CDPATH",
        "PATH", "EDITOR", "VISUAL", "PAGER", "BROWSER", "TERMINFO", "GCONV_PATH", "HOSTALIASES", "LOCPATH",
        "OPENSSL_CONF", "OPENSSL_ENGINES", "OPENSSL_MODULES", "SSLKEYLOGFILE",
        "RUSTC_WRAPPER", "RUSTC_WORKSPACE_WRAPPER", "RUSTC", "RUSTDOC", "RUSTFLAGS", "RUSTDOCFLAGS",
        "CC", "CXX", "CPP", "LD", "AR", "AS", "CFLAGS", "CXXFLAGS", "CPPFLAGS", "LDFLAGS", "MAKEFLAGS", "MFLAGS",
        "GNUMAKEFLAGS", "MAKEFILES", "MAKELEVEL",
        "PERL5OPT", "PERL5LIB", "PERLLIB", "PERL5DB", "RUBYOPT", "RUBYLIB", "GEM_HOME", "GEM_PATH", "BUNDLE_GEMFILE",
        "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS", "JAVA_OPTIONS", "CLASSPATH",
        "MAVEN_OPTS", "GRADLE_OPTS",
        "VIRTUAL_ENV", "CONDA_PREFIX", "TCLLIBPATH", "TCL_LIBRARY", "TK_LIBRARY",
    }
)  # fmt: skip
#: Name prefixes of variable families that load code (any member, present or future).
CODE_LOADING_PREFIXES = (
    "LD_", "DYLD_", "PYTHON", "NODE_", "NPM_CONFIG_", "YARN_", "PNPM_", "CARGO_", "RUSTUP_", "GIT_", "GO", "CGO_",
    "LUA_", "PYTEST_", "COVERAGE_", "DEBUGPY", "PYDEVD", "BASH_FUNC_", "MALLOC_", "GLIBC_",
)  # fmt: skip
#: Members of those families that only change output or determinism.
HARMLESS_ENV = frozenset(
    {
        "PYTHONUNBUFFERED", "PYTHONHASHSEED", "PYTHONDONTWRITEBYTECODE", "PYTHONIOENCODING", "PYTHONUTF8",
        "PYTHONFAULTHANDLER", "PYTHONDEVMODE", "PYTHONTRACEMALLOC", "PYTHONASYNCIODEBUG", "PYTHONNOUSERSITE",
        "PYTHONLEGACYWINDOWSSTDIO", "PYTHONCOERCECLOCALE", "PYTHONMALLOCSTATS", "PYTHONOPTIMIZE",
        "PYTHONVERBOSE", "PYTHONWARNDEFAULTENCODING", "NODE_ENV", "NODE_NO_WARNINGS", "CARGO_TERM_COLOR",
        "CARGO_TERM_VERBOSE", "CARGO_TERM_QUIET", "CARGO_INCREMENTAL", "GOMAXPROCS", "GODEBUG",
    }
)  # fmt: skip
_PLACEHOLDER = re.compile(r"\{(filter|file|junit|report)\}")


def loads_code(name: str) -> bool:
    """Whether setting environment variable `name` can make a program load or run other code."""
    upper = name.upper()
    if upper in HARMLESS_ENV:
        return False
    return upper in CODE_LOADING_ENV or upper.startswith(CODE_LOADING_PREFIXES)


def check_env(env: Mapping[str, str], declared: Collection[str], where: str) -> None:
    """Refuse an agent's variable that loads code unless the trusted config names it in `declared`.

    Raises:
        UserError: one sentence naming the variable and how the person allows it.
    """
    for name, value in env.items():
        if "\0" in name or "\0" in value:
            raise UserError(f"env entry {excerpt(name)} holds a NUL byte; give plain text.")
        if loads_code(name) and name not in declared:
            raise UserError(
                f"env {name} is not set: it makes programs load or run other code, so only the person's trusted "
                f'config may allow it (`agent_env = ["{name}"]` in {where}).'
            )


def fill(argv: Sequence[str], values: Mapping[str, str], agent: Collection[str], task: str) -> list[str]:
    """`argv` with its placeholders (`{filter}`, `{file}`, `{junit}`, `{report}`) replaced in
    one pass by `values` (what a value holds is never filled again); the placeholders in
    `agent` hold what an agent passed and must stay data (see the module doc).

    Raises:
        UserError: an agent's value would be read as an option or a variable (one sentence).
    """
    program = Path(argv[0]).name if argv else ""
    out = []
    markers = 0
    for arg in argv:
        for match in _PLACEHOLDER.finditer(arg):
            name = match.group(0)
            if name in agent and name in values:
                _check_slot(arg[: match.start()], values[name], markers >= MARKERS_NEEDED, program, name, task)
        out.append(_PLACEHOLDER.sub(lambda m: values.get(m.group(0), m.group(0)), arg))
        markers += arg == END_OF_OPTIONS
    return out


def _check_slot(before: str, value: str, past_options: bool, program: str, name: str, task: str) -> None:
    """Refuse `value`, about to follow `before` in one word, where a program would read it
    as an option (or make as a variable)."""
    if "\0" in value:
        raise UserError(f"the {name[1:-1]} holds a NUL byte; give plain text.")
    if past_options:
        return
    if before.strip("-"):  # attached to a declared option or word: `--filter={filter}`
        return
    what = name[1:-1]
    if before:  # `-{filter}`: the value would name the option itself
        raise UserError(
            f"{task} puts the {what} right after `{before}`, where it would name an option; declare it as an "
            f"option's value (`--name={name}`) or after `--`."
        )
    if value.startswith("-"):
        raise UserError(
            f"the {what} {excerpt(value)} starts with `-`, so {task}'s program could read it as an option; "
            "pass a test name or pattern (a value is never an option)."
        )
    if program in MAKE_ASSIGNS and "=" in value:
        raise UserError(
            f"the {what} {excerpt(value)} holds `=`, so make would read it as a variable; pass a target name."
        )
