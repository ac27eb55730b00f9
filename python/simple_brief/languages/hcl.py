"""HCL and Terraform: blocks named by their type and labels, as terraform-ls names them."""

from simple_brief.languages.spec import DocRules, LanguageSpec

SPEC = LanguageSpec(
    "hcl",
    (".hcl", ".tf", ".tfvars"),
    "tree_sitter_hcl:language",
    title="HCL/Terraform",
    comment="#",
    block_comment=("/*", "*/"),
    other_comments=("//",),
    filetypes=("terraform", "terraform-vars"),
    docs=DocRules(indexed=False),
)
