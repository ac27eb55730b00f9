; Lua outline. Vocabulary: README.md.
; Names keep their table path (`M.f`, `M:method`) as lua-language-server and
; ctags show them. `function M.f()` does not nest under `local M = {}`: nesting
; follows source ranges. Function definitions are listed at any depth, and so
; are the function fields of a table a function returns or names; tables, their
; other fields and other names at the top level only (`chunk` children).

; ---------------------------------------------------------------- functions

; function f() / function M.f() / function a.b.c() / local function f()
(function_declaration
  name: [
    (identifier)
    (dot_index_expression)
  ] @name
  body: (block)? @body) @definition.function

; function M:method() (implicit `self`).
(function_declaration
  name: (method_index_expression) @name
  body: (block)? @body) @definition.method

; local f = function() end. The whole `local` statement is the definition, so
; range, signature and doc comment start at `local`.
(variable_declaration
  (assignment_statement
    (variable_list
      .
      name: (identifier) @name)
    (expression_list
      .
      value: (function_definition
        body: (block)? @body)))) @definition.function

; f = function() end / M.f = function() end / M["and"] = function() end. The
; parent is spelled out so the inner assignment of a `local` statement is not
; matched twice. Inside functions a computed key (`t[k] = function`) is not a
; definition; at the top level (`handlers[ms.method] = function`) it is.
([
  (chunk
    (assignment_statement
      (variable_list
        .
        name: [
          (identifier)
          (dot_index_expression)
          (bracket_index_expression)
        ] @name)
      (expression_list
        .
        value: (function_definition
          body: (block)? @body))) @definition.function)
  (block
    (assignment_statement
      (variable_list
        .
        name: [
          (identifier)
          (dot_index_expression)
          (bracket_index_expression
            field: (string))
        ] @name)
      (expression_list
        .
        value: (function_definition
          body: (block)? @body))) @definition.function)
])

; ------------------------------------------------------------------- tables

; vim9["ops"] = (function() ... return M end)(): a namespace built by an
; immediately called function; its inner functions nest in it.
(chunk
  (assignment_statement
    (variable_list
      .
      name: [
        (identifier)
        (dot_index_expression)
        (bracket_index_expression)
      ] @name)
    (expression_list
      .
      value: (function_call
        name: (parenthesized_expression
          (function_definition
            body: (block) @body))
        arguments: (arguments) .))) @definition.object)

