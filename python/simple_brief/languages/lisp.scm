; Common Lisp outline. Vocabulary: README.md.
;
; The grammar reads `defun`, `defmacro`, `defgeneric` and `defmethod` as a
; `defun` (its header has the name and lambda list); the other `def...` forms
; are plain lists told by their first symbol. A form has no body node: the
; first form after the header stands in for it, so the fold runs from there to
; the closing parenthesis. `(defun (setf name) ...)` is named `(setf name)`.

(list_lit
  (defun
    (defun_header
      function_name: (_) @name)
    .
    (_)? @body)) @definition.function

; A form the grammar could not read whole (its `loop` rules reject some valid
; `loop :for ... :being :the :hash-keys` clauses) keeps its header: the
; definition is listed by its first line.
(ERROR
  (defun_header
    function_name: (_) @name) @definition.function)

((list_lit
  .
  value: (sym_lit) @_define
  .
  value: [(sym_lit) (list_lit . value: (sym_lit))] @name
  .
  value: (_)? @body) @definition.class
  (#match? @_define "^(defclass|define-condition|deftype)$"))

((list_lit
  .
  value: (sym_lit) @_define
  .
  value: [(sym_lit) @name (list_lit . value: (sym_lit) @name)]) @definition.struct
  (#eq? @_define "defstruct"))

((list_lit
  .
  value: (sym_lit) @_define
  .
  value: (sym_lit) @name) @definition.variable
  (#match? @_define "^(defvar|defparameter|sb-ext:defglobal|define-symbol-macro)$"))

((list_lit
  .
  value: (sym_lit) @_define
  .
  value: (sym_lit) @name) @definition.constant
  (#match? @_define "^(defconstant|alexandria:define-constant|define-constant)$"))

((list_lit
  .
  value: (sym_lit) @_define
  .
  value: [(sym_lit) (kwd_lit) (str_lit)] @name) @definition.module
  (#match? @_define "^(defpackage|uiop:define-package|define-package|asdf:defsystem|defsystem)$"))

; Any other `(def... name ...)` or `(define-... name ...)` form (a project's own
; `define-foo`, `defsetf`, `deftest`).
((list_lit
  .
  value: (sym_lit) @_define
  .
  value: [(sym_lit) (list_lit . value: (sym_lit))] @name
  .
  value: (_)? @body) @definition.function
  (#match? @_define "^(def|define-)")
  (#not-match? @_define "^(defun|defmacro|defgeneric|defmethod|define-compiler-macro|defclass|define-condition|deftype|defstruct|defvar|defparameter|define-symbol-macro|defconstant|define-constant|defpackage|define-package|defsystem)$"))

((list_lit
  .
  value: (sym_lit) @_import) @import
  (#match? @_import "^(in-package|require|ql:quickload|asdf:load-system)$"))
