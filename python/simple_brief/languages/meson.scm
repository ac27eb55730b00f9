; Meson outline. Vocabulary: README.md.
;
; `project('name', ...)` names the file's project (a module); a build target,
; test or benchmark (`executable('shop-cli', ...)`) is an object named by its
; first argument, without quotes (`LanguageSpec.names`); an assignment at any
; level is a variable (`lib = static_library(...)` holds its target); an option
; of `meson.options` is a property. `subdir('src')` reads another file: an import.

((normal_command
  command: (identifier) @_project
  .
  (variableunit . (string) @name)) @definition.module
  (#eq? @_project "project"))

((normal_command
  command: (identifier) @_target
  .
  (variableunit . (string) @name)) @definition.object
  (#any-of? @_target
    "executable" "library" "static_library" "shared_library" "both_libraries" "shared_module"
    "build_target" "jar" "custom_target" "run_target" "alias_target" "test" "benchmark"
    "generator" "declare_dependency"))

((normal_command
  command: (identifier) @_option
  .
  (variableunit . (string) @name)) @definition.property
  (#eq? @_option "option"))

(operatorunit
  .
  (identifier) @name) @definition.variable

((normal_command
  command: (identifier) @_subdir) @import
  (#eq? @_subdir "subdir"))
