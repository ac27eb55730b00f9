"""The second conformance corpus: other projects' files, never used to tune a query or a rule.

`conformance_corpus.py` is the corpus the outline queries (and, before issue 28, the text
repairs) were measured and tuned on. This one holds other packages for the same languages,
installed the same way by name (Debian packages, `npm pack`, `pip download` of source
distributions) into `.cache/conformance2/`, which git ignores, so the same columns
measured here say how the engine does on code nobody looked at while writing it.
`bench/conformance.py --corpus 2` measures it into bench/results/conformance2.md; the
judges (`conformance_tools.py`) are the first corpus's, which `--install` also installs.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
from collections.abc import Callable
from pathlib import Path

from conformance_corpus import (
    REPO,
    Source,
    _fresh,
    _globbed,
    _log,
    _npm_pack,
    _run,
    files_of,
    sample,
)
from conformance_corpus import (
    _sdists as _sdists_of,
)

__all__ = ["NO_CORPUS", "files_of", "install", "sample", "sources"]

CACHE = REPO / ".cache" / "conformance2"
NPM = CACHE / "npm"
SDIST = CACHE / "sdist"
OCAML_SOURCE = CACHE / "ocaml-source"
GEMS = "/usr/share/rubygems-integration/all/gems"

#: Debian packages: the corpus they ship (none of them is the first corpus's).
APT = (
    "ruby-rack",  # ruby: /usr/share/rubygems-integration/all/gems/rack-*
    "ruby-thor",  # ruby: /usr/share/rubygems-integration/all/gems/thor-*
    "php-twig",  # php: /usr/share/php/Twig
    "php-monolog",  # php: /usr/share/php/Monolog
    "librust-serde-dev",  # rust, toml: /usr/share/cargo/registry/serde-*
    "librust-regex-dev",  # rust, toml: /usr/share/cargo/registry/regex-*
    "golang-github-spf13-cobra-dev",  # go: /usr/share/gocode/src/github.com/spf13/cobra
    "golang-github-stretchr-testify-dev",  # go: /usr/share/gocode/src/github.com/stretchr/testify
    "lua-ldoc",  # lua: /usr/share/lua/5.1/ldoc
    "ocaml-source",  # ocaml: the compiler's own sources (/usr/src/ocaml-source-*.tar.xz)
    "postgresql-15",  # sql: the extensions' install scripts (/usr/share/postgresql/15/extension)
    "linux-perf",  # sh: perf's shell tests (/usr/lib/perf-core/tests/shell)
)
#: npm packages (pinned): `npm pack` into .cache/conformance2/npm/<name>/.
NPM_PACKAGES = (
    "lodash@4.18.1",  # javascript
    "eslint@10.15.0",  # javascript, markdown (docs), json
    "effect@4.1.0",  # typescript (src)
    "react-native-paper@5.15.3",  # typescriptreact (src)
    "expo-camera@57.0.6",  # kotlin, swift
    "react-native-safe-area-context@5.10.1",  # kotlin, swift, cpp
    "bootstrap@5.3.8",  # css, scss's output; html in its docs
)
#: PyPI source distributions (pinned): `pip download --no-binary`, unpacked into
#: .cache/conformance2/sdist/<name>/ (only the sources are wanted: no Python version check).
PIP_SDISTS = (
    "django==6.1.3",  # python, html (templates), css, json
    "ansible-core==2.21.5",  # yaml, python
    "mkdocs==1.6.1",  # markdown, yaml
    "pythonnet==3.2.1",  # cs (the runtime's C# sources)
    "jpype1==1.7.1",  # java, cpp (its native bridge)
    "pybind11==3.1.0",  # cpp (tests)
    "zstandard==0.25.0",  # c (the bundled zstd library), make
)


def sources() -> dict[str, Source]:
    """The second corpus's plan per filetype (a language missing here is in NO_CORPUS)."""
    django, ansible, mkdocs = SDIST / "django", SDIST / "ansible-core", SDIST / "mkdocs"
    cargo = _globbed("/usr/share/cargo/registry/serde-*", "/usr/share/cargo/registry/regex-*")
    gocode = Path("/usr/share/gocode/src/github.com")
    npm = {name: NPM / name for name in ("lodash", "eslint", "effect", "react-native-paper", "bootstrap")}
    native = (NPM / "expo-camera", NPM / "react-native-safe-area-context")
    return {
        "python": Source((django, ansible), "PyPI sdists of Django and ansible-core"),
        "lua": Source((Path("/usr/share/lua/5.1/ldoc"),), "apt lua-ldoc (/usr/share/lua/5.1/ldoc)"),
        "javascript": Source((npm["lodash"], npm["eslint"]), "npm lodash, eslint", exclude=(".min.js",)),
        "typescript": Source((npm["effect"] / "src",), "npm effect (src)"),
        "typescriptreact": Source((npm["react-native-paper"] / "src",), "npm react-native-paper (src)"),
        "rust": Source(cargo, "apt librust-serde-dev, librust-regex-dev (/usr/share/cargo/registry)"),
        "go": Source(
            (gocode / "spf13" / "cobra", gocode / "stretchr" / "testify"),
            "apt golang-github-spf13-cobra-dev, golang-github-stretchr-testify-dev",
        ),
        "c": Source((SDIST / "zstandard",), "the zstd library bundled in PyPI's zstandard sdist"),
        "cpp": Source(
            (SDIST / "pybind11", SDIST / "jpype1", NPM / "react-native-safe-area-context"),
            "PyPI sdists of pybind11 (its tests) and JPype1 (its native bridge), npm react-native-safe-area-context",
        ),
        "java": Source(
            (SDIST / "jpype1", NPM / "react-native-safe-area-context"),
            "PyPI sdist of JPype1 (its Java side), npm react-native-safe-area-context",
        ),
        "markdown": Source((mkdocs, npm["effect"], npm["eslint"]), "mkdocs' docs (PyPI sdist), npm effect and eslint"),
        "ruby": Source(
            _globbed(f"{GEMS}/rack-*", f"{GEMS}/thor-*"),
            "apt ruby-rack, ruby-thor (/usr/share/rubygems-integration)",
        ),
        "php": Source((Path("/usr/share/php/Twig"), Path("/usr/share/php/Monolog")), "apt php-twig, php-monolog"),
        "sh": Source((Path("/usr/lib/perf-core/tests/shell"),), "apt linux-perf (perf's shell tests)"),
        "make": Source((SDIST / "zstandard", SDIST / "pybind11", django), "Makefiles in the PyPI sdists"),
        "dockerfile": Source((SDIST, NPM), "Dockerfiles in the second corpus's packages (few or none)"),
        "cs": Source((SDIST / "pythonnet",), "PyPI sdist of pythonnet (the runtime's C# sources)"),
        "kotlin": Source(native, "npm expo-camera, react-native-safe-area-context (android/)"),
        "swift": Source(native, "npm expo-camera, react-native-safe-area-context (ios/)"),
        "json": Source((django, npm["eslint"], npm["effect"]), "Django's fixtures and locale data, npm eslint, effect"),
        "yaml": Source((ansible, mkdocs), "ansible-core's and mkdocs' YAML (PyPI sdists)"),
        "toml": Source((*cargo, SDIST), "Cargo.toml of the Debian crates, pyproject.toml of the sdists"),
        "html": Source((django, mkdocs), "Django's templates, mkdocs' themes (PyPI sdists)"),
        "css": Source(
            (npm["bootstrap"] / "dist" / "css", django, mkdocs), "npm bootstrap (dist), Django's admin, mkdocs"
        ),
        "ocaml": Source(
            (OCAML_SOURCE,),
            "the OCaml compiler's own sources (apt ocaml-source), not its stdlib nor its testsuite",
            exclude=("/testsuite/", "/stdlib/"),
        ),
        "sql": Source(
            (Path("/usr/share/postgresql/15/extension"),), "PostgreSQL 15's extension scripts (apt postgresql-15)"
        ),
    }


