; What JavaScript and TypeScript share (ECMAScript): javascript.scm and
; typescript.scm inherit it. Not a language of its own. Vocabulary: README.md.
; A pattern here must compile against both grammars (JavaScript's, TypeScript's
; and TSX's); a node type only one of them has goes in that language's file.
;
; Named functions and classes are listed at any depth; variables, objects and
; their members at module level only; anonymous callbacks never. `export`
; needs no pattern of its own: the scanner widens a definition to its
; `export_statement`. A one-name `const`/`let`/`var` declaration is the
; definition itself, so `const`, `export` and the doc comment belong to it.
;
; Cost: patterns rooted at `program` (module level) stay alive over the whole
; tree, and an alternation of many node types under a frequent node multiplies
; work, so value types are told apart by a regex on the value's first tokens:
; a value starting `async`, `function`, `x =>`, `<T,>(` or `(` (arrow
; parameters; not an IIFE `(function` / `((`) is a function and has its own
; pattern, as have `{` objects, `class`, `require(` and `memo(`/`forwardRef(`.

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

; const f = () => {} / let g = function () {} / var h = function* () {}, at any
; depth (a named function is a definition wherever it is). Only the first name
; of `var a = function () {}, b = ...` is listed: declarations of several names
; are mostly minified code, where listing every name multiplies the cost.
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

; Components wrapped in memo/forwardRef: `const Item = memo((props) => ...)`,
; `const Input = forwardRef<HTMLInputElement, Props>(...)`.
((lexical_declaration
  .
  (variable_declarator
    name: (identifier) @name
    value: (call_expression
      function: (_) @_wrapper
      arguments: (arguments) @body))) @definition.function
  (#match? @_wrapper "^(React\\.)?(memo|forwardRef)$"))

; exports.f = function () {} / Foo.prototype.bar = () => {} / this.onClick =
; function () {} / handlers["text/html"] = function () {}, at any depth
; (`this.x = function` in an old-style constructor defines a method). Named by
; the left side, or by the function's own name when it has one
; (`module.exports = function archy() {}` is `archy`). Computed keys (`t[k] =`)
; are not definitions.
(expression_statement
  (assignment_expression
    left: [
      (identifier)
      (member_expression)
      (subscript_expression
        index: (string))
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

; a.x = b.x = function () {} (`module.exports = exports = function`), and three in a
; chain: named by all the left sides (`a.x = b.x`), so any of them finds it.
(expression_statement
  (assignment_expression
    left: [
      (identifier)
      (member_expression)
    ] @name
    right: (assignment_expression
      left: [
        (identifier)
        (member_expression)
      ] @name
      right: [
        (arrow_function
          body: (_) @body)
        (function_expression
          !name
          body: (statement_block) @body)
      ]))) @definition.function

(expression_statement
  (assignment_expression
    left: (_) @name
    right: (assignment_expression
      right: (assignment_expression
        left: [
          (identifier)
          (member_expression)
        ] @name
        right: [
          (arrow_function
            body: (_) @body)
          (function_expression
            !name
            body: (statement_block) @body)
        ])))) @definition.function

; return function named() {} -- a factory's named result.
(return_statement
  (function_expression
    name: (identifier) @name
    body: (statement_block) @body) @definition.function)

; Foo.prototype.alias = Foo.prototype.other / Codec.prototype.encoder = Encoder
; define methods by reference.
((expression_statement
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
  name: (_) @name
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
(lexical_declaration
  .
  (variable_declarator
    name: (identifier) @name
    value: (class
      body: (class_body) @body))) @definition.class

(variable_declaration
  .
  (variable_declarator
    name: (identifier) @name
    value: (class
      body: (class_body) @body))) @definition.class

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

; ------------------------------------------------------- module-level objects

; const api = { ... } / var api = { ... } / module.exports = { ... } /
; export default { ... }: objects whose members are listed below.
(program
  (lexical_declaration
    .
    (variable_declarator
      name: (identifier) @name
      value: (object) @body)) @definition.object)

(program
  (variable_declaration
    .
    (variable_declarator
      name: (identifier) @name
      value: (object) @body)) @definition.object)

(export_statement
  (lexical_declaration
    .
    (variable_declarator
      name: (identifier) @name
      value: (object) @body)) @definition.object)

(program
  (expression_statement
    (assignment_expression
      left: (_) @name
      right: (object) @body)) @definition.object)

(export_statement
  "default" @name
  value: (object) @body) @definition.object

; Their members: `get() {}`, `post: function () {}`, `put: () => {}` are
; methods, `nested: { ... }` an object, `add` (shorthand) and anything else a
; field.
((program
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
            value: (_) @_value) @definition.field
          (shorthand_property_identifier) @name @definition.field
        ]))))
  (#not-match? @_value "^(async\\b|function\\b|<[\\w$]+\\s*(,|extends\\b|>\\s*\\()|[\\w$]+\\s*=>|\\((?!\\s*(async\\s+)?function\\b|\\s*\\()|\\{)"))

((program
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
            value: (_) @_value) @definition.field
          (shorthand_property_identifier) @name @definition.field
        ]))))
  (#not-match? @_value "^(async\\b|function\\b|<[\\w$]+\\s*(,|extends\\b|>\\s*\\()|[\\w$]+\\s*=>|\\((?!\\s*(async\\s+)?function\\b|\\s*\\()|\\{)"))

((program
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
            value: (_) @_value) @definition.field
          (shorthand_property_identifier) @name @definition.field
        ]))))
  (#not-match? @_value "^(async\\b|function\\b|<[\\w$]+\\s*(,|extends\\b|>\\s*\\()|[\\w$]+\\s*=>|\\((?!\\s*(async\\s+)?function\\b|\\s*\\()|\\{)"))

((export_statement
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
              value: (_) @_value) @definition.field
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
          value: (_) @_value) @definition.field
        (shorthand_property_identifier) @name @definition.field
      ])
  ])
  (#not-match? @_value "^(async\\b|function\\b|<[\\w$]+\\s*(,|extends\\b|>\\s*\\()|[\\w$]+\\s*=>|\\((?!\\s*(async\\s+)?function\\b|\\s*\\()|\\{)"))

; One object deeper (`export const api = { users: { list() {}, limit: 10 } }`):
; methods and fields.
((program
  (lexical_declaration
    (variable_declarator
      value: (object
        (pair
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
                value: (_) @_value) @definition.field
              (shorthand_property_identifier) @name @definition.field
            ]))))))
  (#not-match? @_value "^(async\\b|function\\b|<[\\w$]+\\s*(,|extends\\b|>\\s*\\()|[\\w$]+\\s*=>|\\((?!\\s*(async\\s+)?function\\b|\\s*\\()|\\{)"))

((export_statement
  (lexical_declaration
    (variable_declarator
      value: (object
        (pair
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
                value: (_) @_value) @definition.field
              (shorthand_property_identifier) @name @definition.field
            ]))))))
  (#not-match? @_value "^(async\\b|function\\b|<[\\w$]+\\s*(,|extends\\b|>\\s*\\()|[\\w$]+\\s*=>|\\((?!\\s*(async\\s+)?function\\b|\\s*\\()|\\{)"))

; ------------------------------------------------------- module-level names

; Other module-level names whose value is not a function,
; class, object or `require(...)` (those have patterns of their own): `const`
; declares a constant, `let` and `var` a variable, as tsserver reports them.
; Only the first name of `let a = 1, b = 2` is listed (see functions above).
((program
  (lexical_declaration
    kind: "const"
    .
    (variable_declarator
      name: (identifier) @name
      value: (_)? @_value)) @definition.constant)
  (#not-match? @_value "^(async\\b|function\\b|<[\\w$]+\\s*(,|extends\\b|>\\s*\\()|[\\w$]+\\s*=>|\\((?!\\s*(async\\s+)?function\\b|\\s*\\()|\\{|class\\b|require\\s*\\(|(React\\.)?(memo|forwardRef)\\b)"))

((export_statement
  (lexical_declaration
    kind: "const"
    .
    (variable_declarator
      name: (identifier) @name
      value: (_)? @_value)) @definition.constant)
  (#not-match? @_value "^(async\\b|function\\b|<[\\w$]+\\s*(,|extends\\b|>\\s*\\()|[\\w$]+\\s*=>|\\((?!\\s*(async\\s+)?function\\b|\\s*\\()|\\{|class\\b|require\\s*\\(|(React\\.)?(memo|forwardRef)\\b)"))

((program
  (lexical_declaration
    kind: "let"
    .
    (variable_declarator
      name: (identifier) @name
      value: (_)? @_value)) @definition.variable)
  (#not-match? @_value "^(async\\b|function\\b|<[\\w$]+\\s*(,|extends\\b|>\\s*\\()|[\\w$]+\\s*=>|\\((?!\\s*(async\\s+)?function\\b|\\s*\\()|\\{|class\\b|require\\s*\\(|(React\\.)?(memo|forwardRef)\\b)"))

((export_statement
  (lexical_declaration
    kind: "let"
    .
    (variable_declarator
      name: (identifier) @name
      value: (_)? @_value)) @definition.variable)
  (#not-match? @_value "^(async\\b|function\\b|<[\\w$]+\\s*(,|extends\\b|>\\s*\\()|[\\w$]+\\s*=>|\\((?!\\s*(async\\s+)?function\\b|\\s*\\()|\\{|class\\b|require\\s*\\(|(React\\.)?(memo|forwardRef)\\b)"))

((program
  (variable_declaration
    .
    (variable_declarator
      name: (identifier) @name
      value: (_)? @_value)) @definition.variable)
  (#not-match? @_value "^(async\\b|function\\b|<[\\w$]+\\s*(,|extends\\b|>\\s*\\()|[\\w$]+\\s*=>|\\((?!\\s*(async\\s+)?function\\b|\\s*\\()|\\{|class\\b|require\\s*\\(|(React\\.)?(memo|forwardRef)\\b)"))

((export_statement
  (variable_declaration
    .
    (variable_declarator
      name: (identifier) @name
      value: (_)? @_value)) @definition.variable)
  (#not-match? @_value "^(async\\b|function\\b|<[\\w$]+\\s*(,|extends\\b|>\\s*\\()|[\\w$]+\\s*=>|\\((?!\\s*(async\\s+)?function\\b|\\s*\\()|\\{|class\\b|require\\s*\\(|(React\\.)?(memo|forwardRef)\\b)"))

; exports.version = "1.0" / module.exports.LIMIT = 3.
((expression_statement
  (assignment_expression
    left: (member_expression
      object: [
        (identifier) @_exports
        (member_expression
          property: (property_identifier) @_exports)
      ]) @name
    right: (_) @_value)) @definition.field
  (#eq? @_exports "exports")
  (#not-match? @_value "^(async\\b|function\\b|<[\\w$]+\\s*(,|extends\\b|>\\s*\\()|[\\w$]+\\s*=>|\\((?!\\s*(async\\s+)?function\\b|\\s*\\()|\\{|class\\b|require\\s*\\(|(React\\.)?(memo|forwardRef)\\b)"))

; ------------------------------------------------------------------ imports

(import_statement) @import

; export * from "./x" / export { a } from "./y" re-export like imports.
(export_statement
  source: (_)) @import

; const x = require("x") / const { a } = require("x") / var y = require("x").y /
; require("x");
((lexical_declaration
  (variable_declarator
    value: [
      (call_expression
        function: (identifier) @_require)
      (member_expression
        object: (call_expression
          function: (identifier) @_require))
    ])) @import
  (#eq? @_require "require"))

((variable_declaration
  (variable_declarator
    value: [
      (call_expression
        function: (identifier) @_require)
      (member_expression
        object: (call_expression
          function: (identifier) @_require))
    ])) @import
  (#eq? @_require "require"))

((expression_statement
  (call_expression
    function: (identifier) @_require)) @import
  (#eq? @_require "require"))
