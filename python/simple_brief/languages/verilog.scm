; Verilog/SystemVerilog outline. Vocabulary: README.md.
;
; Design units (modules, interfaces, programs, packages, classes, primitives)
; hold functions, tasks, instances (named `u_add` of a module `adder`), named
; `begin : name` blocks and parameters. The grammar nests names deeply
; (`function_identifier > function_identifier > simple_identifier`).

(module_declaration
  (module_header (simple_identifier) @name)) @definition.module

(interface_declaration
  [
    (interface_ansi_header (interface_identifier) @name)
    (interface_nonansi_header (interface_identifier) @name)
  ]) @definition.interface

(program_declaration
  [
    (program_ansi_header (program_identifier) @name)
    (program_nonansi_header (program_identifier) @name)
  ]) @definition.module

(package_declaration
  (package_identifier) @name) @definition.namespace

(class_declaration
  (class_identifier) @name) @definition.class

(udp_declaration
  [
    (udp_nonansi_declaration (simple_identifier) @name)
    (udp_ansi_declaration (simple_identifier) @name)
  ]) @definition.function

(function_declaration
  (function_body_declaration
    (function_identifier) @name)) @definition.function

(task_declaration
  (task_body_declaration
    (task_identifier) @name)) @definition.function

(class_constructor_declaration
  "new" @name) @definition.constructor

(module_instantiation
  (hierarchical_instance
    (name_of_instance (instance_identifier) @name))) @definition.object

(seq_block
  .
  (simple_identifier) @name) @definition.namespace

(generate_block
  (generate_block_identifier) @name) @definition.namespace

(parameter_declaration
  (list_of_param_assignments
    (param_assignment (parameter_identifier) @name))) @definition.constant

(local_parameter_declaration
  (list_of_param_assignments
    (param_assignment (parameter_identifier) @name))) @definition.constant

(text_macro_definition
  (text_macro_name (text_macro_identifier) @name)) @definition.constant

(include_compiler_directive) @import

; A module the grammar could not read to its `endmodule` (a file it reads as one ERROR)
; still has its header: the module is listed by it, one line long (no body, no fold).
(ERROR
  (module_header (simple_identifier) @name) @definition.module)
