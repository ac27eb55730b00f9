"""The files one refresh of the file store parses (`Batch`): fed one by one while the tree
is walked, parsed by worker processes (one per core) or in this process, stored in the
order they came."""

from __future__ import annotations

import multiprocessing
import pickle
import sqlite3
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path

from simple_brief import languages
from simple_brief.index import store
from simple_brief.index.parse import (
    DocsWanted,
    Parsed,
    copy_of,
    parse_chunk,
    parse_packed,
    read_digest,
    unpack,
    worker_count,
)
from simple_brief.model import ProgressFn

#: Fewer changed files than this are parsed in this process (starting workers costs more).
POOL_MIN_FILES = 200
#: Files per worker task.
CHUNK_FILES = 64
#: Chunks handed to the workers ahead of the one being stored: bounds the parsed results
#: waiting in memory (a chunk's symbol rows and doc items are a few MB pickled; the walk
#: stores nothing, so without a bound every chunk parsed meanwhile waited).
AHEAD_CHUNKS = 32
#: A file to parse: (path relative to the root, the real file's, old content hash, (mtime_ns, size)).
Job = tuple[str, str, str, tuple[int, int]]


class Batch:
    """The files one refresh parses, fed one by one while the tree is walked, stored in
    the order they came.

    Once there are `POOL_MIN_FILES` of them, worker processes (one per core) start on
    chunks of `CHUNK_FILES` while the walk goes on; fewer are parsed in this process at
    `finish`. A file named and sized like one met before (a vendored copy: typeshed in
    two packages, the same schema twice) is read here and, when its content hash is the
    earlier file's, not parsed: it gets the earlier file's rows (`parse.copy_of`).
    Chunks parsed before their turn to be stored, and originals still to be copied, wait
    pickled (bytes take a fraction of the memory of the rows as objects).
    """

    def __init__(self, root: Path, max_bytes: int, docs: DocsWanted, workers: int | None) -> None:
        self.count = workers if workers is not None else worker_count()
        self.root = root
        self.max_bytes = max_bytes
        #: What the workers give besides rows (`parse.DocsWanted`): the docs index's items.
        self.docs = docs
        #: Walk order: a number (the n-th file to parse) or a copy (job, original, hash).
        self.order: list[int | tuple[Job, str, str]] = []
        self.jobs: list[Job] = []
        self.futures: list[Future[bytes]] = []
        #: Chunks taken to be stored so far (`_chunk`).
        self.taken = 0
        self.pool: ProcessPoolExecutor | None = None
        #: The first file of each (name, size): its path, real path and content hash once
        #: read ("?" not yet, "" unreadable).
        self.firsts: dict[tuple[str, int], list[str]] = {}
        #: How many copies still wait for each original, and the originals parsed (pickled).
        self.wanted: dict[str, int] = {}
        self.kept: dict[str, bytes] = {}

    def __enter__(self) -> Batch:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)
            self.pool = None

    def add(self, job: Job) -> None:
        """One file to parse (`Job`)."""
        rel, real_rel, _, (_, size) = job
        key = (rel.rpartition("/")[2], size)
        first = self.firsts.get(key)
        if self.docs is not None and languages.documented(rel):
            pass  # its doc items name its own path and module: parsed, never copied
        elif first is None:
            self.firsts[key] = [rel, real_rel, "?"]
        else:
            if first[2] == "?":
                first[2] = read_digest(self.root, first[1], self.max_bytes) or ""
            digest = read_digest(self.root, real_rel, self.max_bytes) if first[2] else None
            if digest is not None and digest == first[2]:
                self.order.append((job, first[0], digest))
                self.wanted[first[0]] = self.wanted.get(first[0], 0) + 1
                return
        self.order.append(len(self.jobs))
        self.jobs.append(job)
        if self.pool is None and len(self.jobs) >= POOL_MIN_FILES and self.count > 1:
            context = multiprocessing.get_context("forkserver")
            self.pool = ProcessPoolExecutor(max_workers=self.count, mp_context=context)
        if self.pool is not None:
            while len(self.jobs) - len(self.futures) * CHUNK_FILES >= CHUNK_FILES and self._ahead() < AHEAD_CHUNKS:
                self._submit()

    def _ahead(self) -> int:
        """Chunks submitted and not yet taken to be stored."""
        return len(self.futures) - self.taken

    def _submit(self) -> None:
        assert self.pool is not None
        start = len(self.futures) * CHUNK_FILES
        chunk = self.jobs[start : start + CHUNK_FILES]
        self.futures.append(self.pool.submit(parse_packed, str(self.root), chunk, self.max_bytes, self.docs))

    def _chunk(self, number: int) -> list[Parsed]:
        if self.pool is not None:
            chunks = -(-len(self.jobs) // CHUNK_FILES)
            while len(self.futures) < chunks and (len(self.futures) <= number or self._ahead() < AHEAD_CHUNKS):
                self._submit()
            packed = self.futures[number].result()
            self.futures[number] = _DONE  # stored once: free its rows
            self.taken = number + 1
            return unpack(packed)
        start = number * CHUNK_FILES
        return parse_chunk(str(self.root), self.jobs[start : start + CHUNK_FILES], self.max_bytes, self.docs)

    def finish(
        self, conn: sqlite3.Connection, store_parsed: Callable[[list[Parsed]], None], progress: ProgressFn | None
    ) -> None:
        """Parse what is left and store everything (`store_parsed`, `CHUNK_FILES` at a time
        into the index on `conn`), in the order it came."""
        total = len(self.order)
        if not total:
            return
        if progress is not None:
            progress(0, total, "indexing")
        # A first build into an empty table: the indexes are made once at the end (faster
        # than keeping three b-trees current through a million inserts).
        bulk = self.pool is not None and conn.execute("SELECT 1 FROM symbols LIMIT 1").fetchone() is None
        if bulk:
            store.drop_indexes(conn)
        try:
            done = 0
            batch: list[Parsed] = []
            current, parsed = -1, []
            for entry in self.order:
                if isinstance(entry, int):
                    number, at = divmod(entry, CHUNK_FILES)
                    if number != current:
                        current, parsed = number, self._chunk(number)
                    one = parsed[at]
                    if one.rel in self.wanted:
                        self.kept[one.rel] = pickle.dumps(one, protocol=pickle.HIGHEST_PROTOCOL)
                else:
                    one = self._copy(*entry)
                batch.append(one)
                if len(batch) == CHUNK_FILES or done + len(batch) == total:
                    store_parsed(batch)
                    done += len(batch)
                    last, batch = batch[-1].rel, []
                    if progress is not None:
                        progress(done, total, f"indexing {last}")
        finally:
            if bulk:
                if progress is not None:
                    progress(total, total, "indexing: sorting names")
                store.create_indexes(conn)

    def _copy(self, job: Job, original: str, digest: str) -> Parsed:
        """A file whose content hash is `original`'s: its rows, else parsed here."""
        kept = self.kept.get(original)
        self.wanted[original] -= 1
        if not self.wanted[original]:
            self.kept.pop(original, None)
        copied = copy_of(pickle.loads(kept), self.root, job, digest, self.docs) if kept is not None else None
        return copied or parse_chunk(str(self.root), [job], self.max_bytes, self.docs)[0]


#: A stored chunk's place in `Batch.futures`.
_DONE: Future[bytes] = Future()
