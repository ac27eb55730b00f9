"""Clojure (also ClojureScript, .cljc, EDN): the namespace, `defn`, `defmacro`,
`def`, protocols, records, types, multimethods; a `defn` docstring is its doc."""

from simple_brief.languages.spec import DocRules, LanguageSpec

SPEC = LanguageSpec(
    "clojure",
    (".clj", ".cljs", ".cljc", ".edn"),
    "tree_sitter_language_pack.bindings.clojure:language",
    comment=";",
    aliases=("clj", "cljs"),
    docs=DocRules(imports=r"(?m)^\s*\(?:?(?:require|use)\s+[\['(]*([\w.\-]+)"),
)
