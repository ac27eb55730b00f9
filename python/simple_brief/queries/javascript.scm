; JavaScript outline (also .jsx, .mjs, .cjs). Vocabulary: queries/README.md.
; Generated together with typescript.scm, typescriptreact.scm
; (same patterns, per-grammar node names): change all three alike.
;
; Named functions and classes are listed at any depth; variables, objects and
; their members at module (or namespace) level only; anonymous callbacks never.
; `export` needs no pattern of its own: the scanner widens a definition to its
; `export_statement`. A `const`/`let`/`var` declaration of one name is the
; definition itself, so `const`, `export` and the doc comment belong to it.

; ---------------------------------------------------------------- functions

; function f() {} / async function f() {} / function* g() {}, at any depth.
(function_declaration
  name: (identifier) @name
  body: (statement_block) @body) @definition.function

(generator_function_declaration
  name: (identifier) @name
  body: (statement_block) @body) @definition.function

; export default function () {} / export default () => {}: named `default`.
(export_statement
  "default" @name
  value: [
    (function_expression
      body: (statement_block) @body)
    (arrow_function
      body: (_) @body)
  ] @definition.function)

; const f = () => {} / let g = function () {} / var h = function* () {}, at
; any depth (a named function is a definition wherever it is). In a declaration
; of several names only the first is listed (a multi-name pattern costs more
; than it finds: such declarations are mostly minified code).
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
        ])) @definition.function
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
        ])) @definition.function
])

; Components wrapped in memo/forwardRef: `const Item = memo((props) => ...)`.
((lexical_declaration
  .
  (variable_declarator
    name: (identifier) @name
    value: (call_expression
      function: [
        (identifier)
        (member_expression)
      ] @_wrapper
      arguments: (arguments
        .
        [
          (arrow_function
            body: (_) @body)
          (function_expression
            body: (statement_block) @body)
        ])))) @definition.function
  (#match? @_wrapper "^(React\\.)?(memo|forwardRef)$"))

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
      name: (_) @name
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

; Methods, getters, setters, static and #private methods;
; `constructor` is the constructor.
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

; Class fields: `handle = () => {}` is a method, any other field a field.
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
    !value) @definition.field)

(class_body
  (field_definition
    property: (_) @name
    value: [
      (array) (false) (identifier) (member_expression) (meta_property) (null) (number)
      (parenthesized_expression) (regex) (string) (subscript_expression) (template_string)
      (this) (true) (undefined) (assignment_expression) (augmented_assignment_expression)
      (await_expression) (binary_expression) (new_expression) (ternary_expression)
      (unary_expression) (update_expression) (yield_expression) (sequence_expression)
      (call_expression) (jsx_element) (jsx_self_closing_element) (object) (class)
    ]) @definition.field)

; ------------------------------------------------------- module-level objects

