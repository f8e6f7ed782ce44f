// Evaluator for parsed Python config modules. Nothing is executed outside this interpreter: imports of
// library modules bind opaque references (a class becomes its name), and only `with read_base():` imports
// load sibling config files, through the caller's resolver. Functions defined in configs (def, lambda) run
// here too. The only ways out to the host are the session's callbacks: the resolver, and `readText` for
// `open(path)` of a file next to the config (the host applies its root rules); every read and every
// `os.environ` lookup is recorded in the session so the caller can say what the config read. The environment
// itself is never read: `os.environ.get(name, default)` gives the default, as a clean environment would.
// An error in one statement becomes a diagnostic and evaluation goes on with the next, so a mostly-valid
// config still yields its variables; a resource limit (python-budget.ts) stops the whole import at its place.

import type { Comprehension, Expr, FormattedValue, Param, Stmt } from './python-ast'
import { Budget, BudgetExceeded, withBudget } from './python-budget'
import { EXCEPTION_NAMES, STDLIB_MODULES, add, iterate, makeBuiltins, method, moduleAttribute } from './python-builtins'
import type { OrderOp } from '../python/values'
import { asciiOf } from '../python/format'
import { formatSpec, percentFormat } from './python-format'
import { parseExpression, parseModule } from './python-parser'
import { PyBuiltin, PyDict, LocatedError, PyError, errorAt, PyFile, PyFunction, PyList, PyModule, PyRef, PySet, PyTuple, deepCopy, pyEquals, pyRepr, pyStr, runtime, truthy, typeName, type PyValue } from './python-values'
import { configDiagnostic } from './config-diagnostic'
import type { Diagnostic, Severity } from '../diagnostics'

/** Finds a config module named in `with read_base():` — e.g. '.gsm8k_gen', '..datasets.x.y', 'opencompass.configs.…'. */
export type ConfigResolver = (modulePath: string, fromFile: string) => { file: string; source: string } | undefined

/**
 * Reads a text file a config opens. `path` is as the config computed it; `fromFile` is the config doing the
 * open. The host resolves it and refuses paths outside its roots (returns { error }).
 */
export type ConfigTextReader = (path: string, fromFile: string) => { file: string; text: string } | { error: string }

/** Something outside the config's own text that it read: a file, or an environment variable (never read). */
export type ConfigInput =
  | { kind: 'file'; file: string; bytes: number; from: { file: string; line: number; column: number } }
  | { kind: 'environ'; name: string; used: string | null; from: { file: string; line: number; column: number } }

export interface ModuleResult {
  file: string
  vars: Map<string, PyValue>
  /** Where each top-level variable was last assigned: errors found after evaluation (a value that contains itself) point there. */
  positions: Map<string, { line: number; column: number }>
  diagnostics: Diagnostic[]
}

/** Shared across one import tree: each config file is evaluated once, as Python caches modules. */
export interface EvalSession {
  resolve?: ConfigResolver
  readText?: ConfigTextReader
  modules: Map<string, ModuleResult>
  loading: Set<string>
  /** Limits for the whole tree; created by evaluateModule when absent. */
  budget?: Budget
  /** Files and environment variables the tree read, in order. */
  inputs?: ConfigInput[]
}

const READ_BASE = new PyRef('read_base', 'mmengine.config')
const ENVIRON = new PyModule('os.environ')
/** Builtins whose result keeps the order of the iterable they are given. */
const ORDER_TAKING = new Set(['list', 'tuple', 'enumerate', 'zip', 'iter', 'next', 'reversed'])

/** Control flow of function bodies and loops, thrown through the statement executor. */
class ReturnSignal {
  constructor(readonly value: PyValue) {}
}
class LoopSignal {
  constructor(readonly kind: 'break' | 'continue') {}
}

export function evaluateModule(source: string, file: string, session: EvalSession): ModuleResult {
  const cached = session.modules.get(file)
  if (cached) return cached
  const result: ModuleResult = { file, vars: new Map(), positions: new Map(), diagnostics: [] }
  const top = session.loading.size === 0
  session.modules.set(file, result)
  session.loading.add(file)
  const budget = (session.budget ??= new Budget())
  try {
    const parsed = parseModule(source)
    if (parsed.error) {
      result.diagnostics.push(configDiagnostic(file, parsed.error, parsed.error.message))
      return result
    }
    withBudget(budget, () => new Interpreter(file, result, session).run(parsed.body))
  } catch (e) {
    // A limit stops the whole tree; the top-level module reports it once, at the place it was hit.
    if (!(e instanceof BudgetExceeded) || !top) throw e
    result.diagnostics.push(configDiagnostic(e.file ?? file, { line: e.line ?? 1, column: e.column ?? 1 }, e.message))
  } finally {
    session.loading.delete(file)
  }
  return result
}

/** JS ran out of stack (a structure nested beyond every check): reported like a limit, at the statement. */
function isStackOverflow(e: unknown): boolean {
  return e instanceof RangeError && /call stack/i.test(e.message)
}

