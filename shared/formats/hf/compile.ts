// Compiles a chat template to JavaScript closures with jinja2's semantics. Parsing follows @huggingface/jinja
// (lexer.ts and parser.ts reproduce its tokens and tree, with trim_blocks/lstrip_blocks, `{%-`/`-%}` and the
// `{% generation %}` tag, and add source spans); evaluation is ours, so values behave as Python's do: strings
// iterate, str() prints `True`/`None`/`['a']`, and wrong types raise where jinja2 raises. Closures are built
// once per template and reused for every render. A closure that can raise records its node's span on the
// error as it passes (a catch costs nothing until something is thrown), so render errors carry positions.
import { MAX_RANGE, budget, checkList, checkString, enterCall, leaveCall, overStep } from './budget'
import { FILTERS, TESTS, mapFilter, type Kwargs } from './filters'
import { tokenizeWithSpans, type Token } from './lexer'
import { callMethod, getAttr, getItem, slice } from './methods'
import { parseTokens, type BinaryExpression, type CallExpression, type CallStatement, type Expression as ExprNode, type For, type Macro, type MemberExpression, type Node, type SetStatement, type Statement as StmtNode } from './parser'
import { TemplateSyntaxError, locate, type Span } from './positions'
import {
  PyError,
  Namespace,
  PyCallable,
  PyObject,
  Undef,
  arith,
  compare,
  contains,
  eq,
  isFloat,
  mkFloat,
  numLike,
  str,
  toList,
  unpack,
  truthy,
  tuple,
  typeName,
  undef
} from './values'

/** Variable scope: jinja2 gives each loop iteration and each macro call its own; `if` does not. */
export class Scope {
  vars = new Map<string, unknown>()
  constructor(public parent: Scope | null) {}
  lookup(name: string): unknown {
    if (this.vars.has(name)) return this.vars.get(name)
    let s = this.parent
    while (s) {
      const v = s.vars.get(name)
      if (v !== undefined || s.vars.has(name)) return v
      s = s.parent
    }
    return undef(name)
  }
}

type Expr = (s: Scope) => unknown
/** Appends output to `out.s`; returns 0, or BREAK / CONTINUE to unwind to the enclosing loop. */
type Stmt = (s: Scope, out: { s: string }) => number
const BREAK = 1
const CONTINUE = 2

export { TemplateSyntaxError }

/** A node's span, kept apart from the node so closures capture two numbers, not the tree. */
const at = (node: Node): Span => node.span

/** Places an error at the operand when that operand is undefined (jinja2 raises on its use), else at `where`. */
const blame = (e: unknown, value: unknown, operand: Span, where: Span): unknown => locate(e, value instanceof Undef ? operand : where)

// Names of every jinja2 built-in filter: an unknown name fails at compile time, as in jinja2.
const JINJA_FILTER_NAMES = new Set(
  'abs attribute batch capitalize center count d default dictsort e escape filesizeformat first float forceescape format groupby indent int items join last length list lower map max min pprint random reject rejectattr replace reverse round safe select selectattr slice sort string striptags sum title tojson trim truncate unique upper urlencode urlize wordcount wordwrap xmlattr'.split(
    ' '
  )
)

class LoopInfo extends PyObject {
  index0 = 0
  constructor(
    private items: readonly unknown[],
    private depth: number
  ) {
    super()
  }
  getattr(name: string): unknown {
    const i = this.index0
    const n = this.items.length
    switch (name) {
      case 'index':
        return i + 1
      case 'index0':
        return i
      case 'revindex':
        return n - i
      case 'revindex0':
        return n - i - 1
      case 'first':
        return i === 0
      case 'last':
        return i === n - 1
      case 'length':
        return n
      case 'depth':
        return this.depth
      case 'depth0':
        return this.depth - 1
      case 'previtem':
        return i > 0 ? this.items[i - 1] : new Undef('there is no previous item')
      case 'nextitem':
        return i < n - 1 ? this.items[i + 1] : new Undef('there is no next item')
      case 'cycle':
        return new PyCallable('cycle', (args) => {
          if (args.length === 0) throw new PyError('TypeError', 'no items for cycling given')
          return args[i % args.length]
        })
      default:
        return new Undef(`'LoopContext object' has no attribute '${name}'`)
    }
  }
}

