; inherits: ecma
; TypeScript outline (.ts, .mts, .cts, .d.ts; TSX inherits it): what TypeScript
; adds to ecma.scm, which it shares with JavaScript. Vocabulary: README.md.

; Overload signatures and `declare function f(): T;`.
(function_signature
  name: (identifier) @name) @definition.function

(abstract_class_declaration
  name: (_) @name
  body: (class_body) @body) @definition.class

(class_body
  [
    (method_signature
      name: (_) @name)
    (abstract_method_signature
      name: (_) @name)
  ] @definition.method
  (#not-eq? @name "constructor"))

(class_body
  (method_signature
    name: (_) @name) @definition.constructor
  (#eq? @name "constructor"))

; Class fields: `handle = () => {}` is a method, any other field a field.
(class_body
  (public_field_definition
    name: (_) @name
    value: [
      (arrow_function
        body: (_) @body)
      (function_expression
        body: (statement_block) @body)
    ]) @definition.method)

(class_body
  (public_field_definition
    name: (_) @name
    value: (_)? @_value) @definition.field
  (#not-match? @_value "^(async\\b|function\\b|<[\\w$]+\\s*(,|extends\\b|>\\s*\\()|[\\w$]+\\s*=>|\\((?!\\s*(async\\s+)?function\\b|\\s*\\())"))

; --------------------------------------------------------------- TypeScript
; `declare ...` (`ambient_declaration`) needs no pattern of its own either: the
; declaration inside it is the definition.

; interface Shape { ... }: property signatures are properties, method
; signatures methods, `new (...)` the constructor.
(interface_declaration
  name: (_) @name
  body: (interface_body) @body) @definition.interface

(interface_body
  (property_signature
    name: (_) @name) @definition.property)

(interface_body
  (method_signature
    name: (_) @name) @definition.method)

(interface_body
  (construct_signature
    "new" @name) @definition.constructor)

; type Pair<T> = [T, T] / type Props = { ... } (an object type folds and lists
; its members like an interface).
(type_alias_declaration
  name: (_) @name
  value: (object_type)? @body) @definition.type

(type_alias_declaration
  value: (object_type
    (property_signature
      name: (_) @name) @definition.property))

(type_alias_declaration
  value: (object_type
    (method_signature
      name: (_) @name) @definition.method))

; enum Color { Red, Green = "g" } / const enum: members are enum members.
(enum_declaration
  name: (_) @name
  body: (enum_body) @body) @definition.enum

(enum_body
  [
    (property_identifier) @name @definition.enum_member
    (string) @name @definition.enum_member
    (enum_assignment
      name: (_) @name) @definition.enum_member
  ])

; namespace A.B { ... } is an expression statement of its own: the statement is
; the definition (so its doc comment is found). export namespace, declare
; namespace, declare module "x", declare global.
(expression_statement
  (internal_module
    name: (_) @name
    body: (statement_block) @body)) @definition.namespace

(export_statement
  (internal_module
    name: (_) @name
    body: (statement_block) @body) @definition.namespace)

(ambient_declaration
  (internal_module
    name: (_) @name
    body: (statement_block) @body) @definition.namespace)

(module
  name: (_) @name
  body: (statement_block)? @body) @definition.module

(ambient_declaration
  "global" @name
  (statement_block) @body) @definition.namespace

; declare const x: T; / declare let y: U;
(ambient_declaration
  (lexical_declaration
    kind: "const"
    .
    (variable_declarator
      name: (identifier) @name)) @definition.constant)

(ambient_declaration
  [
    (lexical_declaration
      kind: "let"
      .
      (variable_declarator
        name: (identifier) @name))
    (variable_declaration
      .
      (variable_declarator
        name: (identifier) @name))
  ] @definition.variable)

((internal_module
  body: (statement_block
    (lexical_declaration
      kind: "const"
      .
      (variable_declarator
        name: (identifier) @name
        value: (_)? @_value)) @definition.constant))
  (#not-match? @_value "^(async\\b|function\\b|<[\\w$]+\\s*(,|extends\\b|>\\s*\\()|[\\w$]+\\s*=>|\\((?!\\s*(async\\s+)?function\\b|\\s*\\()|\\{|class\\b|require\\s*\\(|(React\\.)?(memo|forwardRef)\\b)"))

((internal_module
  body: (statement_block
    (lexical_declaration
      kind: "let"
      .
      (variable_declarator
        name: (identifier) @name
        value: (_)? @_value)) @definition.variable))
  (#not-match? @_value "^(async\\b|function\\b|<[\\w$]+\\s*(,|extends\\b|>\\s*\\()|[\\w$]+\\s*=>|\\((?!\\s*(async\\s+)?function\\b|\\s*\\()|\\{|class\\b|require\\s*\\(|(React\\.)?(memo|forwardRef)\\b)"))

((internal_module
  body: (statement_block
    (variable_declaration
      .
      (variable_declarator
        name: (identifier) @name
        value: (_)? @_value)) @definition.variable))
  (#not-match? @_value "^(async\\b|function\\b|<[\\w$]+\\s*(,|extends\\b|>\\s*\\()|[\\w$]+\\s*=>|\\((?!\\s*(async\\s+)?function\\b|\\s*\\()|\\{|class\\b|require\\s*\\(|(React\\.)?(memo|forwardRef)\\b)"))
