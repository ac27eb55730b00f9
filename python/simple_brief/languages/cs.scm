; C# outline. Vocabulary: README.md.
;
; Locals, local functions and lambdas are other node types than members, so
; they add nothing; members are not matched through their type's body, so a
; type the grammar cannot parse whole (`#if` inside a parameter list) still
; lists them. Attributes (`[Serializable]`) stay in the definition's range.

; ---- Namespaces and types ----------------------------------------------------

(namespace_declaration
  name: (_) @name
  body: (declaration_list) @body) @definition.namespace

; `namespace A.B;` covers the rest of the file: a one-line symbol.
(file_scoped_namespace_declaration
  name: (_) @name) @definition.namespace

(class_declaration
  name: (identifier) @name
  body: (declaration_list) @body) @definition.class

(struct_declaration
  name: (identifier) @name
  body: (declaration_list) @body) @definition.struct

(interface_declaration
  name: (identifier) @name
  body: (declaration_list) @body) @definition.interface

(record_declaration
  name: (identifier) @name
  body: (declaration_list) @body) @definition.class

; Positional records without a body: `record Point(int X, int Y);`.
(record_declaration
  name: (identifier) @name
  !body) @definition.class

(enum_declaration
  name: (identifier) @name
  body: (enum_member_declaration_list) @body) @definition.enum

(enum_member_declaration
  name: (identifier) @name) @definition.enum_member

(delegate_declaration
  name: (identifier) @name) @definition.type

; ---- Members -----------------------------------------------------------------

; Methods: a block or an expression body (`=> x`), or none (abstract,
; interface, partial, extern). An explicit interface implementation is named
; `IDisposable.Dispose`.
(method_declaration
  (explicit_interface_specifier)? @name
  name: (identifier) @name
  body: (_)? @body) @definition.method

(constructor_declaration
  name: (identifier) @name
  body: (_)? @body) @definition.constructor

(destructor_declaration
  "~" @name
  name: (identifier) @name
  body: (_)? @body) @definition.method

; Operators are named `operator +`, conversions `operator int`.
(operator_declaration
  "operator" @name
  operator: _ @name
  body: (_)? @body) @definition.method

(conversion_operator_declaration
  "operator" @name
  type: (_) @name
  body: (_)? @body) @definition.method

; Properties fold their accessors, or an expression body.
(property_declaration
  (explicit_interface_specifier)? @name
  name: (identifier) @name
  accessors: (accessor_list)? @body) @definition.property

(property_declaration
  (explicit_interface_specifier)? @name
  name: (identifier) @name
  value: (arrow_expression_clause) @body) @definition.property

(indexer_declaration
  "this" @name
  accessors: (accessor_list)? @body) @definition.property

(indexer_declaration
  "this" @name
  value: (arrow_expression_clause) @body) @definition.property

(event_declaration
  name: (identifier) @name
  accessors: (accessor_list) @body) @definition.property

; Fields: `const` ones are constants (`static readonly` ones stay fields); one
; symbol per declarator of `int a, b;`.
((field_declaration
  (modifier) @_modifier
  (variable_declaration
    (variable_declarator
      name: (identifier) @name))) @definition.constant
  (#eq? @_modifier "const"))

((field_declaration
  (modifier)* @_modifiers
  .
  (variable_declaration
    (variable_declarator
      name: (identifier) @name))) @definition.field
  (#not-eq? @_modifiers "const"))

(event_field_declaration
  (variable_declaration
    (variable_declarator
      name: (identifier) @name))) @definition.field

; ---- Imports -----------------------------------------------------------------

(using_directive) @import
(extern_alias_directive) @import

; ---- What the grammar could not read -----------------------------------------

; A type the grammar could not parse whole (`#if` inside a parameter list) leaves its
; `namespace` and `class` keywords loose in an ERROR, the names right after them; they
; are one token long (no body, no fold). The methods after the unreadable one are read
; as local functions of that ERROR (at statement level they are locals, not matched).
(ERROR "namespace" . [(qualified_name) (identifier)] @name @definition.namespace)

(ERROR ["class" "struct" "interface" "record"] . (identifier) @name @definition.class)

(ERROR (identifier) @name @definition.method . (parameter_list))

(ERROR
  (local_function_statement
    name: (identifier) @name
    body: (_)? @body) @definition.method)

(ERROR
  (preproc_if
    (local_function_statement
      name: (identifier) @name
      body: (_)? @body) @definition.method))
