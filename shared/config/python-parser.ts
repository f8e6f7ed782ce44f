// Recursive-descent parser for the Python config subset: imports, `with` blocks, assignments, for/while/if,
// del, function definitions (def, lambda, return), break/continue, raise, and expressions up to comprehensions
// and f-strings. Anything else (class, try, decorators, …) is a ParseError naming the construct and its
// position. Nesting is bounded (MAX_NESTING) so a hostile file fails with a position instead of overflowing the
// stack. Internally throws; `parseModule` returns data.

import type { Arg, Comprehension, DictEntry, Expr, FormattedValue, ImportName, Param, Pos, Stmt } from './python-ast'
import { decodeStringToken, tokenize, unescape, type Token } from './python-lexer'

export interface ParseError {
  message: string
  line: number
  column: number
}

class Fail extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly column: number
  ) {
    super(message)
  }
}

/** CPython's parser gives up near 200 nested parentheses; blocks and expressions deeper than this are refused. */
export const MAX_NESTING = 200

const UNSUPPORTED_STATEMENTS: Record<string, string> = {
  class: 'class definitions',
  try: 'try statements',
  nonlocal: 'nonlocal statements',
  async: 'async code',
  match: 'match statements',
  yield: 'yield'
}

const COMPARE_OPS = ['==', '!=', '<', '>', '<=', '>=']
const AUG_OPS = ['+=', '-=', '*=', '/=', '//=', '%=', '|=', '&=', '^=', '**=', '<<=', '>>=']

export function parseModule(src: string): { body: Stmt[]; error?: ParseError } {
  const lexed = tokenize(src)
  if (lexed.error) return { body: [], error: lexed.error }
  const p = new Parser(lexed.tokens)
  try {
    return { body: p.module() }
  } catch (e) {
    if (e instanceof Fail) return { body: [], error: { message: e.message, line: e.line, column: e.column } }
    throw e
  }
}

/** Parses a standalone expression (f-string replacement fields, eval()); positions are shifted to `origin`. */
export function parseExpression(src: string, origin: Pos): Expr {
  const lexed = tokenize(src.replace(/\n/g, ' '))
  if (lexed.error) throw new Fail(lexed.error.message, origin.line, origin.column + lexed.error.column - 1)
  const toks = lexed.tokens
    .filter((t) => t.kind !== 'NEWLINE' && t.kind !== 'INDENT' && t.kind !== 'DEDENT')
    .map((t) => ({ ...t, line: origin.line, column: origin.column + t.column - 1 }))
  const p = new Parser(toks)
  const e = p.testListStarExpr()
  p.expectEnd()
  return e
}

class Parser {
  private i = 0
  private depth = 0

  constructor(private readonly toks: Token[]) {}

  private get tok(): Token {
    return this.toks[this.i]
  }

  private peek(k = 1): Token {
    return this.toks[Math.min(this.i + k, this.toks.length - 1)]
  }

  private fail(message: string, t: Token = this.tok): never {
    throw new Fail(message, t.line, t.column)
  }

  private isOp(text: string, t: Token = this.tok): boolean {
    return t.kind === 'OP' && t.text === text
  }

  private isName(text: string, t: Token = this.tok): boolean {
    return t.kind === 'NAME' && t.text === text
  }

  private eatOp(text: string): boolean {
    if (this.isOp(text)) {
      this.i++
      return true
    }
    return false
  }

  private expectOp(text: string): Token {
    if (!this.isOp(text)) this.fail(`expected '${text}'${this.describe()}`)
    return this.toks[this.i++]
  }

  private expectName(text?: string): Token {
    if (this.tok.kind !== 'NAME' || (text !== undefined && this.tok.text !== text)) {
      this.fail(`expected ${text ? `'${text}'` : 'a name'}${this.describe()}`)
    }
    return this.toks[this.i++]
  }

