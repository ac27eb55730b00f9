; Markdown outline (tree-sitter-markdown block grammar). Vocabulary: README.md.
; The grammar wraps every ATX heading and what follows it, up to the next
; heading of the same or a higher level, in a `section`; sections nest, so the
; section is the definition. The scanner names a heading symbol by its full
; heading line (`## Getting Started`).

; Sections of the document outline only: a `# heading` inside a block quote or
; a list item also opens a section, but its parent is not a section.
; @body is whatever follows the heading line, so the signature is that line.
(document
  (section
    (atx_heading) @name
    .
    (_)? @body) @definition.heading)

(section
  (section
    (atx_heading) @name
    .
    (_)? @body) @definition.heading)

; Setext headings (`Title` underlined with `===` or `---`) get no `section` of
; their own from the grammar: the symbol covers the heading lines only.
; (The grammar always puts them in a section, headed or not.)
(section
  (setext_heading
    heading_content: (_) @name
    [
      (setext_h1_underline)
      (setext_h2_underline)
    ] @body) @definition.heading)
