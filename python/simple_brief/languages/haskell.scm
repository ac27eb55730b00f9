; Haskell outline. Vocabulary: README.md.
;
; A function is its equations (and the type signature above them). Equations are
; siblings, not one node, so the symbol of a function is the first equation of
; its run: the one after a signature, after an equation of another name, or
; after any other declaration. Later clauses of the same function are not listed
; again. The equation's `= ...` / guards are the body. Top-level signatures are
; not listed on their own (the equations are); class method signatures are.
; Equations in `where` clauses (local_binds) are listed when they take arguments
; (helper functions), not when they bind a value.

; ---------------------------------------------------------------- functions

; (No alternation may precede an anchor: tree-sitter then matches only its first branch.)
((signature) . (function name: (variable) @name match: (match) @body) @definition.function)

(((function name: (variable) @_previous)
  .
  (function name: (variable) @name match: (match) @body) @definition.function)
  (#not-eq? @_previous @name))

(((bind name: (variable) @_previous)
  .
  (function name: (variable) @name match: (match) @body) @definition.function)
  (#not-eq? @_previous @name))

; After any other declaration, a comment or a pragma.
(((_) @_previous
  .
  (function name: (variable) @name match: (match) @body) @definition.function)
  (#match? @_previous "^((data|newtype|type|class|instance|infix[lr]?|foreign|pattern|deriving|default)\\b|\\{-|--|#)"))

; After an operator defined prefix or infix (`($$) a b = ...`, `a <> b = ...`).
((function name: (prefix_id)) . (function name: (variable) @name match: (match) @body) @definition.function)

((function (infix)) . (function name: (variable) @name match: (match) @body) @definition.function)

((top_splice) . (function name: (variable) @name match: (match) @body) @definition.function)

; A function whose signature the grammar could not read (a tab inside its lines): the
; ERROR opens with the function's own name, and its first equation follows.
(((ERROR . (variable) @_signed) . (function name: (variable) @name match: (match) @body) @definition.function)
  (#eq? @_signed @name))

; A one-equation function whose equation the grammar misread as a splice expression (a tab
; inside the line): its signature names it, when the next declaration (or the comment or
; pragma before it) shows the run ended there.
((signature name: (variable) @name) @definition.function . (top_splice) . (signature))
((signature name: (variable) @name) @definition.function . (top_splice) . (haddock))
((signature name: (variable) @name) @definition.function . (top_splice) . (comment))
((signature name: (variable) @name) @definition.function . (top_splice) . (pragma))

; A region the grammar could not read that opens with `name :: type` at its start: the
; recovery read the top-level signature as an expression's (`expression:`, not `name:`).
(ERROR . (signature expression: (variable) @name) @definition.function)

; The same read into the expression before it, across a comment: `... -- comment` then
; `name :: type` at the margin is the last operand of that expression's application.
(signature expression: (apply (comment) . (variable) @name @definition.function .) "::")

(_ . (function name: (variable) @name match: (match) @body) @definition.function)

; Value bindings (`main = do ...`) have one equation each: all are listed at the
; top level and in classes and instances; in `where` clauses they are locals.
(declarations (bind name: (variable) @name match: (match) @body) @definition.function)
(instance_declarations (bind name: (variable) @name match: (match) @body) @definition.function)
(class_declarations (bind name: (variable) @name match: (match) @body) @definition.function)

; Operators defined infix (`a <+> b = ...`) and prefix (`($$) a b = ...`, named
; `($$)`): every equation (their runs are not told apart).
(function
  (infix operator: [(operator) (constructor_operator)] @name)
  match: (match) @body) @definition.function

(function
  name: (prefix_id) @name
  match: (match) @body) @definition.function

; Functions defined infix (`g1 `overGraphic` g2 = ...`, named `overGraphic`): the
; first equation of a run, as above.
((signature) . (function (infix operator: (infix_id (variable) @name)) match: (match) @body) @definition.function)

(((function (infix operator: (infix_id (variable) @_previous)))
  .
  (function (infix operator: (infix_id (variable) @name)) match: (match) @body) @definition.function)
  (#not-eq? @_previous @name))

(((_) @_previous
  .
  (function (infix operator: (infix_id (variable) @name)) match: (match) @body) @definition.function)
  (#not-match? @_previous "^[^=]*`"))

(_ . (function (infix operator: (infix_id (variable) @name)) match: (match) @body) @definition.function)

; Class methods; foreign imports.
(class_declarations
  (signature name: [(variable) (prefix_id)] @name) @definition.function)

(foreign_import
  (signature name: [(variable) (prefix_id)] @name)) @definition.function

; A signature right after a `;` (declarations written with semicolons; Hugs'
; `primitive` declarations read that way): listed as foreign imports are, each name
; of `f, g :: ...` on its own.
(";" . (signature name: [(variable) (prefix_id)] @name) @definition.function)

(";" . (signature names: (binding_list [(variable) (prefix_id)] @name @definition.function)))

; (The `;` of a file's first declaration is the module's, before its declarations.)
(";" . (declarations . (signature name: [(variable) (prefix_id)] @name) @definition.function))

(";" . (declarations . (signature names: (binding_list [(variable) (prefix_id)] @name @definition.function))))

; A region the grammar could not read (a file indented with tabs inside lines, which
; tree-sitter-haskell 0.24 does not take as whitespace there) is one ERROR of loose
; tokens: a name right before `::` is a signature's, listed as the function it types,
; or a record's field right after its `{` or `,` (that match starts first and is
; kept; a field the recovery left apart from its `{` or `,`, or with a comment
; between, is listed as a function); `data`, `newtype`, `type` and `class` before a
; name declare it. These symbols are one token long: no body, no fold.
(ERROR ["{" ","] . (variable) @name @definition.field . "::")

(ERROR (variable) @name @definition.function . "::")

(ERROR ["data" "newtype"] . (name) @name @definition.struct)

(ERROR "type" . (name) @name @definition.type)

(ERROR "class" . (name) @name @definition.interface)

; ---------------------------------------------------------------- types

; `data Maybe a = Nothing | Just a`: the constructors (or GADT `where` block) fold.
(data_type
  name: (name) @name
  constructors: (_)? @body) @definition.struct

(newtype
  name: (name) @name
  constructor: (_)? @body) @definition.struct

; Constructors are listed as members (a function kind would move record fields
; out of them).
(data_constructor
  constructor: (_ name: (constructor) @name)) @definition.enum_member

(newtype_constructor
  name: (constructor) @name) @definition.enum_member

(gadt_constructor
  name: (constructor) @name) @definition.enum_member

(field
  name: (field_name (variable) @name)) @definition.field

(type_synonym name: (name) @name) @definition.type
(type_family name: (name) @name) @definition.type
(data_family name: (name) @name) @definition.type

(class
  name: (name) @name
  declarations: (class_declarations)? @body) @definition.interface

; `instance Show a => Show (Tree a)` is named `Show (Tree a)`.
(instance
  name: (name) @name
  patterns: (type_patterns)? @name
  declarations: (instance_declarations)? @body) @definition.impl

; ---------------------------------------------------------------- module

(header
  module: (module) @name) @definition.module

(import) @import

; Declarations the recovery still read whole but left directly in an ERROR (after the
; region it could not read): a signature there stands for its function (the equations
; after it are siblings the anchors of the patterns above do not reach in an ERROR).
(ERROR (signature name: (variable) @name) @definition.function)

; A record declared with tabs inside its lines (`data M = M {\n\t\tf :: T,\n\t\tg :: T`) is
; read as one signature of the first field, the later fields inside its type: each is the
; last word before a `::` there, and the first the signature's name after the `{` left
; in an ERROR (a Haddock comment or a comment between). One token long each.
(ERROR (apply (variable) @name @definition.field .) . "::")

((ERROR "{") . (signature name: (variable) @name @definition.field))

((ERROR "{") . (haddock) . (signature name: (variable) @name @definition.field))

((ERROR "{") . (comment) . (signature name: (variable) @name @definition.field))