#: Languages with no second corpus installable here by name, and what was tried.
NO_CORPUS: dict[str, str] = {
    "haskell": "Debian's libghc-*-dev ship compiled interfaces, not sources; example-haskell-wheel has no sdist;"
    " Hackage is not reachable",
    "zig": "none besides the ziglang wheel the first corpus reads (npm and PyPI ship no Zig sources; Debian 12 no zig)",
    "elixir": "Debian's elixir ships compiled .beam files; hex.pm is not reachable; npm's phoenix ships only JS",
    "scala": "Debian's scala ships jars; Maven Central is not reachable; the grammar's npm package has no examples",
    "dart": "pub.dev is not reachable; no Debian or npm package ships Dart sources (npm tree-sitter-dart: 4 tests)",
    "julia": "no Debian package here; PyPI's Julia-side packages are the first corpus's (juliacall, julia)",
    "nix": "no PyPI, npm or Debian package besides the first corpus's ships .nix sources",
    "hcl": "Debian's other HashiCorp packages ship Go code; PyPI's terraform tools ship no .tf files",
}


# --- install (make conformance), never at run time


def _apt() -> None:
    def installed(package: str) -> bool:
        done = subprocess.run(["dpkg", "-s", package], capture_output=True, check=False)
        return done.returncode == 0 and b"Status: install ok installed" in done.stdout

    missing = [p for p in APT if not installed(p)]
    if not missing:
        return
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    lock = ["-o", "DPkg::Lock::Timeout=600"]
    _run(["apt-get", "update", "-qq"], env=env)
    if not _run(["apt-get", "install", "-y", "-qq", "--no-install-recommends", *lock, *missing], env=env):
        for package in missing:  # one that is not available must not keep out the others
            _run(["apt-get", "install", "-y", "-qq", "--no-install-recommends", *lock, package], env=env)


