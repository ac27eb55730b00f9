; D outline. Vocabulary: README.md.
;
; Aggregates (class, struct, union, interface) fold their body and hold their
; members; an enum lists its members. `this(...)` is a constructor, `~this()`
; a destructor (named `this` and `~this`). Templates and mixin templates are
; containers named by their identifier. Fields are variables declared
; directly in an aggregate's body; `enum X = 1;` is a constant.

(module_declaration
  (module_fqn) @name) @definition.module

(function_declaration
  (identifier) @name
  (function_body)? @body) @definition.function

(constructor
  (this) @name
  (function_body)? @body) @definition.constructor

(destructor
  "~" @name
  (this) @name
  (function_body)? @body) @definition.constructor

(class_declaration
  (identifier) @name
  (aggregate_body) @body) @definition.class

(struct_declaration
  (identifier) @name
  (aggregate_body) @body) @definition.struct

(union_declaration
  (identifier) @name
  (aggregate_body) @body) @definition.struct

(interface_declaration
  (identifier) @name
  (aggregate_body) @body) @definition.interface

(enum_declaration
  (identifier) @name
  .
  (_)? @body) @definition.enum

(enum_member
  (identifier) @name) @definition.enum_member

(template_declaration
  (identifier) @name) @definition.namespace

(manifest_constant
  (manifest_declarator (identifier) @name)) @definition.constant

(aggregate_body
  (variable_declaration
    (declarator . (identifier) @name)) @definition.field)

(alias_declaration
  (alias_initializer . (identifier) @name)) @definition.type

(unittest_declaration
  (unittest) @name
  (block_statement) @body) @definition.function

(import_declaration) @import
