; CMake outline (tree-sitter-cmake of tree-sitter-language-pack 0.13). Vocabulary: README.md.

; `function(name args...) ... endfunction()`: named by its first argument.
(function_def
  (function_command
    (argument_list
      .
      (argument) @name))
  (body)? @body) @definition.function

(macro_def
  (macro_command
    (argument_list
      .
      (argument) @name))
  (body)? @body) @definition.function

; The targets a project builds: `add_library(foo ...)`, `add_executable`, `add_custom_target`.
((normal_command
  (identifier) @_command
  (argument_list
    .
    (argument) @name)) @definition.object
  (#match? @_command "^([Aa][Dd][Dd]_([Ll][Ii][Bb][Rr][Aa][Rr][Yy]|[Ee][Xx][Ee][Cc][Uu][Tt][Aa][Bb][Ll][Ee]|[Cc][Uu][Ss][Tt][Oo][Mm]_[Tt][Aa][Rr][Gg][Ee][Tt]))$"))