  private describe(): string {
    const t = this.tok
    if (t.kind === 'END') return ', found end of file'
    if (t.kind === 'NEWLINE') return ', found end of line'
    if (t.kind === 'INDENT' || t.kind === 'DEDENT') return ', found a change of indentation'
    return `, found '${t.text}'`
  }

  expectEnd(): void {
    if (this.tok.kind !== 'END') this.fail(`unexpected '${this.tok.text}'`)
  }

  private pos(t: Token = this.tok): Pos {
    return { line: t.line, column: t.column }
  }

  module(): Stmt[] {
    const body: Stmt[] = []
    while (this.tok.kind !== 'END') {
      if (this.tok.kind === 'NEWLINE') {
        this.i++
        continue
      }
      if (this.tok.kind === 'INDENT') this.fail('unexpected indent')
      body.push(...this.statement())
    }
    return body
  }

  private nested<T>(f: () => T): T {
    if (++this.depth > MAX_NESTING) this.fail(`nested more than ${MAX_NESTING} levels deep`)
    try {
      return f()
    } finally {
      this.depth--
    }
  }

  private block(): Stmt[] {
    return this.nested(() => this.blockInner())
  }

  private blockInner(): Stmt[] {
    this.expectOp(':')
    if (this.tok.kind !== 'NEWLINE') return this.simpleStatements()
    this.i++
    if ((this.tok.kind as string) !== 'INDENT') this.fail('expected an indented block')
    this.i++
    const body: Stmt[] = []
    while (!this.atBlockEnd()) {
      if (this.tok.kind === 'NEWLINE') {
        this.i++
        continue
      }
      body.push(...this.statement())
    }
    if (this.kind() === 'DEDENT') this.i++
    return body
  }

  /** The current token kind, read through a call so TypeScript does not narrow it across `this.i++`. */
  private kind(): Token['kind'] {
    return this.tok.kind
  }

  private atBlockEnd(): boolean {
    return this.tok.kind === 'DEDENT' || this.tok.kind === 'END'
  }

  private statement(): Stmt[] {
    const t = this.tok
    if (t.kind === 'NAME') {
      if (t.text in UNSUPPORTED_STATEMENTS && !(t.text === 'match' && !this.isNameLike(this.peek()))) {
        this.fail(`${UNSUPPORTED_STATEMENTS[t.text]} are outside the supported config subset`)
      }
      if (t.text === 'with') return [this.withStmt()]
      if (t.text === 'for') return [this.forStmt()]
      if (t.text === 'while') return [this.whileStmt()]
      if (t.text === 'if') return [this.ifStmt()]
      if (t.text === 'def') return [this.defStmt()]
    }
    if (this.isOp('@')) this.fail('decorators are outside the supported config subset')
    return this.simpleStatements()
  }

  private isNameLike(t: Token): boolean {
    return t.kind === 'NAME' || t.kind === 'STRING' || t.kind === 'NUMBER' || this.isOp('(', t) || this.isOp('[', t)
  }

  private simpleStatements(): Stmt[] {
    const out: Stmt[] = [this.smallStatement()]
    while (this.eatOp(';')) {
      if (this.tok.kind === 'NEWLINE' || this.tok.kind === 'END') break
      out.push(this.smallStatement())
    }
    if (this.tok.kind === 'NEWLINE') this.i++
    else if (this.tok.kind !== 'END' && this.tok.kind !== 'DEDENT') this.fail(`unexpected '${this.tok.text}'`)
    return out
  }