def _npm() -> None:
    NPM.mkdir(parents=True, exist_ok=True)
    for spec in NPM_PACKAGES:
        _npm_pack(spec, NPM)


def _sdists() -> None:
    _sdists_of(PIP_SDISTS, SDIST, "--ignore-requires-python")  # only the sources are read


def _ocaml_source() -> None:
    """Unpack the `.ml` files of the OCaml compiler's sources: Debian's ocaml-source ships
    them as the upstream tarball inside a tarball."""
    tarballs = _globbed("/usr/src/ocaml-source-*.tar*")
    if not tarballs or _fresh(OCAML_SOURCE, str(tarballs[-1])):
        return
    OCAML_SOURCE.mkdir(parents=True, exist_ok=True)
    with tarfile.open(tarballs[-1]) as outer:
        inner = next((m for m in outer.getmembers() if m.isfile() and ".orig.tar" in m.name), None)
        upstream = outer.extractfile(inner) if inner is not None else None
        if upstream is None:
            _log(f"{tarballs[-1]} holds no upstream tarball")
            return
        with tarfile.open(fileobj=upstream) as archive:
            members = [m for m in archive.getmembers() if m.isfile() and m.name.endswith(".ml")]
            archive.extractall(OCAML_SOURCE, members=members, filter="data")
    (OCAML_SOURCE / ".conformance-version").write_text(str(tarballs[-1]))


def install() -> None:
    """Install the second corpus (idempotent; what fails is logged, not fatal)."""
    steps: list[Callable[[], None]] = [_apt, _npm, _sdists, _ocaml_source]
    for step in steps:
        try:
            step()
        except OSError as err:
            _log(f"{step.__name__}: {err}")


if __name__ == "__main__":
    install()
    sys.exit(0)
