"""Files of a workspace: path safety, overlays, .gitignore-aware listing, a parse cache.

Every path a tool receives is resolved inside the workspace root, symlinks included,
or refused with one sentence (SPEC "Security"): `..` and absolute escapes, symlinks
leading out, kernel pseudo-files (/proc, /sys), devices, FIFOs and sockets (refused by
`stat` before anything is opened, so nothing can block), NUL bytes and over-long paths,
binary and oversized files, and secrets files (`secret_files`).

Checking the name is not enough: a folder in the middle of a path can be swapped for a
symlink between the check and the open. So every file is opened by `open_beneath`, one
component at a time from the root's descriptor (`openat` with `O_NOFOLLOW`), and what was
opened is checked with `fstat`; the listing walks folders the same way.

Overlays are text that wins over the disk, in two layers (`Overlays`): the editor's
unsaved buffers, one call's own (`Workspace.for_call`), and the agent's
(`files_apply_overlay`), kept until removed or the server exits. Neither ever touches
the disk.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import stat
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pathspec

from simple_brief import languages
from simple_brief.defaults import DEFAULT_MAX_BYTES
from simple_brief.errors import UserError
from simple_brief.files import config
from simple_brief.files.beneath import DIR_FLAGS, file_kind, folder_beneath, read_at, read_beneath, shown_path
from simple_brief.files.overlays import Overlays
from simple_brief.files.path_escapes import escape_path, unescape_path
from simple_brief.files.secret_files import SecretRules
from simple_brief.scan import Outline, scan
from simple_brief.source import BINARY_SNIFF, Source, human_size

log = logging.getLogger(__name__)

#: Directories never listed, whatever .gitignore says (VCS data, caches, environments).
ALWAYS_SKIPPED = frozenset(
    {
        ".git",
        ".hg",
        ".svn",
        "node_modules",
        "__pycache__",
        ".venv",
        "venv",
        ".tox",
        ".nox",
        ".mypy_cache",
        ".ruff_cache",
        ".pytest_cache",
        ".hypothesis",
        ".cache",
    }
)
#: Files larger than this are skipped by workspace-wide tools (search) as generated or vendored.
LISTING_MAX_BYTES = 1024 * 1024
#: Parsed documents a Workspace keeps (an LRU by count: the least recently used goes first).
PARSE_CACHE_FILES = 256
#: Why a listing left a file of a known language out (`files(skipped=...)`).
SKIP_TOO_BIG = f"over {human_size(LISTING_MAX_BYTES)}"
SKIP_BINARY = "binary"
SKIP_UNREADABLE = "unreadable"
#: Kernel pseudo-filesystems: their files lie about their size, can block, or expose
#: other processes (`/proc/<pid>/environ`); refused even when the root is `/`.
PSEUDO_FILESYSTEMS = (Path("/proc"), Path("/sys"))
#: Longest path accepted, in bytes (Linux PATH_MAX), and longest single name (NAME_MAX).
MAX_PATH_BYTES = 4096
MAX_NAME_BYTES = 255


def real_root(root: str | os.PathLike[str] | None = None) -> Path:
    """The resolved folder a workspace at `root` (default: the current directory) has.

    Raises:
        UserError: the root is not a directory.
    """
    path = Path(root if root is not None else os.getcwd()).expanduser()
    if not path.is_dir():
        raise UserError(f"workspace root {path} is not a directory; pass an existing folder with --root.")
    return path.resolve()


@dataclass(eq=False)
class Workspace:
    """A root directory, the overlays laid over it, and parsed documents cached by identity.

    Attributes:
        root: the resolved workspace root; no tool reads outside it.
        overlays: unsaved content by resolved path, read instead of the disk: the agent's
            overlays over the editor's buffers (`Overlays`); a call sees its own editor's
            buffers through its view (`for_call`).
        max_bytes: the largest file a tool reads, and the largest overlay accepted.
        gitignore_top: the highest folder whose .gitignore applies (default: `root`); a
            workspace opened inside another keeps its parent's, as git would.
        secrets: the secrets rules: matching paths are refused and never listed.
        cache_limit: how many parsed documents the parse cache keeps (least recently used
            dropped first), so a long-lived server stays bounded.
    """

    root: Path
    overlays: Overlays = field(default_factory=Overlays)
    max_bytes: int = DEFAULT_MAX_BYTES
    gitignore_top: Path | None = None
    secrets: SecretRules = field(default_factory=SecretRules)
    cache_limit: int = PARSE_CACHE_FILES
    _cache: OrderedDict[Path, tuple[object, Outline]] = field(default_factory=OrderedDict, repr=False)
    _cache_lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)
    #: The workspace a call's view (`for_call`) was made from; None for the workspace itself.
    base: Workspace | None = field(default=None, repr=False, compare=False)
    #: Its file store and symbol index (`simple_brief.index.symbol_index`), once opened: held
    #: here, so a workspace nobody uses any more takes its index (and its databases' open
    #: files) with it.
    symbol_index: Any = field(default=None, repr=False, compare=False)

    def for_call(
        self, editor_buffers: Mapping[Path, str], max_bytes: int | None = None, agent: dict[Path, str] | None = None
    ) -> Workspace:
        """This workspace as one call sees it: the call's own editor buffers as the editor
        layer (never written where another call could see them), over the same agent
        overlays (or the call's own `agent` layer when given), parse cache and symbol index
        (`base`); its own `max_bytes` when given."""
        layers = Overlays(agent=self.overlays.agent if agent is None else agent)
        layers.replace_editor(editor_buffers)
        return dataclasses.replace(
            self,
            overlays=layers,
            max_bytes=self.max_bytes if max_bytes is None else max_bytes,
            base=self.base or self,
        )

    @classmethod
    def at(cls, root: str | os.PathLike[str] | None = None) -> Workspace:
        """A workspace rooted at `root` (default: the current directory), with the secrets
        rules of its config (`config.load`).

        Raises:
            UserError: the root is not a directory, or its config is broken.
        """
        real = real_root(root)
        return cls(root=real, secrets=config.load(real).secrets)

    def sub(self, folder: str | os.PathLike[str]) -> Workspace:
        """A workspace rooted at a folder inside this one, sharing its overlays (own parse cache).

        Raises:
            UserError: the folder leaves this workspace, does not exist or is not a folder.
        """
        real = self.resolve(folder)
        if not real.is_dir():
            what = "does not exist" if not real.exists() else "is not a folder"
            raise UserError(f"{shown_path(folder)} {what}; name a folder inside {self.root}.")
        top = self.gitignore_top or self.root
        return Workspace(
            root=real, overlays=self.overlays, max_bytes=self.max_bytes, gitignore_top=top, secrets=self.secrets
        )

    def resolve(self, path: str | os.PathLike[str]) -> Path:
        """The real path of `path` (relative to the root), refused unless it stays inside the root.

        Raises:
            UserError: a NUL byte or an over-long path, a symlink loop, a path that leaves
                the workspace (directly or through a symlink), or one into /proc or /sys.
        """
        text = self._named(os.fspath(path))
        shown = shown_path(text)
        if "\0" in text:
            raise UserError(f"the path {shown} contains a NUL byte; give a plain file path.")
        size = len(text.encode("utf-8", "surrogateescape"))
        if size > MAX_PATH_BYTES:
            raise UserError(
                f"the path is {size:,} bytes long, over the {MAX_PATH_BYTES:,}-byte limit; give a shorter one."
            )
        raw = Path(text)
        if any(len(part.encode("utf-8", "surrogateescape")) > MAX_NAME_BYTES for part in raw.parts):
            raise UserError(f"a name in {shown} is longer than {MAX_NAME_BYTES} bytes; no file can have it.")
        if text.startswith("~"):
            try:
                raw = raw.expanduser()
            except RuntimeError:
                raise UserError(f"{shown} names an unknown home directory; give a path inside {self.root}.") from None
        candidate = raw if raw.is_absolute() else self.root / raw
        whole = len(os.fsencode(candidate))
        if whole >= MAX_PATH_BYTES:  # (PATH_MAX counts the closing NUL)
            raise UserError(
                f"{shown} is {whole:,} bytes long with the workspace root in front, over the system's "
                f"{MAX_PATH_BYTES:,}-byte limit: no file can be opened there; give a shorter path."
            )
        try:
            real = candidate.resolve()
        except RuntimeError:  # Python 3.11 reports a symlink loop so
            raise UserError(f"{shown} is a symlink loop; name the file it should point to.") from None
        except OSError as exc:
            raise UserError(f"{shown} cannot be resolved ({exc.strerror}); check the path.") from None
        if real != self.root and self.root not in real.parents:
            raise UserError(
                f"{shown} is outside the workspace {self.root}; use a path inside it or start from another --root."
            )
        for pseudo in PSEUDO_FILESYSTEMS:
            if real == pseudo or pseudo in real.parents:
                raise UserError(
                    f"{shown} is not a regular file but a kernel pseudo-file under {pseudo}; name a source file."
                )
        # The name given and the file it leads to: `notes -> .env` is as secret as `.env`.
        self.secrets.check(shown, real.relative_to(self.root).as_posix())
        lexical = Path(os.path.normpath(candidate))
        if lexical != real and self.root in lexical.parents:
            self.secrets.check(shown, lexical.relative_to(self.root).as_posix())
        return real

    def _named(self, text: str) -> str:
        """The name on disk `text` stands for: itself, or, when no file has that name and
        the name it shows escaped (`bad\\xff.py`, as `display` wrote it) exists, that one."""
        if "\\" not in text:
            return text
        name = unescape_path(text)
        if name == text or os.path.lexists(os.path.join(self.root, text)):
            return text
        return name if os.path.lexists(os.path.join(self.root, name)) else text

    def is_secret(self, path: Path) -> bool:
        """Whether a path inside the root matches a secrets rule (listings skip it)."""
        try:
            rel = path.relative_to(self.root).as_posix()
        except ValueError:
            return False
        return self.secrets.rule_for(rel) is not None

    def display(self, path: Path) -> str:
        """Workspace-relative path for output; absolute when outside (seed 002 path rules).
        A name that is not printable text is escaped (`escape_path`: `bad\\xff.py`);
        `resolve` takes that form back."""
        try:
            return escape_path(path.relative_to(self.root).as_posix() or ".")
        except ValueError:
            return escape_path(str(path))

    def read(self, path: str | os.PathLike[str]) -> tuple[Path, Source]:
        """The resolved path and decoded text of a file; overlays first.

        Raises:
            UserError: a refused path (see `resolve`), a missing file, a directory, a
                device, FIFO or socket, a binary or too large file.
        """
        real = self.resolve(path)
        text = self.overlays.get(real)
        if text is not None:
            return real, Source(text)
        return real, self._decode(real, path)

    def read_bytes(self, path: str | os.PathLike[str]) -> tuple[Path, bytes]:
        """The resolved path and the bytes on disk of a file (no overlay), through `read_beneath`.

        Raises:
            UserError: a refused path (see `resolve`), or see `read_beneath`.
        """
        real = self.resolve(path)
        return real, self._read_bytes(real, path)

    def read_anywhere(self, path: Path, max_bytes: int | None = None) -> bytes:
        """The bytes of a file the editor or a language server names, inside the root or
        not (a library source a definition points into, a file opened elsewhere): inside
        through `read_bytes`, outside opened from `/` without following a symlink at any
        component, secrets refused either way. No overlay.

        Raises:
            UserError: refused, missing, special, or over `max_bytes` (default: the workspace's).
        """
        absolute = Path(os.path.abspath(path))
        if absolute == self.root or self.root in absolute.parents:
            return self.read_bytes(absolute)[1]
        shown = shown_path(path)
        rel = absolute.relative_to(absolute.anchor)
        self.secrets.check(shown, rel.as_posix())
        return read_beneath(Path(absolute.anchor), rel, max_bytes or self.max_bytes, shown)

    def _decode(self, real: Path, shown: str | os.PathLike[str]) -> Source:
        return Source.from_bytes(self._read_bytes(real, shown), name=shown_path(shown), max_bytes=self.max_bytes)

    def _read_bytes(self, real: Path, given: str | os.PathLike[str]) -> bytes:
        shown = shown_path(given)
        if real == self.root:
            raise UserError(f"{shown} is a directory; name a file inside it.")
        return read_beneath(self.root, real.relative_to(self.root), self.max_bytes, shown)

    def outline(self, path: str | os.PathLike[str], filetype: str | None = None) -> tuple[Path, Outline]:
        """Parsed document, reused while the file (or its overlay text) is unchanged."""
        real = self.resolve(path)
        # One lookup: the key and the parsed text come from the same overlay text even if
        # another call changes the overlays meanwhile.
        text = self.overlays.get(real)
        key: object
        if text is not None:
            key = ("overlay", len(text), hash(text), filetype)
        else:
            try:
                info = real.stat()
                key = (info.st_mtime_ns, info.st_size, filetype)
            except OSError:
                key = None
        with self._cache_lock:
            cached = self._cache.get(real)
            if cached is not None and key is not None and cached[0] == key:
                self._cache.move_to_end(real)
                return real, cached[1]
        source = Source(text) if text is not None else self._decode(real, path)
        outline = scan(source, languages.detect(real, filetype))
        if key is not None:
            with self._cache_lock:
                self._cache[real] = (key, outline)
                self._cache.move_to_end(real)
                while len(self._cache) > max(self.cache_limit, 1):
                    self._cache.popitem(last=False)
        return real, outline

    def parsed(self, real: Path, text: str, language: languages.LanguageSpec) -> Outline | None:
        """The parse cache's outline of `real` when it was made from exactly `text` read as
        `language` (another reader of the same text, the fold server, shares it); else None."""
        with self._cache_lock:
            cached = self._cache.get(real)
        if cached is None:
            return None
        outline = cached[1]
        return outline if outline.language is language and outline.source.text == text else None

    def set_overlay(self, path: str | os.PathLike[str], text: str) -> Path:
        """Keep `text` in memory as the content of `path` (an agent overlay); the disk is untouched.

        The file need not exist (an overlay can stand for a new file).

        Raises:
            UserError: a refused path, a directory or special file, text over `max_bytes`
                or that looks binary.
        """
        real = self.resolve(path)
        shown = shown_path(path)
        # Each character is at least one UTF-8 byte and at most four: encode only when unsure.
        if len(text) > self.max_bytes or (
            len(text) * 4 > self.max_bytes and len(text.encode("utf-8", "surrogatepass")) > self.max_bytes
        ):
            raise UserError(
                f"the overlay for {shown} is over the {human_size(self.max_bytes)} limit; "
                "overlay a smaller file or raise the limit with --max-bytes."
            )
        if "\0" in text[:BINARY_SNIFF]:
            raise UserError(f"the overlay for {shown} contains NUL bytes; overlays hold source text only.")
        try:
            info = real.stat()
        except OSError:
            info = None  # a new file: fine, the overlay stands for it
        if info is not None and stat.S_ISDIR(info.st_mode):
            raise UserError(f"{shown} is a directory; an overlay replaces the text of one file.")
        if info is not None and not stat.S_ISREG(info.st_mode):
            raise UserError(f"{shown} is not a regular file but a {file_kind(info.st_mode)}; overlay a source file.")
        self.overlays.agent[real] = text
        return real

    def remove_overlay(self, path: str | os.PathLike[str]) -> bool:
        """Drop the agent overlay of `path`; whether there was one. The editor's buffers stay.

        Raises:
            UserError: a refused path (see `resolve`).
        """
        real = self.resolve(path)
        return self.overlays.agent.pop(real, None) is not None

    def files(
        self,
        under: str | os.PathLike[str] | None = None,
        known_only: bool = True,
        skipped: Callable[[Path, str], None] | None = None,
    ) -> Iterator[Path]:
        """Files below `under` (default the root) not ignored by .gitignore, in name order,
        then overlays standing for files not on disk.

        Skips ALWAYS_SKIPPED directories, symlinks leading outside the root, special files,
        files over LISTING_MAX_BYTES and, with `known_only`, files of no known language.
        `skipped(path, reason)` hears of each file that would be listed but is too big,
        binary or unreadable (SKIP_TOO_BIG, SKIP_BINARY, SKIP_UNREADABLE).

        Raises:
            UserError: `under` leaves the workspace or does not exist.
        """
        start = self.resolve(under) if under is not None else self.root
        if not start.exists() and start not in self.overlays:
            raise UserError(
                f"{shown_path(under or '.')} does not exist; check the path (it is relative to {self.root})."
            )
        if start in self.overlays or start.is_file():
            yield start
            return
        specs: list[tuple[Path, pathspec.GitIgnoreSpec]] = []
        top = self.gitignore_top or self.root
        for parent in [*reversed(start.parents), start]:
            if parent == top or top in parent.parents:
                spec = _gitignore_beneath(top, parent)
                if spec is not None:
                    specs.append((parent, spec))
        shown = shown_path(under or ".")
        with folder_beneath(self.root, start.relative_to(self.root).parts, shown) as folder:
            yield from self._walk(folder, start, specs, known_only, skipped)
        for real in sorted(self.overlays):
            known = not known_only or languages.for_path(real) is not languages.PLAIN
            if known and start in real.parents and self.root in real.parents and not os.path.lexists(real):
                yield real

    def listed_folder(self, folder: Path) -> bool:
        """Whether the listing of the root walks into `folder` (a resolved folder inside the
        root): none of the folders on the way is always skipped, ignored or secret."""
        return self._specs_within(folder) is not None

    def _specs_within(self, folder: Path) -> list[tuple[Path, pathspec.GitIgnoreSpec]] | None:
        """The .gitignore rules that apply inside `folder` (its own included), or None when
        the listing never walks into it."""
        if folder != self.root and self.root not in folder.parents:
            return None
        top = self.gitignore_top or self.root
        specs: list[tuple[Path, pathspec.GitIgnoreSpec]] = []
        for parent in [*reversed(folder.parents), folder]:
            if parent != top and top not in parent.parents:
                continue
            inside = self.root in parent.parents
            if inside and (
                parent.name in ALWAYS_SKIPPED
                or parent in _NOT_WALKED
                or _ignored(parent, True, specs)
                or self.is_secret(parent)
            ):
                return None
            spec = _gitignore_beneath(top, parent)
            if spec is not None:
                specs.append((parent, spec))
        return specs

    def listed_file(self, path: Path) -> str | None:
        """What the root's listing (`files()`) does with the file at `path` (inside the root,
        its folders resolved): None when it lists it; SKIP_TOO_BIG, SKIP_BINARY or
        SKIP_UNREADABLE when it leaves it out for that; "unlisted" when it never would
        (ignored, secret, of no known language, missing, special, or a link leading out)."""
        specs = self._specs_within(path.parent)
        if (
            specs is None
            or _ignored(path, False, specs)
            or self.is_secret(path)
            or languages.for_path(path) is languages.PLAIN
        ):
            return "unlisted"
        try:
            info = os.lstat(path)
        except OSError:
            return "unlisted"
        shown = shown_path(path)
        if stat.S_ISLNK(info.st_mode):
            try:
                target = self.resolve(path)
                with folder_beneath(self.root, target.parent.relative_to(self.root).parts, "") as parent:
                    data = read_at(parent, target.name, shown, LISTING_MAX_BYTES, self.root)
            except (UserError, OSError):
                return "unlisted"
            return SKIP_BINARY if b"\0" in data[:BINARY_SNIFF] else None
        if not stat.S_ISREG(info.st_mode):
            return "unlisted"
        if info.st_size > LISTING_MAX_BYTES:
            return SKIP_TOO_BIG
        try:
            with folder_beneath(self.root, path.parent.relative_to(self.root).parts, shown) as fd:
                head = read_at(fd, path.name, shown, LISTING_MAX_BYTES, self.root, sniff=True)
        except (UserError, OSError):
            return SKIP_UNREADABLE
        return SKIP_BINARY if b"\0" in head else None

    def _walk(
        self,
        fd: int,
        folder: Path,
        specs: list[tuple[Path, pathspec.GitIgnoreSpec]],
        known_only: bool,
        skipped: Callable[[Path, str], None] | None = None,
    ) -> Iterator[Path]:
        """The files below the folder descriptor `fd` (at `folder`); each subfolder is opened
        from its parent's descriptor without following a symlink, as `read_beneath` does."""
        own = _gitignore_at(fd)
        if own is not None and (not specs or specs[-1][0] != folder):
            specs = [*specs, (folder, own)]
        try:
            entries = sorted(os.scandir(fd), key=lambda e: e.name)
        except OSError:
            return
        for entry in entries:
            path = folder / entry.name
            is_dir = entry.is_dir(follow_symlinks=False)
            if is_dir and (entry.name in ALWAYS_SKIPPED or path in _NOT_WALKED):
                continue
            if _ignored(path, is_dir, specs) or self.is_secret(path):
                continue
            if is_dir:
                try:
                    inner = os.open(entry.name, DIR_FLAGS, dir_fd=fd)
                except OSError:
                    continue  # gone, or swapped for a symlink since the listing
                try:
                    yield from self._walk(inner, path, specs, known_only, skipped)
                finally:
                    os.close(inner)
            elif known_only and languages.for_path(path) is languages.PLAIN:
                continue
            elif entry.is_symlink():
                # Listed under its own name when it leads to a file inside the root.
                try:
                    target = self.resolve(path)
                    with folder_beneath(self.root, target.parent.relative_to(self.root).parts, "") as parent:
                        data = read_at(parent, target.name, shown_path(path), LISTING_MAX_BYTES, self.root)
                except (UserError, OSError):
                    continue  # leads out, to a folder, a special or too large file
                if b"\0" not in data[:BINARY_SNIFF]:
                    yield path
                elif skipped is not None:
                    skipped(path, SKIP_BINARY)
            elif entry.is_file(follow_symlinks=False):
                reason = None
                try:
                    if entry.stat(follow_symlinks=False).st_size > LISTING_MAX_BYTES:
                        reason = SKIP_TOO_BIG
                    elif b"\0" in read_at(fd, entry.name, shown_path(path), LISTING_MAX_BYTES, self.root, sniff=True):
                        reason = SKIP_BINARY
                except (UserError, OSError):
                    reason = SKIP_UNREADABLE
                if reason is None:
                    yield path
                elif skipped is not None:
                    skipped(path, reason)


#: Folders a listing never walks into (a workspace rooted at `/`): pseudo-files and devices.
_NOT_WALKED = frozenset({*PSEUDO_FILESYSTEMS, Path("/dev")})


def _gitignore_at(folder: int) -> pathspec.GitIgnoreSpec | None:
    """The .gitignore of a folder descriptor, if it has a readable one."""
    try:
        data = read_at(folder, ".gitignore", ".gitignore", LISTING_MAX_BYTES, Path("."))
    except (UserError, OSError):
        return None
    return pathspec.GitIgnoreSpec.from_lines(data.decode("utf-8", "replace").splitlines())


def _gitignore_beneath(top: Path, folder: Path) -> pathspec.GitIgnoreSpec | None:
    """The .gitignore of `folder` (at or below `top`), opened without following links."""
    try:
        with folder_beneath(top, folder.relative_to(top).parts, shown_path(folder)) as fd:
            return _gitignore_at(fd)
    except UserError:
        return None


def _ignored(path: Path, is_dir: bool, specs: list[tuple[Path, pathspec.GitIgnoreSpec]]) -> bool:
    """Git's rule: the deepest .gitignore with a pattern that matches decides (`!x` re-includes)."""
    for base, spec in reversed(specs):
        rel = path.relative_to(base).as_posix()
        if is_dir:
            rel += "/"
        decision = spec.check_file(rel).include
        if decision is not None:
            return bool(decision)
    return False
