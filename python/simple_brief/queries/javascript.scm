; JavaScript outline (also .jsx, .mjs, .cjs). Vocabulary: queries/README.md.
; Named functions and classes are listed at any depth; variables, objects and
; their members at module level only; anonymous callbacks never. `export`
; needs no pattern of its own: the scanner widens a definition to its
; `export_statement`.

; ---------------------------------------------------------------- functions

; function f() {} / async function f() {} / function* g() {}, at any depth.
(function_declaration
  name: (identifier) @name
  body: (statement_block) @body) @definition.function

(generator_function_declaration
  name: (identifier) @name
  body: (statement_block) @body) @definition.function

; export default function () {} -- named `default`.
(export_statement
  "default" @name
  value: [
    (function_expression
      body: (statement_block) @body)
    (arrow_function
      body: (_) @body)
  ] @definition.function)

; const f = () => {} / let g = function () {} / var h = function* () {}, at
; any depth (a named function is a definition wherever it is). The whole
; declaration is the definition, so `const` and its doc comment belong to it.
([
  (lexical_declaration
    .
    (variable_declarator
      name: (identifier) @name
      value: [
        (arrow_function
          body: (_) @body)
        (function_expression
          body: (statement_block) @body)
        (generator_function
          body: (statement_block) @body)
      ])
    .) @definition.function
  (variable_declaration
    .
    (variable_declarator
      name: (identifier) @name
      value: [
        (arrow_function
          body: (_) @body)
        (function_expression
          body: (statement_block) @body)
        (generator_function
          body: (statement_block) @body)
      ])
    .) @definition.function
])

; The same in a declaration of several names (`const a = () => 1, b = () => 2`):
; each declarator is its own definition.
([
  (lexical_declaration
    (variable_declarator
      name: (identifier) @name
      value: [
        (arrow_function)
        (function_expression)
        (generator_function)
      ]) @definition.function
    .
    (variable_declarator))
  (lexical_declaration
    (variable_declarator)
    .
    (variable_declarator
      name: (identifier) @name
      value: [
        (arrow_function)
        (function_expression)
        (generator_function)
      ]) @definition.function)
  (variable_declaration
    (variable_declarator
      name: (identifier) @name
      value: [
        (arrow_function)
        (function_expression)
        (generator_function)
      ]) @definition.function
    .
    (variable_declarator))
  (variable_declaration
    (variable_declarator)
    .
    (variable_declarator
      name: (identifier) @name
      value: [
        (arrow_function)
        (function_expression)
        (generator_function)
      ]) @definition.function)
])

; module.exports.f = function () {} / exports.g = () => {} /
; Foo.prototype.bar = function () {} / this.onClick = () => {}, at any depth
; (`this.x = function` in an old-style constructor defines a method). Named by
; the left side, or by the function's own name when it has one
; (`module.exports = function archy() {}` is `archy`).
(expression_statement
  (assignment_expression
    left: [
      (identifier)
      (member_expression
        property: (property_identifier))
    ] @name
    right: [
      (arrow_function
        body: (_) @body)
      (function_expression
        !name
        body: (statement_block) @body)
      (generator_function
        !name
        body: (statement_block) @body)
    ])) @definition.function

(expression_statement
  (assignment_expression
    right: [
      (function_expression
        name: (identifier) @name
        body: (statement_block) @body)
      (generator_function
        name: (identifier) @name
        body: (statement_block) @body)
    ])) @definition.function

; handlers["text/html"] = function () {} at module level (inside functions such
; keys are computed at run time).
(program
  (expression_statement
    (assignment_expression
      left: (subscript_expression) @name
      right: [
        (arrow_function
          body: (_) @body)
        (function_expression
          body: (statement_block) @body)
      ])) @definition.function)

; return function named() {} -- a factory's named result.
(return_statement
  (function_expression
    name: (identifier) @name
    body: (statement_block) @body) @definition.function)