class Interpreter {
  private readonly builtins: Map<string, PyValue>
  private readonly scopes: Map<string, PyValue>[] = []

  constructor(
    private readonly file: string,
    private readonly result: ModuleResult,
    private readonly session: EvalSession
  ) {
    this.builtins = makeBuiltins(() => {
      const d = new PyDict()
      for (const [k, v] of this.result.vars) d.set(k, v)
      return d
    })
    this.builtins.set('open', new PyBuiltin('open', (a, kw, at) => this.open(a, kw, at)))
    // eval(text) of an expression (MedBench builds evaluator class names this way), in the caller's scope.
    this.builtins.set('eval', new PyBuiltin('eval', (a, _kw, at) => {
      if (typeof a[0] !== 'string') throw new PyError('TypeError', 'eval() arg 1 must be a string')
      if (a.length > 1) throw new PyError('', 'eval() with globals or locals is outside the supported config subset')
      let expr: Expr
      try {
        expr = parseExpression(a[0].trim(), at)
      } catch (e) {
        throw new LocatedError('SyntaxError', `${e instanceof Error ? e.message : String(e)} (in eval)`, at)
      }
      return this.eval(expr)
    }))
    this.builtins.set('__file__', file)
    this.builtins.set('__name__', '__main__')
  }

  private get budget(): Budget {
    return this.session.budget as Budget
  }

  private current: { line: number; column: number } = { line: 1, column: 1 }

  run(body: Stmt[]): void {
    for (const stmt of body) {
      this.current = stmt
      try {
        this.exec(stmt, false)
      } catch (e) {
        this.report(e, stmt)
      }
    }
  }

  private report(e: unknown, stmt: { line: number; column: number }): void {
    if (e instanceof PyError) this.diag(e.pyMessage, errorAt(e)?.line ?? stmt.line, errorAt(e)?.column ?? stmt.column)
    else if (e instanceof ReturnSignal) this.diag("SyntaxError: 'return' outside function", stmt.line, stmt.column)
    else if (e instanceof LoopSignal) this.diag(`SyntaxError: '${e.kind}' outside loop`, stmt.line, stmt.column)
    else if (e instanceof BudgetExceeded) {
      if (e.line === undefined) Object.assign(e, { line: stmt.line, column: stmt.column })
      e.file ??= this.file
      throw e
    } else if (e instanceof RangeError && /string length/i.test(e.message)) {
      throw Object.assign(new BudgetExceeded('a string grows beyond what can be held in memory'), { file: this.file, line: stmt.line, column: stmt.column })
    } else if (isStackOverflow(e)) {
      throw Object.assign(new BudgetExceeded('RecursionError: the config nests values or calls too deeply to evaluate'), { file: this.file, line: stmt.line, column: stmt.column })
    } else throw e
  }

  /** open(path[, 'r'], encoding=…): text files only, read whole through the host, recorded as an input. */
  private open(a: PyValue[], kw: Map<string, PyValue>, at: { line: number; column: number }): PyValue {
    const path = a[0]
    const mode = a[1] ?? kw.get('mode') ?? 'r'
    if (typeof path !== 'string') throw new PyError('TypeError', `expected str, bytes or os.PathLike object, not ${typeName(path)}`)
    if (typeof mode !== 'string' || !/^(r|rt|tr)$/.test(mode)) throw new PyError('', `open(…, ${pyRepr(mode)}): configs may only read text files (mode 'r')`)
    if (!this.session.readText) throw new PyError('', `open(${pyRepr(path)}): this config was given as text, with no folder to read files from`)
    const r = this.session.readText(path, this.file)
    if ('error' in r) throw new PyError('FileNotFoundError', `open(${pyRepr(path)}): ${r.error}`)
    this.budget.string(r.text.length)
    ;(this.session.inputs ??= []).push({ kind: 'file', file: r.file, bytes: r.text.length, from: { file: this.file, ...at } })
    return new PyFile(r.file, r.text)
  }

  /** os.environ.get(name, default) / os.getenv: the environment is not read; the default stands, and is recorded. */
  private environ(name: PyValue, fallback: PyValue, at: { line: number; column: number }): PyValue {
    ;(this.session.inputs ??= []).push({ kind: 'environ', name: pyStr(name), used: fallback === null ? null : pyStr(fallback), from: { file: this.file, ...at } })
    return fallback
  }

  /**
   * A set of str iterates in hash order, and CPython randomises str hashes per process (PYTHONHASHSEED): anything
   * built in that order (calm.py's `list(set(…))` dataset list) changes from run to run upstream. PromptLoom keeps
   * first-insertion order and says so, once per place.
   */
  private strSetOrder(v: PyValue, at: { line: number; column: number }): PyValue {
    if (v instanceof PySet && v.items.filter((x) => typeof x === 'string').length > 1) {
      const message =
        'iterating a set of str: CPython orders it by str hashes, which are randomised per process (PYTHONHASHSEED), so upstream builds what follows in a different order on every run; PromptLoom keeps first-insertion order'
      if (!this.result.diagnostics.some((d) => d.source === this.file && d.range?.start.line === at.line && d.message === message)) this.diag(message, at.line, at.column, 'warning')
    }
    return v
  }

