; inherits: c_family
; C outline: the preprocessor and enumerators are in c_family.scm, shared with
; C++. Vocabulary: README.md.
;
; Declarator chains are spelled out (tree-sitter queries do not recurse): a
; name sits under up to two pointer/array/init declarators, and a function name
; inside a function_declarator, possibly behind `*` (`char **dup(...)`) or in
; the `void (*signal(...))(int)` shape.

; Function definitions.
(function_definition
  declarator: [
    (function_declarator declarator: (identifier) @name)
    (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))
    (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name)))
    (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))))
    ; A name made by a macro, `int TRANS(Connect)(...)`, is named `TRANS(Connect)`.
    (function_declarator declarator: (function_declarator declarator: (identifier)) @name)
    (pointer_declarator declarator: (function_declarator declarator: (function_declarator declarator: (identifier)) @name))
  ]
  body: (compound_statement) @body) @definition.function

; Structs, unions and enums with a body. A named one is `struct point`.
(struct_specifier
  name: (type_identifier) @name
  body: (field_declaration_list) @body) @definition.struct

(union_specifier
  name: (type_identifier) @name
  body: (field_declaration_list) @body) @definition.struct

(enum_specifier
  name: (type_identifier) @name
  body: (enumerator_list) @body) @definition.enum

; `typedef struct { ... } Name;`: the anonymous type is named by the typedef.
; The `typedef` keyword stands in for the body: the signature is then empty and
; the outline shows the name (the field list as body would leave the signature
; `typedef struct`, the name coming after the body).
; Only the first name of `typedef struct { ... } Box, *BoxPtr;` names the type.
(type_definition
  "typedef" @body
  type: [(struct_specifier !name body: (_)) (union_specifier !name body: (_))]
  .
  declarator: (type_identifier) @name) @definition.struct

; `typedef struct node { ... } node_t, *node_ptr;`: the struct is listed as
; `struct node`; each typedef name is a small symbol of its own after it (its
; definition is the declarator, so it does not swallow the struct).
(type_definition
  type: [
    (struct_specifier name: (_) body: (_))
    (union_specifier name: (_) body: (_))
    (enum_specifier name: (_) body: (_))
  ]
  declarator: [
    (type_identifier) @name @definition.type
    (pointer_declarator declarator: (type_identifier) @name) @definition.type
  ])

; Members: fields (one symbol per declarator of `int x, y;`) and enumerators.
; (Fields under `#if` in a struct body have the preprocessor node as parent.)
(field_declaration
  declarator: [
    (field_identifier) @name
    (pointer_declarator declarator: [(field_identifier) @name (pointer_declarator declarator: (field_identifier) @name) (array_declarator declarator: (field_identifier) @name)])
    (array_declarator declarator: [(field_identifier) @name (array_declarator declarator: (field_identifier) @name)])
    (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (field_identifier) @name)))
    (pointer_declarator declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (field_identifier) @name))))
  ]) @definition.field

(preproc_elifdef
  (preproc_def
    name: (identifier) @name
    !value) @definition.constant)

; File-scope declarations: prototypes (functions without a body), global
; variables and typedefs (`typedef int (*cb_t)(void *);`, `typedef struct node
; node_t;`), at top level, in preprocessor conditionals and in `extern "C" { }`.
; Declarations in function bodies are locals and not listed. (A declaration in
; an `#if` block inside a function body is still taken for a file-scope one:
; queries cannot tell that preprocessor block from one at file scope.)

(translation_unit
  (declaration
    declarator: [
      (function_declarator declarator: (identifier) @name)
      (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))
      (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name)))
      (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))))
    ]) @definition.function)

(translation_unit
  (declaration
    declarator: [
      (identifier) @name
      (init_declarator declarator: (identifier) @name)
      (pointer_declarator declarator: [(identifier) @name (pointer_declarator declarator: (identifier) @name) (array_declarator declarator: (identifier) @name)])
      (init_declarator declarator: (pointer_declarator declarator: [(identifier) @name (pointer_declarator declarator: (identifier) @name) (array_declarator declarator: (identifier) @name)]))
      (array_declarator declarator: [(identifier) @name (array_declarator declarator: (identifier) @name)])
      (init_declarator declarator: (array_declarator declarator: [(identifier) @name (array_declarator declarator: (identifier) @name)]))
      (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (identifier) @name)))
      (init_declarator declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (identifier) @name))))
    ]) @definition.variable)

