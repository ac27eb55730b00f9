; Rust outline. Vocabulary: README.md.

; Functions; inside `impl` and `trait` blocks the scanner makes them methods.
(function_item
  name: (identifier) @name
  body: (block) @body) @definition.function

; Bodiless signatures: trait methods, `extern "C"` functions.
(function_signature_item
  name: (identifier) @name) @definition.function

(struct_item
  name: (type_identifier) @name
  body: (field_declaration_list) @body) @definition.struct

; Tuple and unit structs: the field types stay in the signature.
(struct_item
  name: (type_identifier) @name
  !body) @definition.struct
(struct_item
  name: (type_identifier) @name
  body: (ordered_field_declaration_list)) @definition.struct

(union_item
  name: (type_identifier) @name
  body: (field_declaration_list) @body) @definition.struct

(field_declaration_list
  (field_declaration
    name: (field_identifier) @name) @definition.field)

(enum_item
  name: (type_identifier) @name
  body: (enum_variant_list) @body) @definition.enum

(enum_variant
  name: (identifier) @name) @definition.enum_member

(trait_item
  name: (type_identifier) @name
  body: (declaration_list) @body) @definition.trait

; impl blocks are named after the type (`Point`), trait impls `Display for Point`.
; A generic type contributes its bare name: `impl<T> Stack<T>` is `Stack`.
(impl_item
  !trait
  type: [(type_identifier) (scoped_type_identifier)] @name
  body: (declaration_list) @body) @definition.impl
(impl_item
  !trait
  type: (generic_type type: (_) @name)
  body: (declaration_list) @body) @definition.impl
(impl_item
  !trait
  type: [(reference_type) (pointer_type) (array_type) (tuple_type) (primitive_type)
         (function_type) (dynamic_type) (abstract_type) (bounded_type) (unit_type)
         (never_type)] @name
  body: (declaration_list) @body) @definition.impl
(impl_item
  trait: (_) @name
  type: [(type_identifier) (scoped_type_identifier)] @name
  body: (declaration_list) @body) @definition.impl
(impl_item
  trait: (_) @name
  type: (generic_type type: (_) @name)
  body: (declaration_list) @body) @definition.impl
(impl_item
  trait: (_) @name
  type: [(reference_type) (pointer_type) (array_type) (tuple_type) (primitive_type)
         (function_type) (dynamic_type) (abstract_type) (bounded_type) (unit_type)
         (never_type)] @name
  body: (declaration_list) @body) @definition.impl

; Inline modules fold; `mod name;` declares a module file.
(mod_item
  name: (identifier) @name
  body: (declaration_list) @body) @definition.module
(mod_item
  name: (identifier) @name
  !body) @definition.module

; macro_rules!: the opening delimiter stands in for the body, so the signature is
; `macro_rules! name` and the fold covers the rules.
(macro_definition
  name: (identifier) @name
  ["{" "(" "["] @body) @definition.function

; Items at module level or in impl/trait/extern blocks; `const` in a function body is local.
(source_file
  (const_item name: (identifier) @name) @definition.constant)
(declaration_list
  (const_item name: (identifier) @name) @definition.constant)
(source_file
  (static_item name: (identifier) @name) @definition.variable)
(declaration_list
  (static_item name: (identifier) @name) @definition.variable)
(source_file
  (type_item name: (type_identifier) @name) @definition.type)
(declaration_list
  (type_item name: (type_identifier) @name) @definition.type)
(declaration_list
  (associated_type name: (type_identifier) @name) @definition.type)

(source_file (use_declaration) @import)
(declaration_list (use_declaration) @import)
(source_file (extern_crate_declaration) @import)
