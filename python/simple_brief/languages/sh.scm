; Shell outline (the bash grammar). Vocabulary: README.md.
;
; Functions in both forms, `f() { ... }` and `function f { ... }` (also with a
; subshell or another compound command as the body). Variables are not listed:
; a script's assignments are its statements, not its definitions.

(function_definition
  name: (_) @name
  body: (_) @body) @definition.function

; `source file` and `. file` at the top level of the script.
((program
  (command
    name: (command_name) @_source) @import)
  (#any-of? @_source "source" "."))

; A region the grammar could not read (e.g. a backquoted command holding `s/:$//`) keeps a
; function's head as loose tokens, `name ( ) {`: the name is listed (its body is in the
; region, so only the name's line is known).
(ERROR (word) @name @definition.function . "(" . ")" . "{")
