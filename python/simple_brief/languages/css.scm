; CSS outline. Vocabulary: README.md.
;
; Rule sets are named by their selector list (`.btn, a.btn:hover > span`) and
; fold (`struct`: a block of declarations; declarations are not symbols).
; Conditional group rules that hold rule sets (`@media`, `@supports`,
; `@layer`, `@container`, `@scope`, `@document`) are containers (`module`, they
; stay open), named by the rule and its condition (`@media (max-width: 600px)`).
; `@keyframes` (named `@keyframes spin`), `@font-face`, `@page` and other
; at-rules with a block fold like rule sets. `@import` is an import. A comment
; directly above a rule is its doc.

(rule_set
  (selectors) @name
  (block) @body) @definition.struct

(media_statement
  "@media" @name
  (_)* @name
  .
  (block) @body) @definition.module

(supports_statement
  "@supports" @name
  (_)* @name
  .
  (block) @body) @definition.module

(keyframes_statement
  "@keyframes" @name
  (keyframes_name) @name
  (keyframe_block_list) @body) @definition.struct

; Other at-rules, told by what their block starts with: rule sets or nested
; at-rules make a container (`@layer base { ... }`), declarations a block that
; folds (`@font-face`, `@page :first`, `@property`, `@counter-style`; also a
; block that starts with a comment).
(at_rule
  (at_keyword) @name
  (_)* @name
  .
  (block
    .
    [(rule_set) (media_statement) (supports_statement) (keyframes_statement) (at_rule)]) @body) @definition.module

(at_rule
  (at_keyword) @name
  (_)* @name
  .
  (block
    .
    [(declaration) (comment)]) @body) @definition.struct

(import_statement) @import
