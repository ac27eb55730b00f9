; Dockerfile outline. Vocabulary: README.md.
;
; A build stage is named by its `AS` alias, else by its image. The grammar
; keeps instructions flat (a stage's instructions are siblings of its FROM, not
; its children), so a stage is its FROM line and does not fold. Build arguments
; and environment variables are the names a Dockerfile defines; other
; instructions are steps, not definitions.

(from_instruction
  as: (image_alias) @name) @definition.module

(from_instruction
  (image_spec) @name
  !as) @definition.module

(arg_instruction
  name: (_) @name) @definition.variable

; `ENV A=1`: the instruction. `ENV A=1 B=2` (often one pair a line, joined by
; `\`): a symbol per pair, so a long ENV block lists its names one by one.
(env_instruction
  .
  (env_pair
    name: (_) @name)
  .) @definition.variable

(env_instruction
  (env_pair
    name: (_) @name) @definition.variable
  (env_pair))

(env_instruction
  (env_pair)
  (env_pair
    name: (_) @name) @definition.variable)
