"""XML (and its dialects Neovim gives their own filetype: XSD, XSLT, SVG): elements, nested
by containment, named by their tag; outlined, not documented."""

from simple_brief.languages.spec import DocRules, LanguageSpec

SPEC = LanguageSpec(
    "xml",
    (
        *(".xml", ".xsd", ".xsl", ".xslt", ".svg", ".plist", ".xaml", ".csproj", ".fsproj", ".vbproj"),
        *(".props", ".targets", ".wsdl", ".xul", ".rss", ".atom", ".ui", ".xliff", ".pom", ".rdf"),
    ),
    "tree_sitter_language_pack.bindings.xml:language",
    title="XML",
    comment="",
    block_comment=("<!--", "-->"),
    filetypes=("xsd", "xslt", "svg"),
    docs=DocRules(indexed=False),
    max_definitions=25_000,  # a data file of more elements is listed in part (H002)
)
