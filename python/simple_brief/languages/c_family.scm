; What C and C++ share: the preprocessor (#define, #include) and enumerators;
; c.scm and cpp.scm inherit it. Not a language of its own. Vocabulary: README.md.
; A pattern here must compile against both grammars and mean the same in both:
; the grammars name declarators and type specifiers differently (C's
; macro_type_specifier, C++'s qualified and template names), so those stay in
; each language's file.

(type_definition
  "typedef" @body
  type: (enum_specifier !name body: (_))
  .
  declarator: (type_identifier) @name) @definition.enum

(enumerator
  name: (identifier) @name) @definition.enum_member

; Macros: object-like ones are constants, function-like ones functions. An
; include guard (`#ifndef X_H` / `#define X_H`) names nothing.
(preproc_def
  name: (identifier) @name
  value: (_)) @definition.constant

(translation_unit
  (preproc_def
    name: (identifier) @name
    !value) @definition.constant)

((preproc_ifdef
  name: (identifier) @_guard
  (preproc_def
    name: (identifier) @name
    !value) @definition.constant)
  (#not-eq? @_guard @name))

(preproc_if
  (preproc_def
    name: (identifier) @name
    !value) @definition.constant)

(preproc_else
  (preproc_def
    name: (identifier) @name
    !value) @definition.constant)

(preproc_elif
  (preproc_def
    name: (identifier) @name
    !value) @definition.constant)

; The replacement text stands in for a body: the signature is `#define NAME(args)`.
(preproc_function_def
  name: (identifier) @name
  value: (_) @body) @definition.function

(preproc_function_def
  name: (identifier) @name
  !value) @definition.function

(preproc_include) @import
