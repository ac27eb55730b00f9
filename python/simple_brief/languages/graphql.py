"""GraphQL (schemas and operations): types, interfaces, enums, inputs, unions, scalars,
directives, their fields; queries, mutations, subscriptions and fragments."""

from simple_brief.languages.spec import DocRules, LanguageSpec

SPEC = LanguageSpec(
    "graphql",
    (".graphql", ".gql", ".graphqls"),
    "tree_sitter_language_pack.bindings.graphql:language",
    title="GraphQL",
    comment="#",
    docs=DocRules(indexed=False),
)
