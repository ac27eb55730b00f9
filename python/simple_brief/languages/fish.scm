; fish outline. Vocabulary: README.md.
;
; `function name --options ... end` is a function; its body has no node of its
; own, so the first statement after the options stands in for it (the fold runs
; from there to `end`). `alias name ...` defines a function too.

(function_definition
  name: (_) @name
  .
  [(command) (if_statement) (switch_statement) (for_statement) (while_statement) (begin_statement)
   (conditional_execution) (pipe) (redirect_statement) (return) (negated_statement) (function_definition)
   (comment)]? @body) @definition.function

(function_definition
  name: (_) @name
  option: (_)
  .
  [(command) (if_statement) (switch_statement) (for_statement) (while_statement) (begin_statement)
   (conditional_execution) (pipe) (redirect_statement) (return) (negated_statement) (function_definition)
   (comment)] @body) @definition.function

((command
  name: (word) @_alias
  .
  argument: (_) @name) @definition.function
  (#eq? @_alias "alias"))

((command
  name: (word) @_source) @import
  (#any-of? @_source "source" "."))
