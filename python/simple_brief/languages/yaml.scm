; YAML outline. Vocabulary: README.md.
;
; Keys of block mappings are symbols, nested by containment. A key whose value
; is a block mapping is a container (`object`; the mapping is its @body, so the
; signature keeps an anchor or tag: `defaults: &defaults`); so is a key whose
; value is a sequence of mappings (`steps:`, `containers:`; told by the first
; item: a query cannot say "no mapping item", and two patterns matching one
; key would list it twice). Any other key is a member whose signature is its
; line (`image: python:3.12`, `run: |`, `branches:`); a multi-line value folds
; as a whole. Keys inside flow collections (`{a: 1}`, `[x, y]`) are values.
;
; A block sequence item that is a mapping (a CI step, an Ansible task, a
; container) is a container named by its first key and, when that is a scalar,
; its value (`name: Run tests`, `uses: actions/checkout@v4`); that first key is
; not listed again inside it, so `- uses: actions/checkout@v4` is one line.
;
; A document with a top-level `kind:` (Kubernetes manifests, several to a file)
; is a `module` named by that line (`kind: Deployment`); it starts at its first
; key, after `---` and the comment that documents it.
;
; A comment directly above a key is its doc (not for the first key of a nested
; mapping, nor for a key after a nested mapping: the grammar puts that comment
; inside the mapping before it).
;
; The keys, by where their mapping is: a document, a key's value, or a sequence
; item (every key but the first, which names the item). Each is one
; alternation: mapping value, sequence of mappings, other value, no value.
; (`@_previous` keeps one match per key: without a capture, tree-sitter merges
; the states that start at each preceding key and lists only the second key.)

(document
  (block_node
    (block_mapping
      [
        (block_mapping_pair
          key: (_) @name
          value: (block_node
            (block_mapping) @body)) @definition.object
        (block_mapping_pair
          key: (_) @name
          value: (block_node
            (block_sequence
              .
              (block_sequence_item
                (block_node (block_mapping)))) @body)) @definition.object
        (block_mapping_pair
          key: (_) @name
          value: [
            (flow_node)
            (block_node (block_scalar))
            (block_node
              (block_sequence
                .
                (block_sequence_item
                  [
                    (flow_node)
                    (block_node (block_sequence))
                    (block_node (block_scalar))
                  ])))
          ]) @definition.property
        (block_mapping_pair
          key: (_) @name
          !value) @definition.property
      ])))

(block_mapping_pair
  value: (block_node
    (block_mapping
      [
        (block_mapping_pair
          key: (_) @name
          value: (block_node
            (block_mapping) @body)) @definition.object
        (block_mapping_pair
          key: (_) @name
          value: (block_node
            (block_sequence
              .
              (block_sequence_item
                (block_node (block_mapping)))) @body)) @definition.object
        (block_mapping_pair
          key: (_) @name
          value: [
            (flow_node)
            (block_node (block_scalar))
            (block_node
              (block_sequence
                .
                (block_sequence_item
                  [
                    (flow_node)
                    (block_node (block_sequence))
                    (block_node (block_scalar))
                  ])))
          ]) @definition.property
        (block_mapping_pair
          key: (_) @name
          !value) @definition.property
      ])))

(block_sequence_item
  (block_node
    (block_mapping
      [(block_mapping_pair) (comment)] @_previous
      .
      [
        (block_mapping_pair
          key: (_) @name
          value: (block_node
            (block_mapping) @body)) @definition.object
        (block_mapping_pair
          key: (_) @name
          value: (block_node
            (block_sequence
              .
              (block_sequence_item
                (block_node (block_mapping)))) @body)) @definition.object
        (block_mapping_pair
          key: (_) @name
          value: [
            (flow_node)
            (block_node (block_scalar))
            (block_node
              (block_sequence
                .
                (block_sequence_item
                  [
                    (flow_node)
                    (block_node (block_sequence))
                    (block_node (block_scalar))
                  ])))
          ]) @definition.property
        (block_mapping_pair
          key: (_) @name
          !value) @definition.property
      ])))

; Sequence items that are mappings, named by their first key.
(block_sequence_item
  (block_node
    (block_mapping
      .
      (block_mapping_pair
        key: (_) @name
        value: (flow_node) @name)))) @definition.object

(block_sequence_item
  (block_node
    (block_mapping
      .
      (block_mapping_pair
        key: (_) @name
        value: (block_node))))) @definition.object

(block_sequence_item
  (block_node
    (block_mapping
      .
      (block_mapping_pair
        key: (_) @name
        !value)))) @definition.object

(document
  (block_node
    (block_mapping
      (block_mapping_pair
        key: (flow_node) @_key
        value: (flow_node)) @name)
    (#eq? @_key "kind")) @definition.module)
