; Scala outline (Scala 2 and 3). Vocabulary: README.md.
;
; vals and vars are matched through a template body or at the top level, so
; the ones local to a block add nothing. Kinds follow Metals: `val` is a constant, `var`
; a variable, `def` a method. Annotations and modifiers stay in the signature.

; ---- Types and objects ----------------------------------------------------------

; Braces or Scala 3 indentation: either body folds. Case classes and classes
; without a body are lines (or their parameters' lines).
(class_definition
  name: (identifier) @name
  body: (_)? @body) @definition.class

(trait_definition
  name: (identifier) @name
  body: (_)? @body) @definition.trait

(object_definition
  name: (identifier) @name
  body: (_)? @body) @definition.object

(package_object
  name: (identifier) @name
  body: (_)? @body) @definition.module

; `package a.b { ... }` holds definitions; `package a.b` alone is a header.
(package_clause
  name: (_) @name
  body: (template_body) @body) @definition.namespace

(package_clause
  !body) @import

(enum_definition
  name: (identifier) @name
  body: (enum_body) @body) @definition.enum

; `case Red, Green`: one symbol per case.
(enum_case_definitions
  [(simple_enum_case name: (identifier) @name)
   (full_enum_case name: (identifier) @name)] @definition.enum_member)

; Scala 3 givens: named ones by their name, anonymous ones by their type.
(given_definition
  name: (identifier) @name
  body: (_)? @body) @definition.object

(given_definition
  !name
  return_type: (_) @name
  body: (with_template_body) @body) @definition.object

; `extension (s: String)` is named after its parameters.
(extension_definition
  parameters: (parameters) @name
  body: (_) @body) @definition.impl

; `val`/`var` class parameters are members.
(class_parameter
  ["val" "var"]
  name: (identifier) @name) @definition.property

; ---- Members --------------------------------------------------------------------

; `def this(...)` is an auxiliary constructor; it comes before the function
; pattern, which matches the same node, so it is the one kept.
((function_definition
  name: (identifier) @name
  body: (_) @body) @definition.constructor
  (#eq? @name "this"))

; Defs with a body (`= expr`, a block, an indented block) and abstract ones;
; the scanner makes those in a type methods. Defs nested in a def are real
; definitions and are kept (as in Python): anchoring defs at their owner's
; body costs this grammar 0.03 s of query compilation per owner kind.
(function_definition
  name: (_) @name
  body: (_) @body) @definition.function

(function_declaration
  name: (_) @name) @definition.function

; vals and vars of types and objects, and at the top level (Scala 3, scripts);
; those named by a tuple pattern are skipped, and so are locals.
(template_body
  [(val_definition pattern: (identifier) @name)
   (val_declaration name: (identifier) @name)] @definition.constant)

(template_body
  [(var_definition pattern: (identifier) @name)
   (var_declaration name: (identifier) @name)] @definition.variable)

(compilation_unit
  (val_definition pattern: (identifier) @name) @definition.constant)

(compilation_unit
  (var_definition pattern: (identifier) @name) @definition.variable)

; Type aliases, abstract and opaque types.
(type_definition
  name: (type_identifier) @name) @definition.type

; ---- Imports ----------------------------------------------------------------------

(import_declaration) @import
(export_declaration) @import
