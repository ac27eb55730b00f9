; Solidity outline. Vocabulary: README.md.
;
; Contracts, abstract contracts and libraries are classes, interfaces
; interfaces; inside them functions (methods), the constructor, `receive` and
; `fallback`, modifiers, events, errors, structs with their members, enums with
; their values, state variables (fields). Free functions, structs, enums,
; errors, events and user-defined value types may stand at the file's top.

(contract_declaration
  name: (_) @name
  body: (_) @body) @definition.class

(library_declaration
  name: (_) @name
  body: (_) @body) @definition.class

(interface_declaration
  name: (_) @name
  body: (_) @body) @definition.interface

(function_definition
  name: (_) @name
  body: (_)? @body) @definition.function

(constructor_definition
  "constructor" @name
  body: (_)? @body) @definition.constructor

(fallback_receive_definition
  ["receive" "fallback"] @name
  body: (_)? @body) @definition.method

(modifier_definition
  name: (_) @name
  body: (_)? @body) @definition.function

(event_definition
  name: (_) @name) @definition.property

(error_declaration
  name: (_) @name) @definition.type

(struct_declaration
  name: (_) @name
  body: (_) @body) @definition.struct

(struct_member
  name: (_) @name) @definition.field

(enum_declaration
  name: (_) @name
  body: (_) @body) @definition.enum

(enum_value) @name @definition.enum_member

(state_variable_declaration
  name: (_) @name) @definition.field

(user_defined_type_definition
  name: (_) @name) @definition.type

(constant_variable_declaration
  name: (_) @name) @definition.constant

(import_directive) @import