  private smallStatement(): Stmt {
    const t = this.tok
    const at = this.pos(t)
    if (t.kind === 'NAME') {
      switch (t.text) {
        case 'import':
          return this.importStmt()
        case 'from':
          return this.fromStmt()
        case 'pass':
          this.i++
          return { kind: 'pass', ...at }
        case 'del': {
          this.i++
          const targets = [this.orExpr()]
          while (this.eatOp(',')) targets.push(this.orExpr())
          return { kind: 'del', targets, ...at }
        }
        case 'assert': {
          this.i++
          const test = this.test()
          const msg = this.eatOp(',') ? this.test() : undefined
          return { kind: 'assert', test, msg, ...at }
        }
        case 'break':
        case 'continue':
          this.i++
          return { kind: t.text, ...at }
        case 'return': {
          this.i++
          const value = this.endsStatement() ? undefined : this.testListStarExpr()
          return { kind: 'return', value, ...at }
        }
        case 'raise': {
          this.i++
          const exc = this.endsStatement() ? undefined : this.test()
          if (exc && this.isName('from')) {
            this.i++
            this.test()
          }
          return { kind: 'raise', exc, ...at }
        }
        case 'global': {
          this.i++
          const names = [this.expectName().text]
          while (this.eatOp(',')) names.push(this.expectName().text)
          return { kind: 'global', names, ...at }
        }
      }
      if (t.text in UNSUPPORTED_STATEMENTS) this.fail(`${UNSUPPORTED_STATEMENTS[t.text]} are outside the supported config subset`)
    }
    const first = this.testListStarExpr()
    if (this.isOp('=')) {
      const targets = [first]
      let value: Expr = first
      while (this.eatOp('=')) {
        value = this.testListStarExpr()
        targets.push(value)
      }
      targets.pop()
      for (const target of targets) this.checkTarget(target)
      return { kind: 'assign', targets, value, ...at }
    }
    if (this.tok.kind === 'OP' && AUG_OPS.includes(this.tok.text)) {
      const op = this.tok.text.slice(0, -1)
      this.i++
      this.checkTarget(first)
      return { kind: 'augassign', target: first, op, value: this.testListStarExpr(), ...at }
    }
    if (this.isOp(':')) {
      // `name: Type = value`: the annotation is parsed and ignored, as Python ignores it at run time.
      this.i++
      this.test()
      this.checkTarget(first)
      if (!this.eatOp('=')) return { kind: 'pass', ...at }
      return { kind: 'assign', targets: [first], value: this.testListStarExpr(), ...at }
    }
    return { kind: 'expr', value: first, ...at }
  }

  private checkTarget(e: Expr): void {
    if (e.kind === 'name' || e.kind === 'subscript' || e.kind === 'attr') return
    if (e.kind === 'tuple' || e.kind === 'list') {
      e.items.forEach((x) => this.checkTarget(x.kind === 'starred' ? x.value : x))
      return
    }
    throw new Fail('cannot assign to this expression', e.line, e.column)
  }

  private dottedName(): string {
    let name = this.expectName().text
    while (this.eatOp('.')) name += '.' + this.expectName().text
    return name
  }

  private importStmt(): Stmt {
    const at = this.pos()
    this.i++
    const names: ImportName[] = []
    do {
      const name = this.dottedName()
      const asname = this.isName('as') ? (this.i++, this.expectName().text) : undefined
      names.push({ name, asname })
    } while (this.eatOp(','))
    return { kind: 'import', names, ...at }
  }

  private fromStmt(): Stmt {
    const at = this.pos()
    this.i++
    let level = 0
    for (;;) {
      if (this.eatOp('.')) level++
      else if (this.eatOp('...')) level += 3
      else break
    }
    const module = this.tok.kind === 'NAME' && !this.isName('import') ? this.dottedName() : ''
    if (level === 0 && !module) this.fail('expected a module name')
    this.expectName('import')
    if (this.eatOp('*')) return { kind: 'from', module, level, names: '*', ...at }
    const paren = this.eatOp('(')
    const names: ImportName[] = []
    do {
      if (paren && this.isOp(')')) break
      const name = this.expectName().text
      const asname = this.isName('as') ? (this.i++, this.expectName().text) : undefined
      names.push({ name, asname })
    } while (this.eatOp(','))
    if (paren) this.expectOp(')')
    return { kind: 'from', module, level, names, ...at }
  }

  private endsStatement(): boolean {
    const t = this.tok
    return t.kind === 'NEWLINE' || t.kind === 'END' || t.kind === 'DEDENT' || this.isOp(';')
  }

