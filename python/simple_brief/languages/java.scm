; Java outline. Vocabulary: README.md.
;
; Members are matched through their owner's body so that anonymous classes
; (`new Runnable() { public void run() {} }`) inside method bodies add nothing.
; Annotations are part of the modifiers and stay in the signature.

; ---- Types ------------------------------------------------------------------

(class_declaration
  name: (identifier) @name
  body: (class_body) @body) @definition.class

(interface_declaration
  name: (identifier) @name
  body: (interface_body) @body) @definition.interface

(enum_declaration
  name: (identifier) @name
  body: (enum_body) @body) @definition.enum

(record_declaration
  name: (identifier) @name
  body: (class_body) @body) @definition.class

(annotation_type_declaration
  name: (identifier) @name
  body: (annotation_type_body) @body) @definition.interface

(enum_body
  (enum_constant
    name: (identifier) @name) @definition.enum_member)

; Record components are the record's fields.
(record_declaration
  parameters: (formal_parameters
    (formal_parameter
      name: (identifier) @name) @definition.field))

; ---- Methods and constructors -------------------------------------------------

(class_declaration
  body: (class_body
    (method_declaration
      name: (identifier) @name
      body: (block)? @body) @definition.method))

(record_declaration
  body: (class_body
    (method_declaration
      name: (identifier) @name
      body: (block)? @body) @definition.method))

(enum_body_declarations
  (method_declaration
    name: (identifier) @name
    body: (block)? @body) @definition.method)

; Constant-specific class bodies: `PLUS { int apply(int a, int b) { ... } }`.
(enum_constant
  body: (class_body
    (method_declaration
      name: (identifier) @name
      body: (block)? @body) @definition.method))

(interface_body
  (method_declaration
    name: (identifier) @name
    body: (block)? @body) @definition.method)

(annotation_type_body
  (annotation_type_element_declaration
    name: (identifier) @name) @definition.method)

(class_declaration
  body: (class_body
    (constructor_declaration
      name: (identifier) @name
      body: (constructor_body) @body) @definition.constructor))

(record_declaration
  body: (class_body
    [
      (constructor_declaration
        name: (identifier) @name
        body: (constructor_body) @body)
      (compact_constructor_declaration
        name: (identifier) @name
        body: (block) @body)
    ] @definition.constructor))

(enum_body_declarations
  (constructor_declaration
    name: (identifier) @name
    body: (constructor_body) @body) @definition.constructor)

; ---- Fields -------------------------------------------------------------------

; `static final` fields are constants, other fields fields; one symbol per
; declarator of `int a, b;`. Matched per owner (class, record, enum), so fields
; of anonymous classes in method bodies are not listed.

(class_declaration
  body: (class_body
    (field_declaration
      (modifiers) @_modifiers
      declarator: (variable_declarator
        name: (identifier) @name)) @definition.constant
    (#match? @_modifiers "(?s)(\\bstatic\\b.*\\bfinal\\b|\\bfinal\\b.*\\bstatic\\b)")))

(class_declaration
  body: (class_body
    (field_declaration
      (modifiers) @_modifiers
      declarator: (variable_declarator
        name: (identifier) @name)) @definition.field
    (#not-match? @_modifiers "(?s)(\\bstatic\\b.*\\bfinal\\b|\\bfinal\\b.*\\bstatic\\b)")))

(class_declaration
  body: (class_body
    (field_declaration
      .
      type: (_)
      declarator: (variable_declarator
        name: (identifier) @name)) @definition.field))

(record_declaration
  body: (class_body
    (field_declaration
      (modifiers) @_modifiers
      declarator: (variable_declarator
        name: (identifier) @name)) @definition.constant
    (#match? @_modifiers "(?s)(\\bstatic\\b.*\\bfinal\\b|\\bfinal\\b.*\\bstatic\\b)")))

(record_declaration
  body: (class_body
    (field_declaration
      (modifiers) @_modifiers
      declarator: (variable_declarator
        name: (identifier) @name)) @definition.field
    (#not-match? @_modifiers "(?s)(\\bstatic\\b.*\\bfinal\\b|\\bfinal\\b.*\\bstatic\\b)")))

(record_declaration
  body: (class_body
    (field_declaration
      .
      type: (_)
      declarator: (variable_declarator
        name: (identifier) @name)) @definition.field))

(enum_body_declarations
  (field_declaration
    (modifiers) @_modifiers
    declarator: (variable_declarator
      name: (identifier) @name)) @definition.constant
  (#match? @_modifiers "(?s)(\\bstatic\\b.*\\bfinal\\b|\\bfinal\\b.*\\bstatic\\b)"))

(enum_body_declarations
  (field_declaration
    (modifiers) @_modifiers
    declarator: (variable_declarator
      name: (identifier) @name)) @definition.field
  (#not-match? @_modifiers "(?s)(\\bstatic\\b.*\\bfinal\\b|\\bfinal\\b.*\\bstatic\\b)"))

(enum_body_declarations
  (field_declaration
    .
    type: (_)
    declarator: (variable_declarator
      name: (identifier) @name)) @definition.field)

; Interface fields are implicitly static and final.
(interface_body
  (constant_declaration
    declarator: (variable_declarator
      name: (identifier) @name)) @definition.constant)

(annotation_type_body
  (constant_declaration
    declarator: (variable_declarator
      name: (identifier) @name)) @definition.constant)

; ---- Package, imports, modules --------------------------------------------------

(package_declaration) @import
(import_declaration) @import

(module_declaration
  name: (_) @name
  body: (module_body) @body) @definition.module
