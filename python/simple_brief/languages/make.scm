; Makefile outline. Vocabulary: README.md.
;
; A rule is listed by its targets (`all`, `%.o`, `prog debug`) and its recipe
; folds; special targets (`.PHONY`, `.SUFFIXES`, ...) are settings, not rules.
; Variables are listed where they are set, also under `ifeq`/`ifdef` and
; `export`/`override` (target-specific `prog: X = 1` are not); `define` blocks (canned recipes, `$(call)` functions) fold.

((rule
  (targets) @name
  (recipe)? @body) @definition.function
  (#not-match? @name "^\\.[A-Z_]+$"))

(variable_assignment
  !target_or_pattern
  name: (_) @name) @definition.variable

(define_directive
  name: (_) @name
  value: (_)? @body) @definition.function

(include_directive) @import