  private withStmt(): Stmt {
    const at = this.pos()
    this.i++
    const items: Expr[] = []
    const targets: (Expr | undefined)[] = []
    do {
      items.push(this.test())
      if (this.isName('as')) {
        this.i++
        const target = this.orExpr()
        this.checkTarget(target)
        targets.push(target)
      } else targets.push(undefined)
    } while (this.eatOp(','))
    return { kind: 'with', items, targets, body: this.block(), ...at }
  }

  private whileStmt(): Stmt {
    const at = this.pos()
    this.i++
    const test = this.namedTest()
    const body = this.block()
    let orelse: Stmt[] = []
    if (this.isName('else')) {
      this.i++
      orelse = this.block()
    }
    return { kind: 'while', test, body, orelse, ...at }
  }

  private defStmt(): Stmt {
    const at = this.pos()
    this.i++
    const name = this.expectName().text
    this.expectOp('(')
    const params = this.params(')', true)
    this.expectOp(')')
    // A return annotation is parsed and ignored, as Python ignores annotations at run time.
    if (this.eatOp('->')) this.test()
    return { kind: 'def', name, params, body: this.block(), ...at }
  }

  /** Parameters up to `end` (')' for def, ':' for lambda); annotations only where `annotated`. */
  private params(end: string, annotated: boolean): Param[] {
    const params: Param[] = []
    let kwonly = false
    while (!this.isOp(end)) {
      if (this.eatOp('/')) {
        if (!this.eatOp(',')) break
        continue
      }
      let kind: Param['kind'] = kwonly ? 'kwonly' : 'pos'
      if (this.eatOp('**')) kind = 'dstar'
      else if (this.eatOp('*')) {
        kwonly = true
        if (this.isOp(',')) {
          this.i++
          continue
        }
        kind = 'star'
      }
      const t = this.expectName()
      if (params.some((p) => p.name === t.text)) this.fail(`duplicate argument '${t.text}' in function definition`, t)
      if (annotated && this.eatOp(':')) this.test()
      const param: Param = { name: t.text, kind }
      if (this.eatOp('=')) param.default = this.test()
      else if ((kind === 'pos') && params.some((p) => p.kind === 'pos' && p.default)) this.fail('non-default argument follows default argument', t)
      params.push(param)
      if (!this.eatOp(',')) break
    }
    return params
  }

  private forStmt(): Stmt {
    const at = this.pos()
    this.i++
    const target = this.targetList()
    this.expectName('in')
    const iter = this.testListStarExpr()
    const body = this.block()
    let orelse: Stmt[] = []
    if (this.isName('else')) {
      this.i++
      orelse = this.block()
    }
    return { kind: 'for', target, iter, body, orelse, ...at }
  }

  private ifStmt(): Stmt {
    const at = this.pos()
    this.i++
    const test = this.namedTest()
    const body = this.block()
    let orelse: Stmt[] = []
    if (this.isName('elif')) orelse = [this.ifStmt()]
    else if (this.isName('else')) {
      this.i++
      orelse = this.block()
    }
    return { kind: 'if', test, body, orelse, ...at }
  }

  private namedTest(): Expr {
    const e = this.test()
    if (this.isOp(':=')) this.fail('assignment expressions (:=) are outside the supported config subset')
    return e
  }

  /** `a`, `a, b`, `(a, b)` as a for/comprehension target. */
  private targetList(): Expr {
    const at = this.pos()
    const first = this.starOr(() => this.orExpr())
    if (!this.isOp(',')) return first
    const items = [first]
    while (this.eatOp(',')) {
      if (this.isName('in')) break
      items.push(this.starOr(() => this.orExpr()))
    }
    const e: Expr = { kind: 'tuple', items, ...at }
    this.checkTarget(e)
    return e
  }

  private starOr(f: () => Expr): Expr {
    if (this.isOp('*')) {
      const at = this.pos()
      this.i++
      return { kind: 'starred', value: this.orExpr(), ...at }
    }
    return f()
  }

