; Nix outline. Vocabulary: README.md.
;
; A binding `name = value;` is named by its attribute path as written
; (`services.nginx.enable`). Its value decides the kind: a function (`name =
; args: ...`) is a function at any depth, its body folds; an attribute set is
; an object holding its own bindings, and so is a set given to a wrapper that
; keeps it one (`config = mkIf cfg.enable { ... }`, mkMerge, optionalAttrs
; ...); anything else (and `inherit x;`) is a field. Bindings are listed in the
; sets that make up the file's structure: the file's own set (also as a
; function's, `let ... in`'s or `with`'s body, or as the argument of the main
; call, `stdenv.mkDerivation rec { ... }`) and the sets nested in those as
; values. Sets passed to other calls (`src = fetchurl { url = ...; }`,
; `mkOption { ... }`) are values, not outlines. File-level `let` bindings are
; variables. A set is `(_ "{" (binding_set))`: an attrset or a `rec` one,
; not a `let` (no anchor: a comment may stand between `{` and the bindings).
; The set patterns differ only in where the set stands; each checks the
; wrapper predicates, which a match without a wrapper capture passes.
; Sets found two levels down are the values of bindings in a listed set
; (a set given to another call holds no outline, nor its values).

; ------------------------------------------------------------- functions

(binding
  attrpath: (_) @name
  expression: (function_expression
    body: (_) @body)) @definition.function

