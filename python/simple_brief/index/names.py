"""The distinct symbol names of an index, in memory, and which of them can match a query.

`symbol_search.score` accepts a name when the query is a substring of it, when the
query's words are prefixes of its words in order, when the query starts its initials,
or when the two are near (rapidfuzz ratio of their words). Each rule gives a cheap
superset of candidates here (`Names.lookup`); `score` then decides on the candidates:

- substring: an in-memory SQLite FTS5 trigram index of the lower-case names, each
  behind a mark (`_Trigrams`): the names holding the query's two rarest trigrams,
  checked in one string of every lower-case name; those starting with it are found by
  the mark. Queries of 1-2 characters read that string (`str.find`; a name is found
  from an offset by bisection). Names holding the query past their start, whose words
  are not the query's, match for sure and rank at most `symbol_search.INNER_BEST`: they
  come apart (`Lookup.inner`), to be counted, and ranked only when they could be shown;
- word prefixes in order: every query word must start a word of the name, so the names
  are those all the query words' postings share (a sorted vocabulary of name words,
  each with the names that use it; the rarest word's first);
- initials: names whose initials start with the query, the same way as substrings;
- near: `rapidfuzz.process.extract` over the distinct word strings of the names whose
  length allows a ratio of 80 (2·min/(sum) >= 0.8: between 2/3 and 3/2 of the query's)
  and that share enough characters with the query (`_CharBags`: the ratio is
  200·LCS/(l1+l2), and the longest common subsequence is at most the characters the two
  have in common, counted with repeats); rapidfuzz decides on those few.

Names added since the strings were built are kept in a short list and scored one by
one; names no longer used stay until the next rebuild (their count is 0).
"""

from __future__ import annotations

import logging
import math
import sqlite3
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import accumulate, repeat
from operator import itemgetter

from rapidfuzz import fuzz, process

from simple_brief.index.symbol_search import FUZZY_THRESHOLD, words

log = logging.getLogger(__name__)

#: Separator of the joined strings (no name holds it).
SEP = "\0"
#: Marks the start of each item in the trigram index (`_Trigrams`).
MARK = "\x01"
#: Sorts after every word that starts with a given one (words are ASCII letters and digits).
_AFTER = chr(0x10FFFF)
#: Rebuild the joined strings when this many names were added since.
REBUILD_AFTER = 2000


class _Trigrams:
    """The items holding a needle, or starting with it, from an in-memory SQLite FTS5
    trigram index (contentless, no positions) of the items each behind MARK: the rows
    holding the needle's two rarest trigrams (of MARK and the needle: starting with it).
    Exact for one trigram without MARK in the needle, else a superset; items that cannot
    be stored (not UTF-8) are listed apart. The caller checks those and the supersets."""

    def __init__(self, items: list[str]) -> None:
        #: Items not stored (the caller always looks at them).
        self.odd: list[int] = []
        # One connection for the table, used under the index's lock (any thread).
        self._db = sqlite3.connect(":memory:", check_same_thread=False)
        self._db.execute(
            "CREATE VIRTUAL TABLE grams USING fts5(item,"
            " tokenize='trigram case_sensitive 1', detail='none', content='', columnsize=0)"
        )
        # Built once, never changed: no merging of segments on the way (a third faster).
        self._db.execute("INSERT INTO grams(grams, rank) VALUES('automerge', 0)")
        self._db.executemany("INSERT INTO grams(rowid, item) VALUES(?, ?)", self._rows(items))
        self._db.commit()
        self._db.execute("CREATE VIRTUAL TABLE temp.counts USING fts5vocab(main, grams, 'row')")
        #: How many items hold each trigram (a needle is looked up by its rarest two).
        self._docs: dict[str, int] = dict(self._db.execute("SELECT term, doc FROM temp.counts"))
        self._db.execute("DROP TABLE temp.counts")

    def _rows(self, items: list[str]) -> Iterator[tuple[int, str]]:
        for i, item in enumerate(items):
            if not item.isascii():
                try:
                    item.encode()
                except UnicodeEncodeError:
                    self.odd.append(i)
                    continue
            yield i, MARK + item

    def holding(self, needle: str) -> list[int]:
        """The stored items holding the two rarest trigrams of `needle` (3 characters or
        more, or MARK and 2 or more: a superset of the items starting with the rest)."""
        if not needle.isascii():
            try:
                needle.encode()
            except UnicodeEncodeError:
                return []  # no stored item holds text that is not UTF-8
        docs = self._docs
        grams = sorted({needle[k : k + 3] for k in range(len(needle) - 2)}, key=lambda g: docs.get(g, 0))[:2]
        if not docs.get(grams[0]):
            return []
        return self._matching(" AND ".join('"' + g.replace('"', '""') + '"' for g in grams))

    def holding_pair(self, pair: str) -> list[int]:
        """The stored items holding `pair` (2 characters, no MARK): those holding a trigram
        that holds it (exact: every item of 2 characters or more is stored as 3 or more)."""
        terms = [g for g in self._docs if pair in g]
        return self._matching(" OR ".join('"' + g.replace('"', '""') + '"' for g in terms)) if terms else []

    def _matching(self, query: str) -> list[int]:
        return list(
            map(itemgetter(0), self._db.execute("SELECT rowid FROM grams WHERE grams MATCH ?", (query,)).fetchall())
        )