class Cycler extends PyObject {
  pos = 0
  constructor(private items: unknown[]) {
    super()
  }
  getattr(name: string): unknown {
    if (name === 'current') return this.items[this.pos]
    if (name === 'next')
      return new PyCallable('next', () => {
        const v = this.items[this.pos]
        this.pos = (this.pos + 1) % this.items.length
        return v
      })
    if (name === 'reset') return new PyCallable('reset', () => ((this.pos = 0), null))
    return new Undef(`'Cycler object' has no attribute '${name}'`)
  }
}

function call(fn: unknown, args: unknown[], kwargs: Kwargs): unknown {
  if (fn instanceof PyCallable) return fn.fn(args, kwargs)
  if (fn instanceof Undef) fn.fail()
  throw new PyError('TypeError', `'${typeName(fn)}' object is not callable`)
}

/** jinja2's default globals; transformers adds raise_exception and strftime_now per render. */
export function defaultGlobals(): Map<string, unknown> {
  const g = new Map<string, unknown>()
  g.set(
    'range',
    new PyCallable('range', (args) => {
      const nums = args.map((a) => {
        if (typeof a === 'boolean') return a ? 1 : 0
        if (typeof a !== 'number' || !Number.isInteger(a)) throw new PyError('TypeError', `'${typeName(a)}' object cannot be interpreted as an integer`)
        return a
      })
      const [start, stop, by] = nums.length === 1 ? [0, nums[0], 1] : [nums[0], nums[1], nums[2] ?? 1]
      if (by === 0) throw new PyError('ValueError', 'range() arg 3 must not be zero')
      // The sandbox's check, made on the length before any list is built (range(10**9) must not allocate).
      const n = Math.max(0, Math.ceil((stop - start) / by))
      if (n > MAX_RANGE) throw new PyError('OverflowError', `Range too big. The sandbox blocks ranges larger than MAX_RANGE (${MAX_RANGE}).`)
      const out: number[] = new Array(n)
      for (let i = 0; i < n; i++) out[i] = start + i * by
      return out
    })
  )
  g.set(
    'dict',
    new PyCallable('dict', (args, kwargs) => {
      const m = new Map<unknown, unknown>()
      if (args.length > 0) {
        const src = args[0]
        if (src instanceof Map) for (const [k, v] of src) m.set(k, v)
        else
          for (const pair of toList(src)) {
            const kv = toList(pair)
            if (kv.length !== 2) throw new PyError('ValueError', `dictionary update sequence element has length ${kv.length}; 2 is required`)
            m.set(kv[0], kv[1])
          }
      }
      if (kwargs) for (const [k, v] of kwargs) m.set(k, v)
      return m
    })
  )
  g.set(
    'namespace',
    new PyCallable('namespace', (args, kwargs) => {
      const ns = new Namespace()
      for (const a of args) if (a instanceof Map) for (const [k, v] of a) ns.attrs.set(String(k), v)
      if (kwargs) for (const [k, v] of kwargs) ns.attrs.set(k, v)
      return ns
    })
  )
  g.set('cycler', new PyCallable('cycler', (args) => new Cycler(args)))
  g.set(
    'joiner',
    new PyCallable('joiner', (args) => {
      const sep = args.length ? str(args[0]) : ', '
      let used = false
      return new PyCallable('joiner', () => {
        if (!used) {
          used = true
          return ''
        }
        return sep
      })
    })
  )
  return g
}

// The budget object, held in this module so hot paths read its fields without going through an import.
const B = budget

/** Counts one step of the render's budget (inline test, call only when a limit or the clock is due). */
function step(): void {
  if (--B.stepsLeft < 0 || --B.clock === 0) overStep()
}

function callFilter(name: string, value: unknown, args: unknown[], kwargs: Kwargs): unknown {
  const f = name === 'map' ? MAP : FILTERS[name]
  if (!f) throw new PyError('TemplateRuntimeError', `No filter named '${name}'.`)
  step()
  return sized(f(value, args, kwargs))
}

/** Checks a value a filter or method built against the size limits; returns it. */
function sized<T>(v: T): T {
  if (typeof v === 'string' ? v.length > B.stringLength : Array.isArray(v) && v.length > B.listLength) {
    if (typeof v === 'string') checkString(v.length)
    else checkList((v as unknown[]).length)
  }
  return v
}

/** Throws, placed at `where`, unless a string of `n` code units is within the limit. */
function stringFits(n: number, where: Span): void {
  if (n > B.stringLength) {
    try {
      checkString(n)
    } catch (e) {
      throw locate(e, where)
    }
  }
}
const MAP = mapFilter(callFilter)

