"""Symbol trees -> text: block marks, the symbol table, the symbols view, search, diagnostics."""
