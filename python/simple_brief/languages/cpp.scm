; inherits: c_family
; C++ outline: the preprocessor and enumerators are in c_family.scm, shared with
; C. Vocabulary: README.md.
;
; Declarator chains are spelled out (tree-sitter queries do not recurse): a
; function name sits in a function_declarator, possibly behind `*`/`&`
; (`Foo* make()`, `const T& get()`). Patterns anchored in a class body
; (field_declaration_list) come out of the query cursor before the general ones
; for the same node, so their kind (method, constructor) is the one kept.
;
; Cost: compiling a query checks every typed node that has typed children
; against the grammar, and against C++'s large grammar that is most of a cold
; outline. So declarators are written as a wildcard with the tokens and fields
; only that declarator has, which the compiler does not check; in a declarator
; position each means exactly one node type (abstract declarators have the same
; shape but never hold a name), tested in tests/engine/test_query_cost.py:
;   (_ declarator: X parameters: (_))   function_declarator
;   (_ "*" declarator: X)                pointer_declarator
;   (_ declarator: X "[")                array_declarator
;   (_ declarator: X value: (_))         init_declarator
;   (_ ["&" "&&"] X)                     reference_declarator
;   (_ "(" X)                            parenthesized_declarator
; The names and bodies of classes, structs, unions and namespaces are wildcards
; too: the grammar allows there only the node types once listed here. A
; specifier without a body always has a name, so `!body` alone says both.

; ---- Types ----------------------------------------------------------------

(class_specifier
  name: (_) @name
  body: (_) @body) @definition.class

(struct_specifier
  name: (_) @name
  body: (_) @body) @definition.struct

(union_specifier
  name: (_) @name
  body: (_) @body) @definition.struct

(enum_specifier
  name: [(type_identifier) (qualified_identifier)] @name
  body: (enumerator_list) @body) @definition.enum

; `class EXPORT_MACRO Name { ... }`: the grammar reads the macro as the class's
; name and the rest as a function definition; the class is the identifier after it.
(function_definition
  type: [(class_specifier !body) (struct_specifier !body)]
  declarator: (identifier) @name
  body: (compound_statement) @body) @definition.class

