; GLSL outline. Vocabulary: README.md.
;
; The grammar extends C's: functions (and their prototypes), structs, and
; interface blocks (`uniform Block { ... } block;`) with their members; global
; declarations (uniforms, `in`/`out` variables, constants) are variables, a
; `#define` a constant.

(function_definition
  declarator: (function_declarator
    declarator: (identifier) @name)
  body: (_) @body) @definition.function

(translation_unit
  (declaration
    declarator: (function_declarator
      declarator: (identifier) @name)) @definition.function)

(struct_specifier
  name: (_) @name
  body: (_) @body) @definition.struct

(declaration
  (identifier) @name
  (field_declaration_list) @body) @definition.struct

(field_declaration
  declarator: [
    (field_identifier) @name
    (array_declarator declarator: (field_identifier) @name)
  ]) @definition.field

(translation_unit
  (declaration
    declarator: [
      (identifier) @name
      (init_declarator declarator: [(identifier) (array_declarator declarator: (identifier))] @name)
      (array_declarator declarator: (identifier) @name)
    ]) @definition.variable)

(preproc_def
  name: (_) @name) @definition.constant

(preproc_function_def
  name: (_) @name) @definition.function

(preproc_include) @import
