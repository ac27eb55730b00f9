; Vim script outline (tree-sitter-vim of tree-sitter-language-pack 0.13). Vocabulary: README.md.

; `function! foo#Bar(a) abort ... endfunction` (and `func`, `fu`): the body folds.
(function_definition
  (function_declaration
    name: (_) @name)
  (body)? @body) @definition.function

; `command! -nargs=* Foo call ...`: a user command.
(command_statement
  name: (command_name) @name) @definition.function

; `augroup Name` (not `augroup END`): the grammar keeps the group's autocmds beside it,
; so the group is one line.
((augroup_statement
  (augroup_name) @name) @definition.namespace
  (#not-match? @name "^[Ee][Nn][Dd]$"))

; vim9script `def Name(...)`: the grammar reads it as an unknown command, `enddef` as
; another; the symbol is the `def` line, named by its first argument up to `(`.
((unknown_builtin_statement
  (unknown_command_name) @_def
  (arguments
    .
    (command_argument) @name)) @definition.function
  (#eq? @_def "def"))
