; Vim help outline (Neovim's vimdoc parser). Vocabulary: README.md.
; The grammar has no sections: a heading is its own line (`gO` lists the same ones).

; `====` then `1. Fold methods    *fold-methods*`; `----` then a heading; `MANUAL  *fold-manual*`.
(h1
  (heading) @name @definition.heading)

(h2
  (heading) @name @definition.heading)

(h3
  (heading) @name @definition.heading)

; A tag a help link jumps to (`*fold-methods*`).
(tag
  text: (_) @name) @definition.constant