/** Compiles parsed template text; throws TemplateSyntaxError for text jinja2 would not compile. */
export function compileProgram(source: string): Stmt {
  // The lexer reads \r\n and \r as \n, as jinja2 does (newline_sequence='\n'), in text and string literals alike.
  checkGenerationTags(source)
  const program = parseTokens(rewriteTestArguments(tokenizeWithSpans(source)))
  checkTreeDepth(program.body)
  checkLoopControls(program.body, false)
  return block(program.body)
}

/**
 * transformers' `{% generation %}…{% endgeneration %}` block (its AssistantTracker extension) must be closed, and
 * closed only once opened; the lexer drops the tags themselves, so they are matched here, with jinja2's messages.
 */
function checkGenerationTags(source: string): void {
  const open: Span[] = []
  for (const m of source.matchAll(/{%-?\s*(end)?generation\s*-?%}/g)) {
    const span = { start: m.index, end: m.index + m[0].length }
    if (!m[1]) open.push(span)
    else if (!open.pop()) throw new TemplateSyntaxError("Encountered unknown tag 'endgeneration'.", span)
  }
  const last = open.pop()
  if (last)
    throw new TemplateSyntaxError(
      "Unexpected end of template. Jinja was looking for the following tags: 'endgeneration'. The innermost block that needs to be closed is 'generation'.",
      last
    )
}

/**
 * `{% break %}` and `{% continue %}` outside a for loop: jinja2 compiles them into Python `break`/`continue`, which
 * Python's compiler rejects (SyntaxError). A macro or call block body is a function of its own, and a loop's
 * `{% else %}` runs after the loop, so neither is inside the loop.
 */
function checkLoopControls(body: StmtNode[], inLoop: boolean): void {
  for (const n of body) {
    switch (n.type) {
      case 'Break':
      case 'Continue':
        if (!inLoop) throw new TemplateSyntaxError(n.type === 'Break' ? "'break' outside loop" : "'continue' not properly in loop", n.span, 'SyntaxError')
        break
      case 'For':
        checkLoopControls(n.body, true)
        checkLoopControls(n.defaultBlock, inLoop)
        break
      case 'If':
        checkLoopControls(n.body, inLoop)
        checkLoopControls(n.alternate, inLoop)
        break
      case 'Set':
      case 'FilterStatement':
        checkLoopControls(n.body, inLoop)
        break
      case 'Macro':
      case 'CallStatement':
        checkLoopControls(n.body, false)
        break
    }
  }
}

/** Deepest syntax tree the compiler (which recurses on it) accepts; long chains like `a + a + …` nest too. */
const MAX_TREE_DEPTH = 1000

/** Fails at the first node deeper than MAX_TREE_DEPTH, walking without recursion. */
function checkTreeDepth(body: StmtNode[]): void {
  const stack: [Node, number][] = body.map((n) => [n, 1])
  while (stack.length) {
    const [node, d] = stack.pop()!
    if (d > MAX_TREE_DEPTH) throw new TemplateSyntaxError(`the template's expressions nest more than ${MAX_TREE_DEPTH} levels deep`, node.span)
    for (const c of children(node)) stack.push([c, d + 1])
  }
}

/** A value met in a node's fields is a node when it has a type and a span (operators are tokens: no span). */
function isNode(v: unknown): v is Node {
  return !!v && typeof v === 'object' && 'type' in v && 'span' in v
}

/** The nodes directly under a node, from whichever fields hold them (lists, maps, single nodes). */
function children(node: Node): Node[] {
  const out: Node[] = []
  for (const v of Object.values(node) as unknown[]) {
    if (Array.isArray(v)) {
      for (const c of v) if (isNode(c)) out.push(c)
    } else if (v instanceof Map) {
      for (const [k, c] of v) {
        if (isNode(k)) out.push(k)
        if (isNode(c)) out.push(c)
      }
    } else if (isNode(v)) out.push(v)
  }
  return out
}

type Tok = Token
const TEST_PREFIX = '__test_'
const NOT_AN_ARGUMENT = new Set(['else', 'or', 'and', 'if', 'is', 'in', 'not'])

/** End (exclusive) of the bracket group opening at `i`. */
function groupEnd(tokens: Tok[], i: number): number {
  let depth = 0
  for (let k = i; k < tokens.length; k++) {
    const t = tokens[k].type
    if (t === 'OpenParen' || t === 'OpenSquareBracket' || t === 'OpenCurlyBracket') depth++
    else if (t === 'CloseParen' || t === 'CloseSquareBracket' || t === 'CloseCurlyBracket') if (--depth === 0) return k + 1
  }
  return tokens.length
}