; ------------------------------------------------- the file's attribute sets
; The members of a set that is a function's, `let ... in`'s, `with`'s or `assert`'s body.
((_
  body: (_
      "{"
      (binding_set
        [
          (binding
            attrpath: (_) @name
            expression: [(attrset_expression) (rec_attrset_expression)] @body) @definition.object
          (binding
            attrpath: (_) @name
            expression: (apply_expression
              function: (_) @_wrapper
              argument: [(attrset_expression) (rec_attrset_expression)] @body)) @definition.object
          (binding
            attrpath: (_) @name
            expression: [(apply_expression) (assert_expression) (binary_expression)
               (float_expression) (has_attr_expression) (hpath_expression)
               (if_expression) (indented_string_expression)
               (integer_expression) (let_expression) (list_expression)
               (parenthesized_expression) (path_expression)
               (select_expression) (spath_expression) (string_expression)
               (unary_expression) (uri_expression) (variable_expression)
               (with_expression)] @_value) @definition.field
          (inherit
            (inherited_attrs
              attr: (identifier) @name @definition.field))
          (inherit_from
            (inherited_attrs
              attr: (identifier) @name @definition.field))
        ])))
  (#match? @_wrapper "(^|\\.)(mkIf|mkMerge|mkDefault|mkForce|mkOverride|optionalAttrs)\\b")
  (#not-match? @_value "^(lib\\.)?(mkIf|mkMerge|mkDefault|mkForce|mkOverride|optionalAttrs)\\b[^;]*\\{"))

; ... and of a set that is a binding's value in it (`meta = { ... }`).
((_
  body: (_
      "{"
      (binding_set
        (binding
          expression: (_
            "{"
            (binding_set
              [
                (binding
                  attrpath: (_) @name
                  expression: [(attrset_expression) (rec_attrset_expression)] @body) @definition.object
                (binding
                  attrpath: (_) @name
                  expression: (apply_expression
                    function: (_) @_wrapper
                    argument: [(attrset_expression) (rec_attrset_expression)] @body)) @definition.object
                (binding
                  attrpath: (_) @name
                  expression: [(apply_expression) (assert_expression) (binary_expression)
                     (float_expression) (has_attr_expression) (hpath_expression)
                     (if_expression) (indented_string_expression)
                     (integer_expression) (let_expression) (list_expression)
                     (parenthesized_expression) (path_expression)
                     (select_expression) (spath_expression) (string_expression)
                     (unary_expression) (uri_expression) (variable_expression)
                     (with_expression)] @_value) @definition.field
                (inherit
                  (inherited_attrs
                    attr: (identifier) @name @definition.field))
                (inherit_from
                  (inherited_attrs
                    attr: (identifier) @name @definition.field))
              ]))))))
  (#match? @_wrapper "(^|\\.)(mkIf|mkMerge|mkDefault|mkForce|mkOverride|optionalAttrs)\\b")
  (#not-match? @_value "^(lib\\.)?(mkIf|mkMerge|mkDefault|mkForce|mkOverride|optionalAttrs)\\b[^;]*\\{"))

; The members of a set that is the argument of the main call (`stdenv.mkDerivation rec { ... }`).
((_
  body: (apply_expression
    argument: (_
        "{"
        (binding_set
          [
            (binding
              attrpath: (_) @name
              expression: [(attrset_expression) (rec_attrset_expression)] @body) @definition.object
            (binding
              attrpath: (_) @name
              expression: (apply_expression
                function: (_) @_wrapper
                argument: [(attrset_expression) (rec_attrset_expression)] @body)) @definition.object
            (binding
              attrpath: (_) @name
              expression: [(apply_expression) (assert_expression) (binary_expression)
                 (float_expression) (has_attr_expression) (hpath_expression)
                 (if_expression) (indented_string_expression)
                 (integer_expression) (let_expression) (list_expression)
                 (parenthesized_expression) (path_expression)
                 (select_expression) (spath_expression) (string_expression)
                 (unary_expression) (uri_expression) (variable_expression)
                 (with_expression)] @_value) @definition.field
            (inherit
              (inherited_attrs
                attr: (identifier) @name @definition.field))
            (inherit_from
              (inherited_attrs
                attr: (identifier) @name @definition.field))
          ]))))
  (#match? @_wrapper "(^|\\.)(mkIf|mkMerge|mkDefault|mkForce|mkOverride|optionalAttrs)\\b")
  (#not-match? @_value "^(lib\\.)?(mkIf|mkMerge|mkDefault|mkForce|mkOverride|optionalAttrs)\\b[^;]*\\{"))

; ... and of a set that is a binding's value in it (`meta = { ... }`).
((_
  body: (apply_expression
    argument: (_
        "{"
        (binding_set
          (binding
            expression: (_
              "{"
              (binding_set
                [
                  (binding
                    attrpath: (_) @name
                    expression: [(attrset_expression) (rec_attrset_expression)] @body) @definition.object
                  (binding
                    attrpath: (_) @name
                    expression: (apply_expression
                      function: (_) @_wrapper
                      argument: [(attrset_expression) (rec_attrset_expression)] @body)) @definition.object
                  (binding
                    attrpath: (_) @name
                    expression: [(apply_expression) (assert_expression) (binary_expression)
                       (float_expression) (has_attr_expression) (hpath_expression)
                       (if_expression) (indented_string_expression)
                       (integer_expression) (let_expression) (list_expression)
                       (parenthesized_expression) (path_expression)
                       (select_expression) (spath_expression) (string_expression)
                       (unary_expression) (uri_expression) (variable_expression)
                       (with_expression)] @_value) @definition.field
                  (inherit
                    (inherited_attrs
                      attr: (identifier) @name @definition.field))
                  (inherit_from
                    (inherited_attrs
                      attr: (identifier) @name @definition.field))
                ])))))))
  (#match? @_wrapper "(^|\\.)(mkIf|mkMerge|mkDefault|mkForce|mkOverride|optionalAttrs)\\b")
  (#not-match? @_value "^(lib\\.)?(mkIf|mkMerge|mkDefault|mkForce|mkOverride|optionalAttrs)\\b[^;]*\\{"))

; The members of a set that is the file itself.
((source_code
  (_
      "{"
      (binding_set
        [
          (binding
            attrpath: (_) @name
            expression: [(attrset_expression) (rec_attrset_expression)] @body) @definition.object
          (binding
            attrpath: (_) @name
            expression: (apply_expression
              function: (_) @_wrapper
              argument: [(attrset_expression) (rec_attrset_expression)] @body)) @definition.object
          (binding
            attrpath: (_) @name
            expression: [(apply_expression) (assert_expression) (binary_expression)
               (float_expression) (has_attr_expression) (hpath_expression)
               (if_expression) (indented_string_expression)
               (integer_expression) (let_expression) (list_expression)
               (parenthesized_expression) (path_expression)
               (select_expression) (spath_expression) (string_expression)
               (unary_expression) (uri_expression) (variable_expression)
               (with_expression)] @_value) @definition.field
          (inherit
            (inherited_attrs
              attr: (identifier) @name @definition.field))
          (inherit_from
            (inherited_attrs
              attr: (identifier) @name @definition.field))
        ])))
  (#match? @_wrapper "(^|\\.)(mkIf|mkMerge|mkDefault|mkForce|mkOverride|optionalAttrs)\\b")
  (#not-match? @_value "^(lib\\.)?(mkIf|mkMerge|mkDefault|mkForce|mkOverride|optionalAttrs)\\b[^;]*\\{"))

; ... and of a set that is a binding's value in it (`meta = { ... }`).
((source_code
  (_
      "{"
      (binding_set
        (binding
          expression: (_
            "{"
            (binding_set
              [
                (binding
                  attrpath: (_) @name
                  expression: [(attrset_expression) (rec_attrset_expression)] @body) @definition.object
                (binding
                  attrpath: (_) @name
                  expression: (apply_expression
                    function: (_) @_wrapper
                    argument: [(attrset_expression) (rec_attrset_expression)] @body)) @definition.object
                (binding
                  attrpath: (_) @name
                  expression: [(apply_expression) (assert_expression) (binary_expression)
                     (float_expression) (has_attr_expression) (hpath_expression)
                     (if_expression) (indented_string_expression)
                     (integer_expression) (let_expression) (list_expression)
                     (parenthesized_expression) (path_expression)
                     (select_expression) (spath_expression) (string_expression)
                     (unary_expression) (uri_expression) (variable_expression)
                     (with_expression)] @_value) @definition.field
                (inherit
                  (inherited_attrs
                    attr: (identifier) @name @definition.field))
                (inherit_from
                  (inherited_attrs
                    attr: (identifier) @name @definition.field))
              ]))))))
  (#match? @_wrapper "(^|\\.)(mkIf|mkMerge|mkDefault|mkForce|mkOverride|optionalAttrs)\\b")
  (#not-match? @_value "^(lib\\.)?(mkIf|mkMerge|mkDefault|mkForce|mkOverride|optionalAttrs)\\b[^;]*\\{"))

; The members of a set that is the argument of the file's call.
((source_code
  (apply_expression
    argument: (_
        "{"
        (binding_set
          [
            (binding
              attrpath: (_) @name
              expression: [(attrset_expression) (rec_attrset_expression)] @body) @definition.object
            (binding
              attrpath: (_) @name
              expression: (apply_expression
                function: (_) @_wrapper
                argument: [(attrset_expression) (rec_attrset_expression)] @body)) @definition.object
            (binding
              attrpath: (_) @name
              expression: [(apply_expression) (assert_expression) (binary_expression)
                 (float_expression) (has_attr_expression) (hpath_expression)
                 (if_expression) (indented_string_expression)
                 (integer_expression) (let_expression) (list_expression)
                 (parenthesized_expression) (path_expression)
                 (select_expression) (spath_expression) (string_expression)
                 (unary_expression) (uri_expression) (variable_expression)
                 (with_expression)] @_value) @definition.field
            (inherit
              (inherited_attrs
                attr: (identifier) @name @definition.field))
            (inherit_from
              (inherited_attrs
                attr: (identifier) @name @definition.field))
          ]))))
  (#match? @_wrapper "(^|\\.)(mkIf|mkMerge|mkDefault|mkForce|mkOverride|optionalAttrs)\\b")
  (#not-match? @_value "^(lib\\.)?(mkIf|mkMerge|mkDefault|mkForce|mkOverride|optionalAttrs)\\b[^;]*\\{"))

; ... and of a set that is a binding's value in it (`meta = { ... }`).
((source_code
  (apply_expression
    argument: (_
        "{"
        (binding_set
          (binding
            expression: (_
              "{"
              (binding_set
                [
                  (binding
                    attrpath: (_) @name
                    expression: [(attrset_expression) (rec_attrset_expression)] @body) @definition.object
                  (binding
                    attrpath: (_) @name
                    expression: (apply_expression
                      function: (_) @_wrapper
                      argument: [(attrset_expression) (rec_attrset_expression)] @body)) @definition.object
                  (binding
                    attrpath: (_) @name
                    expression: [(apply_expression) (assert_expression) (binary_expression)
                       (float_expression) (has_attr_expression) (hpath_expression)
                       (if_expression) (indented_string_expression)
                       (integer_expression) (let_expression) (list_expression)
                       (parenthesized_expression) (path_expression)
                       (select_expression) (spath_expression) (string_expression)
                       (unary_expression) (uri_expression) (variable_expression)
                       (with_expression)] @_value) @definition.field
                  (inherit
                    (inherited_attrs
                      attr: (identifier) @name @definition.field))
                  (inherit_from
                    (inherited_attrs
                      attr: (identifier) @name @definition.field))
                ])))))))
  (#match? @_wrapper "(^|\\.)(mkIf|mkMerge|mkDefault|mkForce|mkOverride|optionalAttrs)\\b")
  (#not-match? @_value "^(lib\\.)?(mkIf|mkMerge|mkDefault|mkForce|mkOverride|optionalAttrs)\\b[^;]*\\{"))

; The members of a set that is a wrapper's argument (`config = mkIf cfg.enable { ... }`).
((binding
  expression: (apply_expression
    function: (_) @_outer
    argument: (_
          "{"
          (binding_set
            [
              (binding
                attrpath: (_) @name
                expression: [(attrset_expression) (rec_attrset_expression)] @body) @definition.object
              (binding
                attrpath: (_) @name
                expression: (apply_expression
                  function: (_) @_wrapper
                  argument: [(attrset_expression) (rec_attrset_expression)] @body)) @definition.object
              (binding
                attrpath: (_) @name
                expression: [(apply_expression) (assert_expression) (binary_expression)
                   (float_expression) (has_attr_expression) (hpath_expression)
                   (if_expression) (indented_string_expression)
                   (integer_expression) (let_expression) (list_expression)
                   (parenthesized_expression) (path_expression)
                   (select_expression) (spath_expression) (string_expression)
                   (unary_expression) (uri_expression) (variable_expression)
                   (with_expression)] @_value) @definition.field
              (inherit
                (inherited_attrs
                  attr: (identifier) @name @definition.field))
              (inherit_from
                (inherited_attrs
                  attr: (identifier) @name @definition.field))
            ]))))
  (#match? @_wrapper "(^|\\.)(mkIf|mkMerge|mkDefault|mkForce|mkOverride|optionalAttrs)\\b")
  (#not-match? @_value "^(lib\\.)?(mkIf|mkMerge|mkDefault|mkForce|mkOverride|optionalAttrs)\\b[^;]*\\{")
  (#match? @_outer "(^|\\.)(mkIf|mkMerge|mkDefault|mkForce|mkOverride|optionalAttrs)\\b"))

; ... and of a set that is a binding's value in it (`meta = { ... }`).
((binding
  expression: (apply_expression
    function: (_) @_outer
    argument: (_
          "{"
          (binding_set
            (binding
              expression: (_
                "{"
                (binding_set
                  [
                    (binding
                      attrpath: (_) @name
                      expression: [(attrset_expression) (rec_attrset_expression)] @body) @definition.object
                    (binding
                      attrpath: (_) @name
                      expression: (apply_expression
                        function: (_) @_wrapper
                        argument: [(attrset_expression) (rec_attrset_expression)] @body)) @definition.object
                    (binding
                      attrpath: (_) @name
                      expression: [(apply_expression) (assert_expression) (binary_expression)
                         (float_expression) (has_attr_expression) (hpath_expression)
                         (if_expression) (indented_string_expression)
                         (integer_expression) (let_expression) (list_expression)
                         (parenthesized_expression) (path_expression)
                         (select_expression) (spath_expression) (string_expression)
                         (unary_expression) (uri_expression) (variable_expression)
                         (with_expression)] @_value) @definition.field
                    (inherit
                      (inherited_attrs
                        attr: (identifier) @name @definition.field))
                    (inherit_from
                      (inherited_attrs
                        attr: (identifier) @name @definition.field))
                  ])))))))
  (#match? @_wrapper "(^|\\.)(mkIf|mkMerge|mkDefault|mkForce|mkOverride|optionalAttrs)\\b")
  (#not-match? @_value "^(lib\\.)?(mkIf|mkMerge|mkDefault|mkForce|mkOverride|optionalAttrs)\\b[^;]*\\{")
  (#match? @_outer "(^|\\.)(mkIf|mkMerge|mkDefault|mkForce|mkOverride|optionalAttrs)\\b"))

; ... and so on down: a value set in a value set.
((binding
  expression: (_
    "{"
    (binding_set
      (binding
        expression: (_
          "{"
          (binding_set
            [
              (binding
                attrpath: (_) @name
                expression: [(attrset_expression) (rec_attrset_expression)] @body) @definition.object
              (binding
                attrpath: (_) @name
                expression: (apply_expression
                  function: (_) @_wrapper
                  argument: [(attrset_expression) (rec_attrset_expression)] @body)) @definition.object
              (binding
                attrpath: (_) @name
                expression: [(apply_expression) (assert_expression) (binary_expression)
                   (float_expression) (has_attr_expression) (hpath_expression)
                   (if_expression) (indented_string_expression)
                   (integer_expression) (let_expression) (list_expression)
                   (parenthesized_expression) (path_expression)
                   (select_expression) (spath_expression) (string_expression)
                   (unary_expression) (uri_expression) (variable_expression)
                   (with_expression)] @_value) @definition.field
              (inherit
                (inherited_attrs
                  attr: (identifier) @name @definition.field))
              (inherit_from
                (inherited_attrs
                  attr: (identifier) @name @definition.field))
            ]))))))
  (#match? @_wrapper "(^|\\.)(mkIf|mkMerge|mkDefault|mkForce|mkOverride|optionalAttrs)\\b")
  (#not-match? @_value "^(lib\\.)?(mkIf|mkMerge|mkDefault|mkForce|mkOverride|optionalAttrs)\\b[^;]*\\{"))
; ------------------------------------------------------------ let bindings

; File-level `let` bindings (the file's own, or its function's, also after
; `with lib;`) that are not functions: variables.
[
  (source_code
    (let_expression
      (binding_set
        (binding
          attrpath: (_) @name
          expression: [(attrset_expression) (rec_attrset_expression)
                       (apply_expression) (assert_expression)
                       (binary_expression) (float_expression)
                       (has_attr_expression) (hpath_expression)
                       (if_expression) (indented_string_expression)
                       (integer_expression) (let_expression)
                       (list_expression) (parenthesized_expression)
                       (path_expression) (select_expression)
                       (spath_expression) (string_expression)
                       (unary_expression) (uri_expression)
                       (variable_expression) (with_expression)]) @definition.variable)))
  (source_code
    (with_expression
      body: (let_expression
        (binding_set
          (binding
            attrpath: (_) @name
            expression: [(attrset_expression) (rec_attrset_expression)
                         (apply_expression) (assert_expression)
                         (binary_expression) (float_expression)
                         (has_attr_expression) (hpath_expression)
                         (if_expression) (indented_string_expression)
                         (integer_expression) (let_expression)
                         (list_expression) (parenthesized_expression)
                         (path_expression) (select_expression)
                         (spath_expression) (string_expression)
                         (unary_expression) (uri_expression)
                         (variable_expression) (with_expression)]) @definition.variable))))
  (source_code
    (function_expression
      body: (let_expression
        (binding_set
          (binding
            attrpath: (_) @name
            expression: [(attrset_expression) (rec_attrset_expression)
                         (apply_expression) (assert_expression)
                         (binary_expression) (float_expression)
                         (has_attr_expression) (hpath_expression)
                         (if_expression) (indented_string_expression)
                         (integer_expression) (let_expression)
                         (list_expression) (parenthesized_expression)
                         (path_expression) (select_expression)
                         (spath_expression) (string_expression)
                         (unary_expression) (uri_expression)
                         (variable_expression) (with_expression)]) @definition.variable))))
  (source_code
    (function_expression
      body: (with_expression
        body: (let_expression
          (binding_set
            (binding
              attrpath: (_) @name
              expression: [(attrset_expression) (rec_attrset_expression)
                           (apply_expression) (assert_expression)
                           (binary_expression) (float_expression)
                           (has_attr_expression) (hpath_expression)
                           (if_expression) (indented_string_expression)
                           (integer_expression) (let_expression)
                           (list_expression) (parenthesized_expression)
                           (path_expression) (select_expression)
                           (spath_expression) (string_expression)
                           (unary_expression) (uri_expression)
                           (variable_expression) (with_expression)]) @definition.variable)))))
]

; ----------------------------------------------------------------- imports

; `x = import ./x.nix;`, `pkgs = import <nixpkgs> { };`: the whole binding, so a
; multi-line one folds as one import.
((binding
  expression: [
    (apply_expression
      function: (variable_expression
        name: (identifier) @_import)
      argument: [(path_expression) (spath_expression)])
    (apply_expression
      function: (apply_expression
        function: (variable_expression
          name: (identifier) @_import)
        argument: [(path_expression) (spath_expression)]))
  ]) @import
  (#eq? @_import "import"))

; A NixOS module's `imports = [ ./hardware-configuration.nix ];`.
((binding
  attrpath: (attrpath . (identifier) @_imports .)
  expression: (list_expression)) @import
  (#eq? @_imports "imports"))
