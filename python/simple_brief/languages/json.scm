; JSON outline. Vocabulary: README.md.
;
; Keys of objects are symbols, nested by containment: a key whose value is an
; object is a container (`object`, stays open; the object is its @body); a key
; whose value is an array or a scalar is a member whose signature shows its line
; (`"files": [`, `"port": 8080`); a multi-line array folds as a whole. (An array
; is no @body: the scanner would read a first string in it as a docstring.) The grammar reads `//` and `/* */` comments
; (JSONC: tsconfig.json, VS Code settings): a comment directly above a key is
; its doc.
;
; Objects inside arrays are values, not structure: the records of a data file
; (`[{...}, {...}]`, GeoJSON features, rule lists) would give one symbol per
; field per record. Their keys are not listed, however deep. A query cannot say
; "no array above", so the patterns spell out the chain of objects from the
; document down, one pattern per level, 10 levels deep (deeper keys are not
; listed: 99% of real files nest keys at most 9 deep). Each level is one
; alternation: object, array or scalar value. A key is named by its text between
; the quotes (`(_)+`: escapes split it into several nodes).

; Level 1.
(document
  (object
    [
      (pair
        key: (string (_)+ @name)
        value: (object) @body) @definition.object
      (pair
        key: (string (_)+ @name)
        value: (array)) @definition.property
      (pair
        key: (string (_)+ @name)
        value: [(string) (number) (true) (false) (null)]) @definition.property
    ]))

; Level 2.
(document
  (object
    (pair
      value: (object
        [
          (pair
            key: (string (_)+ @name)
            value: (object) @body) @definition.object
          (pair
            key: (string (_)+ @name)
            value: (array)) @definition.property
          (pair
            key: (string (_)+ @name)
            value: [(string) (number) (true) (false) (null)]) @definition.property
        ]))))

; Level 3.
(document
  (object
    (pair
      value: (object
        (pair
          value: (object
            [
              (pair
                key: (string (_)+ @name)
                value: (object) @body) @definition.object
              (pair
                key: (string (_)+ @name)
                value: (array)) @definition.property
              (pair
                key: (string (_)+ @name)
                value: [(string) (number) (true) (false) (null)]) @definition.property
            ]))))))

; Level 4.
(document
  (object
    (pair
      value: (object
        (pair
          value: (object
            (pair
              value: (object
                [
                  (pair
                    key: (string (_)+ @name)
                    value: (object) @body) @definition.object
                  (pair
                    key: (string (_)+ @name)
                    value: (array)) @definition.property
                  (pair
                    key: (string (_)+ @name)
                    value: [(string) (number) (true) (false) (null)]) @definition.property
                ]))))))))

; Level 5.
(document
  (object
    (pair
      value: (object
        (pair
          value: (object
            (pair
              value: (object
                (pair
                  value: (object
                    [
                      (pair
                        key: (string (_)+ @name)
                        value: (object) @body) @definition.object
                      (pair
                        key: (string (_)+ @name)
                        value: (array)) @definition.property
                      (pair
                        key: (string (_)+ @name)
                        value: [(string) (number) (true) (false) (null)]) @definition.property
                    ]))))))))))

; Level 6.
(document
  (object
    (pair
      value: (object
        (pair
          value: (object
            (pair
              value: (object
                (pair
                  value: (object
                    (pair
                      value: (object
                        [
                          (pair
                            key: (string (_)+ @name)
                            value: (object) @body) @definition.object
                          (pair
                            key: (string (_)+ @name)
                            value: (array)) @definition.property
                          (pair
                            key: (string (_)+ @name)
                            value: [(string) (number) (true) (false) (null)]) @definition.property
                        ]))))))))))))

; Level 7.
(document
  (object
    (pair
      value: (object
        (pair
          value: (object
            (pair
              value: (object
                (pair
                  value: (object
                    (pair
                      value: (object
                        (pair
                          value: (object
                            [
                              (pair
                                key: (string (_)+ @name)
                                value: (object) @body) @definition.object
                              (pair
                                key: (string (_)+ @name)
                                value: (array)) @definition.property
                              (pair
                                key: (string (_)+ @name)
                                value: [(string) (number) (true) (false) (null)]) @definition.property
                            ]))))))))))))))

; Level 8.
(document
  (object
    (pair
      value: (object
        (pair
          value: (object
            (pair
              value: (object
                (pair
                  value: (object
                    (pair
                      value: (object
                        (pair
                          value: (object
                            (pair
                              value: (object
                                [
                                  (pair
                                    key: (string (_)+ @name)
                                    value: (object) @body) @definition.object
                                  (pair
                                    key: (string (_)+ @name)
                                    value: (array)) @definition.property
                                  (pair
                                    key: (string (_)+ @name)
                                    value: [(string) (number) (true) (false) (null)]) @definition.property
                                ]))))))))))))))))

; Level 9.
(document
  (object
    (pair
      value: (object
        (pair
          value: (object
            (pair
              value: (object
                (pair
                  value: (object
                    (pair
                      value: (object
                        (pair
                          value: (object
                            (pair
                              value: (object
                                (pair
                                  value: (object
                                    [
                                      (pair
                                        key: (string (_)+ @name)
                                        value: (object) @body) @definition.object
                                      (pair
                                        key: (string (_)+ @name)
                                        value: (array)) @definition.property
                                      (pair
                                        key: (string (_)+ @name)
                                        value: [(string) (number) (true) (false) (null)]) @definition.property
                                    ]))))))))))))))))))

; Level 10.
(document
  (object
    (pair
      value: (object
        (pair
          value: (object
            (pair
              value: (object
                (pair
                  value: (object
                    (pair
                      value: (object
                        (pair
                          value: (object
                            (pair
                              value: (object
                                (pair
                                  value: (object
                                    (pair
                                      value: (object
                                        [
                                          (pair
                                            key: (string (_)+ @name)
                                            value: (object) @body) @definition.object
                                          (pair
                                            key: (string (_)+ @name)
                                            value: (array)) @definition.property
                                          (pair
                                            key: (string (_)+ @name)
                                            value: [(string) (number) (true) (false) (null)]) @definition.property
                                        ]))))))))))))))))))))