/** End (exclusive) of a primary expression with its postfix (`.x`, `[i]`, `(…)`) starting at `i`. */
function primaryEnd(tokens: Tok[], i: number): number {
  const first = tokens[i]
  let k = first.type === 'OpenParen' || first.type === 'OpenSquareBracket' || first.type === 'OpenCurlyBracket' ? groupEnd(tokens, i) : i + 1
  if (first.type === 'StringLiteral') while (tokens[k]?.type === 'StringLiteral') k++
  for (;;) {
    const t = tokens[k]?.type
    if (t === 'Dot') k += 2
    else if (t === 'OpenSquareBracket' || t === 'OpenParen') k = groupEnd(tokens, k)
    else return k
  }
}

/**
 * The parser only takes bare test names (`x is odd`); jinja2 also takes arguments (`x is divisibleby 3`,
 * `x is sameas(y)`). Such tests are rewritten to a private filter `x | __test_[not_]name(args)`, which
 * binds the same way because tests and filters sit at the same precedence level.
 */
function rewriteTestArguments(tokens: Tok[]): Tok[] {
  const out: Tok[] = []
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]
    if (t.type !== 'Identifier' || t.value !== 'is') {
      out.push(t)
      continue
    }
    let j = i + 1
    const negate = tokens[j]?.type === 'Identifier' && tokens[j].value === 'not' && tokens[j + 1]?.type === 'Identifier'
    if (negate) j++
    const name = tokens[j]
    const next = tokens[j + 1]
    if (!name || name.type !== 'Identifier' || !next) {
      out.push(t)
      continue
    }
    // The made-up tokens take the places of the ones they stand for, so the filter is placed at `is name …`.
    const fname: Tok = { value: `${TEST_PREFIX}${negate ? 'not_' : ''}${name.value}`, type: 'Identifier', start: name.start, end: name.end }
    const pipe: Tok = { value: '|', type: 'Pipe', start: t.start, end: t.end }
    if (next.type === 'OpenParen') {
      out.push(pipe, fname)
      i = j
      continue
    }
    const startsArg =
      next.type === 'NumericLiteral' ||
      next.type === 'StringLiteral' ||
      next.type === 'OpenSquareBracket' ||
      next.type === 'OpenCurlyBracket' ||
      (next.type === 'Identifier' && !NOT_AN_ARGUMENT.has(next.value))
    if (!startsArg) {
      out.push(t)
      continue
    }
    const end = primaryEnd(tokens, j + 1)
    const last = tokens[end - 1]
    const open: Tok = { value: '(', type: 'OpenParen', start: next.start, end: next.start }
    const close: Tok = { value: ')', type: 'CloseParen', start: last.end, end: last.end }
    out.push(pipe, fname, open, ...tokens.slice(j + 1, end), close)
    i = end - 1
  }
  return out
}

function block(nodes: StmtNode[]): Stmt {
  const stmts = nodes.map(stmt)
  if (stmts.length === 1) return stmts[0]
  return (s, out) => {
    for (let i = 0; i < stmts.length; i++) {
      const r = stmts[i](s, out)
      if (r) return r
    }
    return 0
  }
}

function renderBody(body: Stmt, s: Scope): string {
  const out = { s: '' }
  body(s, out)
  return out.s
}

function stmt(node: StmtNode): Stmt {
  switch (node.type) {
    case 'StringLiteral': {
      const t: string = node.value
      return (_s, out) => ((out.s += t), 0)
    }
    case 'Comment':
      return () => 0
    case 'If': {
      const test = expr(node.test)
      const body = block(node.body)
      const alt = block(node.alternate)
      return (s, out) => (truthy(test(s)) ? body(s, out) : alt(s, out))
    }
    case 'For':
      return forLoop(node)
    case 'Break':
      return () => BREAK
    case 'Continue':
      return () => CONTINUE
    case 'Set':
      return setStatement(node)
    case 'Macro':
      return macro(node)
    case 'CallStatement':
      return callBlock(node)
    case 'FilterStatement': {
      const body = block(node.body)
      const f = filterOf(node.filter)
      const where = at(node)
      return (s, out) => {
        // A break or continue inside the block leaves the loop at once: the buffered text is dropped unfiltered.
        const buf = { s: '' }
        const signal = body(s, buf)
        if (signal) return signal
        const text = buf.s
        try {
          out.s += str(f(text, s))
        } catch (e) {
          throw locate(e, where)
        }
        return 0
      }
    }
    default: {
      const e = expr(node)
      const where = at(node)
      return (s, out) => {
        try {
          const v = e(s)
          out.s += typeof v === 'string' ? v : str(v)
        } catch (err) {
          throw locate(err, where)
        }
        return 0
      }
    }
  }
}

