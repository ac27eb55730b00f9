; Dart outline. Vocabulary: README.md.
;
; This grammar keeps a method's signature and its body apart: in a class body
; `method_signature` and `function_body` are siblings (so are a top-level
; `function_signature` and its body). A definition is the signature; the body
; beside it is captured as @body. Bodiless members (abstract methods, fields,
; constructors without a body) are wrapped in `declaration`. Locals are inside
; function bodies and are never matched.

; ---- Types --------------------------------------------------------------------

(class_definition
  name: (identifier) @name
  body: (class_body) @body) @definition.class

(mixin_declaration
  (identifier) @name
  (class_body) @body) @definition.trait

(enum_declaration
  name: (identifier) @name
  body: (enum_body) @body) @definition.enum

(enum_constant
  name: (identifier) @name) @definition.enum_member

; `extension Ext on int`, or an unnamed `extension on String`.
(extension_declaration
  name: (identifier) @name
  body: (extension_body) @body) @definition.impl

(extension_declaration
  !name
  "on" @name
  class: (_) @name
  body: (extension_body) @body) @definition.impl

; `typedef Cb = void Function(int);` and the old `typedef int Old(int a);`.
(type_alias
  (type_identifier) @name
  .
  "=") @definition.type

(type_alias
  (type_identifier) @name
  .
  (formal_parameter_list)) @definition.type

; ---- Members with a body ------------------------------------------------------------

[
  (class_body
    (method_signature
      [(function_signature name: (identifier) @name)
       (operator_signature "operator" @name . (_) @name)]) @definition.method
    .
    (function_body) @body)
  (extension_body
    (method_signature
      [(function_signature name: (identifier) @name)
       (operator_signature "operator" @name . (_) @name)]) @definition.method
    .
    (function_body) @body)
  (enum_body
    (method_signature
      (function_signature name: (identifier) @name)) @definition.method
    .
    (function_body) @body)
]

[
  (class_body
    (method_signature
      [(getter_signature name: (identifier) @name)
       (setter_signature name: (identifier) @name)]) @definition.property
    .
    (function_body) @body)
  (extension_body
    (method_signature
      [(getter_signature name: (identifier) @name)
       (setter_signature name: (identifier) @name)]) @definition.property
    .
    (function_body) @body)
  (enum_body
    (method_signature
      (getter_signature name: (identifier) @name)) @definition.property
    .
    (function_body) @body)
]

; Constructors: `Point(this.x)`, `Point.named()`, `factory Point.origin()`.
(class_body
  (method_signature
    [(constructor_signature name: (identifier) @name name: (identifier)? @name)
     (factory_constructor_signature (identifier) @name . (identifier)? @name)]) @definition.constructor
  .
  (function_body) @body)

; ---- Members without a body -------------------------------------------------------

(declaration
  (function_signature name: (identifier) @name)) @definition.method

(declaration
  (getter_signature name: (identifier) @name)) @definition.property

(declaration
  [(constructor_signature name: (identifier) @name name: (identifier)? @name)
   (constant_constructor_signature (identifier) @name . (identifier)? @name)
   (redirecting_factory_constructor_signature (identifier) @name . (identifier)? @name)
   (factory_constructor_signature (identifier) @name . (identifier)? @name)]) @definition.constructor

; Fields: `const` ones are constants; one symbol per name of `int a, b;`, each
; the whole declaration (so the signature keeps its type and modifiers).
(declaration
  (const_builtin)
  (static_final_declaration_list
    (static_final_declaration
      (identifier) @name))) @definition.constant

(declaration
  (final_builtin)
  (static_final_declaration_list
    (static_final_declaration
      (identifier) @name))) @definition.field

(declaration
  (initialized_identifier_list
    (initialized_identifier
      (identifier) @name))) @definition.field

; ---- Top level -------------------------------------------------------------------------

(program
  (function_signature name: (identifier) @name) @definition.function
  .
  (function_body) @body)

(program
  (getter_signature name: (identifier) @name) @definition.property
  .
  (function_body) @body)

; Top-level variables have no node of their own: a name and its value.
(program
  (const_builtin)
  .
  (_)?
  .
  (static_final_declaration_list
    (static_final_declaration
      (identifier) @name) @definition.constant))

(program
  (final_builtin)
  .
  (_)?
  .
  (static_final_declaration_list
    (static_final_declaration
      (identifier) @name) @definition.variable))

(program
  (initialized_identifier_list
    (initialized_identifier
      (identifier) @name) @definition.variable))

; ---- Directives ---------------------------------------------------------------------------

(library_name) @import
(import_or_export) @import
(part_directive) @import
(part_of_directive) @import
