"""Ruby: modules, classes, methods, constants; `#` comments above a definition are its doc."""

from simple_brief.languages.spec import DocRules, LanguageSpec

SPEC = LanguageSpec(
    "ruby",
    (".rb", ".rake", ".gemspec", ".ru", ".rbw", ".builder", ".jbuilder"),
    "tree_sitter_ruby:language",
    comment="#",
    block_comment=("=begin", "=end"),
    aliases=("rb",),
    checks=("ruby-c",),
    file_names=("Gemfile", "Rakefile", "rakefile", "Vagrantfile", "Puppetfile", "Brewfile", "Guardfile", ".irbrc"),
    docs=DocRules(
        imports=r"""(?m)^\s*require(?:_relative)?\s*\(?\s*['"]([^'"]+)""",
    ),
)