  private diag(message: string, line: number, column: number, severity: Severity = 'error'): void {
    this.result.diagnostics.push(configDiagnostic(this.file, { line, column }, message, severity))
  }

  /** Raises at a place of the config: `pyClass` is Python's exception, '' for a limit of the supported subset. */
  private fail(pyClass: string, message: string, at: { line: number; column: number }): never {
    throw new LocatedError(pyClass, message, { line: at.line, column: at.column })
  }

  // ---- statements -------------------------------------------------------------------------------------

  private exec(s: Stmt, inReadBase: boolean): void {
    try {
      this.budget.step()
    } catch (e) {
      if (e instanceof BudgetExceeded) Object.assign(e, { file: this.file, line: s.line, column: s.column })
      throw e
    }
    switch (s.kind) {
      case 'expr':
        this.eval(s.value)
        return
      case 'pass':
        return
      case 'assign': {
        const v = this.eval(s.value)
        for (const t of s.targets) this.assign(t, v)
        return
      }
      case 'augassign': {
        const cur = this.eval(s.target)
        const rhs = this.eval(s.value)
        // list += iterable extends in place (the same object other names may hold).
        if (s.op === '+' && cur instanceof PyList) {
          cur.items.push(...iterate(rhs))
          this.assign(s.target, cur)
        } else if (s.op === '|' && cur instanceof PyDict && rhs instanceof PyDict) {
          for (const [k, v] of rhs.entries()) cur.set(k, v)
          this.assign(s.target, cur)
        } else this.assign(s.target, this.binary(s.op, cur, rhs, s))
        return
      }
      case 'import':
        for (const n of s.names) {
          if (n.asname) this.set(n.asname, this.moduleValue(n.name))
          else this.set(n.name.split('.')[0], new PyModule(n.name.split('.')[0]))
        }
        return
      case 'from':
        this.fromImport(s, inReadBase)
        return
      case 'with': {
        const isReadBase = s.items.length === 1 && s.items[0].kind === 'call' && this.eval(s.items[0].func) === READ_BASE
        if (isReadBase) {
          for (const inner of s.body) {
            try {
              this.exec(inner, true)
            } catch (e) {
              this.report(e, inner)
            }
          }
          return
        }
        // `with open(path) as f:` — a file is its own context manager; nothing else is.
        s.items.forEach((item, i) => {
          const v = this.eval(item)
          if (!(v instanceof PyFile)) this.fail('', 'only `with read_base():` and `with open(path) as f:` blocks are supported in configs', item)
          const target = s.targets[i]
          if (target) this.assign(target, v)
        })
        this.block(s.body, inReadBase)
        return
      }
      case 'for': {
        const items = iterate(this.strSetOrder(this.eval(s.iter), s.iter))
        for (const item of items) {
          this.assign(s.target, item)
          if (this.loopBody(s.body, inReadBase) === 'break') return
        }
        this.block(s.orelse, inReadBase)
        return
      }
      case 'while': {
        while (truthy(this.eval(s.test))) {
          if (this.loopBody(s.body, inReadBase) === 'break') return
        }
        this.block(s.orelse, inReadBase)
        return
      }
      case 'break':
      case 'continue':
        throw new LoopSignal(s.kind)
      case 'return':
        throw new ReturnSignal(s.value ? this.eval(s.value) : null)
      case 'def':
        this.set(s.name, this.makeFunction(s.name, s.params, s.body))
        return
      case 'global':
        for (const n of s.names) this.globals().add(n)
        return
      case 'raise':
        this.fail('', this.raised(s.exc), s)
        break
      case 'if':
        this.block(truthy(this.eval(s.test)) ? s.body : s.orelse, inReadBase)
        return
      case 'del':
        for (const t of s.targets) this.del(t)
        return
      case 'assert':
        if (!truthy(this.eval(s.test))) this.fail('', `AssertionError${s.msg ? `: ${pyStr(this.eval(s.msg))}` : ''}`, s)
        return
    }
  }

  private block(body: Stmt[], inReadBase: boolean): void {
    for (const inner of body) this.exec(inner, inReadBase)
  }

  /** Runs a loop body; says whether it ended in `break`. */
  private loopBody(body: Stmt[], inReadBase: boolean): 'break' | 'next' {
    try {
      this.block(body, inReadBase)
    } catch (e) {
      if (!(e instanceof LoopSignal)) throw e
      if (e.kind === 'break') return 'break'
    }
    return 'next'
  }

