; SQL outline. Vocabulary: README.md.
;
; CREATE statements are the definitions; other statements (INSERT, ALTER,
; GRANT, SELECT ...) are not listed. Names are the object as written
; (`public.users`): the reference right after the keyword (or after IF NOT
; EXISTS), not the ones a statement mentions later (RETURNS seg, ON t). Tables
; list their columns as fields, enum types their values; `CREATE EXTENSION` is
; an import.
;
; Patterns start at the create_* node, not at its `statement` parent: a
; `statement` step costs this grammar ~15 ms of query compilation per pattern
; (0.22 s for this file, 0.06 s without).

[
  (create_table
    [(keyword_table) (keyword_exists)]
    .
    (object_reference) @name
    (column_definitions) @body)
  ; CREATE TABLE t AS SELECT ...
  (create_table
    [(keyword_table) (keyword_exists)]
    .
    (object_reference) @name
    (create_query) @body)
  (create_view
    [(keyword_view) (keyword_exists)]
    .
    (object_reference) @name
    (create_query) @body)
  (create_materialized_view
    [(keyword_view) (keyword_exists)]
    .
    (object_reference) @name
    (create_query) @body)
  ; CREATE TYPE t AS (a int, b text): a composite type.
  (create_type
    (keyword_type)
    .
    (object_reference) @name
    (column_definitions) @body)
] @definition.struct

; Columns of tables and attributes of composite types ("quoted" names read as
; literals in this grammar).
(column_definitions
  (column_definition
    name: [(identifier) (literal)] @name) @definition.field)

; The body is `AS $$ ... $$` (or `AS 'obj_file'`); a function the grammar reads
; without one is still listed.
[
  (create_function
    [(keyword_function) (keyword_exists)]
    .
    (object_reference) @name
    (function_body)? @body)
  (create_procedure
    [(keyword_procedure) (keyword_exists)]
    .
    (object_reference) @name
    (procedure_body)? @body)
  (create_trigger
    [(keyword_trigger) (keyword_exists)]
    .
    (object_reference) @name)
] @definition.function

; A CREATE FUNCTION the grammar could not read (PostgreSQL's `OUT` arguments with a
; `float8`, `pg_lsn` type it does not know) is an ERROR of loose tokens: the name after
; `CREATE FUNCTION` is listed, one token long (no body, no fold).
(ERROR (keyword_create) . (keyword_function) . (object_reference) @name @definition.function)

(ERROR (keyword_create) . (keyword_procedure) . (object_reference) @name @definition.function)

(create_type
  (keyword_type)
  .
  (object_reference) @name
  (enum_elements) @body) @definition.enum

(enum_elements
  (literal) @name @definition.enum_member)

; A shell type, a range, a base type (`CREATE TYPE t (INPUT = ...)`).
[
  (create_type
    (keyword_type)
    .
    (object_reference) @name .)
  (create_type
    (keyword_type)
    .
    (object_reference) @name
    .
    (keyword_as)
    .
    (keyword_range))
  (create_type
    (keyword_type)
    .
    (object_reference) @name
    .
    (identifier))
] @definition.type

(create_index
  [(keyword_index) (keyword_exists)]
  .
  [(identifier) (literal)] @name) @definition.property

[
  (create_schema
    [(keyword_schema) (keyword_exists)]
    .
    (identifier) @name)
  (create_database
    [(keyword_database) (keyword_exists)]
    .
    (identifier) @name)
] @definition.namespace

(create_sequence
  [(keyword_sequence) (keyword_exists)]
  .
  (object_reference) @name) @definition.variable

(create_extension) @import
