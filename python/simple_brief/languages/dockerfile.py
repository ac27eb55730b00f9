"""Dockerfiles: build stages (`FROM image AS name`), build arguments and environment variables."""

from simple_brief.languages.spec import DocRules, LanguageSpec

SPEC = LanguageSpec(
    "dockerfile",
    (".dockerfile",),
    "tree_sitter_dockerfile:language",
    comment="#",
    aliases=("docker", "containerfile"),
    file_names=("Dockerfile", "dockerfile", "Containerfile", "Dockerfile.*", "Containerfile.*"),
    docs=DocRules(indexed=False),
)
