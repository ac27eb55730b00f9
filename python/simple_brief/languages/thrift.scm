; Thrift outline. Vocabulary: README.md.
;
; A service is an interface holding its functions (methods); structs, unions
; and exceptions are structs holding their fields, enums their values. The
; grammar gives these no body node: the first member stands in for it, so the
; fold runs from there to the closing brace.

(service_definition
  .
  type: (identifier) @name
  (function_definition) @body) @definition.interface

(function_definition
  (identifier) @name) @definition.method

(struct_definition
  .
  type: (identifier) @name
  .
  (_)? @body) @definition.struct

(union_definition
  .
  type: (identifier) @name
  .
  (_)? @body) @definition.struct

(exception_definition
  .
  (identifier) @name
  .
  (_)? @body) @definition.struct

(field
  (identifier) @name) @definition.field

(enum_definition
  .
  type: (identifier) @name
  .
  (_)? @body) @definition.enum

(enum_definition
  type: (identifier)
  (identifier) @name @definition.enum_member)

(typedef_definition
  (typedef_identifier) @name) @definition.type

(const_definition
  (identifier) @name) @definition.constant

(include_statement) @import