(translation_unit
  (type_definition
    type: [
      (struct_specifier name: (_) !body)
      (union_specifier name: (_) !body)
      (enum_specifier name: (_) !body)
      (primitive_type) (type_identifier) (sized_type_specifier) (macro_type_specifier)
    ]
    declarator: [
      (type_identifier) @name
      (primitive_type) @name
      (pointer_declarator declarator: [(type_identifier) @name (pointer_declarator declarator: (type_identifier) @name)])
      (array_declarator declarator: (type_identifier) @name)
      (function_declarator declarator: [(type_identifier) @name (parenthesized_declarator (pointer_declarator declarator: (type_identifier) @name))])
      (pointer_declarator declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (type_identifier) @name))))
    ]) @definition.type)

(declaration_list
  (declaration
    declarator: [
      (function_declarator declarator: (identifier) @name)
      (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))
      (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name)))
      (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))))
    ]) @definition.function)

(declaration_list
  (declaration
    declarator: [
      (identifier) @name
      (init_declarator declarator: (identifier) @name)
      (pointer_declarator declarator: [(identifier) @name (pointer_declarator declarator: (identifier) @name) (array_declarator declarator: (identifier) @name)])
      (init_declarator declarator: (pointer_declarator declarator: [(identifier) @name (pointer_declarator declarator: (identifier) @name) (array_declarator declarator: (identifier) @name)]))
      (array_declarator declarator: [(identifier) @name (array_declarator declarator: (identifier) @name)])
      (init_declarator declarator: (array_declarator declarator: [(identifier) @name (array_declarator declarator: (identifier) @name)]))
      (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (identifier) @name)))
      (init_declarator declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (identifier) @name))))
    ]) @definition.variable)

(declaration_list
  (type_definition
    type: [
      (struct_specifier name: (_) !body)
      (union_specifier name: (_) !body)
      (enum_specifier name: (_) !body)
      (primitive_type) (type_identifier) (sized_type_specifier) (macro_type_specifier)
    ]
    declarator: [
      (type_identifier) @name
      (primitive_type) @name
      (pointer_declarator declarator: [(type_identifier) @name (pointer_declarator declarator: (type_identifier) @name)])
      (array_declarator declarator: (type_identifier) @name)
      (function_declarator declarator: [(type_identifier) @name (parenthesized_declarator (pointer_declarator declarator: (type_identifier) @name))])
      (pointer_declarator declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (type_identifier) @name))))
    ]) @definition.type)

(linkage_specification
  (declaration
    declarator: [
      (function_declarator declarator: (identifier) @name)
      (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))
      (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name)))
      (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))))
    ]) @definition.function)

(linkage_specification
  (declaration
    declarator: [
      (identifier) @name
      (init_declarator declarator: (identifier) @name)
      (pointer_declarator declarator: [(identifier) @name (pointer_declarator declarator: (identifier) @name) (array_declarator declarator: (identifier) @name)])
      (init_declarator declarator: (pointer_declarator declarator: [(identifier) @name (pointer_declarator declarator: (identifier) @name) (array_declarator declarator: (identifier) @name)]))
      (array_declarator declarator: [(identifier) @name (array_declarator declarator: (identifier) @name)])
      (init_declarator declarator: (array_declarator declarator: [(identifier) @name (array_declarator declarator: (identifier) @name)]))
      (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (identifier) @name)))
      (init_declarator declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (identifier) @name))))
    ]) @definition.variable)

(preproc_if
  (declaration
    declarator: [
      (function_declarator declarator: (identifier) @name)
      (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))
      (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name)))
      (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))))
    ]) @definition.function)

