; Scheme outline. Vocabulary: README.md.
;
; Definitions are lists whose head names the form: `(define (f x) ...)` is a
; function, `(define x (lambda ...))` too, `(define x 1)` a variable. Forms
; have no body node: the first form after the name stands in for it, so the
; fold runs from there to the closing parenthesis. Names are read as written
; (`swap!`, `<item>`).

((list
  .
  (symbol) @_define
  .
  (list . (symbol) @name)
  .
  (_) @body) @definition.function
  (#any-of? @_define
    "define" "define*" "define-public" "define*-public" "define-method" "define-generic"
    "define-inlinable" "define-integrable" "define-syntax-rule" "define-macro" "defmacro"
    "define-syntax-parameter" "define-values" "define-function"))

((list
  .
  (symbol) @_define
  .
  (symbol) @name
  .
  (list . (symbol) @_lambda)) @definition.function
  (#any-of? @_define "define" "define-public")
  (#any-of? @_lambda "lambda" "lambda*" "case-lambda" "λ"))

((list
  .
  (symbol) @_define
  .
  (symbol) @name
  .
  (_) @_value) @definition.variable
  (#any-of? @_define "define" "define-public" "define-once" "define-parameter" "defvar" "define-constant")
  (#not-match? @_value "^[(\\[](lambda|lambda\\*|case-lambda|λ)[\\s)]"))

((list
  .
  (symbol) @_define
  .
  (symbol) @name
  .
  (_) @body) @definition.function
  (#any-of? @_define "define-syntax" "define-syntax-rule" "define-macro" "let-syntax" "define-generic"))

((list
  .
  (symbol) @_define
  .
  [(symbol) @name (list . (symbol) @name)]
  .
  (_) @body) @definition.struct
  (#any-of? @_define "define-record-type" "define-record" "define-structure" "define-class" "define-condition-type"))

((list
  .
  (symbol) @_define
  .
  (list) @name
  .
  (_)? @body) @definition.module
  (#any-of? @_define "define-module" "library" "define-library"))

; Any other `(define-... name ...)` form (`define-exception-type`, a project's
; own `define-simple-mapping`, `define-primitive-expander 'name`): a function
; when the name comes with its parameters, else a variable.
((list
  .
  (symbol) @_define
  .
  (list . [(symbol) (quote)] @name)
  .
  (_) @body) @definition.function
  (#match? @_define "^define[-*]")
  (#not-match? @_define "^(define|define\\*|define-public|define\\*-public|define-method|define-generic|define-inlinable|define-integrable|define-syntax-rule|define-macro|define-syntax-parameter|define-values|define-function|define-once|define-parameter|define-constant|define-syntax|define-record-type|define-record|define-structure|define-class|define-condition-type|define-module|define-library)$"))

((list
  .
  (symbol) @_define
  .
  [(symbol) (quote)] @name) @definition.variable
  (#match? @_define "^define[-*]")
  (#not-match? @_define "^(define|define\\*|define-public|define\\*-public|define-method|define-generic|define-inlinable|define-integrable|define-syntax-rule|define-macro|define-syntax-parameter|define-values|define-function|define-once|define-parameter|define-constant|define-syntax|define-record-type|define-record|define-structure|define-class|define-condition-type|define-module|define-library)$"))

((list . (symbol) @_import) @import
  (#any-of? @_import "use-modules" "import" "require" "use-syntax"))