function assign(target: ExprNode): (s: Scope, v: unknown) => void {
  if (target.type === 'Identifier') {
    const name: string = target.value
    return (s, v) => void s.vars.set(name, v)
  }
  if (target.type === 'TupleLiteral') {
    const parts = target.value.map(assign)
    const where = at(target)
    return (s, v) => {
      let items: readonly unknown[]
      try {
        items = unpack(v, parts.length)
      } catch (e) {
        throw locate(e, where)
      }
      parts.forEach((p, i) => p(s, items[i]))
    }
  }
  if (target.type === 'MemberExpression' && !target.computed && target.property.type === 'Identifier') {
    const obj = expr(target.object)
    const attr: string = target.property.value
    const where = at(target)
    return (s, v) => {
      const ns = obj(s)
      if (!(ns instanceof Namespace)) throw locate(new PyError('TemplateRuntimeError', 'cannot assign attribute on non-namespace object'), where)
      ns.attrs.set(attr, v)
    }
  }
  throw new TemplateSyntaxError(`can't assign to ${target.type}`, at(target))
}

function setStatement(node: SetStatement): Stmt {
  const target = assign(node.assignee)
  if (node.value) {
    const value = expr(node.value)
    return (s) => (target(s, value(s)), 0)
  }
  const body = block(node.body)
  return (s) => {
    // As in a filter block, a break or continue inside leaves the loop before the assignment.
    const buf = { s: '' }
    const signal = body(s, buf)
    if (signal) return signal
    target(s, buf.s)
    return 0
  }
}

function forLoop(node: For): Stmt {
  let iterNode = node.iterable
  let cond: Expr | null = null
  if (iterNode.type === 'SelectExpression') {
    cond = expr(iterNode.test)
    iterNode = iterNode.lhs
  }
  const iterable = expr(iterNode)
  const bind = assign(node.loopvar)
  const body = block(node.body)
  const orElse = block(node.defaultBlock)
  const where = at(iterNode)
  return (s, out) => {
    let items: readonly unknown[]
    try {
      items = toList(iterable(s))
      if (cond) {
        const c = cond
        items = items.filter((item) => {
          step()
          const fs = new Scope(s)
          bind(fs, item)
          return truthy(c(fs))
        })
      }
    } catch (e) {
      throw locate(e, where)
    }
    if (items.length === 0) return orElse(s, out)
    const parentLoop = s.lookup('loop')
    const loop = new LoopInfo(items, parentLoop instanceof LoopInfo ? (parentLoop.getattr('depth') as number) + 1 : 1)
    for (let i = 0; i < items.length; i++) {
      // One step per iteration, and the output so far against the string limit (loops are what grow it).
      if (--B.stepsLeft < 0 || --B.clock === 0 || out.s.length > B.stringLength) {
        try {
          if (B.stepsLeft < 0 || B.clock === 0) overStep()
          checkString(out.s.length)
        } catch (e) {
          throw locate(e, where)
        }
      }
      loop.index0 = i
      const fs = new Scope(s)
      fs.vars.set('loop', loop)
      bind(fs, items[i])
      const r = body(fs, out)
      if (r === BREAK) break
    }
    return 0
  }
}

interface MacroParam {
  name: string
  dflt: Expr | null
}

function makeMacro(name: string, params: MacroParam[], body: Stmt, defScope: Scope, usesVarargs: boolean, usesKwargs: boolean): PyCallable {
  return new PyCallable(name, (args, kwargs) => {
    const ms = new Scope(defScope)
    const extraKw = new Map<unknown, unknown>()
    if (args.length > params.length && !usesVarargs) {
      throw new PyError('TypeError', `macro '${name}' takes not more than ${params.length} argument(s)`)
    }
    params.forEach((p, i) => {
      if (i < args.length) ms.vars.set(p.name, args[i])
      else if (kwargs?.has(p.name)) ms.vars.set(p.name, kwargs.get(p.name))
      else ms.vars.set(p.name, p.dflt ? p.dflt(ms) : new Undef(`parameter '${p.name}' was not provided`))
    })
    if (kwargs) {
      for (const [k, v] of kwargs) {
        if (k === 'caller') {
          ms.vars.set('caller', v)
          continue
        }
        if (params.some((p) => p.name === k)) continue
        if (!usesKwargs) throw new PyError('TypeError', `macro '${name}' takes no keyword argument '${k}'`)
        extraKw.set(k, v)
      }
    }
    ms.vars.set('varargs', tuple(args.slice(params.length)))
    ms.vars.set('kwargs', extraKw)
    enterCall()
    try {
      return renderBody(body, ms)
    } finally {
      leaveCall()
    }
  })
}

