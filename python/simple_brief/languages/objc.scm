; Objective-C outline. Vocabulary: README.md.
;
; `@interface` (a category `@interface Shop (Extras)` is named `Shop (Extras)`),
; `@implementation` and `@protocol` are classes and interfaces holding their
; methods and properties; a method is named by its selector (`LanguageSpec.names`
; joins the keywords: `initWithName:price:`). C's functions, structs, enums and
; macros as in C.

(class_interface
  .
  (identifier) @name
  category: (_)? @name) @definition.class

(class_implementation
  .
  (identifier) @name
  category: (_)? @name) @definition.class

(protocol_declaration
  .
  (identifier) @name) @definition.interface

(method_definition
  [(identifier) (method_parameter)]+ @name
  (compound_statement) @body) @definition.method

(method_declaration
  [(identifier) (method_parameter)]+ @name) @definition.method

(property_declaration
  (struct_declaration
    (struct_declarator
      [
        (identifier) @name
        (_ (identifier) @name)
        (_ (_ (identifier) @name))
      ]))) @definition.property

(instance_variable
  (struct_declaration
    (struct_declarator
      [
        (identifier) @name
        (_ (identifier) @name)
      ]))) @definition.field

(function_definition
  declarator: [
    (function_declarator declarator: (identifier) @name)
    (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))
  ]
  body: (_) @body) @definition.function

(struct_specifier
  name: (_) @name
  body: (_) @body) @definition.struct

(enum_specifier
  name: (_) @name
  body: (_) @body) @definition.enum

(type_definition
  type: (struct_specifier !name body: (_) @body)
  declarator: (type_identifier) @name) @definition.struct

(type_definition
  type: (enum_specifier !name body: (_) @body)
  declarator: (type_identifier) @name) @definition.enum

; `typedef NS_ENUM(NSInteger, Kind) { ... };`: the grammar reads the macro as a
; type and cannot read the rest; the enum is named by the identifier it kept.
((type_definition
  type: (macro_type_specifier
    name: (identifier) @_macro
    (ERROR (identifier) @name))) @definition.enum
  (#any-of? @_macro "NS_ENUM" "NS_OPTIONS" "NS_CLOSED_ENUM" "NS_ERROR_ENUM" "CF_ENUM" "CF_OPTIONS"))

(preproc_def
  name: (_) @name) @definition.constant

(preproc_function_def
  name: (_) @name) @definition.function

(preproc_include) @import

; A category's `@implementation` the grammar could not read (a macro such as
; `RCT_ENUM_CONVERTER(...)` at its top) is an ERROR of loose tokens: the class and its
; category after the keyword are listed, one token long.
(ERROR
  "@implementation"
  .
  (identifier) @name @definition.class
  .
  "("
  .
  (identifier) @name
  .
  ")")

; Without a category: the class right before the macro (an upper-case name with an
; underscore, `RCT_EXPORT_MODULE`), which a category's name never is, or before the
; definitions the grammar still read.
(ERROR
  "@implementation"
  .
  (identifier) @name @definition.class
  .
  (identifier) @_macro
  (#match? @_macro "^[A-Z][A-Z0-9]*_[A-Z0-9_]*$"))

(ERROR "@implementation" . (identifier) @name @definition.class . (implementation_definition))
