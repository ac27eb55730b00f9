; inherits: ecma
; JavaScript outline (also .jsx, .mjs, .cjs): what JavaScript's grammar names
; differently from TypeScript's; the rest is in ecma.scm. Vocabulary: README.md.

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
    value: (_)? @_value) @definition.field
  (#not-match? @_value "^(async\\b|function\\b|<[\\w$]+\\s*(,|extends\\b|>\\s*\\()|[\\w$]+\\s*=>|\\((?!\\s*(async\\s+)?function\\b|\\s*\\())"))