class _Joined:
    """Strings joined by SEP, and where each starts; with `grams`, a trigram index of them
    too (`_Trigrams`: a needle's items found without reading the whole text)."""

    def __init__(self, items: list[str], grams: bool = False) -> None:
        self.text = SEP + SEP.join(items) + SEP
        #: Where each item starts, and one more (the end of the text).
        self.starts = array("q", accumulate((len(item) + 1 for item in items), initial=1))
        self._grams: _Trigrams | None = None
        if grams:
            try:
                self._grams = _Trigrams(items)
            except (sqlite3.Error, UnicodeError) as exc:  # no FTS5 trigram tokenizer (SQLite < 3.34)
                log.info("no trigram index of names (%s); searching the joined text", exc)

    def containing(self, needle: str) -> tuple[list[int], list[int]]:
        """Indexes of the items that start with `needle`, and of those that hold it further on."""
        if not needle or SEP in needle:
            return [], []
        find, starts = self.text.find, self.starts
        if self._grams is not None and len(needle) >= 3:
            held = self._grams.holding(needle)
            if len(needle) > 3 or MARK in needle:
                held = [i for i in held if find(needle, starts[i], starts[i + 1]) != -1]
            held.extend(i for i in self._grams.odd if find(needle, starts[i], starts[i + 1]) != -1)
            starting = self.starting(needle)
            return list(starting), list(set(held).difference(starting))
        if self._grams is not None and len(needle) == 2 and MARK not in needle:
            held = self._grams.holding_pair(needle)
            held.extend(i for i in self._grams.odd if find(needle, starts[i], starts[i + 1]) != -1)
            starting = self.starting(needle)
            return list(starting), list(set(held).difference(starting))
        first: list[int] = []
        inner: list[int] = []
        at = find(needle)
        while at != -1:
            i = bisect_right(starts, at) - 1
            (first if at == starts[i] else inner).append(i)
            at = find(needle, starts[i + 1])
        return first, inner

    def starting(self, prefix: str) -> set[int]:
        """Indexes of the items that start with `prefix`."""
        if not prefix or SEP in prefix:
            return set()
        text, starts = self.text, self.starts
        if self._grams is not None and len(prefix) >= 2:
            maybe = self._grams.holding(MARK + prefix) + self._grams.odd
            return {i for i in maybe if text.startswith(prefix, starts[i])}
        found: set[int] = set()
        at = text.find(SEP + prefix)
        while at != -1:
            found.add(bisect_right(starts, at + 1) - 1)
            at = text.find(SEP + prefix, at + 1)
        return found