; Top-level tables. `local M = {}` (the module-table convention) is a module;
; any other table, or a `setmetatable(...)` object, is an object.
((chunk
  (variable_declaration
    (assignment_statement
      (variable_list
        .
        name: (identifier) @name)
      (expression_list
        .
        value: (table_constructor) @body))) @definition.module)
  (#eq? @name "M"))

((chunk
  (variable_declaration
    (assignment_statement
      (variable_list
        .
        name: (identifier) @name)
      (expression_list
        .
        value: [
          (table_constructor) @body
          (function_call
            name: (identifier) @_setmetatable
            arguments: (arguments) @body)
        ]))) @definition.object)
  (#not-eq? @name "M")
  (#eq? @_setmetatable "setmetatable"))

((chunk
  (assignment_statement
    (variable_list
      .
      name: [
        (identifier)
        (dot_index_expression)
      ] @name)
    (expression_list
      .
      value: [
        (table_constructor) @body
        (function_call
          name: (identifier) @_setmetatable
          arguments: (arguments) @body)
      ])) @definition.object)
  (#eq? @_setmetatable "setmetatable"))

; Named fields (`name = ...`, `["name"] = ...`) of a table assigned or returned
; at the top level: function values are methods, tables objects, anything else
; fields. Tables built inside function bodies are not listed.
((chunk
  [
    (variable_declaration
      (assignment_statement
        (expression_list
          value: (table_constructor
            [
              (field
                name: [
                  (identifier) @name
                  (string
                    content: (string_content) @name)
                ]
                value: (function_definition
                  body: (block)? @body)) @definition.function
              (field
                name: [
                  (identifier) @name
                  (string
                    content: (string_content) @name)
                ]
                value: (table_constructor) @body) @definition.object
              (field
                name: [
                  (identifier) @name
                  (string
                    content: (string_content) @name)
                ]
                value: (_) @_value) @definition.field
            ]))))
    (assignment_statement
      (expression_list
        value: (table_constructor
          [
            (field
              name: [
                (identifier) @name
                (string
                  content: (string_content) @name)
              ]
              value: (function_definition
                body: (block)? @body)) @definition.function
            (field
              name: [
                (identifier) @name
                (string
                  content: (string_content) @name)
              ]
              value: (table_constructor) @body) @definition.object
            (field
              name: [
                (identifier) @name
                (string
                  content: (string_content) @name)
              ]
              value: (_) @_value) @definition.field
          ])))
    (return_statement
      (expression_list
        (table_constructor
          [
            (field
              name: [
                (identifier) @name
                (string
                  content: (string_content) @name)
              ]
              value: (function_definition
                body: (block)? @body)) @definition.function
            (field
              name: [
                (identifier) @name
                (string
                  content: (string_content) @name)
              ]
              value: (table_constructor) @body) @definition.object
            (field
              name: [
                (identifier) @name
                (string
                  content: (string_content) @name)
              ]
              value: (_) @_value) @definition.field
          ])))
  ])
  (#not-match? @_value "^(function|\\{)"))

; One table deeper (`config.keys = { toggle = "<leader>t" }`,
; `M.ops = { add = function() end }`): functions and plain fields.
((chunk
  [
    (variable_declaration
      (assignment_statement
        (expression_list
          value: (table_constructor
            (field
              value: (table_constructor
                [
                  (field
                    name: [(identifier) @name (string content: (string_content) @name)]
                    value: (function_definition
                      body: (block)? @body)) @definition.function
                  (field
                    name: [(identifier) @name (string content: (string_content) @name)]
                    value: (_) @_value) @definition.field
                ]))))))
    (assignment_statement
      (expression_list
        value: (table_constructor
          (field
            value: (table_constructor
              [
                (field
                  name: [(identifier) @name (string content: (string_content) @name)]
                  value: (function_definition
                    body: (block)? @body)) @definition.function
                (field
                  name: [(identifier) @name (string content: (string_content) @name)]
                  value: (_) @_value) @definition.field
              ])))))
  ])
  (#not-match? @_value "^(function|\\{)"))

; Inside function bodies: the named function fields of a table that is
; returned or kept in a name (`return { publish = function(self) end }`,
; `local obj = { clear = function(self) end }`): the methods of an object a
; constructor builds (mediator's `Channel`, busted's cli). Its other fields,
; and tables passed to calls (`{ callback = function() end }`), stay out.
(block
  [
    (return_statement
      (expression_list
        (table_constructor
          (field
            name: [(identifier) @name (string content: (string_content) @name)]
            value: (function_definition
              body: (block)? @body)) @definition.function)))
    (variable_declaration
      (assignment_statement
        (expression_list
          value: (table_constructor
            (field
              name: [(identifier) @name (string content: (string_content) @name)]
              value: (function_definition
                body: (block)? @body)) @definition.function))))
    (assignment_statement
      (expression_list
        value: (table_constructor
          (field
            name: [(identifier) @name (string content: (string_content) @name)]
            value: (function_definition
              body: (block)? @body)) @definition.function)))
  ])

; Metamethods given to a top-level `setmetatable(M, { __index = function() end })`.
; Functions in the options table of other calls (`callback = function() end`)
; are anonymous callbacks, not definitions.
((chunk
  [
    (variable_declaration
      (assignment_statement
        (expression_list
          value: (function_call
            name: (identifier) @_setmetatable
            arguments: (arguments
              (table_constructor
                (field
                  name: (identifier) @name
                  value: (function_definition
                    body: (block)? @body)) @definition.function))))))
    (assignment_statement
      (expression_list
        value: (function_call
          name: (identifier) @_setmetatable
          arguments: (arguments
            (table_constructor
              (field
                name: (identifier) @name
                value: (function_definition
                  body: (block)? @body)) @definition.function)))))
    (return_statement
      (expression_list
        (function_call
          name: (identifier) @_setmetatable
          arguments: (arguments
            (table_constructor
              (field
                name: (identifier) @name
                value: (function_definition
                  body: (block)? @body)) @definition.function)))))
    (function_call
      name: (identifier) @_setmetatable
      arguments: (arguments
        (table_constructor
          (field
            name: (identifier) @name
            value: (function_definition
              body: (block)? @body)) @definition.function)))
  ])
  (#eq? @_setmetatable "setmetatable"))

; ---------------------------------------------------------- top-level names

; Other top-level names: UPPER_CASE is a constant, anything else a variable.
; Each name of `local a, b = 1, 2` is a symbol of its own (with the statement's
; range). `local x = require(...)` is an import; functions, tables and
; `setmetatable` objects have patterns above.
((chunk
  (variable_declaration
    (assignment_statement
      (variable_list
        name: (identifier) @name)
      (expression_list
        .
        value: (_) @_value))) @definition.constant)
  (#match? @name "^_*[A-Z][A-Z0-9_]*$")
  (#not-match? @_value "^(function|\\{|require\\s*[(\"'[{]|setmetatable\\s*\\()"))

((chunk
  (variable_declaration
    (assignment_statement
      (variable_list
        name: (identifier) @name)
      (expression_list
        .
        value: (_) @_value))) @definition.variable)
  (#not-match? @name "^_*[A-Z][A-Z0-9_]*$")
  (#not-match? @_value "^(function|\\{|require\\s*[(\"'[{]|setmetatable\\s*\\()"))

; `local x` / `local a, b` without a value.
(chunk
  (variable_declaration
    (variable_list
      name: (identifier) @name)) @definition.variable)

; Globals: `VERSION = "1.0"`, `count = 0`.
((chunk
  (assignment_statement
    (variable_list
      name: (identifier) @name)
    (expression_list
      .
      value: (_) @_value)) @definition.constant)
  (#match? @name "^_*[A-Z][A-Z0-9_]*$")
  (#not-match? @_value "^(function|\\{|setmetatable\\b|\\(\\s*function\\b)"))

((chunk
  (assignment_statement
    (variable_list
      name: (identifier) @name)
    (expression_list
      .
      value: (_) @_value)) @definition.variable)
  (#not-match? @name "^_*[A-Z][A-Z0-9_]*$")
  (#not-match? @_value "^(function|\\{|setmetatable\\b|\\(\\s*function\\b)"))

; Module fields set at the top level (`M.version = "1.0"`). Fields of `vim`,
; `_G` and `package` are settings of someone else's table, not definitions.
((chunk
  (assignment_statement
    (variable_list
      .
      name: (dot_index_expression
        table: (identifier) @_table) @name)
    (expression_list
      .
      value: (_) @_value)) @definition.field)
  (#not-match? @_table "^(vim|_G|package)$")
  (#not-match? @_value "^(function|\\{|setmetatable\\b|\\(\\s*function\\b)"))

; ------------------------------------------------------------------ imports

; local x = require("x") / local y = require("x").y, at the top level.
((chunk
  (variable_declaration
    (assignment_statement
      (expression_list
        .
        value: [
          (function_call
            name: (identifier) @_require)
          (dot_index_expression
            table: (function_call
              name: (identifier) @_require))
        ]))) @import)
  (#eq? @_require "require"))

; ------------------------------------------------------------ module function

; A module that is one function (`return function(options) ... end`, busted's
; runner): the returned function is the definition, named `return function`,
; so its local functions nest inside it.
(chunk
  (return_statement
    "return" @name
    (expression_list
      .
      (function_definition
        "function" @name
        body: (block)? @body) .)) @definition.function)
