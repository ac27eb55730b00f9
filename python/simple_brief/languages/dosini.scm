; INI outline (tree-sitter-ini of tree-sitter-language-pack 0.13). Vocabulary: README.md.

(section
  (section_name
    (text) @name)) @definition.module

(setting
  (setting_name) @name) @definition.property
