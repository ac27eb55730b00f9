; inherits: typescript
; TSX outline: TypeScript's; the TSX grammar adds JSX, which holds no definitions.