; const api = { ... } / module.exports = { ... } / export default { ... }:
; objects whose members are listed below.
([
  (program
    [
      (lexical_declaration
        .
        (variable_declarator
          name: (identifier) @name
          value: (object) @body)
        .)
      (variable_declaration
        .
        (variable_declarator
          name: (identifier) @name
          value: (object) @body)
        .)
    ] @definition.object)
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
; are methods, `nested: { ... }` an object, `add` (shorthand) and anything else
; a field.
([
  (program
    [
      (lexical_declaration
        (variable_declarator
          value: (object
            [
              (method_definition
                name: (_) @name
                body: (statement_block) @body) @definition.method
              (pair
                key: (_) @name
                value: [
                  (function_expression
                    body: (_) @body)
                  (arrow_function
                    body: (_) @body)
                  (generator_function
                    body: (_) @body)
                ]) @definition.method
              (pair
                key: (_) @name
                value: (object) @body) @definition.object
              (pair
                key: (_) @name
                value: [
                  (array) (false) (identifier) (member_expression) (meta_property) (null) (number)
                  (parenthesized_expression) (regex) (string) (subscript_expression)
                  (template_string) (this) (true) (undefined) (assignment_expression)
                  (augmented_assignment_expression) (await_expression) (binary_expression)
                  (new_expression) (ternary_expression) (unary_expression) (update_expression)
                  (yield_expression) (sequence_expression) (call_expression) (jsx_element)
                  (jsx_self_closing_element) (class)
                ]) @definition.field
              (shorthand_property_identifier) @name @definition.field
            ])))
      (variable_declaration
        (variable_declarator
          value: (object
            [
              (method_definition
                name: (_) @name
                body: (statement_block) @body) @definition.method
              (pair
                key: (_) @name
                value: [
                  (function_expression
                    body: (_) @body)
                  (arrow_function
                    body: (_) @body)
                  (generator_function
                    body: (_) @body)
                ]) @definition.method
              (pair
                key: (_) @name
                value: (object) @body) @definition.object
              (pair
                key: (_) @name
                value: [
                  (array) (false) (identifier) (member_expression) (meta_property) (null) (number)
                  (parenthesized_expression) (regex) (string) (subscript_expression)
                  (template_string) (this) (true) (undefined) (assignment_expression)
                  (augmented_assignment_expression) (await_expression) (binary_expression)
                  (new_expression) (ternary_expression) (unary_expression) (update_expression)
                  (yield_expression) (sequence_expression) (call_expression) (jsx_element)
                  (jsx_self_closing_element) (class)
                ]) @definition.field
              (shorthand_property_identifier) @name @definition.field
            ])))
      (expression_statement
        (assignment_expression
          right: (object
            [
              (method_definition
                name: (_) @name
                body: (statement_block) @body) @definition.method
              (pair
                key: (_) @name
                value: [
                  (function_expression
                    body: (_) @body)
                  (arrow_function
                    body: (_) @body)
                  (generator_function
                    body: (_) @body)
                ]) @definition.method
              (pair
                key: (_) @name
                value: (object) @body) @definition.object
              (pair
                key: (_) @name
                value: [
                  (array) (false) (identifier) (member_expression) (meta_property) (null) (number)
                  (parenthesized_expression) (regex) (string) (subscript_expression)
                  (template_string) (this) (true) (undefined) (assignment_expression)
                  (augmented_assignment_expression) (await_expression) (binary_expression)
                  (new_expression) (ternary_expression) (unary_expression) (update_expression)
                  (yield_expression) (sequence_expression) (call_expression) (jsx_element)
                  (jsx_self_closing_element) (class)
                ]) @definition.field
              (shorthand_property_identifier) @name @definition.field
            ])))
    ])
  (export_statement
    [
      (lexical_declaration
        (variable_declarator
          value: (object
            [
              (method_definition
                name: (_) @name
                body: (statement_block) @body) @definition.method
              (pair
                key: (_) @name
                value: [
                  (function_expression
                    body: (_) @body)
                  (arrow_function
                    body: (_) @body)
                  (generator_function
                    body: (_) @body)
                ]) @definition.method
              (pair
                key: (_) @name
                value: (object) @body) @definition.object
              (pair
                key: (_) @name
                value: [
                  (array) (false) (identifier) (member_expression) (meta_property) (null) (number)
                  (parenthesized_expression) (regex) (string) (subscript_expression)
                  (template_string) (this) (true) (undefined) (assignment_expression)
                  (augmented_assignment_expression) (await_expression) (binary_expression)
                  (new_expression) (ternary_expression) (unary_expression) (update_expression)
                  (yield_expression) (sequence_expression) (call_expression) (jsx_element)
                  (jsx_self_closing_element) (class)
                ]) @definition.field
              (shorthand_property_identifier) @name @definition.field
            ])))
      (object
        [
              (method_definition
                name: (_) @name
                body: (statement_block) @body) @definition.method
              (pair
                key: (_) @name
                value: [
                  (function_expression
                    body: (_) @body)
                  (arrow_function
                    body: (_) @body)
                  (generator_function
                    body: (_) @body)
                ]) @definition.method
              (pair
                key: (_) @name
                value: (object) @body) @definition.object
              (pair
                key: (_) @name
                value: [
                  (array) (false) (identifier) (member_expression) (meta_property) (null) (number)
                  (parenthesized_expression) (regex) (string) (subscript_expression)
                  (template_string) (this) (true) (undefined) (assignment_expression)
                  (augmented_assignment_expression) (await_expression) (binary_expression)
                  (new_expression) (ternary_expression) (unary_expression) (update_expression)
                  (yield_expression) (sequence_expression) (call_expression) (jsx_element)
                  (jsx_self_closing_element) (class)
                ]) @definition.field
              (shorthand_property_identifier) @name @definition.field
            ])
    ])
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

; ------------------------------------------------------- module-level names

; Other module-level names whose value is a plain value
; (functions, classes and objects have the patterns above), listed by node type:
; `const` declares a constant, `let` and `var` a variable, as tsserver reports
; them. Only the first name of `let a = 1, b = 2` is listed.
([
  (program
    (lexical_declaration
      kind: "const"
      .
      [
          (variable_declarator
            name: (identifier) @name
            !value)
          (variable_declarator
            name: (identifier) @name
            value: [
              (array) (false) (identifier) (member_expression) (meta_property) (null) (number)
              (parenthesized_expression) (regex) (string) (subscript_expression)
              (template_string) (this) (true) (undefined) (assignment_expression)
              (augmented_assignment_expression) (await_expression) (binary_expression)
              (new_expression) (ternary_expression) (unary_expression) (update_expression)
              (yield_expression) (sequence_expression) (call_expression) (jsx_element)
              (jsx_self_closing_element)
            ] @_value)
        ]) @definition.constant)
  (export_statement
    (lexical_declaration
      kind: "const"
      .
      [
          (variable_declarator
            name: (identifier) @name
            !value)
          (variable_declarator
            name: (identifier) @name
            value: [
              (array) (false) (identifier) (member_expression) (meta_property) (null) (number)
              (parenthesized_expression) (regex) (string) (subscript_expression)
              (template_string) (this) (true) (undefined) (assignment_expression)
              (augmented_assignment_expression) (await_expression) (binary_expression)
              (new_expression) (ternary_expression) (unary_expression) (update_expression)
              (yield_expression) (sequence_expression) (call_expression) (jsx_element)
              (jsx_self_closing_element)
            ] @_value)
        ]) @definition.constant)
]
(#not-match? @_value "^(require\\s*\\(|(React\\.)?(memo|forwardRef)\\s*\\()"))

([
  (program
    [
      (lexical_declaration
        kind: "let"
        .
        [
            (variable_declarator
              name: (identifier) @name
              !value)
            (variable_declarator
              name: (identifier) @name
              value: [
                (array) (false) (identifier) (member_expression) (meta_property) (null) (number)
                (parenthesized_expression) (regex) (string) (subscript_expression)
                (template_string) (this) (true) (undefined) (assignment_expression)
                (augmented_assignment_expression) (await_expression) (binary_expression)
                (new_expression) (ternary_expression) (unary_expression) (update_expression)
                (yield_expression) (sequence_expression) (call_expression) (jsx_element)
                (jsx_self_closing_element)
              ] @_value)
          ])
      (variable_declaration
        .
        [
            (variable_declarator
              name: (identifier) @name
              !value)
            (variable_declarator
              name: (identifier) @name
              value: [
                (array) (false) (identifier) (member_expression) (meta_property) (null) (number)
                (parenthesized_expression) (regex) (string) (subscript_expression)
                (template_string) (this) (true) (undefined) (assignment_expression)
                (augmented_assignment_expression) (await_expression) (binary_expression)
                (new_expression) (ternary_expression) (unary_expression) (update_expression)
                (yield_expression) (sequence_expression) (call_expression) (jsx_element)
                (jsx_self_closing_element)
              ] @_value)
          ])
    ] @definition.variable)
  (export_statement
    [
      (lexical_declaration
        kind: "let"
        .
        [
            (variable_declarator
              name: (identifier) @name
              !value)
            (variable_declarator
              name: (identifier) @name
              value: [
                (array) (false) (identifier) (member_expression) (meta_property) (null) (number)
                (parenthesized_expression) (regex) (string) (subscript_expression)
                (template_string) (this) (true) (undefined) (assignment_expression)
                (augmented_assignment_expression) (await_expression) (binary_expression)
                (new_expression) (ternary_expression) (unary_expression) (update_expression)
                (yield_expression) (sequence_expression) (call_expression) (jsx_element)
                (jsx_self_closing_element)
              ] @_value)
          ])
      (variable_declaration
        .
        [
            (variable_declarator
              name: (identifier) @name
              !value)
            (variable_declarator
              name: (identifier) @name
              value: [
                (array) (false) (identifier) (member_expression) (meta_property) (null) (number)
                (parenthesized_expression) (regex) (string) (subscript_expression)
                (template_string) (this) (true) (undefined) (assignment_expression)
                (augmented_assignment_expression) (await_expression) (binary_expression)
                (new_expression) (ternary_expression) (unary_expression) (update_expression)
                (yield_expression) (sequence_expression) (call_expression) (jsx_element)
                (jsx_self_closing_element)
              ] @_value)
          ])
    ] @definition.variable)
]
(#not-match? @_value "^(require\\s*\\(|(React\\.)?(memo|forwardRef)\\s*\\()"))

; exports.version = "1.0" / module.exports.LIMIT = 3 at module level.
(program
  (expression_statement
    (assignment_expression
      left: (member_expression
        object: [
          (identifier) @_exports
          (member_expression
            object: (identifier)
            property: (property_identifier) @_exports)
        ]) @name
      right: [
        (array) (false) (identifier) (member_expression) (meta_property) (null) (number)
        (parenthesized_expression) (regex) (string) (subscript_expression)
        (template_string) (this) (true) (undefined) (assignment_expression)
        (augmented_assignment_expression) (await_expression) (binary_expression)
        (new_expression) (ternary_expression) (unary_expression) (update_expression)
        (yield_expression) (sequence_expression) (call_expression) (jsx_element)
        (jsx_self_closing_element)
      ])) @definition.field
  (#eq? @_exports "exports"))

; ------------------------------------------------------------------ imports

(import_statement) @import

; export * from "./x" / export { a } from "./y" re-export like imports.
(export_statement
  source: (_)) @import

; const x = require("x") / const { a } = require("x") / require("x").y /
; require("x") at module level.
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
