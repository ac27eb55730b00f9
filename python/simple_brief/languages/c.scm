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
    ]) @definition.function
  (#not-match? @name "^(OF|__P|_PROTO|PARAMS|_ANSI_ARGS_|__PMT|_Pmt)$"))

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
    ]
    ";" @_end .) @definition.variable
  (#eq? @_end ";"))

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

; The same inside an ERROR: where tree-sitter cannot expand a macro
; (`#ifdef __cplusplus` / `extern "C" {` / `#endif`, `__BEGIN_DECLS`), its
; recovery keeps the declarations that follow under an ERROR node.

(ERROR
  (declaration
    declarator: [
      (function_declarator declarator: (identifier) @name)
      (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))
      (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name)))
      (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))))
    ]) @definition.function
  (#not-match? @name "^(OF|__P|_PROTO|PARAMS|_ANSI_ARGS_|__PMT|_Pmt)$"))

(ERROR
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
    ]
    ";" @_end .) @definition.variable
  (#eq? @_end ";"))

(ERROR
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

; A prototype whose trailing macro (`__THROW`, `__nonnull ((1))`, `_DEPRECATED`) the
; grammar could not read leaves its type and declarator loose in an ERROR: the
; declarator right after a type is the function (its signature starts at the name).
(ERROR
  ; (a type after a macro word reads as an identifier: `__USE_POSIX extern int fileno (...)`)
  [(primitive_type) (type_identifier) (sized_type_specifier) (struct_specifier) (union_specifier) (enum_specifier) (macro_type_specifier) (identifier)]
  .
  [
    (function_declarator declarator: (identifier) @name) @definition.function
    (pointer_declarator declarator: (function_declarator declarator: (identifier) @name)) @definition.function
    (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))) @definition.function
    ; `f (args) __THROWNL __attribute__ ((...))`: the attribute read as a call of `f (args)`
    (function_declarator declarator: (function_declarator declarator: (identifier) @name)) @definition.function
    (function_declarator declarator: (function_declarator declarator: (function_declarator declarator: (identifier) @name))) @definition.function
  ])

; `SQLITE_API sqlite3_int64 f(sqlite3*);`: after two words the grammar closes a
; declaration and reads `f(sqlite3*)` as a macro's type argument, loose at the top.
(translation_unit
  (macro_type_specifier name: (identifier) @name) @definition.function)

; Typedef names behind a macro the grammar cannot read: `typedef __u16 __bitwise
; __le16;` (the name last, in an ERROR), `typedef struct s *NAME _DEPRECATED;`.
(type_definition
  (ERROR (identifier) @name .)
  .
  ";") @definition.type

(type_definition
  declarator: (pointer_declarator (ERROR . (type_identifier) @name .))) @definition.type

; The pre-ANSI argument-list macros, `zlibVersion OF((void))`, `f __P((int))`: the
; grammar reads the name as a type and the macro as the function.
(declaration
  type: (type_identifier) @name
  declarator: (function_declarator declarator: (identifier) @_arguments)
  (#match? @_arguments "^(OF|__P|_PROTO|PARAMS|_ANSI_ARGS_|__PMT|_Pmt)$")) @definition.function

(type_definition
  declarator: (parenthesized_declarator (pointer_declarator declarator: (type_identifier) @name))
  .
  ";") @definition.type

(declaration_list
  (declaration
    declarator: [
      (function_declarator declarator: (identifier) @name)
      (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))
      (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name)))
      (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))))
    ]) @definition.function
  (#not-match? @name "^(OF|__P|_PROTO|PARAMS|_ANSI_ARGS_|__PMT|_Pmt)$"))

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
    ]
    ";" @_end .) @definition.variable
  (#eq? @_end ";"))

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
    ]) @definition.function
  (#not-match? @name "^(OF|__P|_PROTO|PARAMS|_ANSI_ARGS_|__PMT|_Pmt)$"))

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
    ]
    ";" @_end .) @definition.variable
  (#eq? @_end ";"))

(preproc_if
  (declaration
    declarator: [
      (function_declarator declarator: (identifier) @name)
      (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))
      (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name)))
      (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))))
    ]) @definition.function
  (#not-match? @name "^(OF|__P|_PROTO|PARAMS|_ANSI_ARGS_|__PMT|_Pmt)$"))

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
    ]
    ";" @_end .) @definition.variable
  (#eq? @_end ";"))

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
    ]) @definition.function
  (#not-match? @name "^(OF|__P|_PROTO|PARAMS|_ANSI_ARGS_|__PMT|_Pmt)$"))

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
    ]
    ";" @_end .) @definition.variable
  (#eq? @_end ";"))

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
    ]) @definition.function
  (#not-match? @name "^(OF|__P|_PROTO|PARAMS|_ANSI_ARGS_|__PMT|_Pmt)$"))

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
    ]
    ";" @_end .) @definition.variable
  (#eq? @_end ";"))

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
    ]) @definition.function
  (#not-match? @name "^(OF|__P|_PROTO|PARAMS|_ANSI_ARGS_|__PMT|_Pmt)$"))

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
    ]
    ";" @_end .) @definition.variable
  (#eq? @_end ";"))

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
    ]) @definition.function
  (#not-match? @name "^(OF|__P|_PROTO|PARAMS|_ANSI_ARGS_|__PMT|_Pmt)$"))

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
    ]
    ";" @_end .) @definition.variable
  (#eq? @_end ";"))

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
