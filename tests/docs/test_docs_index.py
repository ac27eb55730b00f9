"""The docs index: qualified ids per language, the persisted SQLite FTS5 database
(incremental, overlays, corruption, concurrency), ranking, libraries, resolve, related.

Real tree-sitter, real SQLite files in tmp_path, real files on disk; no mocks.
"""

from __future__ import annotations

import os
import sqlite3
import textwrap
from pathlib import Path

import pytest

from simple_brief.docs import db, ranking
from simple_brief.docs.index import DocsIndex
from simple_brief.docs.libraries import nvim_runtime_lua
from simple_brief.errors import UserError
from simple_brief.files.workspace import Workspace
from simple_brief.index import docs_index


def write(root: Path, rel: str, text: str) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A small polyglot workspace: a Python package, a Rust crate, a Lua plugin, a Go package."""
    root = tmp_path / "proj"
    write(root, "src/shop/__init__.py", '"""The shop package: carts and prices."""\n')
    write(
        root,
        "src/shop/cart.py",
        '''
        """Shopping carts."""
        from shop.prices import price_of

        __all__ = ["Cart", "checkout"]


        class Base:
            """A thing with a total."""

            def total(self) -> int:
                """The total in cents."""
                return 0


        class Cart(Base):
            """A cart holding items."""

            def add(self, sku: str, qty: int = 1) -> None:
                """Add `qty` of `sku` to the cart."""

            def total(self) -> int:
                """The sum of the prices of everything in the cart."""
                return 0

            def _secret(self) -> None:
                pass


        def checkout(cart: Cart) -> int:
            """Pay for a cart and return the receipt number."""
            return 1


        def helper() -> None:
            """Not in __all__, so private."""
        ''',
    )
    write(
        root,
        "src/shop/prices.py",
        '''
        """Prices."""


        def price_of(sku: str) -> int:
            """The price of one unit of `sku` in cents."""
            return 1


        def get(key: str) -> int:
            """Look a price up by key."""
            return 0
        ''',
    )
    write(root, "crate/Cargo.toml", '[package]\nname = "demo-crate"\nversion = "0.1.0"\n')
    write(
        root,
        "crate/src/lib.rs",
        """
        //! The demo crate.
        pub mod geo;

        /// Adds two numbers.
        pub fn add(a: i32, b: i32) -> i32 { a + b }

        fn private_helper() {}
        """,
    )
    write(
        root,
        "crate/src/geo/mod.rs",
        """
        //! Geometry.

        /// Something with an area.
        pub trait Shape {
            /// The area.
            fn area(&self) -> f64;
        }

        /// A point.
        pub struct Point { pub x: f64 }

        impl Point {
            /// Makes a point.
            pub fn new(x: f64) -> Self { Point { x } }
        }

        impl Shape for Point {
            fn area(&self) -> f64 { 0.0 }
        }
        """,
    )
    write(
        root,
        "lua/myplug/buf.lua",
        """
        --- @brief
        --- Buffer helpers of myplug.

        local M = {}

        --- Show a hover window for the symbol under the cursor.
        --- @see myplug.buf.signature_help
        --- @param opts table|nil
        function M.hover(opts)
        end

        --- Show signature help.
        M.signature_help = function() end

        local function clamp(x) return x end

        return M
        """,
    )
    write(
        root, "lua/myplug/init.lua", "local M = {}\n\n--- Set the plugin up.\nfunction M.setup(opts) end\n\nreturn M\n"
    )
    # Like Neovim's vim/shared.lua: a file that extends a global table and returns it.
    write(root, "lua/myplug/shared.lua", "--- Keys of a table.\nfunction vim.my_keys(t) end\n\nreturn vim\n")
    write(
        root,
        "go/cache/cache.go",
        """
        // Package cache keeps things.
        package cache

        // Cache is a cache.
        type Cache struct {
            items map[string]int
        }

        // Get returns a value.
        func (c *Cache) Get(key string) int { return c.items[key] }

        func (c *Cache) evict() {}
        """,
    )
    return root


def open_index(root: Path, cache: Path) -> DocsIndex:
    return docs_index(Workspace.at(root), cache)


@pytest.fixture
def index(project: Path, tmp_path: Path):
    idx = open_index(project, tmp_path / "cache")
    idx.refresh(force=True)
    yield idx
    idx.close()


def ids(items) -> set[str]:
    return {getattr(i, "item", i).id for i in items}


def rowids(path: Path, rel: str) -> dict[str, tuple[int, str]]:
    with sqlite3.connect(path) as conn:
        rows = conn.execute("SELECT id, rowid, doc FROM items WHERE path = ?", (rel,)).fetchall()
    return {r[0]: (r[1], r[2]) for r in rows}


# ---------------------------------------------------------------- ids per language


def test_python_ids_follow_packages_and_all(index: DocsIndex) -> None:
    cart = index.get("shop.cart.Cart")
    assert cart is not None and cart.kind == "class" and cart.module == "shop.cart" and cart.public
    assert cart.doc.summary == "A cart holding items."
    assert index.get("shop.cart.Cart.add") is not None
    assert index.get("shop.cart.checkout") is not None
    # Private by name, or left out of __all__: not indexed by default.
    assert index.get("shop.cart.Cart._secret") is None
    assert index.get("shop.cart.helper") is None
    assert index.get("shop.cart.Base") is None
    module = index.get("shop")
    assert module is not None and module.kind == "module" and module.doc.summary.startswith("The shop package")


def test_rust_ids_use_crate_and_module_paths(index: DocsIndex) -> None:
    crate = index.get("demo_crate")
    assert crate is not None and crate.kind == "module" and crate.doc.summary == "The demo crate."
    assert index.get("demo_crate::add") is not None
    assert index.get("demo_crate::private_helper") is None
    shape = index.get("demo_crate::geo::Shape")
    assert shape is not None and shape.kind == "trait"
    new = index.get("demo_crate::geo::Point::new")
    assert new is not None and new.kind == "method" and new.module == "demo_crate::geo"
    assert index.get("demo_crate::geo::Point::area") is not None  # trait impl methods are public


def test_lua_ids_are_module_paths(index: DocsIndex) -> None:
    hover = index.get("myplug.buf.hover")
    assert hover is not None and hover.kind == "function" and hover.module == "myplug.buf"
    assert hover.doc.summary.startswith("Show a hover window")
    assert index.get("myplug.buf.signature_help") is not None
    assert index.get("myplug.buf.clamp") is None  # local: private
    assert index.get("myplug.setup") is not None  # init.lua is its folder's module
    keys = index.get("vim.my_keys")  # a global's member keeps its own name
    assert keys is not None and keys.module == "myplug.shared"
    module = index.get("myplug.buf")
    assert module is not None and module.doc.summary.startswith("Buffer helpers")


def test_go_ids_are_package_type_method(index: DocsIndex) -> None:
    get = index.get("cache.Cache.Get")
    assert get is not None and get.kind == "method" and get.doc.summary == "Get returns a value."
    assert index.get("cache.Cache.evict") is None
    package = index.get("cache")
    assert package is not None and package.doc.summary == "Package cache keeps things."


# ---------------------------------------------------------------- persistence and updates


def test_persists_across_restarts_without_reindexing(project: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    first = open_index(project, cache)
    stats = first.refresh(force=True)
    assert stats.files_indexed == 9 and stats.items > 10 and stats.rebuilt is None
    first.close()
    second = open_index(project, cache)
    hits = second.search("checkout")  # answered before any refresh
    assert hits and hits[0].item.id == "shop.cart.checkout"
    again = second.refresh()
    assert again.files_seen == 9 and again.files_indexed == 0
    second.close()


def test_one_changed_file_is_reindexed_alone(index: DocsIndex, project: Path) -> None:
    before_prices = rowids(index.path, "src/shop/prices.py")
    before_cart = rowids(index.path, "src/shop/cart.py")
    path = project / "src/shop/prices.py"
    path.write_text(path.read_text() + '\n\ndef discount(sku: str) -> int:\n    """A discount."""\n    return 0\n')
    stats = index.refresh(force=True)
    assert stats.files_indexed == 1
    assert rowids(index.path, "src/shop/cart.py") == before_cart
    after = rowids(index.path, "src/shop/prices.py")
    assert "shop.prices.discount" in after and set(before_prices) < set(after)
    # Same content, new mtime: hashed, not re-indexed.
    os.utime(path, ns=(1, 1))
    assert index.refresh(force=True).files_indexed == 0


def test_overlay_wins_over_disk(index: DocsIndex, project: Path) -> None:
    path = (project / "src/shop/prices.py").resolve()
    index.workspace.overlays[path] = '"""Prices."""\n\n\ndef unsaved_fn() -> None:\n    """Only in the editor."""\n'
    stats = index.refresh()  # overlays are checked even inside the walk interval
    assert stats.files_indexed == 1
    assert index.get("shop.prices.unsaved_fn") is not None
    assert index.get("shop.prices.price_of") is None
    del index.workspace.overlays[path]
    index.refresh()
    assert index.get("shop.prices.unsaved_fn") is None
    assert index.get("shop.prices.price_of") is not None


def test_removed_file_drops_its_items(index: DocsIndex, project: Path) -> None:
    (project / "go/cache/cache.go").unlink()
    stats = index.refresh(force=True)
    assert stats.files_removed == 1
    assert index.get("cache.Cache.Get") is None
    assert not index.search("Cache", library="workspace", kind="struct")


def test_the_next_refresh_sees_a_change_and_force_walks_again(index: DocsIndex, project: Path) -> None:
    write(project, "src/shop/extra.py", 'def fresh() -> None:\n    """New."""\n')
    assert index.refresh().files_indexed == 1  # the file store's stat walk: no interval between walks
    assert index.get("shop.extra.fresh") is not None
    assert index.refresh(force=True).files_indexed == 0


# ---------------------------------------------------------------- damage and concurrency


@pytest.mark.parametrize("damage", ["garbage", "truncated", "old_schema"])
def test_damaged_database_is_rebuilt(project: Path, tmp_path: Path, damage: str) -> None:
    cache = tmp_path / "cache"
    idx = open_index(project, cache)
    idx.refresh(force=True)
    path = idx.path
    idx.close()
    for suffix in ("-wal", "-shm"):
        Path(str(path) + suffix).unlink(missing_ok=True)
    if damage == "garbage":
        path.write_bytes(b"this is not a database at all \x00\xff" * 300)
    elif damage == "truncated":
        data = path.read_bytes()
        path.write_bytes(data[: len(data) // 2])
    else:
        with sqlite3.connect(path) as conn:
            conn.execute("UPDATE meta SET value = '0' WHERE key = 'schema_version'")
    again = open_index(project, cache)
    assert again.search("checkout") == [] or damage == "truncated"
    stats = again.refresh(force=True)
    assert stats.rebuilt is not None
    assert stats.files_indexed == 9
    assert again.search("checkout")[0].item.id == "shop.cart.checkout"
    again.close()


def test_reader_answers_while_another_writer_holds_the_lock(index: DocsIndex, project: Path, tmp_path: Path) -> None:
    blocker = sqlite3.connect(index.path, isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")
    blocker.execute("DELETE FROM meta WHERE key = 'nothing'")
    try:
        other = open_index(project, tmp_path / "cache")  # a second process's index on the same DB
        assert other.search("checkout")[0].item.id == "shop.cart.checkout"
        write(project, "src/shop/late.py", 'def late() -> None:\n    """Late."""\n')
        stats = other.refresh(force=True)
        assert stats.skipped is not None and stats.files_indexed == 0
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()
    assert other.refresh(force=True).files_indexed == 1
    assert index.get("shop.late.late") is not None  # the first index sees the other's write
    other.close()


# ---------------------------------------------------------------- search


def test_a_query_naming_a_function_finds_it_first(project: Path, tmp_path: Path) -> None:
    lines = ['"""Many parsers."""\n']
    for i in range(300):
        lines.append(
            f'\ndef parse_part_{i}(text: str) -> int:\n    """Parse part {i} of a header."""\n    return {i}\n'
        )
    lines.append('\ndef parse_header(text: str) -> int:\n    """Read a header."""\n    return 0\n')
    lines.append('\ndef crc(data: bytes) -> int:\n    """Compute the checksum of some bytes."""\n    return 0\n')
    write(project, "src/shop/parsers.py", "".join(lines))
    idx = open_index(project, tmp_path / "cache")
    idx.refresh(force=True)
    assert idx.search("parse_header")[0].item.id == "shop.parsers.parse_header"
    assert idx.search("parseHeader")[0].item.id == "shop.parsers.parse_header"
    assert idx.search("shop.parsers.parse_header")[0].item.id == "shop.parsers.parse_header"
    hits = idx.search("checksum")
    assert hits[0].item.id == "shop.parsers.crc" and "checksum" in hits[0].snippet
    scores = [h.score for h in idx.search("parse header", limit=20)]
    assert scores == sorted(scores, reverse=True) and len(scores) == 20
    idx.close()


def test_when_any_word_matches_too_many_items_to_rank_every_word_but_one_still_ranks(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = ['"""Many parsers."""\n']
    lines += [
        f'\ndef parse_part_{i}(text: str) -> int:\n    """Parse part {i} of a header."""\n    return 0\n'
        for i in range(300)
    ]
    lines.append('\ndef crc(data: bytes) -> int:\n    """Compute the checksum of some bytes."""\n    return 0\n')
    write(project, "src/shop/parsers.py", "".join(lines))
    idx = open_index(project, tmp_path / "cache")
    idx.refresh(force=True)
    # No item has all four words. The any-word stage must rank 300 `header` items; with its
    # budget spent at once (as with 300,000 items) SQLite interrupts it for real.
    monkeypatch.setattr(ranking, "FALLBACK_BUDGET_MS", -1.0)
    hits = idx.search("compute checksum header bytes")
    assert [h.item.id for h in hits][:1] == ["shop.parsers.crc"]
    idx.close()


def test_words_of_params_returns_and_raises_find_the_item(project: Path, tmp_path: Path) -> None:
    write(
        project,
        "src/shop/tax.py",
        'def levy(amount: float, rate: float) -> float:\n    """Charge the duty.\n\n    Args:\n'
        "        amount: the gross amount.\n        rate: the excise percentage.\n\n    Returns:\n"
        '        The surcharge owed.\n\n    Raises:\n        OverflowError: when unbounded.\n    """\n',
    )
    idx = open_index(project, tmp_path / "cache")
    idx.refresh(force=True)
    for words in ("excise percentage", "surcharge owed", "unbounded"):
        assert [h.item.id for h in idx.search(words)][:1] == ["shop.tax.levy"], words
    idx.close()


