; Clojure outline. Vocabulary: README.md.
;
; Definitions are lists headed by a `def...` symbol; names are read without
; their metadata (`(defn ^:private ^String f ...)` is `f`). A form has no body
; node: the form after the name stands in for it, so the fold runs from there
; to the closing parenthesis. Protocol signatures and the methods a record or
; type implements are listed inside it.

((list_lit
  .
  value: (sym_lit name: (sym_name) @_ns)
  .
  value: (sym_lit name: (sym_name) @name)) @definition.namespace
  (#eq? @_ns "ns"))

((list_lit
  .
  value: (sym_lit name: (sym_name) @_defn)
  .
  value: (sym_lit name: (sym_name) @name)
  .
  value: (_) @body) @definition.function
  (#any-of? @_defn "defn" "defn-" "defmacro" "defmulti" "definline" "defmethod" "deftest" "defspec"))

((list_lit
  .
  value: (sym_lit name: (sym_name) @_def)
  .
  value: (sym_lit name: (sym_name) @name)
  .
  value: (list_lit . value: (sym_lit name: (sym_name) @_fn))) @definition.function
  (#any-of? @_def "def" "def-" "defonce")
  (#eq? @_fn "fn"))

((list_lit
  .
  value: (sym_lit name: (sym_name) @_def)
  .
  value: (sym_lit name: (sym_name) @name)
  .
  value: (_)? @_value) @definition.variable
  (#any-of? @_def "def" "def-" "defonce")
  (#not-match? @_value "^\\(fn[\\s\\[]"))

((list_lit
  .
  value: (sym_lit name: (sym_name) @_type)
  .
  value: (sym_lit name: (sym_name) @name)
  .
  value: (_) @body) @definition.interface
  (#any-of? @_type "defprotocol" "definterface"))

((list_lit
  .
  value: (sym_lit name: (sym_name) @_type)
  .
  value: (sym_lit name: (sym_name) @name)
  .
  value: (_) @body) @definition.struct
  (#any-of? @_type "defrecord" "deftype" "defstruct"))

; A protocol's signatures, a record's or type's methods: `(cost [this] ...)`.
((list_lit
  .
  value: (sym_lit name: (sym_name) @_type)
  (list_lit
    .
    value: (sym_lit name: (sym_name) @name)
    .
    value: (vec_lit)) @definition.method)
  (#any-of? @_type "defprotocol" "definterface" "defrecord" "deftype" "reify" "extend-type" "extend-protocol"))

; Any other `(def... name ...)` form (a library's own `defroutes`, `defschema`).
((list_lit
  .
  value: (sym_lit name: (sym_name) @_def)
  .
  value: (sym_lit name: (sym_name) @name)
  .
  value: (_) @body) @definition.function
  (#match? @_def "^def")
  (#not-match? @_def "^(def|def-|defonce|defn|defn-|defmacro|defmulti|definline|defmethod|deftest|defspec|defprotocol|definterface|defrecord|deftype|defstruct)$"))