  /** A comma list of expressions (possibly starred); more than one, or a trailing comma, makes a tuple. */
  testListStarExpr(): Expr {
    const at = this.pos()
    const first = this.starOr(() => this.test())
    if (!this.isOp(',')) return first
    const items = [first]
    while (this.eatOp(',')) {
      if (this.endsList()) break
      items.push(this.starOr(() => this.test()))
    }
    return { kind: 'tuple', items, ...at }
  }

  private endsList(): boolean {
    const t = this.tok
    return t.kind === 'NEWLINE' || t.kind === 'END' || this.isOp('=') || this.isOp(')') || this.isOp(';') || this.isOp(':')
  }

  private test(): Expr {
    return this.nested(() => this.testInner())
  }

  private testInner(): Expr {
    if (this.isName('lambda')) return this.lambda()
    const body = this.orTest()
    if (this.isName('if') ) {
      const at = { line: body.line, column: body.column }
      this.i++
      const test = this.orTest()
      this.expectName('else')
      const orelse = this.test()
      return { kind: 'ifexp', test, body, orelse, ...at }
    }
    return body
  }

  private lambda(): Expr {
    const at = this.pos()
    this.i++
    const params = this.params(':', false)
    this.expectOp(':')
    return { kind: 'lambda', params, body: this.test(), ...at }
  }

  private orTest(): Expr {
    const first = this.andTest()
    if (!this.isName('or')) return first
    const values = [first]
    while (this.isName('or')) {
      this.i++
      values.push(this.andTest())
    }
    return { kind: 'boolop', op: 'or', values, line: first.line, column: first.column }
  }

  private andTest(): Expr {
    const first = this.notTest()
    if (!this.isName('and')) return first
    const values = [first]
    while (this.isName('and')) {
      this.i++
      values.push(this.notTest())
    }
    return { kind: 'boolop', op: 'and', values, line: first.line, column: first.column }
  }

  private notTest(): Expr {
    if (this.isName('not')) {
      const at = this.pos()
      this.i++
      return { kind: 'unary', op: 'not', operand: this.notTest(), ...at }
    }
    return this.comparison()
  }

  private comparison(): Expr {
    const left = this.orExpr()
    const ops: string[] = []
    const comparators: Expr[] = []
    for (;;) {
      const t = this.tok
      let op: string | undefined
      if (t.kind === 'OP' && COMPARE_OPS.includes(t.text)) op = t.text
      else if (this.isName('in')) op = 'in'
      else if (this.isName('not') && this.isName('in', this.peek())) op = 'not in'
      else if (this.isName('is')) op = this.isName('not', this.peek()) ? 'is not' : 'is'
      if (!op) break
      this.i += op.includes(' ') ? 2 : 1
      ops.push(op)
      comparators.push(this.orExpr())
    }
    return ops.length ? { kind: 'compare', left, ops, comparators, line: left.line, column: left.column } : left
  }

  private binaryLevel(ops: string[], next: () => Expr): Expr {
    let left = next()
    while (this.tok.kind === 'OP' && ops.includes(this.tok.text)) {
      const op = this.tok.text
      this.i++
      left = { kind: 'binary', op, left, right: next(), line: left.line, column: left.column }
    }
    return left
  }

  private orExpr(): Expr {
    return this.binaryLevel(['|'], () => this.xorExpr())
  }
  private xorExpr(): Expr {
    return this.binaryLevel(['^'], () => this.andExpr())
  }
  private andExpr(): Expr {
    return this.binaryLevel(['&'], () => this.shiftExpr())
  }
  private shiftExpr(): Expr {
    return this.binaryLevel(['<<', '>>'], () => this.arith())
  }
  private arith(): Expr {
    return this.binaryLevel(['+', '-'], () => this.term())
  }
  private term(): Expr {
    return this.binaryLevel(['*', '/', '//', '%', '@'], () => this.factor())
  }