@pytest.mark.parametrize(
    "query",
    ['"', "*", "AND", "a:b", "(", 'x" OR', "NEAR(a b", "-x ^y", "col:*", "'", "{}", "parseHeader cart", "getX AND ("],
)
def test_fts_syntax_in_queries_does_not_raise(index: DocsIndex, query: str) -> None:
    assert isinstance(index.search(query), list)
    assert isinstance(index.resolve(query), list)
    assert index.get("shop.cart.Cart") is not None  # nothing was taken for damage


def test_filters_by_kind_and_module(index: DocsIndex) -> None:
    methods = index.search("total", kind="method")
    assert methods and all(h.item.kind == "method" for h in methods)
    in_geo = index.search("area", module="demo_crate::geo")
    assert in_geo and all(h.item.module.startswith("demo_crate::geo") for h in in_geo)
    assert not index.search("area", module="shop")


def test_camel_and_snake_parts_match(project: Path, tmp_path: Path) -> None:
    write(
        project,
        "src/shop/acc.py",
        'def get_unchecked() -> None:\n    """A."""\n\n\ndef fetchUnchecked() -> None:\n    """B."""\n',
    )
    idx = open_index(project, tmp_path / "cache")
    idx.refresh(force=True)
    assert {"shop.acc.get_unchecked", "shop.acc.fetchUnchecked"} <= ids(idx.search("unchecked"))
    assert "shop.acc.get_unchecked" in ids(idx.search("get"))
    idx.close()