function macroParams(args: ExprNode[]): MacroParam[] {
  return args.map((a) => {
    if (a.type === 'Identifier') return { name: a.value, dflt: null }
    if (a.type === 'KeywordArgumentExpression') return { name: a.key.value, dflt: expr(a.value) }
    throw new TemplateSyntaxError('invalid macro parameter', at(a))
  })
}

function mentions(nodes: StmtNode[], name: string): boolean {
  const stack: Node[] = [...nodes]
  while (stack.length) {
    const n = stack.pop()!
    if (n.type === 'Identifier' && n.value === name) return true
    stack.push(...children(n))
  }
  return false
}

/** The name a filter (or a test given arguments) is called by: `| name` or `| name(…)`. */
function calledName(node: ExprNode): { name: string; at: Span } {
  const id = node.type === 'CallExpression' ? node.callee : node
  if (id.type !== 'Identifier') throw new TemplateSyntaxError('Expected a filter name', at(node))
  return { name: id.value, at: at(id) }
}

function macro(node: Macro): Stmt {
  const name = node.name.value
  const params = macroParams(node.args)
  const body = block(node.body)
  const usesVarargs = mentions(node.body, 'varargs')
  const usesKwargs = mentions(node.body, 'kwargs')
  return (s) => {
    s.vars.set(name, makeMacro(name, params, body, s, usesVarargs, usesKwargs))
    return 0
  }
}

function callBlock(node: CallStatement): Stmt {
  const callee = expr(node.call.callee)
  const args = argList(node.call.args)
  const params = macroParams(node.callerArgs ?? [])
  const body = block(node.body)
  const where = at(node)
  return (s, out) => {
    const caller = makeMacro('caller', params, body, s, false, false)
    try {
      const { args: a, kwargs } = args(s)
      const kw = new Map(kwargs ?? [])
      kw.set('caller', caller)
      out.s += str(call(callee(s), a, kw))
    } catch (e) {
      throw locate(e, where)
    }
    return 0
  }
}

function argList(nodes: ExprNode[]): (s: Scope) => { args: unknown[]; kwargs: Kwargs } {
  const pos: ((s: Scope, into: unknown[]) => void)[] = []
  const kw: ((s: Scope, into: Map<string, unknown>) => void)[] = []
  for (const n of nodes) {
    if (n.type === 'KeywordArgumentExpression') {
      const k = n.key.value
      const v = expr(n.value)
      kw.push((s, into) => void into.set(k, v(s)))
    } else if (n.type === 'SpreadExpression') {
      const v = expr(n.argument)
      pos.push((s, into) => void into.push(...toList(v(s))))
    } else if (n.type === 'KeywordSpreadExpression') {
      const v = expr(n.argument)
      const where = at(n)
      kw.push((s, into) => {
        const m = v(s)
        if (!(m instanceof Map)) throw locate(new PyError('TypeError', 'argument after ** must be a mapping'), where)
        for (const [k, x] of m) into.set(String(k), x)
      })
    } else {
      const v = expr(n)
      pos.push((s, into) => void into.push(v(s)))
    }
  }
  if (kw.length === 0) {
    if (pos.length === 0) return () => ({ args: [], kwargs: null })
    return (s) => {
      const args: unknown[] = []
      for (const p of pos) p(s, args)
      return { args, kwargs: null }
    }
  }
  return (s) => {
    const args: unknown[] = []
    for (const p of pos) p(s, args)
    const kwargs = new Map<string, unknown>()
    for (const k of kw) k(s, kwargs)
    return { args, kwargs }
  }
}

/** A filter node compiled to `(value, scope) => result`. */
function filterOf(node: ExprNode): (v: unknown, s: Scope) => unknown {
  const { name, at: nameAt } = calledName(node)
  if (name.startsWith(TEST_PREFIX)) return testWithArguments(node, name.slice(TEST_PREFIX.length))
  if (!JINJA_FILTER_NAMES.has(name)) throw new TemplateSyntaxError(`No filter named '${name}'.`, nameAt)
  const f = name === 'map' ? MAP : FILTERS[name]
  if (!f) {
    return () => {
      throw new PyError('TemplateRuntimeError', `filter '${name}' is not supported by this renderer`)
    }
  }
  if (node.type !== 'CallExpression') {
    return (v) => {
      step()
      return sized(f(v, [], null))
    }
  }
  const args = argList(node.args)
  return (v, s) => {
    const a = args(s)
    step()
    return sized(f(v, a.args, a.kwargs))
  }
}