; Foo.prototype.alias = Foo.prototype.other / Codec.prototype.encoder = Encoder
; at module level define methods by reference.
(program
  (expression_statement
    (assignment_expression
      left: (member_expression
        object: (member_expression
          property: (property_identifier) @_prototype)) @name
      right: [
        (identifier)
        (member_expression)
      ])) @definition.method
  (#eq? @_prototype "prototype"))

; exports.version = "1.0" / module.exports.CONSTANT = 3 at module level.
(program
  (expression_statement
    (assignment_expression
      left: (member_expression
        object: [
          (identifier) @_exports
          (member_expression
            object: (identifier) @_module
            property: (property_identifier) @_exports)
        ]) @name
      right: (_) @_value)) @definition.field
  (#eq? @_exports "exports")
  (#not-match? @_value "^(class\\b|\\{|(async\\s*)?(function\\b|\\([^()]*(\\([^()]*\\)[^()]*)*\\)\\s*=>|[A-Za-z_$][\\w$]*\\s*=>))"))

; ------------------------------------------------------------------ classes

(class_declaration
  name: (identifier) @name
  body: (class_body) @body) @definition.class

; export default class extends Base {} -- named `default`.
(export_statement
  "default" @name
  value: (class
    body: (class_body) @body) @definition.class)

; module.exports = class Agent {} / Cache = class WeakCache {}, at any depth:
; named by the class, or by the left side when the class has no name.
(expression_statement
  (assignment_expression
    right: (class
      name: (identifier) @name
      body: (class_body) @body))) @definition.class

(expression_statement
  (assignment_expression
    left: (_) @name
    right: (class
      !name
      body: (class_body) @body))) @definition.class

; const Foo = class {} / const Foo = class Bar {}: named by the variable.
([
  (lexical_declaration
    (variable_declarator
      name: (identifier) @name
      value: (class
        body: (class_body) @body)))
  (variable_declaration
    (variable_declarator
      name: (identifier) @name
      value: (class
        body: (class_body) @body)))
] @definition.class)

; Methods, getters, setters, static and #private methods; `constructor` is the
; constructor.
(class_body
  (method_definition
    name: (_) @name
    body: (statement_block) @body
    (#not-eq? @name "constructor")) @definition.method)

(class_body
  (method_definition
    name: (_) @name
    body: (statement_block) @body
    (#eq? @name "constructor")) @definition.constructor)

; Class fields: `handle = () => {}` is a method, any other field a field. The
; regex spots a function value by its first tokens (queries cannot test a
; node's type negatively).
(class_body
  (field_definition
    property: (_) @name
    value: [
      (arrow_function
        body: (_) @body)
      (function_expression
        body: (statement_block) @body)
    ]) @definition.method)

(class_body
  (field_definition
    property: (_) @name
    value: (_)? @_value) @definition.field
  (#not-match? @_value "^(async\\s*)?(function\\b|\\([^()]*(\\([^()]*\\)[^()]*)*\\)\\s*=>|[A-Za-z_$][\\w$]*\\s*=>)"))

; ------------------------------------------------------- module-level names

; const api = { ... } / module.exports = { ... } / export default { ... }:
; objects whose members are listed below.
([
  (program
    (lexical_declaration
      .
      (variable_declarator
        name: (identifier) @name
        value: (object) @body)
      .) @definition.object)
  (program
    (variable_declaration
      .
      (variable_declarator
        name: (identifier) @name
        value: (object) @body)
      .) @definition.object)
  (export_statement
    (lexical_declaration
      .
      (variable_declarator
        name: (identifier) @name
        value: (object) @body)
      .) @definition.object)
  (program
    (expression_statement
      (assignment_expression
        left: [
          (identifier)
          (member_expression)
        ] @name
        right: (object) @body)) @definition.object)
])

(export_statement
  "default" @name
  value: (object) @body) @definition.object

; Members of those objects: `get() {}`, `post: function () {}`, `put: () => {}`
; are methods, `nested: { ... }` an object, anything else a field.
([
  (program (lexical_declaration (variable_declarator value: (object
    (method_definition name: (_) @name body: (statement_block) @body) @definition.method))))
  (program (variable_declaration (variable_declarator value: (object
    (method_definition name: (_) @name body: (statement_block) @body) @definition.method))))
  (export_statement (lexical_declaration (variable_declarator value: (object
    (method_definition name: (_) @name body: (statement_block) @body) @definition.method))))
  (export_statement value: (object
    (method_definition name: (_) @name body: (statement_block) @body) @definition.method))
  (program (expression_statement (assignment_expression right: (object
    (method_definition name: (_) @name body: (statement_block) @body) @definition.method))))
])

([
  (program (lexical_declaration (variable_declarator value: (object
    (pair key: (_) @name value: [(function_expression body: (_) @body) (arrow_function body: (_) @body) (generator_function body: (_) @body)]) @definition.method))))
  (program (variable_declaration (variable_declarator value: (object
    (pair key: (_) @name value: [(function_expression body: (_) @body) (arrow_function body: (_) @body) (generator_function body: (_) @body)]) @definition.method))))
  (export_statement (lexical_declaration (variable_declarator value: (object
    (pair key: (_) @name value: [(function_expression body: (_) @body) (arrow_function body: (_) @body) (generator_function body: (_) @body)]) @definition.method))))
  (export_statement value: (object
    (pair key: (_) @name value: [(function_expression body: (_) @body) (arrow_function body: (_) @body) (generator_function body: (_) @body)]) @definition.method))
  (program (expression_statement (assignment_expression right: (object
    (pair key: (_) @name value: [(function_expression body: (_) @body) (arrow_function body: (_) @body) (generator_function body: (_) @body)]) @definition.method))))
])

([
  (program (lexical_declaration (variable_declarator value: (object
    (pair key: (_) @name value: (object) @body) @definition.object))))
  (program (variable_declaration (variable_declarator value: (object
    (pair key: (_) @name value: (object) @body) @definition.object))))
  (export_statement (lexical_declaration (variable_declarator value: (object
    (pair key: (_) @name value: (object) @body) @definition.object))))
  (export_statement value: (object
    (pair key: (_) @name value: (object) @body) @definition.object))
  (program (expression_statement (assignment_expression right: (object
    (pair key: (_) @name value: (object) @body) @definition.object))))
])

([
  (program (lexical_declaration (variable_declarator value: (object
    (pair key: (_) @name value: (_) @_value) @definition.field))))
  (program (variable_declaration (variable_declarator value: (object
    (pair key: (_) @name value: (_) @_value) @definition.field))))
  (export_statement (lexical_declaration (variable_declarator value: (object
    (pair key: (_) @name value: (_) @_value) @definition.field))))
  (export_statement value: (object
    (pair key: (_) @name value: (_) @_value) @definition.field))
  (program (expression_statement (assignment_expression right: (object
    (pair key: (_) @name value: (_) @_value) @definition.field))))
]
(#not-match? @_value "^(\\{|(async\\s*)?(function\\b|\\([^()]*(\\([^()]*\\)[^()]*)*\\)\\s*=>|[A-Za-z_$][\\w$]*\\s*=>))"))

; `module.exports = { add, sub }`: shorthand members are fields.
([
  (program (lexical_declaration (variable_declarator value: (object
    (shorthand_property_identifier) @name @definition.field))))
  (program (variable_declaration (variable_declarator value: (object
    (shorthand_property_identifier) @name @definition.field))))
  (export_statement (lexical_declaration (variable_declarator value: (object
    (shorthand_property_identifier) @name @definition.field))))
  (export_statement value: (object
    (shorthand_property_identifier) @name @definition.field))
  (program (expression_statement (assignment_expression right: (object
    (shorthand_property_identifier) @name @definition.field))))
])

; Methods of objects nested one level (`const api = { users: { list() {} } }`).
([
  (program (lexical_declaration (variable_declarator value: (object (pair value: (object
    (method_definition name: (_) @name body: (statement_block) @body) @definition.method))))))
  (export_statement (lexical_declaration (variable_declarator value: (object (pair value: (object
    (method_definition name: (_) @name body: (statement_block) @body) @definition.method))))))
  (program (lexical_declaration (variable_declarator value: (object (pair value: (object
    (pair key: (_) @name value: [(function_expression body: (_) @body) (arrow_function body: (_) @body)]) @definition.method))))))
  (export_statement (lexical_declaration (variable_declarator value: (object (pair value: (object
    (pair key: (_) @name value: [(function_expression body: (_) @body) (arrow_function body: (_) @body)]) @definition.method))))))
])

; Other module-level variables: UPPER_CASE is a constant, anything else a
; variable. Functions, classes, objects and `require(...)` imports are left to
; the patterns above and below. Several names in one declaration are one
; definition each.
([
  (program
    [
      (lexical_declaration
        .
        (variable_declarator
          name: (identifier) @name
          value: (_)? @_value)
        .)
      (variable_declaration
        .
        (variable_declarator
          name: (identifier) @name
          value: (_)? @_value)
        .)
    ] @definition.constant)
  (export_statement
    (lexical_declaration
      .
      (variable_declarator
        name: (identifier) @name
        value: (_)? @_value)
      .) @definition.constant)
]
(#match? @name "^_*[A-Z][A-Z0-9_]*$")
(#not-match? @_value "^(require\\s*\\(|class\\b|\\{|(async\\s*)?(function\\b|\\([^()]*(\\([^()]*\\)[^()]*)*\\)\\s*=>|[A-Za-z_$][\\w$]*\\s*=>))"))

([
  (program
    [
      (lexical_declaration
        .
        (variable_declarator
          name: (identifier) @name
          value: (_)? @_value)
        .)
      (variable_declaration
        .
        (variable_declarator
          name: (identifier) @name
          value: (_)? @_value)
        .)
    ] @definition.variable)
  (export_statement
    (lexical_declaration
      .
      (variable_declarator
        name: (identifier) @name
        value: (_)? @_value)
      .) @definition.variable)
]
(#not-match? @name "^_*[A-Z][A-Z0-9_]*$")
(#not-match? @_value "^(require\\s*\\(|class\\b|\\{|(async\\s*)?(function\\b|\\([^()]*(\\([^()]*\\)[^()]*)*\\)\\s*=>|[A-Za-z_$][\\w$]*\\s*=>))"))

([
  (program
    [
      (lexical_declaration
        (variable_declarator
          name: (identifier) @name
          value: (_)? @_value) @definition.constant
        .
        (variable_declarator))
      (lexical_declaration
        (variable_declarator)
        .
        (variable_declarator
          name: (identifier) @name
          value: (_)? @_value) @definition.constant)
      (variable_declaration
        (variable_declarator
          name: (identifier) @name
          value: (_)? @_value) @definition.constant
        .
        (variable_declarator))
      (variable_declaration
        (variable_declarator)
        .
        (variable_declarator
          name: (identifier) @name
          value: (_)? @_value) @definition.constant)
    ])
  (export_statement
    [
      (lexical_declaration
        (variable_declarator
          name: (identifier) @name
          value: (_)? @_value) @definition.constant
        .
        (variable_declarator))
      (lexical_declaration
        (variable_declarator)
        .
        (variable_declarator
          name: (identifier) @name
          value: (_)? @_value) @definition.constant)
    ])
]
(#match? @name "^_*[A-Z][A-Z0-9_]*$")
(#not-match? @_value "^(require\\s*\\(|class\\b|(async\\s*)?(function\\b|\\([^()]*(\\([^()]*\\)[^()]*)*\\)\\s*=>|[A-Za-z_$][\\w$]*\\s*=>))"))

([
  (program
    [
      (lexical_declaration
        (variable_declarator
          name: (identifier) @name
          value: (_)? @_value) @definition.variable
        .
        (variable_declarator))
      (lexical_declaration
        (variable_declarator)
        .
        (variable_declarator
          name: (identifier) @name
          value: (_)? @_value) @definition.variable)
      (variable_declaration
        (variable_declarator
          name: (identifier) @name
          value: (_)? @_value) @definition.variable
        .
        (variable_declarator))
      (variable_declaration
        (variable_declarator)
        .
        (variable_declarator
          name: (identifier) @name
          value: (_)? @_value) @definition.variable)
    ])
  (export_statement
    [
      (lexical_declaration
        (variable_declarator
          name: (identifier) @name
          value: (_)? @_value) @definition.variable
        .
        (variable_declarator))
      (lexical_declaration
        (variable_declarator)
        .
        (variable_declarator
          name: (identifier) @name
          value: (_)? @_value) @definition.variable)
    ])
]
(#not-match? @name "^_*[A-Z][A-Z0-9_]*$")
(#not-match? @_value "^(require\\s*\\(|class\\b|(async\\s*)?(function\\b|\\([^()]*(\\([^()]*\\)[^()]*)*\\)\\s*=>|[A-Za-z_$][\\w$]*\\s*=>))"))

; ------------------------------------------------------------------ imports

(import_statement) @import

; export * from "./x" / export { a } from "./y" re-export like imports.
(export_statement
  source: (_)) @import

; const x = require("x") / const { a } = require("x") / require("x").y at module level.
(program
  [
    (lexical_declaration
      (variable_declarator
        value: [
          (call_expression
            function: (identifier) @_require)
          (member_expression
            object: (call_expression
              function: (identifier) @_require))
        ]))
    (variable_declaration
      (variable_declarator
        value: [
          (call_expression
            function: (identifier) @_require)
          (member_expression
            object: (call_expression
              function: (identifier) @_require))
        ]))
    (expression_statement
      (call_expression
        function: (identifier) @_require))
  ] @import
  (#eq? @_require "require"))