  private factor(): Expr {
    if (this.tok.kind === 'OP' && ['-', '+', '~'].includes(this.tok.text)) {
      const at = this.pos()
      const op = this.tok.text
      this.i++
      return { kind: 'unary', op, operand: this.factor(), ...at }
    }
    return this.power()
  }

  private power(): Expr {
    if (this.isName('await')) this.fail('await is outside the supported config subset')
    const base = this.trailers(this.atom())
    if (this.isOp('**')) {
      this.i++
      return { kind: 'binary', op: '**', left: base, right: this.factor(), line: base.line, column: base.column }
    }
    return base
  }

  private trailers(e: Expr): Expr {
    for (;;) {
      const at = this.pos()
      if (this.eatOp('(')) e = { kind: 'call', func: e, args: this.callArgs(), ...at }
      else if (this.eatOp('[')) {
        const index = this.subscriptList()
        this.expectOp(']')
        e = { kind: 'subscript', value: e, index, ...at }
      } else if (this.eatOp('.')) e = { kind: 'attr', value: e, attr: this.expectName().text, ...at }
      else return e
    }
  }

  private callArgs(): Arg[] {
    const args: Arg[] = []
    while (!this.isOp(')')) {
      if (this.eatOp('**')) args.push({ kind: 'dstar', value: this.test() })
      else if (this.eatOp('*')) args.push({ kind: 'star', value: this.test() })
      else if (this.tok.kind === 'NAME' && this.isOp('=', this.peek())) {
        const name = this.tok.text
        this.i += 2
        args.push({ kind: 'kw', name, value: this.test() })
      } else {
        const value = this.test()
        if (this.isName('for') || this.isName('async')) {
          args.push({ kind: 'pos', value: this.comprehension('gen', value, undefined, value) })
        } else args.push({ kind: 'pos', value })
      }
      if (!this.eatOp(',')) break
    }
    this.expectOp(')')
    return args
  }

  private subscriptList(): Expr {
    const at = this.pos()
    const first = this.subscriptItem()
    if (!this.isOp(',')) return first
    const items = [first]
    while (this.eatOp(',')) {
      if (this.isOp(']')) break
      items.push(this.subscriptItem())
    }
    return { kind: 'tuple', items, ...at }
  }

  private subscriptItem(): Expr {
    const at = this.pos()
    const lower = this.isOp(':') ? undefined : this.test()
    if (!this.isOp(':')) return lower as Expr
    this.i++
    const upper = this.isOp(':') || this.isOp(']') || this.isOp(',') ? undefined : this.test()
    let step: Expr | undefined
    if (this.eatOp(':')) step = this.isOp(']') || this.isOp(',') ? undefined : this.test()
    return { kind: 'slice', lower, upper, step, ...at }
  }

  private comprehension(type: 'list' | 'set' | 'gen' | 'dict', elt: Expr, value: Expr | undefined, at: Pos): Expr {
    const generators: Comprehension[] = []
    while (this.isName('for') || this.isName('async')) {
      if (this.isName('async')) this.fail('async comprehensions are outside the supported config subset')
      this.i++
      const target = this.targetList()
      this.expectName('in')
      const iter = this.orTest()
      const ifs: Expr[] = []
      while (this.isName('if')) {
        this.i++
        ifs.push(this.orTestNoCond())
      }
      generators.push({ target, iter, ifs })
    }
    return { kind: 'comp', type, elt, value, generators, line: at.line, column: at.column }
  }

  private orTestNoCond(): Expr {
    return this.orTest()
  }