function testWithArguments(node: ExprNode, spec: string): (v: unknown, s: Scope) => unknown {
  const negate = spec.startsWith('not_') && !(spec in TESTS)
  const name = negate ? spec.slice(4) : spec
  const t = TESTS[name]
  if (!t) throw new TemplateSyntaxError(`No test named '${name}'.`, calledName(node).at)
  const args = argList(node.type === 'CallExpression' ? node.args : [])
  return (v, s) => t(v, args(s).args) !== negate
}

const CONSTANTS: Record<string, unknown> = { true: true, True: true, false: false, False: false, none: null, None: null }

function expr(node: ExprNode): Expr {
  switch (node.type) {
    case 'StringLiteral':
    case 'IntegerLiteral': {
      const v = node.value
      return () => v
    }
    case 'FloatLiteral': {
      const v = mkFloat(node.value)
      return () => v
    }
    case 'Identifier': {
      const name: string = node.value
      if (Object.prototype.hasOwnProperty.call(CONSTANTS, name)) {
        const v = CONSTANTS[name]
        return () => v
      }
      return (s) => s.lookup(name)
    }
    case 'ArrayLiteral': {
      const items = node.value.map(expr)
      return (s) => items.map((e) => e(s))
    }
    case 'TupleLiteral': {
      const items = node.value.map(expr)
      return (s) => tuple(items.map((e) => e(s)))
    }
    case 'ObjectLiteral': {
      const entries = [...node.value.entries()].map(([k, v]) => [expr(k), expr(v)] as const)
      return (s) => {
        const m = new Map<unknown, unknown>()
        for (const [k, v] of entries) m.set(k(s), v(s))
        return m
      }
    }
    case 'MemberExpression':
      return member(node)
    case 'CallExpression':
      return callExpr(node)
    case 'FilterExpression': {
      const operand = expr(node.operand)
      const f = filterOf(node.filter)
      const where: Span = { start: node.pipeStart, end: node.span.end }
      return (s) => {
        const v = operand(s)
        try {
          return f(v, s)
        } catch (e) {
          throw locate(e, where)
        }
      }
    }
    case 'TestExpression': {
      const operand = expr(node.operand)
      const name: string = node.test.value
      const t = TESTS[name] ?? (name === 'none' ? TESTS.none : undefined)
      if (!t) throw new TemplateSyntaxError(`No test named '${name}'.`, at(node.test))
      const negate: boolean = node.negate
      const where = at(node)
      return (s) => {
        const v = operand(s)
        try {
          return t(v, []) !== negate
        } catch (e) {
          throw locate(e, where)
        }
      }
    }
    case 'BinaryExpression':
      return binary(node)
    case 'UnaryExpression': {
      const arg = expr(node.argument)
      const op: string = node.operator.value
      if (op === 'not') return (s) => !truthy(arg(s))
      const where = at(node)
      return (s) => {
        const v = arg(s)
        try {
          if (v instanceof Undef) v.fail()
          if (!numLike(v)) throw new PyError('TypeError', `bad operand type for unary ${op}: '${typeName(v)}'`)
        } catch (e) {
          throw locate(e, where)
        }
        const n = op === '-' ? -Number(v) : Number(v)
        return isFloat(v) ? mkFloat(n) : n
      }
    }
    case 'Ternary': {
      const c = expr(node.condition)
      const a = expr(node.trueExpr)
      const b = expr(node.falseExpr)
      return (s) => (truthy(c(s)) ? a(s) : b(s))
    }
    case 'SelectExpression': {
      const a = expr(node.lhs)
      const c = expr(node.test)
      return (s) => (truthy(c(s)) ? a(s) : new Undef('the inline if-expression evaluated to false and no else section was defined.'))
    }
    default:
      throw new TemplateSyntaxError(`unsupported expression ${node.type}`, at(node))
  }
}

