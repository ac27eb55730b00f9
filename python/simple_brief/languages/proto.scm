; Protocol Buffers outline (tree-sitter-proto of tree-sitter-language-pack 0.13).
; Vocabulary: README.md.

(package
  (full_ident) @name) @definition.namespace

(message
  (message_name) @name
  (message_body) @body) @definition.struct

(enum
  (enum_name) @name
  (enum_body) @body) @definition.enum

(enum_field
  .
  (identifier) @name) @definition.enum_member

(service
  (service_name) @name) @definition.interface

(rpc
  (rpc_name) @name) @definition.method

(field
  (identifier) @name) @definition.field

(map_field
  (identifier) @name) @definition.field

(oneof
  .
  (identifier) @name) @definition.field

(oneof_field
  (identifier) @name) @definition.field

(import) @import
