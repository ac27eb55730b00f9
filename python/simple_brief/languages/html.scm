; HTML outline. Vocabulary: README.md.
;
; Elements with an `id` are containers (`object`) named by the id; the
; signature is the start tag (`<section id="usage" class="docs">`), so an
; element holding others nests them. A void element (`<img id="logo">`, `<input id="q">`) is its start tag:
; the grammar stretches the element to the next tag.
;
; Anchors (`<a name="x">`, `<a id="x">`) are members named by the name.
;
; Headings `<h1>`..`<h6>` are members (`field`) named by their whole text, tags
; left out. A heading with an id is listed once, as a heading.
;
; Inline `<script>` and `<style>` blocks fold (their code is the body);
; `<link>` and `<script src>` are imports. A comment directly above an element
; is its doc.

; Elements with an id (not headings: they are listed below): with content or
; an end tag (closed or not: `<li id=x>`), void, or self-closing.
(element
  (start_tag
    (tag_name) @_tag
    (attribute
      (attribute_name) @_attr
      [(attribute_value) @name (quoted_attribute_value (attribute_value) @name)]))
  .
  (_)
  (#any-of? @_attr "id" "ID" "Id")
  (#not-match? @_tag "^([hH][1-6]|[aA])$")) @definition.object

((element
  (start_tag
    (tag_name) @_tag
    (attribute
      (attribute_name) @_attr
      [(attribute_value) @name (quoted_attribute_value (attribute_value) @name)])) @definition.object .)
  (#any-of? @_attr "id" "ID" "Id")
  (#not-match? @_tag "^([hH][1-6]|[aA])$"))

(element
  (self_closing_tag
    (tag_name) @_tag
    (attribute
      (attribute_name) @_attr
      [(attribute_value) @name (quoted_attribute_value (attribute_value) @name)]))
  (#any-of? @_attr "id" "ID" "Id")
  (#not-match? @_tag "^([hH][1-6]|[aA])$")) @definition.object

; Anchors: `<a name="x">`, `<a id="x">`: link targets, often inside a heading
; (`<h2><a name="x"></a>Title</h2>`), so members, not containers: the heading
; still folds.
(element
  [
    (start_tag
      (tag_name) @_tag
      (attribute
        (attribute_name) @_attr
        [(attribute_value) @name (quoted_attribute_value (attribute_value) @name)]))
    (self_closing_tag
      (tag_name) @_tag
      (attribute
        (attribute_name) @_attr
        [(attribute_value) @name (quoted_attribute_value (attribute_value) @name)]))
  ]
  (#any-of? @_tag "a" "A")
  (#any-of? @_attr "name" "NAME" "Name" "id" "ID" "Id")) @definition.field

; Headings, by their whole text, as ctags reads them: from their first child
; to their last, the tags between left out (`html.heading_name`: `<h3><a
; name="x">Macro </a>NAME</h3>` is `Macro NAME`, `<h3>Class: <code>Blob</code>`
; is `Class: Blob`), and links that are only a mark (`<a href="#x">§</a>`,
; rustdoc, Node's docs) left out too. Entities stay as written (`&amp;`).
(element
  (start_tag
    (tag_name) @_tag)
  .
  (_) @name
  .
  (end_tag)
  (#match? @_tag "^[hH][1-6]$")) @definition.field

(element
  (start_tag
    (tag_name) @_tag)
  .
  (_) @name
  (_) @name
  .
  (end_tag)
  (#match? @_tag "^[hH][1-6]$")) @definition.field

; Inline scripts and styles fold; the start tag is the signature.
(script_element
  (start_tag
    (tag_name) @name) @_start
  (raw_text) @body
  (#not-match? @_start "\\ssrc\\s*=")) @definition.field

(style_element
  (start_tag
    (tag_name) @name)
  (raw_text) @body) @definition.field

; Stylesheets, icons and scripts linked in (the start tag: the grammar
; stretches a void element to the next tag).
(element
  (start_tag
    (tag_name) @_tag) @import
  (#any-of? @_tag "link" "LINK"))

(script_element
  (start_tag) @import
  (#match? @import "\\ssrc\\s*="))
