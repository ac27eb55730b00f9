; Elixir outline. Vocabulary: README.md.
;
; Everything in Elixir is a call: `defmodule X do ... end` is the call `defmodule`
; with an alias argument and a do_block, which is the body. Definitions are
; recognised by the called name (`def`, `defp`, `defmacro` ...). Each clause of a
; multi-clause function is a symbol of its own, at its own line.

; Modules, protocols and implementations (`defimpl Size, for: BitString` is
; named `Size, for: BitString`) are modules: containers.
((call
  target: (identifier) @_keyword
  (arguments . (alias) @name (keywords)? @name)
  (do_block "do" @body)) @definition.module
  (#any-of? @_keyword "defmodule" "defprotocol" "defimpl"))

; Functions, macros, guards and delegates: `def f(a) do`, `def f(a) when g do`,
; `def f do`, `def f(a), do: x` and bodiless heads (`def f(a \\ 1)`, protocol
; functions, `defdelegate f(a), to: M`).
((call
  target: (identifier) @_keyword
  (arguments
    .
    [
      (call target: (identifier) @name)
      (identifier) @name
      (binary_operator
        left: (call target: (identifier) @name)
        operator: "when")
    ])
  (do_block "do" @body)?) @definition.function
  (#any-of? @_keyword "def" "defp" "defmacro" "defmacrop" "defguard" "defguardp" "defdelegate" "defn" "defnp"))

; Structs and exceptions belong to their module: listed as `defstruct` / `defexception`.
((call
  target: (identifier) @_keyword @name
  (arguments)) @definition.struct
  (#any-of? @_keyword "defstruct" "defexception"))

; Types and callbacks: `@type name :: ...`, `@callback f(a) :: t`.
((unary_operator
  operator: "@"
  operand: (call
    target: (identifier) @_keyword
    (arguments
      (binary_operator
        left: [
          (call target: (identifier) @name)
          (identifier) @name
        ])))) @definition.type
  (#any-of? @_keyword "type" "typep" "opaque"))

((unary_operator
  operator: "@"
  operand: (call
    target: (identifier) @_keyword
    (arguments
      (binary_operator
        left: (call target: (identifier) @name))))) @definition.function
  (#any-of? @_keyword "callback" "macrocallback"))

; Module attributes used as constants (`@timeout 5_000`); the attributes the
; compiler reads (`@doc`, `@spec`, `@impl` ...) are not definitions.
((unary_operator
  operator: "@"
  operand: (call
    target: (identifier) @name
    (arguments))) @definition.constant
  (#not-match? @name "^(doc|moduledoc|typedoc|spec|typep?|opaque|(macro)?callback|impl|behaviour|derive|enforce_keys|optional_callbacks|deprecated|since|dialyzer|compile|on_load|on_definition|(before|after)_compile|after_verify|external_resource|file|vsn|nifs)$"))

; ExUnit: `describe "..." do` groups tests; `test "..." do` is a test.
((call
  target: (identifier) @_keyword @name
  (arguments . (string) @name)
  (do_block "do" @body)) @definition.function
  (#eq? @_keyword "test"))

((call
  target: (identifier) @_keyword @name
  (arguments . (string) @name)
  (do_block "do" @body)) @definition.namespace
  (#eq? @_keyword "describe"))

((call
  target: (identifier) @_import) @import
  (#any-of? @_import "alias" "import" "require" "use"))
