; Erlang outline. Vocabulary: README.md.
;
; A function is listed once per clause (`f(0) -> ...; f(N) -> ...` are two
; entries named `f`), as the grammar reads each clause as its own declaration.
; `-module` names the file's module; records, types, macros and callbacks
; are definitions; `-spec` lines stay above their function as its signature.

(module_attribute
  name: (_) @name) @definition.module

(fun_decl
  clause: (function_clause
    name: (_) @name
    body: (_) @body)) @definition.function

(record_decl
  name: (_) @name) @definition.struct

(type_alias
  name: (type_name name: (_) @name)) @definition.type

(opaque
  name: (type_name name: (_) @name)) @definition.type

(pp_define
  lhs: (macro_lhs name: (_) @name)) @definition.constant

(callback
  fun: (_) @name) @definition.function

[(pp_include) (pp_include_lib)] @import