  /** The message of `raise X(…)`, as Python prints an uncaught exception's last line. */
  private raised(exc: Expr | undefined): string {
    if (!exc) return 'RuntimeError: No active exception to reraise'
    if (exc.kind === 'call' && exc.func.kind === 'name' && EXCEPTION_NAMES.includes(exc.func.id)) {
      const args = this.items(exc.args.filter((a) => a.kind === 'pos').map((a) => a.value))
      const text = args.length === 1 ? pyStr(args[0]) : args.length ? pyRepr(new PyTuple(args)) : ''
      return `${exc.func.id}${text ? `: ${exc.func.id === 'KeyError' && args.length === 1 ? pyRepr(args[0]) : text}` : ''}`
    }
    if (exc.kind === 'name' && EXCEPTION_NAMES.includes(exc.id)) return exc.id
    return pyStr(this.eval(exc))
  }

  // ---- functions --------------------------------------------------------------------------------------

  private readonly globalNames = new WeakMap<Map<string, PyValue>, Set<string>>()

  /** Names declared `global` in the innermost function scope. */
  private globals(): Set<string> {
    const scope = this.scopes[this.scopes.length - 1]
    if (!scope) return new Set()
    let g = this.globalNames.get(scope)
    if (!g) this.globalNames.set(scope, (g = new Set()))
    return g
  }

  /** A def or lambda: defaults evaluated now, enclosing scopes captured, body run in this module on call. */
  private makeFunction(name: string, params: Param[], body: Stmt[] | Expr): PyFunction {
    const defaults = params.map((p) => (p.default ? this.eval(p.default) : undefined))
    const closure = this.scopes.slice()
    return new PyFunction(name, (args, kwargs, at) => this.invoke(name, params, defaults, closure, body, args, kwargs, at))
  }

  private invoke(
    name: string,
    params: Param[],
    defaults: (PyValue | undefined)[],
    closure: Map<string, PyValue>[],
    body: Stmt[] | Expr,
    args: PyValue[],
    kwargs: Map<string, PyValue>,
    at: { line: number; column: number }
  ): PyValue {
    const locals = new Map<string, PyValue>()
    const kw = new Map(kwargs)
    let next = 0
    const positional = params.filter((p) => p.kind === 'pos').length
    params.forEach((p, i) => {
      if (p.kind === 'pos') {
        if (next < args.length) {
          if (kw.has(p.name)) throw new LocatedError('TypeError', `${name}() got multiple values for argument '${p.name}'`, at)
          locals.set(p.name, args[next++])
        } else if (kw.has(p.name)) {
          locals.set(p.name, kw.get(p.name) as PyValue)
          kw.delete(p.name)
        } else if (defaults[i] !== undefined) locals.set(p.name, defaults[i] as PyValue)
        else throw new LocatedError('TypeError', `${name}() missing required positional argument: '${p.name}'`, at)
      } else if (p.kind === 'star') {
        locals.set(p.name, new PyTuple(args.slice(next)))
        next = args.length
      } else if (p.kind === 'kwonly') {
        if (kw.has(p.name)) {
          locals.set(p.name, kw.get(p.name) as PyValue)
          kw.delete(p.name)
        } else if (defaults[i] !== undefined) locals.set(p.name, defaults[i] as PyValue)
        else throw new LocatedError('TypeError', `${name}() missing required keyword-only argument: '${p.name}'`, at)
      }
    })
    if (next < args.length) throw new LocatedError('TypeError', `${name}() takes ${positional} positional arguments but ${args.length} were given`, at)
    const dstar = params.find((p) => p.kind === 'dstar')
    if (dstar) {
      const d = new PyDict()
      for (const [k, v] of kw) d.set(k, v)
      locals.set(dstar.name, d)
    } else if (kw.size) throw new LocatedError('TypeError', `${name}() got an unexpected keyword argument '${[...kw.keys()][0]}'`, at)
    const saved = this.scopes.splice(0, this.scopes.length, ...closure, locals)
    this.budget.enter()
    try {
      if (!Array.isArray(body)) return this.eval(body)
      this.block(body, false)
      return null
    } catch (e) {
      if (e instanceof ReturnSignal) return e.value
      if (e instanceof LoopSignal) throw new LocatedError('SyntaxError', `'${e.kind}' outside loop`, at)
      throw e
    } finally {
      this.budget.leave()
      this.scopes.splice(0, this.scopes.length, ...saved)
    }
  }

  private moduleValue(name: string): PyValue {
    return new PyModule(name)
  }

