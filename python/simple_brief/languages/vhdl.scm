; VHDL outline. Vocabulary: README.md.
;
; Design units: an entity is an interface (its ports are fields), an
; architecture a class named `rtl of counter`, a package (and its body) a
; module. Inside them: components, processes (named by their label, else
; `process`), functions, procedures, types, constants and signals. A
; subprogram's body folds from its local declarations on; an operator is named
; without its quotes (`function "+"` is `+`, as ctags names it).

(entity_declaration
  name: (_) @name
  (entity_header)? @body) @definition.interface

(architecture_body
  name: (_) @name
  "of" @name
  entity: (_) @name
  (declarative_part)? @body) @definition.class

(package_declaration
  name: (_) @name
  (declarative_part)? @body) @definition.module

(package_body
  package: (_) @name
  (declarative_part)? @body) @definition.module

(package_instantiation_declaration
  name: (_) @name) @definition.module

(component_declaration
  name: (_) @name
  (component_header)? @body) @definition.interface

(process_statement
  (label (identifier) @name)
  (sequence_of_statements)? @body) @definition.function

((process_statement
  "process" @name
  (sequence_of_statements)? @body) @definition.function
  (#not-match? @definition.function "^[A-Za-z][A-Za-z0-9_]*\\s*:"))

(block_statement
  (label (identifier) @name)) @definition.namespace

(for_generate_statement
  (label (identifier) @name)) @definition.namespace

(if_generate_statement
  (label (identifier) @name)) @definition.namespace

(function_body
  designator: (_) @name
  (declarative_part) @body) @definition.function

(function_body
  designator: (_) @name
  (sequence_of_statements)? @body) @definition.function

(procedure_body
  designator: (_) @name
  (declarative_part) @body) @definition.function

(procedure_body
  designator: (_) @name
  (sequence_of_statements)? @body) @definition.function

(function_declaration
  designator: (_) @name) @definition.function

(procedure_declaration
  designator: (_) @name) @definition.function

(full_type_declaration
  name: (_) @name
  (record_type_definition) @body) @definition.struct

(full_type_declaration
  name: (_) @name
  (enumeration_type_definition) @body) @definition.enum

(full_type_declaration
  name: (_) @name
  [(physical_type_definition) (constrained_array_definition) (unbounded_array_definition)
   (access_type_definition) (file_type_definition) (numeric_type_definition)
   (protected_type_declaration) (protected_type_body)]) @definition.type

(subtype_declaration
  name: (_) @name) @definition.type

(element_declaration
  (identifier_list (identifier) @name)) @definition.field

(constant_declaration
  (identifier_list (identifier) @name)) @definition.constant

(declarative_part
  (signal_declaration
    (identifier_list (identifier) @name)) @definition.variable)

(port_clause
  (signal_interface_declaration
    (identifier_list (identifier) @name)) @definition.field)

(context_clause) @import
