; R outline. Vocabulary: README.md.
;
; R has no definition statement: a function is a value assigned to a name
; (`f <- function(x) ...`, `f = ...`, `f <<- ...`, `... -> f`), at any depth
; (a function defined inside another is listed under it). A name may be a
; string or backticked (`"%+%" <- function(a, b)`).

(binary_operator
  lhs: [
    (identifier) @name
    (extract_operator) @name
    (namespace_operator) @name
    (string (string_content) @name)
  ]
  operator: ["<-" "=" "<<-" ":="]
  rhs: (function_definition
    body: (_) @body)) @definition.function

(binary_operator
  lhs: (function_definition
    body: (_) @body)
  operator: ["->" "->>"]
  rhs: [(identifier) @name (string (string_content) @name)]) @definition.function

; A function given as a named argument: R6 and reference class methods
; (`public = list(greet = function() ...)`), a list of callbacks.
(argument
  name: (_) @name
  value: (function_definition
    body: (_) @body)) @definition.function

; S4 and R5: `setClass("Person", ...)`, `setRefClass(...)`, `setGeneric("greet", ...)`,
; `setMethod("greet", "Person", ...)` (the method is named by its generic).
((call
  function: (identifier) @_define
  arguments: (arguments . (argument value: (string (string_content) @name)))) @definition.class
  (#any-of? @_define "setClass" "setRefClass" "R6Class"))

((call
  function: (identifier) @_define
  arguments: (arguments . (argument value: (string (string_content) @name)))) @definition.function
  (#any-of? @_define "setGeneric" "setMethod" "setReplaceMethod" "setValidity"))

((call
  function: (identifier) @_import) @import
  (#any-of? @_import "library" "require" "requireNamespace" "source"))