  private fromImport(s: Extract<Stmt, { kind: 'from' }>, inReadBase: boolean): void {
    const modulePath = '.'.repeat(s.level) + s.module
    if (inReadBase || s.level > 0) {
      if (!inReadBase) this.diag('a relative import of a config outside `with read_base():` is read as if it sat inside it', s.line, s.column, 'warning')
      const mod = this.loadConfigModule(modulePath, s)
      if (!mod) return
      // mmengine hands base-config values over as copies (it converts them to ConfigDict), so a config that
      // edits an imported dataset never changes what another config imports from the same base.
      if (s.names === '*') {
        for (const [k, v] of mod.vars) if (!k.startsWith('_')) this.set(k, deepCopy(v))
        return
      }
      for (const n of s.names) {
        if (!mod.vars.has(n.name)) {
          this.diag(`cannot import name '${n.name}' from '${modulePath}' (${mod.file})`, s.line, s.column)
          continue
        }
        this.set(n.asname ?? n.name, deepCopy(mod.vars.get(n.name) as PyValue))
      }
      return
    }
    if (s.names === '*') {
      this.diag(`'from ${modulePath} import *' of a library module binds nothing here`, s.line, s.column, 'warning')
      return
    }
    for (const n of s.names) {
      let v: PyValue
      if ((s.module === 'mmengine.config' || s.module === 'mmengine') && n.name === 'read_base') v = READ_BASE
      else if (s.module === 'os' && n.name === 'environ') v = ENVIRON
      else if (s.module === 'os' && n.name === 'getenv') v = this.attribute(new PyModule('os'), 'getenv', s as unknown as Expr)
      else if (STDLIB_MODULES.has(s.module)) v = moduleAttribute(new PyModule(s.module), n.name)
      else v = new PyRef(n.name, s.module)
      this.set(n.asname ?? n.name, v)
    }
  }

  private loadConfigModule(modulePath: string, at: { line: number; column: number }): { file: string; vars: Map<string, PyValue> } | undefined {
    const found = this.session.resolve?.(modulePath, this.file)
    if (!found) {
      this.diag(`cannot find config module '${modulePath}' imported from ${this.file}`, at.line, at.column)
      return undefined
    }
    if (this.session.loading.has(found.file)) {
      this.diag(`circular import of '${modulePath}' (${found.file})`, at.line, at.column)
      return undefined
    }
    const mod = evaluateModule(found.source, found.file, this.session)
    if (mod.diagnostics.some((d) => d.severity === 'error')) {
      this.diag(`errors in imported config '${modulePath}' (${found.file})`, at.line, at.column, 'warning')
      for (const d of mod.diagnostics) if (!this.result.diagnostics.includes(d)) this.result.diagnostics.push(d)
    }
    return mod
  }

  // ---- names and targets ------------------------------------------------------------------------------

  private set(name: string, v: PyValue): void {
    const scope = this.scopes[this.scopes.length - 1]
    if (scope && !this.globalNames.get(scope)?.has(name)) scope.set(name, v)
    else {
      this.result.vars.set(name, v)
      this.result.positions.set(name, { line: this.current.line, column: this.current.column })
    }
  }

  private lookup(name: string, at: { line: number; column: number }): PyValue {
    for (let i = this.scopes.length - 1; i >= 0; i--) if (this.scopes[i].has(name)) return this.scopes[i].get(name) as PyValue
    if (this.result.vars.has(name)) return this.result.vars.get(name) as PyValue
    if (this.builtins.has(name)) return this.builtins.get(name) as PyValue
    this.fail('NameError', `name '${name}' is not defined`, at)
  }

  private assign(t: Expr, v: PyValue): void {
    switch (t.kind) {
      case 'name':
        this.set(t.id, v)
        return
      case 'tuple':
      case 'list': {
        const star = t.items.findIndex((x) => x.kind === 'starred')
        const items = this.located(t, () => runtime.unpack(v, t.items.length, star >= 0)) as PyValue[]
        if (star < 0) {
          t.items.forEach((x, i) => this.assign(x, items[i]))
          return
        }
        const after = t.items.length - star - 1
        t.items.slice(0, star).forEach((x, i) => this.assign(x, items[i]))
        this.assign((t.items[star] as Extract<Expr, { kind: 'starred' }>).value, new PyList(items.slice(star, items.length - after)))
        t.items.slice(star + 1).forEach((x, i) => this.assign(x, items[items.length - after + i]))
        return
      }
      case 'subscript': {
        const obj = this.eval(t.value)
        const key = this.eval(t.index)
        if (obj instanceof PyDict) obj.set(key, v)
        else if (obj instanceof PyList && typeof key === 'number') {
          const k = key < 0 ? obj.items.length + key : key
          if (k < 0 || k >= obj.items.length) this.fail('IndexError', 'list assignment index out of range', t)
          obj.items[k] = v
        } else this.fail('TypeError', `'${typeName(obj)}' object does not support item assignment`, t)
        return
      }
      case 'attr':
        this.fail('', 'assigning to attributes is outside the supported config subset', t)
    }
    this.fail('', 'cannot assign to this expression', t)
  }

  private del(t: Expr): void {
    if (t.kind === 'name') {
      if (!this.result.vars.delete(t.id)) this.fail('NameError', `name '${t.id}' is not defined`, t)
      return
    }
    if (t.kind === 'subscript') {
      const obj = this.eval(t.value)
      const key = this.eval(t.index)
      if (obj instanceof PyDict) {
        if (!obj.delete(key)) this.fail('KeyError', `${pyRepr(key)}`, t)
      } else if (obj instanceof PyList && typeof key === 'number') obj.items.splice(key < 0 ? obj.items.length + key : key, 1)
      else this.fail('TypeError', `'${typeName(obj)}' object doesn't support item deletion`, t)
      return
    }
    if (t.kind === 'tuple') {
      t.items.forEach((x) => this.del(x))
      return
    }
    this.fail('', 'cannot delete this expression', t)
  }

