; PHP outline. Vocabulary: README.md.
;
; `language_php` reads the HTML around `<?php ... ?>` as text, so templates parse.
; Attributes (`#[Route(...)]`) start the declaration and stay in its signature
; (the PHPDoc block above them is its doc). Closures and anonymous classes are
; values, not definitions.

; `namespace App;` names the rest of the file; `namespace App { ... }` folds.
(namespace_definition
  name: (_) @name
  body: (_)? @body) @definition.namespace

(class_declaration
  name: (_) @name
  body: (_) @body) @definition.class

(interface_declaration
  name: (_) @name
  body: (_) @body) @definition.interface

(trait_declaration
  name: (_) @name
  body: (_) @body) @definition.trait

(enum_declaration
  name: (_) @name
  body: (_) @body) @definition.enum

(enum_case
  name: (_) @name) @definition.enum_member

(function_definition
  name: (_) @name
  body: (_) @body) @definition.function

; A closure assigned at the top level of a script (`$setup = function () { ... };`).
(program
  (expression_statement
    (assignment_expression
      left: (variable_name) @name
      right: (anonymous_function
        body: (_) @body))) @definition.function)

; Abstract and interface methods have no body.
(method_declaration
  name: (_) @name
  body: (_)? @body
  (#not-eq? @name "__construct")) @definition.method

(method_declaration
  name: (_) @name
  body: (_)? @body
  (#eq? @name "__construct")) @definition.constructor

; Properties, one per name of `public $a, $b;`; constructor-promoted
; parameters (`private int $id`) too: the scanner lists them under the class.
(property_declaration
  (property_element
    name: (_) @name)) @definition.field

(property_promotion_parameter
  name: (_) @name) @definition.field

; `const A = 1, B = 2;` in classes, interfaces, enums and at the top level.
(const_declaration
  (const_element
    (name) @name)) @definition.constant

; `define('NAME', value)`.
((function_call_expression
  function: (name) @_define
  arguments: (arguments
    .
    (argument
      [(string (string_content) @name)
       (encapsed_string (string_content) @name)]))) @definition.constant
  (#eq? @_define "define"))

(namespace_use_declaration) @import

; require/include at the top level or in a namespace block (not in function bodies).
(program
  (expression_statement
    [(require_expression) (require_once_expression) (include_expression) (include_once_expression)]) @import)
(namespace_definition
  body: (compound_statement
    (expression_statement
      [(require_expression) (require_once_expression) (include_expression) (include_once_expression)]) @import))
