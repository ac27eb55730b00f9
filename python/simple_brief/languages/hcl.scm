; HCL / Terraform outline. Vocabulary: README.md.
;
; A block is named by its type and labels as written (`resource "aws_instance"
; "web"`), as terraform-ls names it; the `{` is its body, so the signature is
; the whole header. Kinds follow the block type: `module` blocks are modules,
; `variable` and `output` blocks are members (a variables.tf reads as a list),
; `locals` entries are constants, other labelled blocks (`resource`, `data`,
; `provider`, `dynamic`, Nomad's `job`/`group`/`task`) are objects that list their
; nested blocks, and unlabelled ones (`terraform`, `lifecycle`, `ingress`) are
; structs. Attributes of other blocks are not listed; top-level attributes
; (.tfvars, plain HCL settings) are variables. Exclusions use #not-match?:
; #not-any-of? matches everything in py-tree-sitter 0.26.

(block
  .
  (identifier) @name @_type
  .
  [(string_lit) (identifier)]+ @name
  .
  (block_start) @body
  (#eq? @_type "module")) @definition.module

(block
  .
  (identifier) @name @_type
  .
  [(string_lit) (identifier)]+ @name
  .
  (block_start) @body
  (#eq? @_type "variable")) @definition.variable

(block
  .
  (identifier) @name @_type
  .
  [(string_lit) (identifier)]+ @name
  .
  (block_start) @body
  (#eq? @_type "output")) @definition.property

(block
  .
  (identifier) @name @_type
  .
  [(string_lit) (identifier)]+ @name
  .
  (block_start) @body
  (#not-match? @_type "^(module|variable|output)$")) @definition.object

; Checks inside variables, outputs and resources are not navigation targets
; (and a variable holding a block would not fold as one member).
(block
  .
  (identifier) @name
  .
  (block_start) @body
  (#not-match? @name "^(validation|precondition|postcondition)$")) @definition.struct

(block
  .
  (identifier) @_locals
  (body
    (attribute
      (identifier) @name) @definition.constant)
  (#eq? @_locals "locals"))

(config_file
  (body
    (attribute
      (identifier) @name) @definition.variable))