# ---------------------------------------------------------------- libraries


def list_folders(monkeypatch: pytest.MonkeyPatch, where: Path, *folders: Path) -> None:
    """List `folders` under [docs] in a user config of the test's own."""
    user = where / "user-config.toml"
    user.write_text("[docs]\nfolders = [" + ", ".join(f'"{f}"' for f in folders) + "]\n", encoding="utf-8")
    monkeypatch.setenv("SIMPLE_BRIEF_CONFIG", str(user))


def test_folder_library_is_searchable_alone_or_with_the_workspace(
    index: DocsIndex, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lib = tmp_path / "vendorlib"
    list_folders(monkeypatch, tmp_path, lib)
    write(lib, "vendorlib/__init__.py", '"""Vendored."""\n')
    write(lib, "vendorlib/io.py", 'def checkout_file(p: str) -> None:\n    """Check a file out of the store."""\n')
    (lib / "blob.py").write_bytes(b"\x00\x01binary")
    seen: list[tuple[float, float | None, str]] = []
    stats = index.index_library(str(lib), progress=lambda d, t, m: seen.append((d, t, m)))
    assert stats.files_indexed == 2 and seen and seen[-1][0] == seen[-1][1]
    assert ids(index.search("checkout", library="vendorlib")) == {"vendorlib.io.checkout_file"}
    both = ids(index.search("checkout"))
    assert {"vendorlib.io.checkout_file", "shop.cart.checkout"} <= both
    assert "vendorlib" in [info.name for info in index.libraries()]
    assert index.index_library(str(lib)).files_indexed == 0
    with pytest.raises(UserError):
        index.index_library("no-such-library")
    with pytest.raises(UserError):
        index.search("x", library="never-indexed")


def test_neovim_runtime_library(index: DocsIndex) -> None:
    if nvim_runtime_lua() is None:
        pytest.skip("no Neovim runtime on this machine")
    stats = index.index_library("nvim")
    assert stats.files_indexed > 50 and stats.items > 1000
    hits = index.search("hover", library="nvim", kind="function")
    assert "vim.lsp.buf.hover" in ids(hits)
    assert index.resolve("hover", context="vim.lsp.buf", library="nvim")[0].id == "vim.lsp.buf.hover"
    listing = index.list_module("vim.lsp", library="nvim")
    assert "vim.lsp.buf" in listing.submodules


# ---------------------------------------------------------------- resolve, list, related


def test_resolve_prefers_the_context_module_and_its_imports(index: DocsIndex, project: Path) -> None:
    write(project, "src/shop/store.py", 'def get(key: str) -> str:\n    """Store lookup."""\n    return key\n')
    write(
        project,
        "src/shop/views.py",
        'from shop.prices import get\n\n\ndef show() -> None:\n    """Show."""\n',
    )
    index.refresh(force=True)
    assert [i.id for i in index.resolve("get", context="shop.store")][:2] == ["shop.store.get", "shop.prices.get"]
    assert index.resolve("get", context="src/shop/views.py")[0].id == "shop.prices.get"
    assert index.resolve("shop.store.get")[0].id == "shop.store.get"
    assert index.resolve("prices.get")[0].id == "shop.prices.get"
    assert index.resolve("Point::new")[0].id == "demo_crate::geo::Point::new"
    assert index.resolve("nothing_like_this") == []


def test_list_module(index: DocsIndex) -> None:
    listing = index.list_module("shop")
    assert listing.module is not None and listing.module.id == "shop"
    assert {"shop.cart", "shop.prices"} <= set(listing.submodules)
    cart = index.list_module("shop.cart")
    assert [i.id for i in cart.items] == ["shop.cart.Cart", "shop.cart.checkout"]


def test_related_reasons(index: DocsIndex) -> None:
    hover = {r.item.id: r for r in index.related("myplug.buf.hover")}
    assert hover["myplug.buf.signature_help"].reason == "see_also"
    assert hover["myplug.buf.signature_help"].relevance == 1.0
    area = {r.item.id: r for r in index.related("demo_crate::geo::Point::area")}
    assert area["demo_crate::geo::Shape::area"].reason == "implements"
    point = {r.item.id: r for r in index.related("demo_crate::geo::Point")}
    assert point["demo_crate::geo::Shape"].reason == "implements"
    cart = {r.item.id: r for r in index.related("shop.cart.Cart.add", limit=20)}
    assert cart["shop.cart.Cart.total"].reason == "same_module"
    prices = {r.item.id: r for r in index.related("shop.prices.price_of")}
    assert prices["shop.prices.get"].reason in ("same_module", "similar_signature")
    relevances = [r.relevance for r in index.related("shop.cart.Cart.add")]
    assert relevances == sorted(relevances, reverse=True)
    assert index.related("no.such.item") == []


def test_similar_signature(project: Path, tmp_path: Path) -> None:
    write(project, "src/other/a.py", 'def load_config(path: str, strict: bool = False) -> dict:\n    """A."""\n')
    write(project, "src/third/b.py", 'def read_config(path: str, strict: bool = False) -> dict:\n    """B."""\n')
    idx = open_index(project, tmp_path / "cache")
    idx.refresh(force=True)
    related = {r.item.id: r for r in idx.related("other.a.load_config")}
    assert related["third.b.read_config"].reason == "similar_signature"
    assert 0.3 <= related["third.b.read_config"].relevance <= 0.7
    idx.close()


def test_cache_dir_from_the_environment(project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SIMPLE_BRIEF_CACHE_DIR", str(tmp_path / "envcache"))
    idx = docs_index(Workspace.at(project))
    assert idx.path.parent == tmp_path / "envcache"
    assert db.db_path(Workspace.at(project).root, tmp_path / "x").parent == tmp_path / "x"
    idx.close()


def test_unwritable_cache_dir_is_a_user_error(project: Path, tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the cache folder should be")
    with pytest.raises(UserError, match="SIMPLE_BRIEF_CACHE_DIR"):
        docs_index(Workspace.at(project), blocker / "cache")


def test_private_items_on_request(project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cache = tmp_path / "cache"
    first = open_index(project, cache)
    first.refresh(force=True)
    first.close()
    monkeypatch.setattr(DocsIndex, "include_private", True)
    idx = open_index(project, cache)
    stats = idx.refresh(force=True)
    assert stats.rebuilt is not None and "include_private" in stats.rebuilt
    helper = idx.get("shop.cart.helper")
    assert helper is not None and not helper.public
    assert idx.get("myplug.buf.clamp") is not None
    idx.close()


@pytest.mark.parametrize(
    ("language", "rel", "text", "expected"),
    [
        ("java", "src/a/B.java", "package org.acme.shop;\n\nclass B {}\n", "org.acme.shop"),
        ("kotlin", "src/a/B.kt", "// note\npackage org.acme.shop\n\nclass B\n", "org.acme.shop"),
        ("scala", "src/a/B.scala", "package org.acme.shop\nobject B\n", "org.acme.shop"),
    ],
)
def test_a_package_line_names_the_module_with_or_without_a_semicolon(
    language: str, rel: str, text: str, expected: str
) -> None:
    from simple_brief.docs.modules import module_id

    assert module_id(rel, language, text=text) == expected