(preproc_if
  (declaration
    declarator: [
      (identifier) @name
      (init_declarator declarator: (identifier) @name)
      (pointer_declarator declarator: [(identifier) @name (pointer_declarator declarator: (identifier) @name) (array_declarator declarator: (identifier) @name)])
      (init_declarator declarator: (pointer_declarator declarator: [(identifier) @name (pointer_declarator declarator: (identifier) @name) (array_declarator declarator: (identifier) @name)]))
      (array_declarator declarator: [(identifier) @name (array_declarator declarator: (identifier) @name)])
      (init_declarator declarator: (array_declarator declarator: [(identifier) @name (array_declarator declarator: (identifier) @name)]))
      (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (identifier) @name)))
      (init_declarator declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (identifier) @name))))
    ]) @definition.variable)

(preproc_if
  (type_definition
    type: [
      (struct_specifier name: (_) !body)
      (union_specifier name: (_) !body)
      (enum_specifier name: (_) !body)
      (primitive_type) (type_identifier) (sized_type_specifier) (macro_type_specifier)
    ]
    declarator: [
      (type_identifier) @name
      (primitive_type) @name
      (pointer_declarator declarator: [(type_identifier) @name (pointer_declarator declarator: (type_identifier) @name)])
      (array_declarator declarator: (type_identifier) @name)
      (function_declarator declarator: [(type_identifier) @name (parenthesized_declarator (pointer_declarator declarator: (type_identifier) @name))])
      (pointer_declarator declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (type_identifier) @name))))
    ]) @definition.type)

(preproc_ifdef
  (declaration
    declarator: [
      (function_declarator declarator: (identifier) @name)
      (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))
      (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name)))
      (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))))
    ]) @definition.function)

(preproc_ifdef
  (declaration
    declarator: [
      (identifier) @name
      (init_declarator declarator: (identifier) @name)
      (pointer_declarator declarator: [(identifier) @name (pointer_declarator declarator: (identifier) @name) (array_declarator declarator: (identifier) @name)])
      (init_declarator declarator: (pointer_declarator declarator: [(identifier) @name (pointer_declarator declarator: (identifier) @name) (array_declarator declarator: (identifier) @name)]))
      (array_declarator declarator: [(identifier) @name (array_declarator declarator: (identifier) @name)])
      (init_declarator declarator: (array_declarator declarator: [(identifier) @name (array_declarator declarator: (identifier) @name)]))
      (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (identifier) @name)))
      (init_declarator declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (identifier) @name))))
    ]) @definition.variable)

(preproc_ifdef
  (type_definition
    type: [
      (struct_specifier name: (_) !body)
      (union_specifier name: (_) !body)
      (enum_specifier name: (_) !body)
      (primitive_type) (type_identifier) (sized_type_specifier) (macro_type_specifier)
    ]
    declarator: [
      (type_identifier) @name
      (primitive_type) @name
      (pointer_declarator declarator: [(type_identifier) @name (pointer_declarator declarator: (type_identifier) @name)])
      (array_declarator declarator: (type_identifier) @name)
      (function_declarator declarator: [(type_identifier) @name (parenthesized_declarator (pointer_declarator declarator: (type_identifier) @name))])
      (pointer_declarator declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (type_identifier) @name))))
    ]) @definition.type)

(preproc_else
  (declaration
    declarator: [
      (function_declarator declarator: (identifier) @name)
      (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))
      (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name)))
      (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))))
    ]) @definition.function)

(preproc_else
  (declaration
    declarator: [
      (identifier) @name
      (init_declarator declarator: (identifier) @name)
      (pointer_declarator declarator: [(identifier) @name (pointer_declarator declarator: (identifier) @name) (array_declarator declarator: (identifier) @name)])
      (init_declarator declarator: (pointer_declarator declarator: [(identifier) @name (pointer_declarator declarator: (identifier) @name) (array_declarator declarator: (identifier) @name)]))
      (array_declarator declarator: [(identifier) @name (array_declarator declarator: (identifier) @name)])
      (init_declarator declarator: (array_declarator declarator: [(identifier) @name (array_declarator declarator: (identifier) @name)]))
      (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (identifier) @name)))
      (init_declarator declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (identifier) @name))))
    ]) @definition.variable)