  // ---- expressions ------------------------------------------------------------------------------------

  eval(e: Expr): PyValue {
    this.budget.step()
    try {
      return this.evalInner(e)
    } catch (err) {
      if (err instanceof PyError && !(err instanceof LocatedError)) throw new LocatedError(err.pyClass, err.message, { line: e.line, column: e.column })
      if (err instanceof BudgetExceeded && err.line === undefined) Object.assign(err, { file: this.file, line: e.line, column: e.column })
      throw err
    }
  }

  private evalInner(e: Expr): PyValue {
    switch (e.kind) {
      case 'const':
        return e.value
      case 'fstring':
        return e.parts.map((p) => (typeof p === 'string' ? p : this.formatted(p))).join('')
      case 'name':
        return this.lookup(e.id, e)
      case 'list':
        return new PyList(this.items(e.items))
      case 'tuple':
        return new PyTuple(this.items(e.items))
      case 'set':
        return new PySet(this.items(e.items))
      case 'dict': {
        const d = new PyDict()
        for (const entry of e.entries) {
          if ('spread' in entry) {
            const src = this.eval(entry.spread)
            if (!(src instanceof PyDict)) this.fail('TypeError', `'${typeName(src)}' object is not a mapping`, entry.spread)
            for (const [k, v] of src.entries()) d.set(k, v)
          } else d.set(this.eval(entry.key), this.eval(entry.value))
        }
        return d
      }
      case 'starred':
        this.fail('', "can't use starred expression here", e)
        break
      case 'comp':
        return this.comprehension(e)
      case 'attr':
        return this.attribute(this.eval(e.value), e.attr, e)
      case 'subscript':
        return this.subscript(this.eval(e.value), e.index, e)
      case 'slice':
        this.fail('', 'slice outside a subscript', e)
        break
      case 'call':
        return this.call(e)
      case 'unary': {
        const v = this.eval(e.operand)
        if (e.op === 'not') return !truthy(v)
        if (typeof v !== 'number' && typeof v !== 'boolean') this.fail('TypeError', `bad operand type for unary ${e.op}: '${typeName(v)}'`, e)
        const n = Number(v)
        return e.op === '-' ? -n : e.op === '+' ? n : ~n
      }
      case 'binary':
        return this.binary(e.op, this.eval(e.left), this.eval(e.right), e)
      case 'boolop': {
        let v: PyValue = null
        for (const x of e.values) {
          v = this.eval(x)
          if (e.op === 'and' ? !truthy(v) : truthy(v)) return v
        }
        return v
      }
      case 'compare': {
        let left = this.eval(e.left)
        for (let i = 0; i < e.ops.length; i++) {
          const right = this.eval(e.comparators[i])
          if (!this.compare(e.ops[i], left, right, e)) return false
          left = right
        }
        return true
      }
      case 'ifexp':
        return truthy(this.eval(e.test)) ? this.eval(e.body) : this.eval(e.orelse)
      case 'lambda':
        return this.makeFunction('<lambda>', e.params, e.body)
      case 'unsupported':
        this.fail('', `${e.what} are outside the supported config subset`, e)
    }
    this.fail('', 'unsupported expression', e)
  }

  private items(exprs: Expr[]): PyValue[] {
    const out: PyValue[] = []
    for (const x of exprs) {
      if (x.kind === 'starred') out.push(...iterate(this.eval(x.value)))
      else out.push(this.eval(x))
    }
    return out
  }

  private formatted(f: FormattedValue): string {
    let v = this.eval(f.expr)
    if (f.conversion === 'a') v = asciiOf(pyRepr(v))
    else if (f.conversion === 'r' || (f.selfDoc && !f.conversion && !f.spec)) v = pyRepr(v)
    else if (f.conversion === 's') v = pyStr(v)
    const spec = f.spec ? f.spec.map((p) => (typeof p === 'string' ? p : this.formatted(p))).join('') : ''
    return (f.selfDoc ?? '') + formatSpec(v, spec)
  }

