; INI outline (tree-sitter-ini of tree-sitter-language-pack 0.13). Vocabulary: README.md.

(section
  (section_name
    (text) @name)) @definition.module

(setting
  (setting_name) @name) @definition.property

; A comment after a section's `]` (`[comments] ; text`, which PHP's and go-ini's readers
; take) is not in this grammar: the section's brackets and name are left loose in an
; ERROR. A one-word name is listed, one token long; a name with a space is an ERROR of
; its own there, which no pattern reaches (the anchors skip it).
(ERROR "[" . (text) @name @definition.module . "]")
