"""A generated source tree for the benches: N small source files (Python, TypeScript, Go,
Rust, Markdown) in nested folders of about ten, under realistic names
(`services/billing-invoice/src/payment/ledger/fetch_user.py`), the same for a given seed."""

from __future__ import annotations

import random
from pathlib import Path

#: Words names are made of (a tuple of whole words: `str.split` of one long string reads worse).
WORDS = tuple(
    " ".join(
        (
            "account address admin alert api archive asset audit auth backup balance batch billing block",
            "bucket buffer build cache calendar campaign card cart catalog channel chart checkout client cluster",
            "comment config connection contact content context cookie coupon credit customer dashboard data",
            "device discount document domain draft email endpoint engine event export feature feed field file",
            "filter folder form gateway graph group handler header history image import index inventory invoice",
            "job key label layout ledger license limit link list locale log manager media member message metric",
            "model module network node notification order owner package page parser partner payment permission",
            "pipeline plan policy pool post preference price product profile project queue quota rate record",
            "region report request resource response role route rule schedule schema search secret segment",
            "session setting shipment signal snapshot source stage status storage stream subscription supplier",
            "task team template tenant theme thread ticket token topic trace transfer user vendor version",
            "view voucher webhook widget worker workflow zone",
        )
    ).split(" ")
)
VERBS: tuple[str, ...] = ("build", "check", "create", "delete", "fetch", "find", "format", "get", "handle", "load")
VERBS += ("merge", "parse", "read", "render", "save", "send", "sync", "update", "validate", "write")
TOPS = ("apps", "libs", "services", "tools", "packages")


def _pascal(*parts: str) -> str:
    return "".join(p.capitalize() for p in parts)


def _source(ext: str, rng: random.Random, a: str, b: str) -> str:
    verb, other = rng.choice(VERBS), rng.choice(WORDS)
    if ext == "py":
        return (
            f'"""{a} {b}."""\n\n\nclass {_pascal(a, b)}:\n    def {verb}_{other}(self, value):\n'
            f"        return value\n\n\ndef {verb}_{a}_{b}(items):\n    return [i for i in items if i]\n"
        )
    if ext == "ts":
        return (
            f"export interface {_pascal(a, b)}Options {{\n  {other}: string;\n}}\n\n"
            f"export class {_pascal(a, b)}Service {{\n  {verb}{_pascal(other)}(id: string): string {{\n"
            f"    return id;\n  }}\n}}\n\n"
            f"export function {verb}{_pascal(a, b)}(x: number): number {{\n  return x;\n}}\n"
        )
    if ext == "go":
        return (
            f"package {a}\n\ntype {_pascal(a, b)} struct {{\n\t{_pascal(other)} string\n}}\n\n"
            f"func (s *{_pascal(a, b)}) {_pascal(verb, other)}() string {{\n\treturn s.{_pascal(other)}\n}}\n\n"
            f"func New{_pascal(a, b)}() *{_pascal(a, b)} {{\n\treturn &{_pascal(a, b)}{{}}\n}}\n"
        )
    if ext == "rs":
        return (
            f"pub struct {_pascal(a, b)} {{\n    pub {other}: String,\n}}\n\nimpl {_pascal(a, b)} {{\n"
            f"    pub fn {verb}_{other}(&self) -> &str {{\n        &self.{other}\n    }}\n}}\n\n"
            f"pub fn {verb}_{a}_{b}(n: u32) -> u32 {{\n    n + 1\n}}\n"
        )
    return f"# {_pascal(a, b)}\n\nHow to {verb} the {a} {b} and its {other}.\n"


def make_tree(dest: Path, count: int, seed: int = 26) -> int:
    """Write `count` small files under `dest` (about 10 a folder, 4-6 levels deep); returns the count."""
    rng = random.Random(seed)
    exts = ("py",) * 4 + ("ts",) * 3 + ("go",) * 2 + ("rs",) + ("md",)
    written = 0
    while written < count:
        top = rng.choice(TOPS)
        project = f"{rng.choice(WORDS)}-{rng.choice(WORDS)}"
        for area in rng.sample(WORDS, 4):
            for sub in rng.sample(WORDS, 5):
                folder = dest / top / project / "src" / area / sub
                folder.mkdir(parents=True, exist_ok=True)
                ext = rng.choice(exts)
                for _ in range(10):
                    if written >= count:
                        return written
                    a, b = rng.choice(WORDS), rng.choice(WORDS)
                    name = f"{a}_{b}.{ext}" if ext in ("py", "rs", "go") else f"{a}-{b}.{ext}"
                    path = folder / name
                    if path.exists():
                        continue
                    path.write_text(_source(ext, rng, a, b), encoding="utf-8")
                    written += 1
    return written