#: Byte tables: `_IS[c]` maps byte c to 1, others to 0; `_AT_LEAST[j]` maps bytes >= j to
#: "1", others to "0".
_IS = [bytes(v == c for v in range(256)) for c in range(256)]
_AT_LEAST = [bytes(49 if v >= j else 48 for v in range(256)) for j in range(256)]


class _CharBags:
    """The character counts of strings sorted by length, as bitsets, to find the strings
    that may reach a rapidfuzz ratio of `cutoff` with a query (a superset; rapidfuzz
    decides).

    For each length and character, `levels[j - 1]` has bit i set when the i-th string of
    that length holds the character at least j times. A query's characters (with repeats)
    missing from a string are counted per string in a few bitsets at once (a saturating
    counter); a string of length m keeps up when at most L - ceil(cutoff·(L+m)/200) of the
    query's L characters are missing from it. Strings that are not ASCII, or longer than
    255 characters, are always kept (rare: name words are ASCII letters and digits).
    """

    def __init__(self, items: list[str], cutoff: int) -> None:
        self.cutoff = cutoff
        #: length -> (index of its first string, how many, character code -> levels, always kept)
        self._groups: dict[int, tuple[int, int, dict[int, list[int]], int]] = {}
        start = 0
        while start < len(items):
            m = len(items[start])
            end = bisect_right(items, m, lo=start, key=len)
            self._groups[m] = (start, end - start, *self._group(items[start:end], m))
            start = end

    @staticmethod
    def _group(strings: list[str], m: int) -> tuple[dict[int, list[int]], int]:
        """The levels of each character of strings of length `m`, and those always kept."""
        n = len(strings)
        if m > 255:
            return {}, (1 << n) - 1
        always = 0
        for i, s in enumerate(strings):
            if not s.isascii():
                always |= 1 << i
        text = "".join(strings).encode("ascii", "replace")
        # Column o holds the o-th character of every string: summing a character's
        # indicator bytes over the columns counts it per string (one byte each, m <= 255).
        columns = [text[o::m] for o in range(m)]
        levels: dict[int, list[int]] = {}
        for code in set(text):
            hit = _IS[code]
            total = 0
            for column in columns:
                total += int.from_bytes(column.translate(hit), "little")
            counts = total.to_bytes(n, "little")
            levels[code] = [int(counts.translate(_AT_LEAST[j])[::-1], 2) for j in range(1, max(counts) + 1)]
        return levels, always

    def near(self, query: str, shortest: int, longest: int) -> list[int]:
        """Indexes of the strings of length `shortest`..`longest` that may reach the cutoff."""
        size = len(query)
        wanted: dict[int, int] = {}
        for ch in query:
            code = ord(ch)
            wanted[code if code < 128 else -1] = wanted.get(code if code < 128 else -1, 0) + 1
        out: list[int] = []
        for m in range(shortest, longest + 1):
            group = self._groups.get(m)
            if group is None:
                continue
            start, n, levels, always = group
            allowed = size - -(-self.cutoff * (size + m) // 200)  # missing characters allowed
            if allowed < 0:
                kept = always
            else:
                full = (1 << n) - 1
                over = [0] * (allowed + 1)  # over[k]: strings missing more than k characters
                for code, repeats in wanted.items():
                    have = levels.get(code, ())
                    for j in range(repeats):
                        missing = full ^ have[j] if j < len(have) else full
                        if missing:
                            for k in range(allowed, 0, -1):
                                over[k] |= over[k - 1] & missing
                            over[0] |= missing
                kept = (full & ~over[allowed]) | always
            if kept:
                bits = bin(kept)[:1:-1]
                at = bits.find("1")
                while at != -1:
                    out.append(start + at)
                    at = bits.find("1", at + 1)
        return out


@dataclass
class Lookup:
    """The names a query may match: `scored` are to be ranked by `score` (some may not
    match); `inner` match for sure, each with a score of at most
    `symbol_search.INNER_BEST` (they hold the query after their first character, their
    words are not the query's, and the query has no dot), so a caller showing the best
    few ranks them only when they could be among those."""

    scored: list[str]
    #: Indexes of names (`Names.names_of`).
    inner: list[int]


class Names:
    """Distinct names with how many indexed symbols carry each, and in which files."""

    def __init__(self, rows: Iterable[tuple[str, str, int]]) -> None:
        """`rows`: (name, its words joined by spaces, file id) of every stored symbol."""
        #: The file ids of each name's symbols (one entry per symbol; its length is the count).
        self.files: dict[str, list[int]] = {}
        self._ids: dict[int, int] = {}
        spaced: dict[str, str] = {}
        ids = self._ids
        for name, joined, file in rows:
            file = ids.setdefault(file, file)  # one int object per file
            known = self.files.get(name)
            if known is None:
                self.files[name] = [file]
                spaced[name] = joined
            else:
                known.append(file)
        self._build(spaced)

    def count(self, name: str) -> int:
        """How many indexed symbols carry `name`."""
        return len(self.files.get(name, ()))

    def _build(self, spaced: dict[str, str] | None = None) -> None:
        self._names = list(self.files)
        #: Each name's list of file ids (the lists of `files`, kept while a name is unused).
        self._lists = [self.files[n] for n in self._names]
        self._lower = _Joined([n.lower() for n in self._names], grams=True)
        if spaced is None:
            self._words = [" ".join(words(n)) for n in self._names]
        else:
            self._words = [spaced[n] for n in self._names]
        self._initials = _Joined(["".join(w[0] for w in j.split(" ")) if j else "" for j in self._words], grams=True)
        #: The names carrying each word string.
        self._by_words: dict[str, list[int]] = {}
        by_words = self._by_words
        for i, w in enumerate(self._words):
            by_words.setdefault(w, []).append(i)
        #: Distinct word strings by length, and the names carrying each.
        self._word_list = sorted(by_words, key=len)
        self._word_names = [by_words[w] for w in self._word_list]
        self._word_lengths = [len(w) for w in self._word_list]
        self._bags = _CharBags(self._word_list, FUZZY_THRESHOLD)
        vocabulary: dict[str, list[int]] = {}
        for i, joined in enumerate(self._words):
            for word in set(joined.split(" ")) if joined else ():
                vocabulary.setdefault(word, []).append(i)
        #: Distinct words of the names, sorted, and the names using each.
        self._vocab = sorted(vocabulary)
        self._postings = [vocabulary[w] for w in self._vocab]
        #: How many postings come before each word's (a prefix's users count at a glance).
        self._posted = array("q", accumulate(map(len, self._postings), initial=0))
        self._position = {n: i for i, n in enumerate(self._names)}
        self._added: list[str] = []
        self._added_set: set[str] = set()

    def add(self, names: Iterable[str], file: int) -> None:
        """Count one more symbol in `file` for each name (the file was indexed)."""
        file = self._ids.setdefault(file, file)
        for name in names:
            known = self.files.get(name)
            if known is None:
                i = self._position.get(name)
                known = self.files[name] = self._lists[i] if i is not None else []
            known.append(file)
            if name not in self._position and name not in self._added_set:
                self._added_set.add(name)
                self._added.append(name)
        if len(self._added) > REBUILD_AFTER:
            spaced = {n: self._words[i] for n, i in self._position.items() if n in self.files}
            spaced.update((n, " ".join(words(n))) for n in self._added if n in self.files)
            self._build(spaced)

    def remove(self, names: Iterable[str], file: int) -> None:
        """Count one symbol in `file` less for each name (the file's rows were dropped)."""
        for name in names:
            files = self.files.get(name)
            if files is not None:
                files.remove(file)
                if not files:
                    del self.files[name]

    def tally(self, names: Iterable[str], inner: Iterable[int] = ()) -> tuple[int, int]:
        """How many symbols carry these names (and the names of these indexes, see
        `Lookup.inner`), in how many files."""
        lists = list(map(self.files.get, names, repeat(())))
        lists.extend(map(self._lists.__getitem__, inner))
        return sum(map(len, lists)), len(set().union(*lists))

    def names_of(self, ids: Iterable[int]) -> list[str]:
        """The names of these indexes (`Lookup.inner`)."""
        return [self._names[i] for i in ids]

    def candidates(self, query: str) -> list[str]:
        """Names `score(query, name)` may accept (a superset; never misses one)."""
        found = self.lookup(query)
        return found.scored + self.names_of(found.inner)

    def lookup(self, query: str) -> Lookup:
        """The names `score(query, name)` may accept (a superset; never misses one), with
        those known to match at most `INNER_BEST` apart (see `Lookup`)."""
        q = query.strip().lower()
        qw = words(query)
        found: set[int] = set()
        inner: list[int] = []  # names holding the query past their start
        if q:
            first, inner = self._lower.containing(q)
            found.update(first)
            if "." in q or "::" in q:
                found.update(inner)  # the dotted rule: scored
            else:
                found.update(self._by_words.get(" ".join(qw), ()))  # the same words (97): scored
        if qw and (len(qw) > 1 or qw[0] != q):
            found |= self._starting_words(qw)
        if len(q) >= 2:
            found |= self._initials.starting(q)
        if len(q) >= 3:  # a query without words is near the names without words (ratio of "" and "")
            found |= self._near(" ".join(qw))
        names, files, lists = self._names, self.files, self._lists
        out = [names[i] for i in found]
        out.extend(self._added)
        return Lookup([n for n in out if n in files], list(filter(lists.__getitem__, set(inner).difference(found))))

    def _near(self, joined: str, plain: bool = False) -> set[int]:
        """Names whose words have a rapidfuzz ratio of at least FUZZY_THRESHOLD with `joined`
        (`plain`: compared with every word string of a length that allows it, the tests' reference)."""
        shortest, longest = math.floor(len(joined) * 2 / 3), math.ceil(len(joined) * 3 / 2)
        if plain:
            near: Sequence[int] = range(
                bisect_left(self._word_lengths, shortest), bisect_right(self._word_lengths, longest)
            )
        else:
            near = self._bags.near(joined, shortest, longest)
        hits = process.extract(
            joined, [self._word_list[i] for i in near], scorer=fuzz.ratio, score_cutoff=FUZZY_THRESHOLD, limit=None
        )
        found: set[int] = set()
        for _, _, i in hits:
            found.update(self._word_names[near[i]])
        return found

    def _starting_words(self, query_words: tuple[str, ...]) -> set[int]:
        """Names where each query word starts one of the name's words: the users of the word
        used least, then, for each other word, the users of it among those (the postings
        intersected, or each name's words looked at when those are far fewer)."""
        vocab, postings, spaced = self._vocab, self._postings, self._words
        spans = []
        for w in set(query_words):
            lo, hi = bisect_left(vocab, w), bisect_left(vocab, w + _AFTER)
            spans.append((self._posted[hi] - self._posted[lo], lo, hi, w))
        spans.sort()
        _, lo, hi, _ = spans[0]
        common: set[int] = set().union(*postings[lo:hi])
        for size, lo, hi, w in spans[1:]:
            if not common:
                break
            if size > 8 * len(common):
                common = {i for i in common if any(x.startswith(w) for x in spaced[i].split(" "))}
            else:
                common.intersection_update(set().union(*postings[lo:hi]))
        return common

    def containing(self, needle: str) -> list[str]:
        """Names whose lower-case form contains `needle` (lower case)."""
        first, inner = self._lower.containing(needle)
        out = [self._names[i] for i in first + inner]
        out.extend(n for n in self._added if needle in n.lower())
        return [n for n in out if n in self.files]

    def words_of(self, name: str) -> tuple[str, ...]:
        """`symbol_search.words(name)`, from the table when the name is in it (no regex)."""
        i = self._position.get(name)
        if i is None:
            return words(name)
        joined = self._words[i]
        return tuple(joined.split(" ")) if joined else ()