  private atom(): Expr {
    const t = this.tok
    const at = this.pos(t)
    switch (t.kind) {
      case 'NAME':
        this.i++
        if (t.text === 'None') return { kind: 'const', value: null, ...at }
        if (t.text === 'True') return { kind: 'const', value: true, ...at }
        if (t.text === 'False') return { kind: 'const', value: false, ...at }
        if (['lambda', 'yield', 'await'].includes(t.text)) this.fail(`'${t.text}' is outside the supported config subset`, t)
        return { kind: 'name', id: t.text, ...at }
      case 'NUMBER':
        this.i++
        return { kind: 'const', value: this.number(t), ...at }
      case 'STRING':
        return this.strings()
      case 'OP':
        if (t.text === '(') return this.parenthesized()
        if (t.text === '[') return this.listDisplay()
        if (t.text === '{') return this.dictOrSet()
        if (t.text === '...') this.fail('Ellipsis is outside the supported config subset')
    }
    this.fail(`unexpected ${t.kind === 'OP' ? `'${t.text}'` : this.describe().slice(8)}`)
  }

  private number(t: Token): number {
    const s = t.text.replace(/_/g, '')
    if (/[jJ]$/.test(s)) this.fail('complex numbers are outside the supported config subset', t)
    if (/^0[xX]/.test(s)) return parseInt(s.slice(2), 16)
    if (/^0[oO]/.test(s)) return parseInt(s.slice(2), 8)
    if (/^0[bB]/.test(s)) return parseInt(s.slice(2), 2)
    const n = Number(s)
    if (Number.isNaN(n)) this.fail(`invalid number literal '${t.text}'`, t)
    return n
  }

  /** Adjacent string literals concatenate; any f-string among them makes the whole an f-string. */
  private strings(): Expr {
    const at = this.pos()
    const parts: (string | FormattedValue)[] = []
    let isF = false
    while (this.tok.kind === 'STRING') {
      const t = this.toks[this.i++]
      const d = decodeStringToken(t.text)
      if (d.isBytes) this.fail('bytes literals are outside the supported config subset', t)
      if (d.error) this.fail(d.error, t)
      if (d.isF) {
        isF = true
        const raw = /r/i.test(/^[a-zA-Z]*/.exec(t.text)?.[0] ?? '')
        const prefixLen = (/^[a-zA-Z]*/.exec(t.text)?.[0] ?? '').length
        const quoteLen = t.text.startsWith(t.text[prefixLen].repeat(3), prefixLen) ? 3 : 1
        parts.push(...this.fstringParts(d.value, raw, { line: t.line, column: t.column + prefixLen + quoteLen }))
      } else parts.push(d.value)
    }
    if (!isF) return { kind: 'const', value: parts.join(''), ...at }
    return { kind: 'fstring', parts, ...at }
  }

  private fstringParts(body: string, raw: boolean, origin: Pos): (string | FormattedValue)[] {
    const parts: (string | FormattedValue)[] = []
    let lit = ''
    const flush = (): void => {
      if (!lit) return
      const v = raw ? { value: lit } : unescape(lit)
      if (v.error) throw new Fail(v.error, origin.line, origin.column)
      parts.push(v.value)
      lit = ''
    }
    let i = 0
    while (i < body.length) {
      const c = body[i]
      if (c === '{' && body[i + 1] === '{') {
        lit += '{'
        i += 2
      } else if (c === '}' && body[i + 1] === '}') {
        lit += '}'
        i += 2
      } else if (c === '}') {
        throw new Fail("f-string: single '}' is not allowed", origin.line, origin.column + i)
      } else if (c === '{') {
        flush()
        const { field, end } = this.replacementField(body, i + 1, raw, { line: origin.line, column: origin.column + i + 1 })
        parts.push(field)
        i = end
      } else {
        lit += c
        i++
      }
    }
    flush()
    return parts
  }

