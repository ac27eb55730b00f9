"""What simple-brief tells language servers it can do, and how a server's capabilities
say which methods it serves (`lsp.process.Server.supports`)."""

from __future__ import annotations

from typing import Any

from simple_brief.positions import ENCODINGS

#: What simple-brief tells servers it can do (LSP 3.17 ClientCapabilities).
CLIENT_CAPABILITIES: dict[str, Any] = {
    "general": {"positionEncodings": list(ENCODINGS)},
    "workspace": {
        "configuration": True,
        "workspaceFolders": True,
        # Server-initiated edits are answered `applied: false`: edits go through the tools.
        "applyEdit": False,
        "workspaceEdit": {"documentChanges": True},
        "didChangeConfiguration": {"dynamicRegistration": False},
    },
    "textDocument": {
        "synchronization": {"dynamicRegistration": False, "didSave": False, "willSave": False},
        "hover": {"contentFormat": ["markdown", "plaintext"]},
        # Plain Locations keep results uniform (LocationLinks are still converted if sent).
        "definition": {"linkSupport": False},
        "declaration": {"linkSupport": False},
        "typeDefinition": {"linkSupport": False},
        "implementation": {"linkSupport": False},
        "references": {},
        "documentHighlight": {},
        "documentSymbol": {"hierarchicalDocumentSymbolSupport": True},
        "completion": {
            "contextSupport": True,
            "completionItem": {
                "snippetSupport": False,
                "documentationFormat": ["markdown", "plaintext"],
                "labelDetailsSupport": True,
                "resolveSupport": {"properties": ["documentation", "detail"]},
            },
        },
        "signatureHelp": {
            "signatureInformation": {
                "documentationFormat": ["markdown", "plaintext"],
                "parameterInformation": {"labelOffsetSupport": True},
            }
        },
        "rename": {"prepareSupport": True},
        "formatting": {},
        "rangeFormatting": {},
        "codeAction": {
            "codeActionLiteralSupport": {
                "codeActionKind": {
                    "valueSet": [
                        "",
                        "quickfix",
                        "refactor",
                        "refactor.extract",
                        "refactor.inline",
                        "refactor.rewrite",
                        "source",
                        "source.organizeImports",
                        "source.fixAll",
                    ]
                }
            },
            "isPreferredSupport": True,
            "dataSupport": True,
            "resolveSupport": {"properties": ["edit"]},
        },
        "publishDiagnostics": {
            "relatedInformation": True,
            "versionSupport": True,
            "codeDescriptionSupport": True,
            "dataSupport": True,
            "tagSupport": {"valueSet": [1, 2]},
        },
        "foldingRange": {},
        "selectionRange": {},
    },
    "window": {"workDoneProgress": True},
}

#: LSP method -> the server capability (dotted path) that says it is served.
CAPABILITY_OF: dict[str, str] = {
    "textDocument/hover": "hoverProvider",
    "textDocument/definition": "definitionProvider",
    "textDocument/declaration": "declarationProvider",
    "textDocument/typeDefinition": "typeDefinitionProvider",
    "textDocument/implementation": "implementationProvider",
    "textDocument/references": "referencesProvider",
    "textDocument/documentHighlight": "documentHighlightProvider",
    "textDocument/documentSymbol": "documentSymbolProvider",
    "textDocument/completion": "completionProvider",
    "completionItem/resolve": "completionProvider.resolveProvider",
    "textDocument/signatureHelp": "signatureHelpProvider",
    "textDocument/rename": "renameProvider",
    "textDocument/prepareRename": "renameProvider.prepareProvider",
    "textDocument/formatting": "documentFormattingProvider",
    "textDocument/rangeFormatting": "documentRangeFormattingProvider",
    "textDocument/codeAction": "codeActionProvider",
    "codeAction/resolve": "codeActionProvider.resolveProvider",
    "textDocument/foldingRange": "foldingRangeProvider",
    "textDocument/selectionRange": "selectionRangeProvider",
    "textDocument/inlayHint": "inlayHintProvider",
    "textDocument/codeLens": "codeLensProvider",
    "textDocument/documentLink": "documentLinkProvider",
    "textDocument/semanticTokens/full": "semanticTokensProvider",
    "textDocument/diagnostic": "diagnosticProvider",
    "workspace/symbol": "workspaceSymbolProvider",
    "workspace/executeCommand": "executeCommandProvider",
}

#: Servers (by `serverInfo.name`) that count code points without announcing an encoding,
#: where LSP's default would be utf-16 (python-lsp-server issue 343; palantir pyls 770).
COUNTS_CODE_POINTS = frozenset({"pylsp"})
