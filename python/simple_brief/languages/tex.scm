; LaTeX outline (tree-sitter-latex of tree-sitter-language-pack 0.13). Vocabulary: README.md.
; The grammar nests each sectioning command's text up to the next one of its level or
; higher: the title names it, the rest folds.

(part
  text: (curly_group
    (_)+ @name)) @definition.heading

(chapter
  text: (curly_group
    (_)+ @name)) @definition.heading

(section
  text: (curly_group
    (_)+ @name)) @definition.heading

(subsection
  text: (curly_group
    (_)+ @name)) @definition.heading

(subsubsection
  text: (curly_group
    (_)+ @name)) @definition.heading

(paragraph
  text: (curly_group
    (_)+ @name)) @definition.heading

(subparagraph
  text: (curly_group
    (_)+ @name)) @definition.heading

; `\newcommand{\foo}`, `\renewcommand\foo`, `\def\foo`, `\let\a\b`, `\newenvironment{env}`.
(new_command_definition
  declaration: [
    (curly_group_command_name
      command: (_) @name)
    (command_name) @name
  ]) @definition.function

(old_command_definition
  declaration: (_) @name) @definition.function

(let_command_definition
  declaration: (_) @name) @definition.function

(environment_definition
  name: (curly_group_text
    text: (_) @name)) @definition.function