  private comprehension(e: Extract<Expr, { kind: 'comp' }>): PyValue {
    const out: PyValue[] = []
    const dict = new PyDict()
    // Comprehension variables live in their own scope, as in Python 3.
    this.scopes.push(new Map())
    try {
      const loop = (gens: Comprehension[]): void => {
        if (!gens.length) {
          if (e.type === 'dict') dict.set(this.eval(e.elt), this.eval(e.value as Expr))
          else {
            if (out.length >= this.budget.limits.maxItems) this.budget.items(out.length + 1)
            out.push(this.eval(e.elt))
          }
          return
        }
        const [g, ...rest] = gens
        for (const item of iterate(this.strSetOrder(this.eval(g.iter), g.iter))) {
          this.assign(g.target, item)
          if (g.ifs.every((c) => truthy(this.eval(c)))) loop(rest)
        }
      }
      loop(e.generators)
    } finally {
      this.scopes.pop()
    }
    if (e.type === 'dict') return dict
    if (e.type === 'set') return new PySet(out.filter((x, i) => out.findIndex((y) => pyEquals(x, y)) === i))
    return e.type === 'list' ? new PyList(out) : new PyTuple(out)
  }

  private attribute(obj: PyValue, name: string, at: Expr): PyValue {
    if (obj === ENVIRON) {
      if (name === 'get') return new PyBuiltin('get', (a, _kw, site) => this.environ(a[0], a[1] ?? null, site))
      this.fail('AttributeError', `os.environ.${name} is outside the supported config subset (the environment is not read)`, at)
    }
    if (obj instanceof PyModule && obj.name === 'os' && name === 'environ') return ENVIRON
    if (obj instanceof PyModule && obj.name === 'os' && name === 'getenv') return new PyBuiltin('getenv', (a, _kw, site) => this.environ(a[0], a[1] ?? null, site))
    if (obj instanceof PyModule) return moduleAttribute(obj, name)
    if (obj instanceof PyRef) return new PyRef(name, `${obj.module}.${obj.name}`)
    const m = method(obj, name)
    if (m) return m
    // ConfigDict (what mmengine makes of dicts imported from base configs) reads keys as attributes.
    if (obj instanceof PyDict && obj.has(name)) return obj.get(name) as PyValue
    this.fail('AttributeError', `'${typeName(obj)}' object has no attribute '${name}'`, at)
  }

  private index(len: number, v: PyValue, at: Expr): number {
    if (typeof v !== 'number' && typeof v !== 'boolean') this.fail('TypeError', `indices must be integers, not ${typeName(v)}`, at)
    const n = Number(v)
    const k = n < 0 ? len + n : n
    if (k < 0 || k >= len) this.fail('IndexError', 'index out of range', at)
    return k
  }

  private subscript(obj: PyValue, index: Expr, at: Expr): PyValue {
    if (index.kind === 'slice') {
      const seq = typeof obj === 'string' ? [...obj] : obj instanceof PyList || obj instanceof PyTuple ? obj.items : null
      if (!seq) this.fail('TypeError', `'${typeName(obj)}' object is not subscriptable`, at)
      const num = (x?: Expr): number | undefined => (x ? Number(this.eval(x)) : undefined)
      const step = num(index.step) ?? 1
      if (step === 0) this.fail('ValueError', 'slice step cannot be zero', at)
      const len = seq.length
      const norm = (v: number | undefined, dflt: number): number => {
        if (v === undefined) return dflt
        if (v < 0) return Math.max(step < 0 ? -1 : 0, len + v)
        return Math.min(v, step < 0 ? len - 1 : len)
      }
      const start = norm(num(index.lower), step > 0 ? 0 : len - 1)
      const stop = norm(num(index.upper), step > 0 ? len : -1)
      const picked: PyValue[] = []
      for (let i = start; step > 0 ? i < stop : i > stop; i += step) picked.push(seq[i])
      if (typeof obj === 'string') return picked.join('')
      return obj instanceof PyTuple ? new PyTuple(picked) : new PyList(picked)
    }
    const key = this.eval(index)
    if (obj === ENVIRON) {
      this.environ(key, null, at)
      this.fail('KeyError', `${pyRepr(key)} (the environment is not read; use os.environ.get(name, default))`, at)
    }
    if (obj instanceof PyDict) {
      if (!obj.has(key)) this.fail('KeyError', `${pyRepr(key)}`, at)
      return obj.get(key) as PyValue
    }
    // Type subscripts (list[str], Dict[str, int]) only annotate; they stand for the type itself.
    if ((obj instanceof PyBuiltin && !(obj instanceof PyFunction)) || obj instanceof PyRef) return obj
    if (obj instanceof PyList || obj instanceof PyTuple) return obj.items[this.index(obj.items.length, key, at)]
    if (typeof obj === 'string') {
      const cps = [...obj]
      return cps[this.index(cps.length, key, at)]
    }
    this.fail('TypeError', `'${typeName(obj)}' object is not subscriptable`, at)
  }