function member(node: MemberExpression): Expr {
  const obj = expr(node.object)
  const p = node.property
  const where = at(node)
  const objAt = at(node.object)
  if (!node.computed) {
    if (p.type === 'Identifier') {
      const name: string = p.value
      return (s) => {
        const o = obj(s)
        try {
          return getAttr(o, name)
        } catch (e) {
          throw blame(e, o, objAt, where)
        }
      }
    }
    // The parser lets only a name or an integer follow the dot (`messages.0`).
    if (p.type !== 'IntegerLiteral') throw new TemplateSyntaxError('Expected identifier or integer following dot operator', at(p))
    const k = p.value
    return (s) => {
      const o = obj(s)
      try {
        return getItem(o, k)
      } catch (e) {
        throw blame(e, o, objAt, where)
      }
    }
  }
  if (p.type === 'SliceExpression') {
    const a = p.start ? expr(p.start) : () => null
    const b = p.stop ? expr(p.stop) : () => null
    const c = p.step ? expr(p.step) : () => null
    return (s) => {
      const o = obj(s)
      const [x, y, z] = [a(s), b(s), c(s)]
      try {
        return slice(o, x, y, z)
      } catch (e) {
        throw blame(e, o, objAt, where)
      }
    }
  }
  const key = expr(p)
  return (s) => {
    const o = obj(s)
    const k = key(s)
    try {
      return getItem(o, k)
    } catch (e) {
      throw blame(e, o, objAt, where)
    }
  }
}

function callExpr(node: CallExpression): Expr {
  const args = argList(node.args)
  const c = node.callee
  const where = at(node)
  if (c.type === 'MemberExpression' && !c.computed && c.property.type === 'Identifier') {
    // obj.method(...): call Python's method directly rather than building a bound method first.
    const obj = expr(c.object)
    const name: string = c.property.value
    const objAt = at(c.object)
    return (s) => {
      const o = obj(s)
      const a = args(s)
      try {
        step()
        if (typeof o === 'string' || o instanceof Map || Array.isArray(o)) {
          const r = callMethod(o, name, a.args, a.kwargs)
          if (r !== undefined) return sized(r)
        }
        return sized(call(getAttr(o, name), a.args, a.kwargs))
      } catch (e) {
        throw blame(e, o, objAt, where)
      }
    }
  }
  const callee = expr(c)
  const calleeAt = at(c)
  return (s) => {
    const f = callee(s)
    const a = args(s)
    try {
      return call(f, a.args, a.kwargs)
    } catch (e) {
      throw blame(e, f, calleeAt, where)
    }
  }
}

function binary(node: BinaryExpression): Expr {
  const op: string = node.operator.value
  const l = expr(node.left)
  const r = expr(node.right)
  const where = at(node)
  const leftAt = at(node.left)
  const rightAt = at(node.right)
  // An undefined operand is what jinja2 complains about, so that operand is the place.
  const fault = (e: unknown, a: unknown, b: unknown): unknown => (a instanceof Undef ? locate(e, leftAt) : blame(e, b, rightAt, where))
  switch (op) {
    case 'and':
      return (s) => {
        const a = l(s)
        return truthy(a) ? r(s) : a
      }
    case 'or':
      return (s) => {
        const a = l(s)
        return truthy(a) ? a : r(s)
      }
    case '==':
      return (s) => eq(l(s), r(s))
    case '!=':
      return (s) => !eq(l(s), r(s))
    case '~':
      return (s) => {
        const a = l(s)
        const b = r(s)
        const x = typeof a === 'string' ? a : str(a)
        const y = typeof b === 'string' ? b : str(b)
        stringFits(x.length + y.length, where)
        return x + y
      }
    case '+':
      return (s) => {
        const a = l(s)
        const b = r(s)
        if (typeof a === 'string' && typeof b === 'string') {
          stringFits(a.length + b.length, where)
          return a + b
        }
        try {
          return arith(op, a, b)
        } catch (e) {
          throw fault(e, a, b)
        }
      }
  }
  const apply = binaryOperation(op)
  return (s) => {
    const a = l(s)
    const b = r(s)
    try {
      return apply(a, b)
    } catch (e) {
      throw fault(e, a, b)
    }
  }
}

/** The operators that can raise, on evaluated operands (`in` looks up its left operand in its right). */
function binaryOperation(op: string): (a: unknown, b: unknown) => unknown {
  switch (op) {
    case '<':
    case '<=':
    case '>':
    case '>=':
      return (a, b) => compare(op, a, b)
    case 'in':
      return (a, b) => contains(b, a)
    case 'not in':
      return (a, b) => !contains(b, a)
    default:
      return (a, b) => arith(op, a, b)
  }
}

export { call as callValue }