(preproc_else
  (type_definition
    type: [
      (struct_specifier name: (_) !body)
      (union_specifier name: (_) !body)
      (enum_specifier name: (_) !body)
      (primitive_type) (type_identifier) (sized_type_specifier) (macro_type_specifier)
    ]
    declarator: [
      (type_identifier) @name
      (primitive_type) @name
      (pointer_declarator declarator: [(type_identifier) @name (pointer_declarator declarator: (type_identifier) @name)])
      (array_declarator declarator: (type_identifier) @name)
      (function_declarator declarator: [(type_identifier) @name (parenthesized_declarator (pointer_declarator declarator: (type_identifier) @name))])
      (pointer_declarator declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (type_identifier) @name))))
    ]) @definition.type)

(preproc_elif
  (declaration
    declarator: [
      (function_declarator declarator: (identifier) @name)
      (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))
      (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name)))
      (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))))
    ]) @definition.function)

(preproc_elif
  (declaration
    declarator: [
      (identifier) @name
      (init_declarator declarator: (identifier) @name)
      (pointer_declarator declarator: [(identifier) @name (pointer_declarator declarator: (identifier) @name) (array_declarator declarator: (identifier) @name)])
      (init_declarator declarator: (pointer_declarator declarator: [(identifier) @name (pointer_declarator declarator: (identifier) @name) (array_declarator declarator: (identifier) @name)]))
      (array_declarator declarator: [(identifier) @name (array_declarator declarator: (identifier) @name)])
      (init_declarator declarator: (array_declarator declarator: [(identifier) @name (array_declarator declarator: (identifier) @name)]))
      (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (identifier) @name)))
      (init_declarator declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (identifier) @name))))
    ]) @definition.variable)

(preproc_elif
  (type_definition
    type: [
      (struct_specifier name: (_) !body)
      (union_specifier name: (_) !body)
      (enum_specifier name: (_) !body)
      (primitive_type) (type_identifier) (sized_type_specifier) (macro_type_specifier)
    ]
    declarator: [
      (type_identifier) @name
      (primitive_type) @name
      (pointer_declarator declarator: [(type_identifier) @name (pointer_declarator declarator: (type_identifier) @name)])
      (array_declarator declarator: (type_identifier) @name)
      (function_declarator declarator: [(type_identifier) @name (parenthesized_declarator (pointer_declarator declarator: (type_identifier) @name))])
      (pointer_declarator declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (type_identifier) @name))))
    ]) @definition.type)

(preproc_elifdef
  (declaration
    declarator: [
      (function_declarator declarator: (identifier) @name)
      (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))
      (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name)))
      (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))))
    ]) @definition.function)

(preproc_elifdef
  (declaration
    declarator: [
      (identifier) @name
      (init_declarator declarator: (identifier) @name)
      (pointer_declarator declarator: [(identifier) @name (pointer_declarator declarator: (identifier) @name) (array_declarator declarator: (identifier) @name)])
      (init_declarator declarator: (pointer_declarator declarator: [(identifier) @name (pointer_declarator declarator: (identifier) @name) (array_declarator declarator: (identifier) @name)]))
      (array_declarator declarator: [(identifier) @name (array_declarator declarator: (identifier) @name)])
      (init_declarator declarator: (array_declarator declarator: [(identifier) @name (array_declarator declarator: (identifier) @name)]))
      (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (identifier) @name)))
      (init_declarator declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (identifier) @name))))
    ]) @definition.variable)

(preproc_elifdef
  (type_definition
    type: [
      (struct_specifier name: (_) !body)
      (union_specifier name: (_) !body)
      (enum_specifier name: (_) !body)
      (primitive_type) (type_identifier) (sized_type_specifier) (macro_type_specifier)
    ]
    declarator: [
      (type_identifier) @name
      (primitive_type) @name
      (pointer_declarator declarator: [(type_identifier) @name (pointer_declarator declarator: (type_identifier) @name)])
      (array_declarator declarator: (type_identifier) @name)
      (function_declarator declarator: [(type_identifier) @name (parenthesized_declarator (pointer_declarator declarator: (type_identifier) @name))])
      (pointer_declarator declarator: (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (type_identifier) @name))))
    ]) @definition.type)
