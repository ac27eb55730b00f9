; Zig outline. Vocabulary: README.md.
;
; A container is a `const Name = struct/enum/union/opaque { ... }` declaration:
; the declaration is the definition (so `pub const` and the `///` doc belong
; to it) and the container's `{` is the body. Only container-level constants
; are listed: a `const` inside a function body is a local. (Zig's grammar makes
; queries slow to compile: alternations and anchors are kept few.)

(variable_declaration
  (identifier) @name
  (struct_declaration "{" @body)) @definition.struct

(variable_declaration
  (identifier) @name
  (union_declaration "{" @body)) @definition.struct

(variable_declaration
  (identifier) @name
  (enum_declaration "{" @body)) @definition.enum

(variable_declaration
  (identifier) @name
  (error_set_declaration "{" @body)) @definition.enum

(variable_declaration
  (identifier) @name
  (opaque_declaration "{" @body)) @definition.struct

; Functions (methods once inside a container); `extern fn` has no body.
(function_declaration
  name: (identifier) @name
  type: (_) @_type
  body: (block)? @body
  (#not-eq? @_type "type")) @definition.function

; A function returning `type` whose body returns `struct { ... }` (Zig's generic
; types: `fn ArrayList(comptime T: type) type`) is that container: its fields
; and methods nest in it and it stays open. Other `type` functions are functions.
(function_declaration
  name: (identifier) @name
  type: (builtin_type) @_type
  body: (block) @body
  (#eq? @_type "type")
  (#match? @body "(^|\n)\\s*return\\s+((extern|packed)\\s+)?(struct|union|opaque|enum)\\b")) @definition.struct

(function_declaration
  name: (identifier) @name
  type: (builtin_type) @_type
  body: (block) @body
  (#eq? @_type "type")
  (#not-match? @body "(^|\n)\\s*return\\s+((extern|packed)\\s+)?(struct|union|opaque|enum)\\b")) @definition.function

; `test "name" { ... }` and `test name { ... }`: named after the keyword and the name.
(test_declaration
  "test" @name
  [(string) (identifier)]? @name
  (block) @body) @definition.function

; Fields of structs and unions; the members of enums and error sets.
(struct_declaration (container_field name: (identifier) @name) @definition.field)
(union_declaration (container_field name: (identifier) @name) @definition.field)
; A field named by a keyword of the grammar's Zig (`async:`, `await:` in Zig 0.15's std):
; read as that keyword's expression, its first token the field's name.
(struct_declaration
  (container_field
    . (range_expression . [(async_expression . "async" @name) (await_expression . "await" @name)])) @definition.field)
(enum_declaration (container_field name: (identifier) @name) @definition.enum_member)
(error_set_declaration (identifier) @name @definition.enum_member)

; Other container-level constants and variables (`const`, `var`); containers
; have their patterns above, `@import` declarations are imports.
([(source_file (variable_declaration . (identifier) @name) @definition.constant)
  (struct_declaration (variable_declaration . (identifier) @name) @definition.constant)
  (union_declaration (variable_declaration . (identifier) @name) @definition.constant)
  (enum_declaration (variable_declaration . (identifier) @name) @definition.constant)
  (opaque_declaration (variable_declaration . (identifier) @name) @definition.constant)]
  (#match? @definition.constant "^(pub\\s+)?((export|extern)\\s+(\"[^\"]*\"\\s+)?)?(threadlocal\\s+)?const\\b")
  (#not-match? @definition.constant "^[^=]*=\\s*(((extern|packed)\\s+)?(struct|enum|union|opaque)\\b|error\\s*\\{|@import\\b)"))

([(source_file (variable_declaration . (identifier) @name) @definition.variable)
  (struct_declaration (variable_declaration . (identifier) @name) @definition.variable)]
  (#not-match? @definition.variable "^(pub\\s+)?((export|extern)\\s+(\"[^\"]*\"\\s+)?)?(threadlocal\\s+)?const\\b"))

((variable_declaration (builtin_function) @_value) @import
  (#match? @_value "^@import\\b"))
((variable_declaration (field_expression) @_value) @import
  (#match? @_value "^@import\\b"))

(using_namespace_declaration) @import
