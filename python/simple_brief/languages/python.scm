; Python outline. Vocabulary: README.md.
; Decorators need no pattern: the scanner widens a definition to its
; `decorated_definition` wrapper.

; `__init__` is the constructor; every other def is a function (a method once
; the scanner finds it directly inside a class). Nested defs are kept: they are
; real definitions, and lambdas are never captured on their own.
(function_definition
  name: (identifier) @name
  body: (block) @body
  (#not-eq? @name "__init__")) @definition.function

(function_definition
  name: (identifier) @name
  body: (block) @body
  (#eq? @name "__init__")) @definition.constructor

; Classes. A class deriving from an enum base (`Enum`, `enum.IntEnum`, ...) is an
; enum and its attributes are enum members. Patterns are split on the superclass
; text so each class matches exactly one of them.
(class_definition
  name: (identifier) @name
  !superclasses
  body: (block) @body) @definition.class

(class_definition
  name: (identifier) @name
  superclasses: (argument_list) @_bases
  body: (block) @body
  (#not-match? @_bases "(^|[(,.\\s])(Enum|IntEnum|StrEnum|Flag|IntFlag|ReprEnum)\\s*[,)]")) @definition.class

(class_definition
  name: (identifier) @name
  superclasses: (argument_list) @_bases
  body: (block) @body
  (#match? @_bases "(^|[(,.\\s])(Enum|IntEnum|StrEnum|Flag|IntFlag|ReprEnum)\\s*[,)]")) @definition.enum

; Class attributes, annotated (`name: str`) or assigned (`x = 1`).
(class_definition
  !superclasses
  body: (block
    (expression_statement
      (assignment left: (identifier) @name)) @definition.field))

(class_definition
  superclasses: (argument_list) @_bases
  body: (block
    (expression_statement
      (assignment left: (identifier) @name)) @definition.field)
  (#not-match? @_bases "(^|[(,.\\s])(Enum|IntEnum|StrEnum|Flag|IntFlag|ReprEnum)\\s*[,)]"))

(class_definition
  superclasses: (argument_list) @_bases
  body: (block
    (expression_statement
      (assignment left: (identifier) @name)) @definition.enum_member)
  (#match? @_bases "(^|[(,.\\s])(Enum|IntEnum|StrEnum|Flag|IntFlag|ReprEnum)\\s*[,)]"))

; Instance attributes set in `__init__` (directly, or one `if`/`else` deep)
; belong to the class: the scanner hoists fields found in a method to the class.
(function_definition
  name: (identifier) @_init
  body: (block
    (expression_statement
      (assignment
        left: (attribute
          object: (identifier) @_self
          attribute: (identifier) @name))) @definition.field)
  (#eq? @_init "__init__")
  (#eq? @_self "self"))

(function_definition
  name: (identifier) @_init
  body: (block
    (if_statement
      [
        consequence: (block
          (expression_statement
            (assignment
              left: (attribute
                object: (identifier) @_self
                attribute: (identifier) @name))) @definition.field)
        alternative: (else_clause
          body: (block
            (expression_statement
              (assignment
                left: (attribute
                  object: (identifier) @_self
                  attribute: (identifier) @name))) @definition.field))
      ]))
  (#eq? @_init "__init__")
  (#eq? @_self "self"))

; Module-level names: a lambda makes a function, UPPER_CASE a constant, anything
; else a variable.
(module
  (expression_statement
    (assignment
      left: (identifier) @name
      right: (lambda))) @definition.function)

(module
  (expression_statement
    (assignment
      left: (identifier) @name
      right: (_)? @_value)) @definition.constant
  (#match? @name "^_*[A-Z][A-Z0-9_]*$")
  (#not-match? @_value "^lambda[\\s:]"))

(module
  (expression_statement
    (assignment
      left: (identifier) @name
      right: (_)? @_value)) @definition.variable
  (#not-match? @name "^_*[A-Z][A-Z0-9_]*$")
  (#not-match? @_value "^lambda[\\s:]"))

; The same one level into module-level `if`/`try` blocks (platform switches,
; `try: from _c import f` / `except ImportError: f = None`). Listed as variables
; whatever their case: one pattern instead of two halves the cost of keeping a
; match state alive at the module level.
(module
  [
    (if_statement
      [
        consequence: (block
          (expression_statement
            (assignment left: (identifier) @name)) @definition.variable)
        alternative: (elif_clause
          consequence: (block
            (expression_statement
              (assignment left: (identifier) @name)) @definition.variable))
        alternative: (else_clause
          body: (block
            (expression_statement
              (assignment left: (identifier) @name)) @definition.variable))
      ])
    (try_statement
      [
        body: (block
          (expression_statement
            (assignment left: (identifier) @name)) @definition.variable)
        (except_clause
          (block
            (expression_statement
              (assignment left: (identifier) @name)) @definition.variable))
        (else_clause
          body: (block
            (expression_statement
              (assignment left: (identifier) @name)) @definition.variable))
      ])
  ])

; `type Point = tuple[float, float]` (Python 3.12).
(type_alias_statement
  left: (type
    [
      (identifier) @name
      (generic_type (identifier) @name)
    ])) @definition.type

(import_statement) @import
(import_from_statement) @import
(future_import_statement) @import
