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
