; GraphQL outline (tree-sitter-graphql of tree-sitter-language-pack 0.13). Vocabulary: README.md.

(object_type_definition
  (name) @name
  (fields_definition)? @body) @definition.class

(object_type_extension
  (name) @name
  (fields_definition)? @body) @definition.class

(interface_type_definition
  (name) @name
  (fields_definition)? @body) @definition.interface

(input_object_type_definition
  (name) @name
  (input_fields_definition)? @body) @definition.struct

(enum_type_definition
  (name) @name
  (enum_values_definition)? @body) @definition.enum

(enum_value_definition
  (enum_value) @name) @definition.enum_member

(union_type_definition
  (name) @name) @definition.type

(scalar_type_definition
  (name) @name) @definition.type

(directive_definition
  (name) @name) @definition.function

(field_definition
  (name) @name) @definition.field

(input_fields_definition
  (input_value_definition
    (name) @name) @definition.field)

; `query GetUser($id: ID!) { ... }` (an anonymous `{ ... }` has no name: not listed).
(operation_definition
  (name) @name
  (selection_set) @body) @definition.function

(fragment_definition
  (fragment_name) @name
  (selection_set) @body) @definition.function

(schema_definition) @definition.module
