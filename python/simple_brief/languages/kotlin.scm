; Kotlin outline. Vocabulary: README.md.
;
; Members are matched through their owner's body (a class, an object, a
; companion object, an enum class), so local functions and the members of
; anonymous `object : Runnable { ... }` expressions inside bodies add nothing.
; Annotations are part of the modifiers and stay in the signature.

; ---- Types --------------------------------------------------------------------

; Enum classes come first: the class pattern below matches them too, and the
; first match of a node is kept.
(class_declaration
  name: (identifier) @name
  (enum_class_body) @body) @definition.enum

; `class`, `data class`, `sealed class` …; one without a body is a line (or its
; primary constructor's lines).
(class_declaration
  "class"
  name: (identifier) @name
  (class_body)? @body) @definition.class

(class_declaration
  "interface"
  name: (identifier) @name
  (class_body)? @body) @definition.interface

(enum_class_body
  (enum_entry
    (identifier) @name) @definition.enum_member)

(object_declaration
  name: (identifier) @name
  (class_body)? @body) @definition.object

(companion_object
  name: (identifier) @name
  (class_body)? @body) @definition.object

; An unnamed companion is named `companion object`.
(companion_object
  !name
  "companion" @name
  "object" @name
  (class_body)? @body) @definition.object

(type_alias
  type: (identifier) @name) @definition.type

; `val`/`var` parameters of a primary constructor are properties.
(primary_constructor
  (class_parameters
    (class_parameter
      ["val" "var"]
      (identifier) @name) @definition.property))

; ---- Functions ------------------------------------------------------------------

; Top level, and members of classes, objects, companions and enum classes (the
; scanner makes those methods); a body is `{ ... }` or `= expression`, abstract
; ones have none.
(source_file
  (function_declaration
    name: (identifier) @name
    (function_body)? @body) @definition.function)

[
  (class_declaration (class_body (function_declaration
    name: (identifier) @name
    (function_body)? @body) @definition.function))
  (object_declaration (class_body (function_declaration
    name: (identifier) @name
    (function_body)? @body) @definition.function))
  (companion_object (class_body (function_declaration
    name: (identifier) @name
    (function_body)? @body) @definition.function))
]

; Constant-specific bodies: `GREEN { override fun f() = 1 }` (an entry is not a
; class, so these are methods by name).
(enum_entry
  (class_body
    (function_declaration
      name: (identifier) @name
      (function_body)? @body) @definition.method))

(enum_class_body
  (function_declaration
    name: (identifier) @name
    (function_body)? @body) @definition.function)

(class_body
  (secondary_constructor
    "constructor" @name
    (block)? @body) @definition.constructor)

; ---- Properties -----------------------------------------------------------------

; `const val` (top level, objects, companions) is a constant; other properties,
; with their getters and setters, fold as a whole when they span lines. Each
; constant pattern starts at the same node as the property pattern after it,
; so it is found first and kept.
(source_file
  (property_declaration
    (modifiers (property_modifier) @_const)
    (variable_declaration
      (identifier) @name)) @definition.constant
  (#eq? @_const "const"))

([
  (object_declaration (class_body (property_declaration
    (modifiers (property_modifier) @_const)
    (variable_declaration
      (identifier) @name)) @definition.constant))
  (companion_object (class_body (property_declaration
    (modifiers (property_modifier) @_const)
    (variable_declaration
      (identifier) @name)) @definition.constant))
]
  (#eq? @_const "const"))

(source_file
  (property_declaration
    (variable_declaration
      (identifier) @name)) @definition.property)

[
  (class_declaration (class_body (property_declaration
    (variable_declaration
      (identifier) @name)) @definition.property))
  (object_declaration (class_body (property_declaration
    (variable_declaration
      (identifier) @name)) @definition.property))
  (companion_object (class_body (property_declaration
    (variable_declaration
      (identifier) @name)) @definition.property))
]

(enum_class_body
  (property_declaration
    (variable_declaration
      (identifier) @name)) @definition.property)

; ---- Package and imports --------------------------------------------------------

(package_header) @import
(import) @import