; `BEGIN_NAMESPACE_MACRO namespace name { ... }`: read as a function definition
; holding `namespace` in an ERROR, or as the scope of a qualified name
; (`namespace a::b {`, named by its last part).
(function_definition
  type: (type_identifier)
  (ERROR (identifier) @_namespace (#eq? @_namespace "namespace"))
  declarator: (identifier) @name
  body: (compound_statement) @body) @definition.namespace

(function_definition
  type: (type_identifier)
  declarator: (qualified_identifier
    scope: (namespace_identifier) @_namespace (#eq? @_namespace "namespace")
    name: (identifier) @name)
  body: (compound_statement) @body) @definition.namespace

; Anonymous namespaces are not listed: their members show at the top level.
(namespace_definition
  name: (_) @name
  body: (_) @body) @definition.namespace

; `typedef struct { ... } Name;`: the anonymous type is named by the typedef.
; The `typedef` keyword stands in for the body: the signature is then empty and
; the outline shows the name (the field list as body would leave the signature
; `typedef struct`, the name coming after the body).
(type_definition
  "typedef" @body
  type: [(struct_specifier !name body: (_)) (union_specifier !name body: (_)) (class_specifier !name body: (_))]
  .
  declarator: (type_identifier) @name) @definition.struct

; `typedef struct node { ... } node_t;`: the struct is listed as `struct node`,
; each typedef name as a small symbol of its own after it.
(type_definition
  type: [
    (struct_specifier name: (_) body: (_))
    (union_specifier name: (_) body: (_))
    (class_specifier name: (_) body: (_))
    (enum_specifier name: (_) body: (_))
  ]
  declarator: [
    (type_identifier) @name @definition.type
    (_ "*" declarator: (type_identifier) @name) @definition.type
  ])

; ---- Class members ----------------------------------------------------------

; Data members, one symbol per declarator of `int x, y;`.
(field_declaration
  declarator: [
    (field_identifier) @name
    (_ "*" declarator: [(field_identifier) @name (_ "*" declarator: (field_identifier) @name) (_ declarator: (field_identifier) @name "[")])
    (_ ["&" "&&"] (field_identifier) @name)
    (_ declarator: [(field_identifier) @name (_ declarator: (field_identifier) @name "[")] "[")
    (_ declarator: (_ "(" (_ "*" declarator: (field_identifier) @name)) parameters: (_))
    (_ "*" declarator: (_ declarator: (_ "(" (_ "*" declarator: (field_identifier) @name)) parameters: (_)))
  ]) @definition.field

; Member function declarations: `void f();`, `virtual double area() const = 0;`.
(field_declaration
  declarator: [
    (_ declarator: [(field_identifier) (identifier) (operator_name) (destructor_name) (template_function)] @name parameters: (_))
    (_ "*" declarator: (_ declarator: [(field_identifier) (identifier) (operator_name) (template_function)] @name parameters: (_)))
    (_ "*" declarator: (_ "*" declarator: (_ declarator: [(field_identifier) (identifier) (operator_name) (template_function)] @name parameters: (_))))
    (_ ["&" "&&"] (_ declarator: [(field_identifier) (identifier) (operator_name) (template_function)] @name parameters: (_)))
  ]) @definition.method

; Declarations in a class body without a return type are constructors and
; destructors (`Shape();`, `~Shape();`); with one, member templates.
(field_declaration_list
  (declaration
    !type
    declarator: (_ declarator: [(identifier) (destructor_name)] @name parameters: (_))) @definition.constructor)

(field_declaration_list
  (template_declaration
    (declaration
      !type
      declarator: (_ declarator: (identifier) @name parameters: (_))) @definition.constructor))

; Conversion operators are named `operator bool`, `operator Node*`.
(field_declaration_list
  (declaration
    !type
    declarator: (operator_cast
      "operator" @name
      type: (_) @name
      declarator: [
        (abstract_function_declarator)
        (abstract_pointer_declarator "*" @name)
        (abstract_reference_declarator ["&" "&&"] @name)
      ])) @definition.method)

(field_declaration_list
  (template_declaration
    (declaration
      type: (_)
      declarator: [
        (_ declarator: [(identifier) (field_identifier) (operator_name)] @name parameters: (_))
        (_ "*" declarator: (_ declarator: [(identifier) (field_identifier) (operator_name)] @name parameters: (_)))
        (_ ["&" "&&"] (_ declarator: [(identifier) (field_identifier) (operator_name)] @name parameters: (_)))
      ]) @definition.method))

; Member function definitions in the class body (inline, `= default`, `= delete`).
(field_declaration_list
  (function_definition
    !type
    declarator: (_ declarator: [(identifier) (destructor_name)] @name parameters: (_))
    body: (_)? @body) @definition.constructor)

(field_declaration_list
  (template_declaration
    (function_definition
      !type
      declarator: (_ declarator: (identifier) @name parameters: (_))
      body: (_)? @body) @definition.constructor))

(field_declaration_list
  (function_definition
    type: (_)
    declarator: [
      (_ declarator: [(field_identifier) (identifier) (operator_name) (template_function)] @name parameters: (_))
      (_ "*" declarator: (_ declarator: [(field_identifier) (identifier) (operator_name) (template_function)] @name parameters: (_)))
      (_ "*" declarator: (_ "*" declarator: (_ declarator: [(field_identifier) (identifier) (operator_name) (template_function)] @name parameters: (_))))
      (_ "*" declarator: (_ ["&" "&&"] (_ declarator: [(field_identifier) (identifier) (operator_name) (template_function)] @name parameters: (_))))
      (_ ["&" "&&"] (_ declarator: [(field_identifier) (identifier) (operator_name) (template_function)] @name parameters: (_)))
    ]
    body: (_)? @body) @definition.method)

(field_declaration_list
  (template_declaration
    (function_definition
      type: (_)
      declarator: [
        (_ declarator: [(field_identifier) (identifier) (operator_name) (template_function)] @name parameters: (_))
        (_ "*" declarator: (_ declarator: [(field_identifier) (identifier) (operator_name) (template_function)] @name parameters: (_)))
        (_ ["&" "&&"] (_ declarator: [(field_identifier) (identifier) (operator_name) (template_function)] @name parameters: (_)))
      ]
      body: (_)? @body) @definition.method))

; ---- Functions ----------------------------------------------------------------

; Free functions, friends defined in a class, and members under `#if` in a class
; body (field_identifier names; nesting makes them methods).
(function_definition
  declarator: [
    (_ declarator: [(identifier) (field_identifier) (operator_name) (template_function)] @name parameters: (_))
    (_ "*" declarator: (_ declarator: [(identifier) (field_identifier) (operator_name) (template_function)] @name parameters: (_)))
    (_ "*" declarator: (_ "*" declarator: (_ declarator: [(identifier) (field_identifier) (operator_name) (template_function)] @name parameters: (_))))
    (_ "*" declarator: (_ ["&" "&&"] (_ declarator: [(identifier) (field_identifier) (operator_name) (template_function)] @name parameters: (_))))
    (_ ["&" "&&"] (_ declarator: [(identifier) (field_identifier) (operator_name) (template_function)] @name parameters: (_)))
    (_ declarator: (_ "(" (_ "*" declarator: (_ declarator: (identifier) @name parameters: (_)))) parameters: (_))
    ; A name made by a macro, `int TRANS(Connect)(...)`, is named `TRANS(Connect)`.
    (_ declarator: (_ declarator: (identifier) parameters: (_)) @name parameters: (_))
  ]
  body: (_)? @body) @definition.function

; Out-of-line members are named with their scope (`Shape::area`); without a
; return type they are constructors and destructors (`Shape::~Shape`).
(function_definition
  type: (_)
  declarator: [
    (_ declarator: (qualified_identifier) @name parameters: (_))
    (_ "*" declarator: (_ declarator: (qualified_identifier) @name parameters: (_)))
    (_ "*" declarator: (_ "*" declarator: (_ declarator: (qualified_identifier) @name parameters: (_))))
    (_ ["&" "&&"] (_ declarator: (qualified_identifier) @name parameters: (_)))
  ]
  body: (_)? @body) @definition.method

(function_definition
  !type
  declarator: (_ declarator: [(qualified_identifier) (destructor_name)] @name parameters: (_))
  body: (_)? @body) @definition.constructor

(function_definition
  !type
  declarator: (operator_cast
    "operator" @name
    type: (_) @name
    declarator: [
      (abstract_function_declarator)
      (abstract_pointer_declarator "*" @name)
      (abstract_reference_declarator ["&" "&&"] @name)
    ])
  body: (_)? @body) @definition.method

; Recovery: a macro after the parameter list (`void f() _GLIBCXX_NOEXCEPT { }`)
; leaves the function declarator in an ERROR node; the name is still certain.
(function_definition
  (ERROR
    (_ declarator: [(identifier) (field_identifier) (qualified_identifier) (operator_name) (destructor_name)] @name parameters: (_)))
  body: (_) @body) @definition.function

(function_definition
  declarator: [
    (pointer_declarator
      (ERROR (_ declarator: [(identifier) (field_identifier) (qualified_identifier) (operator_name)] @name parameters: (_))))
    (reference_declarator
      (ERROR (_ declarator: [(identifier) (field_identifier) (qualified_identifier) (operator_name)] @name parameters: (_))))
  ]
  body: (_) @body) @definition.function

(field_declaration
  (ERROR
    (_ declarator: [(field_identifier) (identifier) (operator_name) (destructor_name)] @name parameters: (_)))) @definition.method

; Recovery: an export macro between `class` and the name (`class U_COMMON_API Foo {`)
; reads as a function `Foo` returning `class U_COMMON_API`; the body is then a
; compound statement (its methods are still found, nested by range).
(function_definition
  type: (class_specifier !body)
  declarator: (identifier) @name
  body: (compound_statement) @body) @definition.class

(function_definition
  type: (struct_specifier !body)
  declarator: (identifier) @name
  body: (compound_statement) @body) @definition.struct

; Recovery: a macro line before `namespace x {` (`_GLIBCXX_BEGIN_NAMESPACE_VERSION`)
; reads as a function whose declarator or an ERROR node is the keyword.
((function_definition
  declarator: (identifier) @_keyword
  (ERROR . (identifier) @name .)
  body: (compound_statement) @body) @definition.namespace
  (#eq? @_keyword "namespace"))

((function_definition
  (ERROR . (identifier) @_keyword .)
  declarator: (identifier) @name
  body: (compound_statement) @body) @definition.namespace
  (#eq? @_keyword "namespace"))

; ---- File and namespace scope -------------------------------------------------

; Prototypes (functions without a body), variables, typedefs and `using X = Y`
; aliases at file or namespace scope, in preprocessor conditionals, `extern "C"`
; blocks and templates (typedefs and aliases also in class bodies). Declarations
; in function bodies are locals and not listed. (A declaration in an `#if` block
; inside a function body is still taken for a file-scope one: queries cannot tell
; that preprocessor block from one at file scope.) Each scope is one pattern, the
; kinds an alternation under it: compiling checks the scope node once, not once
; per kind (a wildcard scope, `(_ "#if" …)`, costs more: the root is then checked
; against every node type).

(translation_unit
  [
    (declaration
      declarator: [
        (_ declarator: [(identifier) (qualified_identifier) (operator_name)] @name parameters: (_))
        (_ "*" declarator: (_ declarator: [(identifier) (qualified_identifier) (operator_name)] @name parameters: (_)))
        (_ "*" declarator: (_ "*" declarator: (_ declarator: [(identifier) (qualified_identifier) (operator_name)] @name parameters: (_))))
        (_ declarator: (_ "(" (_ "*" declarator: (_ declarator: [(identifier) (qualified_identifier) (operator_name)] @name parameters: (_)))) parameters: (_))
        (_ ["&" "&&"] (_ declarator: [(identifier) (qualified_identifier) (operator_name)] @name parameters: (_)))
      ]) @definition.function
    (declaration
      declarator: [
        [(identifier) (qualified_identifier)] @name
        (_ declarator: [(identifier) (qualified_identifier)] @name value: (_))
        (_ "*" declarator: [[(identifier) (qualified_identifier)] @name (_ "*" declarator: [(identifier) (qualified_identifier)] @name) (_ declarator: [(identifier) (qualified_identifier)] @name "[")])
        (_ declarator: (_ "*" declarator: [[(identifier) (qualified_identifier)] @name (_ "*" declarator: [(identifier) (qualified_identifier)] @name) (_ declarator: [(identifier) (qualified_identifier)] @name "[")]) value: (_))
        (_ declarator: [[(identifier) (qualified_identifier)] @name (_ declarator: [(identifier) (qualified_identifier)] @name "[")] "[")
        (_ declarator: (_ declarator: [[(identifier) (qualified_identifier)] @name (_ declarator: [(identifier) (qualified_identifier)] @name "[")] "[") value: (_))
        (_ declarator: (_ "(" (_ "*" declarator: [(identifier) (qualified_identifier)] @name)) parameters: (_))
        (_ declarator: (_ declarator: (_ "(" (_ "*" declarator: [(identifier) (qualified_identifier)] @name)) parameters: (_)) value: (_))
        (_ ["&" "&&"] [(identifier) (qualified_identifier)] @name)
        (_ declarator: (_ ["&" "&&"] [(identifier) (qualified_identifier)] @name) value: (_))
      ]) @definition.variable
    (type_definition
      type: [
        (struct_specifier !body)
        (union_specifier !body)
        (class_specifier !body)
        (enum_specifier !body)
        (primitive_type) (type_identifier) (sized_type_specifier) (qualified_identifier)
        (template_type) (dependent_type)
      ]
      declarator: [
        (type_identifier) @name
        (primitive_type) @name
        (_ "*" declarator: [(type_identifier) @name (_ "*" declarator: (type_identifier) @name)])
        (_ declarator: (type_identifier) @name "[")
        (_ declarator: [(type_identifier) @name (_ "(" (_ "*" declarator: (type_identifier) @name))] parameters: (_))
        (_ "*" declarator: (_ declarator: (_ "(" (_ "*" declarator: (type_identifier) @name)) parameters: (_)))
      ]) @definition.type
    (alias_declaration
      name: (type_identifier) @name) @definition.type
  ])

; The same inside an ERROR: where tree-sitter cannot expand a macro
; (`#ifdef __cplusplus` / `extern "C" {` / `#endif`, `__BEGIN_DECLS`), its
; recovery keeps the declarations that follow under an ERROR node.

(ERROR
  [
    (declaration
      declarator: [
        (_ declarator: [(identifier) (qualified_identifier) (operator_name)] @name parameters: (_))
        (_ "*" declarator: (_ declarator: [(identifier) (qualified_identifier) (operator_name)] @name parameters: (_)))
        (_ "*" declarator: (_ "*" declarator: (_ declarator: [(identifier) (qualified_identifier) (operator_name)] @name parameters: (_))))
        (_ declarator: (_ "(" (_ "*" declarator: (_ declarator: [(identifier) (qualified_identifier) (operator_name)] @name parameters: (_)))) parameters: (_))
        (_ ["&" "&&"] (_ declarator: [(identifier) (qualified_identifier) (operator_name)] @name parameters: (_)))
      ]) @definition.function
    (declaration
      declarator: [
        [(identifier) (qualified_identifier)] @name
        (_ declarator: [(identifier) (qualified_identifier)] @name value: (_))
        (_ "*" declarator: [[(identifier) (qualified_identifier)] @name (_ "*" declarator: [(identifier) (qualified_identifier)] @name) (_ declarator: [(identifier) (qualified_identifier)] @name "[")])
        (_ declarator: (_ "*" declarator: [[(identifier) (qualified_identifier)] @name (_ "*" declarator: [(identifier) (qualified_identifier)] @name) (_ declarator: [(identifier) (qualified_identifier)] @name "[")]) value: (_))
        (_ declarator: [[(identifier) (qualified_identifier)] @name (_ declarator: [(identifier) (qualified_identifier)] @name "[")] "[")
        (_ declarator: (_ declarator: [[(identifier) (qualified_identifier)] @name (_ declarator: [(identifier) (qualified_identifier)] @name "[")] "[") value: (_))
        (_ declarator: (_ "(" (_ "*" declarator: [(identifier) (qualified_identifier)] @name)) parameters: (_))
        (_ declarator: (_ declarator: (_ "(" (_ "*" declarator: [(identifier) (qualified_identifier)] @name)) parameters: (_)) value: (_))
        (_ ["&" "&&"] [(identifier) (qualified_identifier)] @name)
        (_ declarator: (_ ["&" "&&"] [(identifier) (qualified_identifier)] @name) value: (_))
      ]) @definition.variable
    (type_definition
      type: [
        (struct_specifier !body)
        (union_specifier !body)
        (class_specifier !body)
        (enum_specifier !body)
        (primitive_type) (type_identifier) (sized_type_specifier) (qualified_identifier)
        (template_type) (dependent_type)
      ]
      declarator: [
        (type_identifier) @name
        (primitive_type) @name
        (_ "*" declarator: [(type_identifier) @name (_ "*" declarator: (type_identifier) @name)])
        (_ declarator: (type_identifier) @name "[")
        (_ declarator: [(type_identifier) @name (_ "(" (_ "*" declarator: (type_identifier) @name))] parameters: (_))
        (_ "*" declarator: (_ declarator: (_ "(" (_ "*" declarator: (type_identifier) @name)) parameters: (_)))
      ]) @definition.type
    (alias_declaration
      name: (type_identifier) @name) @definition.type
  ])

(declaration_list
  [
    (declaration
      declarator: [
        (_ declarator: [(identifier) (qualified_identifier) (operator_name)] @name parameters: (_))
        (_ "*" declarator: (_ declarator: [(identifier) (qualified_identifier) (operator_name)] @name parameters: (_)))
        (_ "*" declarator: (_ "*" declarator: (_ declarator: [(identifier) (qualified_identifier) (operator_name)] @name parameters: (_))))
        (_ declarator: (_ "(" (_ "*" declarator: (_ declarator: [(identifier) (qualified_identifier) (operator_name)] @name parameters: (_)))) parameters: (_))
        (_ ["&" "&&"] (_ declarator: [(identifier) (qualified_identifier) (operator_name)] @name parameters: (_)))
      ]) @definition.function
    (declaration
      declarator: [
        [(identifier) (qualified_identifier)] @name
        (_ declarator: [(identifier) (qualified_identifier)] @name value: (_))
        (_ "*" declarator: [[(identifier) (qualified_identifier)] @name (_ "*" declarator: [(identifier) (qualified_identifier)] @name) (_ declarator: [(identifier) (qualified_identifier)] @name "[")])
        (_ declarator: (_ "*" declarator: [[(identifier) (qualified_identifier)] @name (_ "*" declarator: [(identifier) (qualified_identifier)] @name) (_ declarator: [(identifier) (qualified_identifier)] @name "[")]) value: (_))
        (_ declarator: [[(identifier) (qualified_identifier)] @name (_ declarator: [(identifier) (qualified_identifier)] @name "[")] "[")
        (_ declarator: (_ declarator: [[(identifier) (qualified_identifier)] @name (_ declarator: [(identifier) (qualified_identifier)] @name "[")] "[") value: (_))
        (_ declarator: (_ "(" (_ "*" declarator: [(identifier) (qualified_identifier)] @name)) parameters: (_))
        (_ declarator: (_ declarator: (_ "(" (_ "*" declarator: [(identifier) (qualified_identifier)] @name)) parameters: (_)) value: (_))
        (_ ["&" "&&"] [(identifier) (qualified_identifier)] @name)
        (_ declarator: (_ ["&" "&&"] [(identifier) (qualified_identifier)] @name) value: (_))
      ]) @definition.variable
    (type_definition
      type: [
        (struct_specifier !body)
        (union_specifier !body)
        (class_specifier !body)
        (enum_specifier !body)
        (primitive_type) (type_identifier) (sized_type_specifier) (qualified_identifier)
        (template_type) (dependent_type)
      ]
      declarator: [
        (type_identifier) @name
        (primitive_type) @name
        (_ "*" declarator: [(type_identifier) @name (_ "*" declarator: (type_identifier) @name)])
        (_ declarator: (type_identifier) @name "[")
        (_ declarator: [(type_identifier) @name (_ "(" (_ "*" declarator: (type_identifier) @name))] parameters: (_))
        (_ "*" declarator: (_ declarator: (_ "(" (_ "*" declarator: (type_identifier) @name)) parameters: (_)))
      ]) @definition.type
    (alias_declaration
      name: (type_identifier) @name) @definition.type
  ])

(linkage_specification
  [
    (declaration
      declarator: [
        (_ declarator: [(identifier) (qualified_identifier) (operator_name)] @name parameters: (_))
        (_ "*" declarator: (_ declarator: [(identifier) (qualified_identifier) (operator_name)] @name parameters: (_)))
        (_ "*" declarator: (_ "*" declarator: (_ declarator: [(identifier) (qualified_identifier) (operator_name)] @name parameters: (_))))
        (_ declarator: (_ "(" (_ "*" declarator: (_ declarator: [(identifier) (qualified_identifier) (operator_name)] @name parameters: (_)))) parameters: (_))
        (_ ["&" "&&"] (_ declarator: [(identifier) (qualified_identifier) (operator_name)] @name parameters: (_)))
      ]) @definition.function
    (declaration
      declarator: [
        [(identifier) (qualified_identifier)] @name
        (_ declarator: [(identifier) (qualified_identifier)] @name value: (_))
        (_ "*" declarator: [[(identifier) (qualified_identifier)] @name (_ "*" declarator: [(identifier) (qualified_identifier)] @name) (_ declarator: [(identifier) (qualified_identifier)] @name "[")])
        (_ declarator: (_ "*" declarator: [[(identifier) (qualified_identifier)] @name (_ "*" declarator: [(identifier) (qualified_identifier)] @name) (_ declarator: [(identifier) (qualified_identifier)] @name "[")]) value: (_))
        (_ declarator: [[(identifier) (qualified_identifier)] @name (_ declarator: [(identifier) (qualified_identifier)] @name "[")] "[")
        (_ declarator: (_ declarator: [[(identifier) (qualified_identifier)] @name (_ declarator: [(identifier) (qualified_identifier)] @name "[")] "[") value: (_))
        (_ declarator: (_ "(" (_ "*" declarator: [(identifier) (qualified_identifier)] @name)) parameters: (_))
        (_ declarator: (_ declarator: (_ "(" (_ "*" declarator: [(identifier) (qualified_identifier)] @name)) parameters: (_)) value: (_))
        (_ ["&" "&&"] [(identifier) (qualified_identifier)] @name)
        (_ declarator: (_ ["&" "&&"] [(identifier) (qualified_identifier)] @name) value: (_))
      ]) @definition.variable
  ])

(preproc_if
  [
    (declaration
      declarator: [
        (_ declarator: [(identifier) (qualified_identifier) (operator_name)] @name parameters: (_))
        (_ "*" declarator: (_ declarator: [(identifier) (qualified_identifier) (operator_name)] @name parameters: (_)))
        (_ "*" declarator: (_ "*" declarator: (_ declarator: [(identifier) (qualified_identifier) (operator_name)] @name parameters: (_))))
        (_ declarator: (_ "(" (_ "*" declarator: (_ declarator: [(identifier) (qualified_identifier) (operator_name)] @name parameters: (_)))) parameters: (_))
        (_ ["&" "&&"] (_ declarator: [(identifier) (qualified_identifier) (operator_name)] @name parameters: (_)))
      ]) @definition.function
    (declaration
      declarator: [
        [(identifier) (qualified_identifier)] @name
        (_ declarator: [(identifier) (qualified_identifier)] @name value: (_))
        (_ "*" declarator: [[(identifier) (qualified_identifier)] @name (_ "*" declarator: [(identifier) (qualified_identifier)] @name) (_ declarator: [(identifier) (qualified_identifier)] @name "[")])
        (_ declarator: (_ "*" declarator: [[(identifier) (qualified_identifier)] @name (_ "*" declarator: [(identifier) (qualified_identifier)] @name) (_ declarator: [(identifier) (qualified_identifier)] @name "[")]) value: (_))
        (_ declarator: [[(identifier) (qualified_identifier)] @name (_ declarator: [(identifier) (qualified_identifier)] @name "[")] "[")
        (_ declarator: (_ declarator: [[(identifier) (qualified_identifier)] @name (_ declarator: [(identifier) (qualified_identifier)] @name "[")] "[") value: (_))
        (_ declarator: (_ "(" (_ "*" declarator: [(identifier) (qualified_identifier)] @name)) parameters: (_))
        (_ declarator: (_ declarator: (_ "(" (_ "*" declarator: [(identifier) (qualified_identifier)] @name)) parameters: (_)) value: (_))
        (_ ["&" "&&"] [(identifier) (qualified_identifier)] @name)
        (_ declarator: (_ ["&" "&&"] [(identifier) (qualified_identifier)] @name) value: (_))
      ]) @definition.variable
    (type_definition
      type: [
        (struct_specifier !body)
        (union_specifier !body)
        (class_specifier !body)
        (enum_specifier !body)
        (primitive_type) (type_identifier) (sized_type_specifier) (qualified_identifier)
        (template_type) (dependent_type)
      ]
      declarator: [
        (type_identifier) @name
        (primitive_type) @name
        (_ "*" declarator: [(type_identifier) @name (_ "*" declarator: (type_identifier) @name)])
        (_ declarator: (type_identifier) @name "[")
        (_ declarator: [(type_identifier) @name (_ "(" (_ "*" declarator: (type_identifier) @name))] parameters: (_))
        (_ "*" declarator: (_ declarator: (_ "(" (_ "*" declarator: (type_identifier) @name)) parameters: (_)))
      ]) @definition.type
    (alias_declaration
      name: (type_identifier) @name) @definition.type
  ])

(preproc_ifdef
  [
    (declaration
      declarator: [
        (_ declarator: [(identifier) (qualified_identifier) (operator_name)] @name parameters: (_))
        (_ "*" declarator: (_ declarator: [(identifier) (qualified_identifier) (operator_name)] @name parameters: (_)))
        (_ "*" declarator: (_ "*" declarator: (_ declarator: [(identifier) (qualified_identifier) (operator_name)] @name parameters: (_))))
        (_ declarator: (_ "(" (_ "*" declarator: (_ declarator: [(identifier) (qualified_identifier) (operator_name)] @name parameters: (_)))) parameters: (_))
        (_ ["&" "&&"] (_ declarator: [(identifier) (qualified_identifier) (operator_name)] @name parameters: (_)))
      ]) @definition.function
    (declaration
      declarator: [
        [(identifier) (qualified_identifier)] @name
        (_ declarator: [(identifier) (qualified_identifier)] @name value: (_))
        (_ "*" declarator: [[(identifier) (qualified_identifier)] @name (_ "*" declarator: [(identifier) (qualified_identifier)] @name) (_ declarator: [(identifier) (qualified_identifier)] @name "[")])
        (_ declarator: (_ "*" declarator: [[(identifier) (qualified_identifier)] @name (_ "*" declarator: [(identifier) (qualified_identifier)] @name) (_ declarator: [(identifier) (qualified_identifier)] @name "[")]) value: (_))
        (_ declarator: [[(identifier) (qualified_identifier)] @name (_ declarator: [(identifier) (qualified_identifier)] @name "[")] "[")
        (_ declarator: (_ declarator: [[(identifier) (qualified_identifier)] @name (_ declarator: [(identifier) (qualified_identifier)] @name "[")] "[") value: (_))
        (_ declarator: (_ "(" (_ "*" declarator: [(identifier) (qualified_identifier)] @name)) parameters: (_))
        (_ declarator: (_ declarator: (_ "(" (_ "*" declarator: [(identifier) (qualified_identifier)] @name)) parameters: (_)) value: (_))
        (_ ["&" "&&"] [(identifier) (qualified_identifier)] @name)
        (_ declarator: (_ ["&" "&&"] [(identifier) (qualified_identifier)] @name) value: (_))
      ]) @definition.variable
    (type_definition
      type: [
        (struct_specifier !body)
        (union_specifier !body)
        (class_specifier !body)
        (enum_specifier !body)
        (primitive_type) (type_identifier) (sized_type_specifier) (qualified_identifier)
        (template_type) (dependent_type)
      ]
      declarator: [
        (type_identifier) @name
        (primitive_type) @name
        (_ "*" declarator: [(type_identifier) @name (_ "*" declarator: (type_identifier) @name)])
        (_ declarator: (type_identifier) @name "[")
        (_ declarator: [(type_identifier) @name (_ "(" (_ "*" declarator: (type_identifier) @name))] parameters: (_))
        (_ "*" declarator: (_ declarator: (_ "(" (_ "*" declarator: (type_identifier) @name)) parameters: (_)))
      ]) @definition.type
    (alias_declaration
      name: (type_identifier) @name) @definition.type
  ])

(preproc_else
  [
    (declaration
      declarator: [
        (_ declarator: [(identifier) (qualified_identifier) (operator_name)] @name parameters: (_))
        (_ "*" declarator: (_ declarator: [(identifier) (qualified_identifier) (operator_name)] @name parameters: (_)))
        (_ "*" declarator: (_ "*" declarator: (_ declarator: [(identifier) (qualified_identifier) (operator_name)] @name parameters: (_))))
        (_ declarator: (_ "(" (_ "*" declarator: (_ declarator: [(identifier) (qualified_identifier) (operator_name)] @name parameters: (_)))) parameters: (_))
        (_ ["&" "&&"] (_ declarator: [(identifier) (qualified_identifier) (operator_name)] @name parameters: (_)))
      ]) @definition.function
    (declaration
      declarator: [
        [(identifier) (qualified_identifier)] @name
        (_ declarator: [(identifier) (qualified_identifier)] @name value: (_))
        (_ "*" declarator: [[(identifier) (qualified_identifier)] @name (_ "*" declarator: [(identifier) (qualified_identifier)] @name) (_ declarator: [(identifier) (qualified_identifier)] @name "[")])
        (_ declarator: (_ "*" declarator: [[(identifier) (qualified_identifier)] @name (_ "*" declarator: [(identifier) (qualified_identifier)] @name) (_ declarator: [(identifier) (qualified_identifier)] @name "[")]) value: (_))
        (_ declarator: [[(identifier) (qualified_identifier)] @name (_ declarator: [(identifier) (qualified_identifier)] @name "[")] "[")
        (_ declarator: (_ declarator: [[(identifier) (qualified_identifier)] @name (_ declarator: [(identifier) (qualified_identifier)] @name "[")] "[") value: (_))
        (_ declarator: (_ "(" (_ "*" declarator: [(identifier) (qualified_identifier)] @name)) parameters: (_))
        (_ declarator: (_ declarator: (_ "(" (_ "*" declarator: [(identifier) (qualified_identifier)] @name)) parameters: (_)) value: (_))
        (_ ["&" "&&"] [(identifier) (qualified_identifier)] @name)
        (_ declarator: (_ ["&" "&&"] [(identifier) (qualified_identifier)] @name) value: (_))
      ]) @definition.variable
    (type_definition
      type: [
        (struct_specifier !body)
        (union_specifier !body)
        (class_specifier !body)
        (enum_specifier !body)
        (primitive_type) (type_identifier) (sized_type_specifier) (qualified_identifier)
        (template_type) (dependent_type)
      ]
      declarator: [
        (type_identifier) @name
        (primitive_type) @name
        (_ "*" declarator: [(type_identifier) @name (_ "*" declarator: (type_identifier) @name)])
        (_ declarator: (type_identifier) @name "[")
        (_ declarator: [(type_identifier) @name (_ "(" (_ "*" declarator: (type_identifier) @name))] parameters: (_))
        (_ "*" declarator: (_ declarator: (_ "(" (_ "*" declarator: (type_identifier) @name)) parameters: (_)))
      ]) @definition.type
    (alias_declaration
      name: (type_identifier) @name) @definition.type
  ])

(preproc_elif
  [
    (declaration
      declarator: [
        (_ declarator: [(identifier) (qualified_identifier) (operator_name)] @name parameters: (_))
        (_ "*" declarator: (_ declarator: [(identifier) (qualified_identifier) (operator_name)] @name parameters: (_)))
        (_ "*" declarator: (_ "*" declarator: (_ declarator: [(identifier) (qualified_identifier) (operator_name)] @name parameters: (_))))
        (_ declarator: (_ "(" (_ "*" declarator: (_ declarator: [(identifier) (qualified_identifier) (operator_name)] @name parameters: (_)))) parameters: (_))
        (_ ["&" "&&"] (_ declarator: [(identifier) (qualified_identifier) (operator_name)] @name parameters: (_)))
      ]) @definition.function
    (declaration
      declarator: [
        [(identifier) (qualified_identifier)] @name
        (_ declarator: [(identifier) (qualified_identifier)] @name value: (_))
        (_ "*" declarator: [[(identifier) (qualified_identifier)] @name (_ "*" declarator: [(identifier) (qualified_identifier)] @name) (_ declarator: [(identifier) (qualified_identifier)] @name "[")])
        (_ declarator: (_ "*" declarator: [[(identifier) (qualified_identifier)] @name (_ "*" declarator: [(identifier) (qualified_identifier)] @name) (_ declarator: [(identifier) (qualified_identifier)] @name "[")]) value: (_))
        (_ declarator: [[(identifier) (qualified_identifier)] @name (_ declarator: [(identifier) (qualified_identifier)] @name "[")] "[")
        (_ declarator: (_ declarator: [[(identifier) (qualified_identifier)] @name (_ declarator: [(identifier) (qualified_identifier)] @name "[")] "[") value: (_))
        (_ declarator: (_ "(" (_ "*" declarator: [(identifier) (qualified_identifier)] @name)) parameters: (_))
        (_ declarator: (_ declarator: (_ "(" (_ "*" declarator: [(identifier) (qualified_identifier)] @name)) parameters: (_)) value: (_))
        (_ ["&" "&&"] [(identifier) (qualified_identifier)] @name)
        (_ declarator: (_ ["&" "&&"] [(identifier) (qualified_identifier)] @name) value: (_))
      ]) @definition.variable
    (type_definition
      type: [
        (struct_specifier !body)
        (union_specifier !body)
        (class_specifier !body)
        (enum_specifier !body)
        (primitive_type) (type_identifier) (sized_type_specifier) (qualified_identifier)
        (template_type) (dependent_type)
      ]
      declarator: [
        (type_identifier) @name
        (primitive_type) @name
        (_ "*" declarator: [(type_identifier) @name (_ "*" declarator: (type_identifier) @name)])
        (_ declarator: (type_identifier) @name "[")
        (_ declarator: [(type_identifier) @name (_ "(" (_ "*" declarator: (type_identifier) @name))] parameters: (_))
        (_ "*" declarator: (_ declarator: (_ "(" (_ "*" declarator: (type_identifier) @name)) parameters: (_)))
      ]) @definition.type
    (alias_declaration
      name: (type_identifier) @name) @definition.type
  ])

(preproc_elifdef
  [
    (declaration
      declarator: [
        (_ declarator: [(identifier) (qualified_identifier) (operator_name)] @name parameters: (_))
        (_ "*" declarator: (_ declarator: [(identifier) (qualified_identifier) (operator_name)] @name parameters: (_)))
        (_ "*" declarator: (_ "*" declarator: (_ declarator: [(identifier) (qualified_identifier) (operator_name)] @name parameters: (_))))
        (_ declarator: (_ "(" (_ "*" declarator: (_ declarator: [(identifier) (qualified_identifier) (operator_name)] @name parameters: (_)))) parameters: (_))
        (_ ["&" "&&"] (_ declarator: [(identifier) (qualified_identifier) (operator_name)] @name parameters: (_)))
      ]) @definition.function
    (declaration
      declarator: [
        [(identifier) (qualified_identifier)] @name
        (_ declarator: [(identifier) (qualified_identifier)] @name value: (_))
        (_ "*" declarator: [[(identifier) (qualified_identifier)] @name (_ "*" declarator: [(identifier) (qualified_identifier)] @name) (_ declarator: [(identifier) (qualified_identifier)] @name "[")])
        (_ declarator: (_ "*" declarator: [[(identifier) (qualified_identifier)] @name (_ "*" declarator: [(identifier) (qualified_identifier)] @name) (_ declarator: [(identifier) (qualified_identifier)] @name "[")]) value: (_))
        (_ declarator: [[(identifier) (qualified_identifier)] @name (_ declarator: [(identifier) (qualified_identifier)] @name "[")] "[")
        (_ declarator: (_ declarator: [[(identifier) (qualified_identifier)] @name (_ declarator: [(identifier) (qualified_identifier)] @name "[")] "[") value: (_))
        (_ declarator: (_ "(" (_ "*" declarator: [(identifier) (qualified_identifier)] @name)) parameters: (_))
        (_ declarator: (_ declarator: (_ "(" (_ "*" declarator: [(identifier) (qualified_identifier)] @name)) parameters: (_)) value: (_))
        (_ ["&" "&&"] [(identifier) (qualified_identifier)] @name)
        (_ declarator: (_ ["&" "&&"] [(identifier) (qualified_identifier)] @name) value: (_))
      ]) @definition.variable
    (type_definition
      type: [
        (struct_specifier !body)
        (union_specifier !body)
        (class_specifier !body)
        (enum_specifier !body)
        (primitive_type) (type_identifier) (sized_type_specifier) (qualified_identifier)
        (template_type) (dependent_type)
      ]
      declarator: [
        (type_identifier) @name
        (primitive_type) @name
        (_ "*" declarator: [(type_identifier) @name (_ "*" declarator: (type_identifier) @name)])
        (_ declarator: (type_identifier) @name "[")
        (_ declarator: [(type_identifier) @name (_ "(" (_ "*" declarator: (type_identifier) @name))] parameters: (_))
        (_ "*" declarator: (_ declarator: (_ "(" (_ "*" declarator: (type_identifier) @name)) parameters: (_)))
      ]) @definition.type
    (alias_declaration
      name: (type_identifier) @name) @definition.type
  ])

(template_declaration
  [
    (declaration
      declarator: [
        (_ declarator: [(identifier) (qualified_identifier) (operator_name)] @name parameters: (_))
        (_ "*" declarator: (_ declarator: [(identifier) (qualified_identifier) (operator_name)] @name parameters: (_)))
        (_ "*" declarator: (_ "*" declarator: (_ declarator: [(identifier) (qualified_identifier) (operator_name)] @name parameters: (_))))
        (_ declarator: (_ "(" (_ "*" declarator: (_ declarator: [(identifier) (qualified_identifier) (operator_name)] @name parameters: (_)))) parameters: (_))
        (_ ["&" "&&"] (_ declarator: [(identifier) (qualified_identifier) (operator_name)] @name parameters: (_)))
      ]) @definition.function
    (declaration
      declarator: [
        [(identifier) (qualified_identifier)] @name
        (_ declarator: [(identifier) (qualified_identifier)] @name value: (_))
        (_ "*" declarator: [[(identifier) (qualified_identifier)] @name (_ "*" declarator: [(identifier) (qualified_identifier)] @name) (_ declarator: [(identifier) (qualified_identifier)] @name "[")])
        (_ declarator: (_ "*" declarator: [[(identifier) (qualified_identifier)] @name (_ "*" declarator: [(identifier) (qualified_identifier)] @name) (_ declarator: [(identifier) (qualified_identifier)] @name "[")]) value: (_))
        (_ declarator: [[(identifier) (qualified_identifier)] @name (_ declarator: [(identifier) (qualified_identifier)] @name "[")] "[")
        (_ declarator: (_ declarator: [[(identifier) (qualified_identifier)] @name (_ declarator: [(identifier) (qualified_identifier)] @name "[")] "[") value: (_))
        (_ declarator: (_ "(" (_ "*" declarator: [(identifier) (qualified_identifier)] @name)) parameters: (_))
        (_ declarator: (_ declarator: (_ "(" (_ "*" declarator: [(identifier) (qualified_identifier)] @name)) parameters: (_)) value: (_))
        (_ ["&" "&&"] [(identifier) (qualified_identifier)] @name)
        (_ declarator: (_ ["&" "&&"] [(identifier) (qualified_identifier)] @name) value: (_))
      ]) @definition.variable
    (alias_declaration
      name: (type_identifier) @name) @definition.type
  ])

(field_declaration_list
  [
    (type_definition
      type: [
        (struct_specifier !body)
        (union_specifier !body)
        (class_specifier !body)
        (enum_specifier !body)
        (primitive_type) (type_identifier) (sized_type_specifier) (qualified_identifier)
        (template_type) (dependent_type)
      ]
      declarator: [
        (type_identifier) @name
        (primitive_type) @name
        (_ "*" declarator: [(type_identifier) @name (_ "*" declarator: (type_identifier) @name)])
        (_ declarator: (type_identifier) @name "[")
        (_ declarator: [(type_identifier) @name (_ "(" (_ "*" declarator: (type_identifier) @name))] parameters: (_))
        (_ "*" declarator: (_ declarator: (_ "(" (_ "*" declarator: (type_identifier) @name)) parameters: (_)))
      ]) @definition.type
    (alias_declaration
      name: (type_identifier) @name) @definition.type
  ])