; Ruby outline. Vocabulary: README.md.
;
; `def` is a function at the top level and a method inside a class or module
; (the scanner decides); `initialize` is the constructor. Blocks (`do ... end`)
; are not definitions, except the block of `X = Struct.new(...) do` /
; `Class.new` / `Data.define`, which defines a class, and Rake's task blocks.
; Names written as symbols keep their colon (`attr_reader :name` is `:name`).

(method
  name: (_) @name
  body: (_)? @body
  (#not-eq? @name "initialize")) @definition.function

(method
  name: (_) @name
  body: (_)? @body
  (#eq? @name "initialize")) @definition.constructor

; `def self.build`: the receiver stays in the name.
(singleton_method
  object: (_) @name
  name: (_) @name
  body: (_)? @body) @definition.method

(class
  name: (_) @name
  body: (_)? @body) @definition.class

(module
  name: (_) @name
  body: (_)? @body) @definition.module

; `class << self`: holds the class methods.
(singleton_class
  "class" @name
  value: (_) @name
  body: (_)? @body) @definition.class

; `Point = Struct.new(:x, :y) do ... end` (also `Class.new`, `Data.define`).
((assignment
  left: (constant) @name
  right: (call
    receiver: (constant) @_receiver
    method: (identifier) @_method
    block: (do_block) @body)) @definition.class
  (#any-of? @_receiver "Struct" "Class" "Data" "Module")
  (#any-of? @_method "new" "define"))

; Constants: Ruby allows no constant assignment in a method body, so every one
; is a definition (also those under `if` or `begin` at the class level). The
; predicate leaves the `Struct.new ... do` classes above to their pattern.
((assignment
  left: [(constant) (scope_resolution)] @name
  right: (_) @_value) @definition.constant
  (#not-match? @_value "^(Struct|Class|Data|Module)\\.(new|define)\\b[^\\n]*\\bdo\\b"))

; `attr_accessor :a, :b`: one property per name.
(body_statement
  (call
    !receiver
    method: (identifier) @_attr
    arguments: (argument_list
      (simple_symbol) @name)) @definition.property
  (#any-of? @_attr "attr_accessor" "attr_reader" "attr_writer"))

; `alias new old` / `alias_method :new, :old` define a method.
(alias
  name: (_) @name) @definition.method
(body_statement
  (call
    !receiver
    method: (identifier) @_alias
    arguments: (argument_list
      .
      (simple_symbol) @name)) @definition.method
  (#eq? @_alias "alias_method"))

; Rake: `task :build => :deps do ... end` (also `file`, `multitask`, `rule`) is a
; function named by its first argument, `namespace :db do ... end` a module.
((call
  !receiver
  method: (identifier) @_task
  arguments: (argument_list
    .
    [(simple_symbol) (string) (pair key: (_) @name)] @name)
  block: (_)? @body) @definition.function
  (#any-of? @_task "task" "multitask" "file" "rule"))

((call
  !receiver
  method: (identifier) @_namespace
  arguments: (argument_list
    .
    [(simple_symbol) (string)] @name)
  block: (_) @body) @definition.module
  (#eq? @_namespace "namespace"))

((program
  (call
    !receiver
    method: (identifier) @_require) @import)
  (#any-of? @_require "require" "require_relative" "load" "autoload"))