  private call(e: Extract<Expr, { kind: 'call' }>): PyValue {
    const f = this.eval(e.func)
    const args: PyValue[] = []
    const kwargs = new Map<string, PyValue>()
    for (const a of e.args) {
      if (a.kind === 'pos') args.push(this.eval(a.value))
      else if (a.kind === 'star') args.push(...iterate(this.eval(a.value)))
      else if (a.kind === 'kw') {
        if (kwargs.has(a.name)) this.fail('SyntaxError', `keyword argument repeated: ${a.name}`, a.value)
        kwargs.set(a.name, this.eval(a.value))
      } else {
        const d = this.eval(a.value)
        if (!(d instanceof PyDict)) this.fail('TypeError', `argument after ** must be a mapping, not ${typeName(d)}`, a.value)
        for (const [k, v] of d.entries()) {
          if (typeof k !== 'string') this.fail('TypeError', 'keywords must be strings', a.value)
          if (kwargs.has(k)) this.fail('TypeError', `got multiple values for keyword argument '${k}'`, a.value)
          kwargs.set(k, v)
        }
      }
    }
    if (f instanceof PyBuiltin && ORDER_TAKING.has(f.name)) for (const a of args) this.strSetOrder(a, e)
    if (f instanceof PyBuiltin) return f.call(args, kwargs, { line: e.line, column: e.column })
    if (f === READ_BASE) return null
    if (f instanceof PyRef) {
      this.fail('', `calling '${f.name}' (imported from ${f.module}) is outside the supported config subset; configs pass classes as type=${f.name}`, e)
    }
    this.fail('TypeError', `'${typeName(f)}' object is not callable`, e)
  }

  private binary(op: string, a: PyValue, b: PyValue, at: { line: number; column: number }): PyValue {
    const bothNum = (typeof a === 'number' || typeof a === 'boolean') && (typeof b === 'number' || typeof b === 'boolean')
    const x = Number(a)
    const y = Number(b)
    try {
      switch (op) {
        case '+':
          return add(a, b)
        case '-':
          if (bothNum) return x - y
          break
        case '*':
          if (bothNum) return x * y
          if ((typeof a === 'string' || a instanceof PyList || a instanceof PyTuple) && (typeof b === 'number' || typeof b === 'boolean')) return this.repeat(a, Number(b))
          if ((typeof b === 'string' || b instanceof PyList || b instanceof PyTuple) && (typeof a === 'number' || typeof a === 'boolean')) return this.repeat(b, Number(a))
          break
        case '/':
          if (bothNum) {
            if (y === 0) this.fail('ZeroDivisionError', 'division by zero', at)
            return x / y
          }
          break
        case '//':
          if (bothNum) {
            if (y === 0) this.fail('ZeroDivisionError', 'integer division or modulo by zero', at)
            return Math.floor(x / y)
          }
          break
        case '%':
          if (typeof a === 'string') return percentFormat(a, b)
          if (bothNum) {
            if (y === 0) this.fail('ZeroDivisionError', 'integer division or modulo by zero', at)
            return x - y * Math.floor(x / y)
          }
          break
        case '**':
          if (bothNum) return x ** y
          break
        case '|':
          if (a instanceof PyDict && b instanceof PyDict) {
            const d = new PyDict()
            for (const [k, v] of [...a.entries(), ...b.entries()]) d.set(k, v)
            return d
          }
          if (bothNum) return x | y
          // `str | None` in an annotation: a union of types stands for its first type.
          if ((a instanceof PyBuiltin || a instanceof PyRef || a === null) && (b instanceof PyBuiltin || b instanceof PyRef || b === null)) return a
          break
        case '&':
          if (bothNum) return x & y
          break
        case '^':
          if (bothNum) return x ^ y
          break
        case '<<':
          if (bothNum) return x << y
          break
        case '>>':
          if (bothNum) return x >> y
          break
      }
    } catch (err) {
      if (err instanceof PyError) this.fail(err.pyClass, err.message, at)
      throw err
    }
    this.fail('TypeError', `unsupported operand type(s) for ${op}: '${typeName(a)}' and '${typeName(b)}'`, at)
  }

  /** seq * n, checked against the budget before anything is allocated. */
  private repeat(seq: string | PyList | PyTuple, n: number): PyValue {
    const times = Math.max(0, Math.trunc(n))
    if (typeof seq === 'string') {
      this.budget.string(seq.length * times)
      return seq.repeat(times)
    }
    this.budget.items(seq.items.length * times)
    const out: PyValue[] = []
    for (let i = 0; i < times; i++) for (const x of seq.items) out.push(x)
    return seq instanceof PyList ? new PyList(out) : new PyTuple(out)
  }

  private compare(op: string, a: PyValue, b: PyValue, at: Expr): boolean {
    switch (op) {
      case '==':
        return pyEquals(a, b)
      case '!=':
        return !pyEquals(a, b)
      case 'is':
        return a === b || (a === null && b === null)
      case 'is not':
        return !(a === b || (a === null && b === null))
      case 'in':
      case 'not in':
        return this.located(at, () => runtime.contains(b, a) === (op === 'in'))
    }
    return this.located(at, () => runtime.compare(op as OrderOp, a, b))
  }

  /** Runs a runtime operation, reporting its PyError at `at`. */
  private located<T>(at: Expr, f: () => T): T {
    try {
      return f()
    } catch (err) {
      if (err instanceof PyError) this.fail(err.pyClass, err.message, at)
      throw err
    }
  }
}
