// AST of the Python config subset. Every node carries its source position so evaluation errors can name
// file:line:column.

export interface Pos {
  line: number
  column: number
}

export type Expr =
  | ({ kind: 'const'; value: null | boolean | number | string } & Pos)
  | ({ kind: 'fstring'; parts: (string | FormattedValue)[] } & Pos)
  | ({ kind: 'name'; id: string } & Pos)
  | ({ kind: 'list' | 'tuple' | 'set'; items: Expr[] } & Pos)
  | ({ kind: 'dict'; entries: DictEntry[] } & Pos)
  | ({ kind: 'starred'; value: Expr } & Pos)
  | ({ kind: 'comp'; type: 'list' | 'set' | 'gen' | 'dict'; elt: Expr; value?: Expr; generators: Comprehension[] } & Pos)
  | ({ kind: 'attr'; value: Expr; attr: string } & Pos)
  | ({ kind: 'subscript'; value: Expr; index: Expr } & Pos)
  | ({ kind: 'slice'; lower?: Expr; upper?: Expr; step?: Expr } & Pos)
  | ({ kind: 'call'; func: Expr; args: Arg[] } & Pos)
  | ({ kind: 'unary'; op: string; operand: Expr } & Pos)
  | ({ kind: 'binary'; op: string; left: Expr; right: Expr } & Pos)
  | ({ kind: 'boolop'; op: 'and' | 'or'; values: Expr[] } & Pos)
  | ({ kind: 'compare'; left: Expr; ops: string[]; comparators: Expr[] } & Pos)
  | ({ kind: 'ifexp'; test: Expr; body: Expr; orelse: Expr } & Pos)
  | ({ kind: 'lambda'; params: Param[]; body: Expr } & Pos)
  | ({ kind: 'unsupported'; what: string } & Pos)

/** A function parameter: `x`, `x=1`, `*args`, `**kwargs`, or keyword-only (after `*`). */
export interface Param {
  name: string
  kind: 'pos' | 'star' | 'dstar' | 'kwonly'
  default?: Expr
}

export interface FormattedValue {
  expr: Expr
  conversion?: 's' | 'r' | 'a'
  spec?: (string | FormattedValue)[]
  /** f'{x=}' self-documenting text to prepend. */
  selfDoc?: string
}

export type DictEntry = { key: Expr; value: Expr } | { spread: Expr }

export interface Comprehension {
  target: Expr
  iter: Expr
  ifs: Expr[]
}

export type Arg = { kind: 'pos'; value: Expr } | { kind: 'star'; value: Expr } | { kind: 'kw'; name: string; value: Expr } | { kind: 'dstar'; value: Expr }

export interface ImportName {
  name: string
  asname?: string
}

export type Stmt =
  | ({ kind: 'expr'; value: Expr } & Pos)
  | ({ kind: 'assign'; targets: Expr[]; value: Expr } & Pos)
  | ({ kind: 'augassign'; target: Expr; op: string; value: Expr } & Pos)
  | ({ kind: 'import'; names: ImportName[] } & Pos)
  | ({ kind: 'from'; module: string; level: number; names: ImportName[] | '*' } & Pos)
  | ({ kind: 'with'; items: Expr[]; targets: (Expr | undefined)[]; body: Stmt[] } & Pos)
  | ({ kind: 'def'; name: string; params: Param[]; body: Stmt[] } & Pos)
  | ({ kind: 'return'; value?: Expr } & Pos)
  | ({ kind: 'break' | 'continue' } & Pos)
  | ({ kind: 'raise'; exc?: Expr } & Pos)
  | ({ kind: 'while'; test: Expr; body: Stmt[]; orelse: Stmt[] } & Pos)
  | ({ kind: 'global'; names: string[] } & Pos)
  | ({ kind: 'for'; target: Expr; iter: Expr; body: Stmt[]; orelse: Stmt[] } & Pos)
  | ({ kind: 'if'; test: Expr; body: Stmt[]; orelse: Stmt[] } & Pos)
  | ({ kind: 'del'; targets: Expr[] } & Pos)
  | ({ kind: 'pass' } & Pos)
  | ({ kind: 'assert'; test: Expr; msg?: Expr } & Pos)