  /** Parses `expr[=][!c][:spec]}` starting after '{'; returns the index after the closing '}'. */
  private replacementField(body: string, start: number, raw: boolean, origin: Pos): { field: FormattedValue; end: number } {
    let depth = 0
    let quote: string | null = null
    let j = start
    for (; j < body.length; j++) {
      const c = body[j]
      if (quote) {
        if (c === quote) quote = null
        continue
      }
      if (c === "'" || c === '"') quote = c
      else if ('([{'.includes(c)) depth++
      else if (')]}'.includes(c)) {
        if (depth === 0) break
        depth--
      } else if (depth === 0 && (c === ':' || (c === '!' && body[j + 1] !== '='))) break
    }
    let exprSrc = body.slice(start, j)
    let selfDoc: string | undefined
    const m = /=\s*$/.exec(exprSrc)
    if (m && !/[=!<>]=\s*$/.test(exprSrc)) {
      selfDoc = exprSrc
      exprSrc = exprSrc.slice(0, m.index)
    }
    if (!exprSrc.trim()) throw new Fail('f-string: empty expression not allowed', origin.line, origin.column)
    const expr = parseExpression(exprSrc, origin)
    const field: FormattedValue = { expr, selfDoc }
    if (body[j] === '!') {
      const conv = body[j + 1]
      if (conv !== 's' && conv !== 'r' && conv !== 'a') throw new Fail('f-string: invalid conversion character', origin.line, origin.column + j - start)
      field.conversion = conv
      j += 2
    }
    if (body[j] === ':') {
      // The spec runs to the matching '}' and may itself hold replacement fields.
      let k = j + 1
      let d = 0
      for (; k < body.length; k++) {
        if (body[k] === '{') d++
        else if (body[k] === '}') {
          if (d === 0) break
          d--
        }
      }
      field.spec = this.fstringParts(body.slice(j + 1, k), raw, { line: origin.line, column: origin.column + j + 1 - start })
      j = k
    }
    if (body[j] !== '}') throw new Fail("f-string: expecting '}'", origin.line, origin.column + j - start)
    return { field, end: j + 1 }
  }

  private parenthesized(): Expr {
    const at = this.pos()
    this.i++
    if (this.eatOp(')')) return { kind: 'tuple', items: [], ...at }
    const first = this.starOr(() => this.test())
    if (this.isName('for')) {
      const e = this.comprehension('gen', first, undefined, at)
      this.expectOp(')')
      return e
    }
    if (this.eatOp(')')) return first
    const items = [first]
    while (this.eatOp(',')) {
      if (this.isOp(')')) break
      items.push(this.starOr(() => this.test()))
    }
    this.expectOp(')')
    return { kind: 'tuple', items, ...at }
  }

  private listDisplay(): Expr {
    const at = this.pos()
    this.i++
    const items: Expr[] = []
    if (this.eatOp(']')) return { kind: 'list', items, ...at }
    const first = this.starOr(() => this.test())
    if (this.isName('for')) {
      const e = this.comprehension('list', first, undefined, at)
      this.expectOp(']')
      return e
    }
    items.push(first)
    while (this.eatOp(',')) {
      if (this.isOp(']')) break
      items.push(this.starOr(() => this.test()))
    }
    this.expectOp(']')
    return { kind: 'list', items, ...at }
  }

  private dictOrSet(): Expr {
    const at = this.pos()
    this.i++
    if (this.eatOp('}')) return { kind: 'dict', entries: [], ...at }
    const entries: DictEntry[] = []
    const setItems: Expr[] = []
    let isSet = false
    const entry = (): void => {
      if (this.eatOp('**')) {
        entries.push({ spread: this.orExpr() })
        return
      }
      const key = this.starOr(() => this.test())
      if (this.eatOp(':')) entries.push({ key, value: this.test() })
      else {
        isSet = true
        setItems.push(key)
      }
    }
    entry()
    if (this.isName('for')) {
      const e = isSet
        ? this.comprehension('set', setItems[0], undefined, at)
        : this.comprehension('dict', (entries[0] as { key: Expr }).key, (entries[0] as { value: Expr }).value, at)
      this.expectOp('}')
      return e
    }
    while (this.eatOp(',')) {
      if (this.isOp('}')) break
      entry()
    }
    this.expectOp('}')
    if (isSet && entries.length) this.fail('cannot mix set items and dict entries')
    return isSet ? { kind: 'set', items: setItems, ...at } : { kind: 'dict', entries, ...at }
  }
}
