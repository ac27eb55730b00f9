; Nim outline. Vocabulary: README.md.
;
; Routines are named without their export mark (`proc price*` is `price`);
; a type's name likewise. Objects (also `ref object`, `ptr object`) are
; structs with their fields, enums list their values, other types are type
; aliases. `const` names are constants; `var`/`let` at the top are variables.

([
  (proc_declaration name: [(identifier) @name (exported_symbol (identifier) @name) (accent_quoted) @name] body: (_)? @body)
  (func_declaration name: [(identifier) @name (exported_symbol (identifier) @name) (accent_quoted) @name] body: (_)? @body)
  (iterator_declaration name: [(identifier) @name (exported_symbol (identifier) @name) (accent_quoted) @name] body: (_)? @body)
  (converter_declaration name: [(identifier) @name (exported_symbol (identifier) @name) (accent_quoted) @name] body: (_)? @body)
  (template_declaration name: [(identifier) @name (exported_symbol (identifier) @name) (accent_quoted) @name] body: (_)? @body)
  (macro_declaration name: [(identifier) @name (exported_symbol (identifier) @name) (accent_quoted) @name] body: (_)? @body)
]) @definition.function

(method_declaration
  name: [(identifier) @name (exported_symbol (identifier) @name) (accent_quoted) @name]
  body: (_)? @body) @definition.method

(type_declaration
  (type_symbol_declaration
    name: [(identifier) @name (exported_symbol (identifier) @name)])
  [
    (object_declaration) @body
    (ref_type (object_declaration) @body)
    (pointer_type (object_declaration) @body)
  ]) @definition.struct

(type_declaration
  (type_symbol_declaration
    name: [(identifier) @name (exported_symbol (identifier) @name)])
  (enum_declaration) @body) @definition.enum

(type_declaration
  (type_symbol_declaration
    name: [(identifier) @name (exported_symbol (identifier) @name)])
  [(type_expression) (distinct_type) (tuple_type) (proc_type) (concept_declaration)]) @definition.type

(enum_field_declaration
  (symbol_declaration name: (_) @name)) @definition.enum_member

(field_declaration
  (symbol_declaration_list
    (symbol_declaration name: [(identifier) @name (exported_symbol (identifier) @name)]))) @definition.field

(const_section
  (variable_declaration
    (symbol_declaration_list
      (symbol_declaration name: [(identifier) @name (exported_symbol (identifier) @name)]))) @definition.constant)

[(import_statement) (include_statement) (import_from_statement)] @import
