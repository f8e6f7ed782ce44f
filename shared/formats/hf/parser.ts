// Parses tokens to the same tree as @huggingface/jinja 0.5.11's `parse` (same node types and fields, so the
// compiler reads either), with every node's source span added as `span`: it covers the node's tokens, and
// a statement's opening tag. Where upstream fails, this fails too, with a span and, for block
// structure and early ends, a message that names the block at fault.
// test/unit/hf/positions.test.ts checks the trees equal upstream's on every real template.
// Derived from @huggingface/jinja 0.5.11 (huggingface.js, packages/jinja), MIT License, Copyright (c) Hugging Face.
import type { Token, TokenType } from './lexer'
import { TemplateSyntaxError, type Span } from './positions'

/** Every node: upstream's type name and fields, plus the source span it covers. */
interface At<T extends string> {
  type: T
  span: Span
}
export interface Identifier extends At<'Identifier'> {
  value: string
}
export interface StringLiteral extends At<'StringLiteral'> {
  value: string
}
export interface IntegerLiteral extends At<'IntegerLiteral'> {
  value: number
}
export interface FloatLiteral extends At<'FloatLiteral'> {
  value: number
}
export interface ArrayLiteral extends At<'ArrayLiteral'> {
  value: Expression[]
}
export interface TupleLiteral extends At<'TupleLiteral'> {
  value: Expression[]
}
export interface ObjectLiteral extends At<'ObjectLiteral'> {
  value: Map<Expression, Expression>
}
export interface MemberExpression extends At<'MemberExpression'> {
  object: Expression
  property: Expression
  /** `a[b]` (true) or `a.b` (false). */
  computed: boolean
}
export interface CallExpression extends At<'CallExpression'> {
  callee: Expression
  args: Expression[]
}
export interface BinaryExpression extends At<'BinaryExpression'> {
  operator: Token
  left: Expression
  right: Expression
}
export interface UnaryExpression extends At<'UnaryExpression'> {
  operator: Token
  argument: Expression
}
export interface FilterExpression extends At<'FilterExpression'> {
  operand: Expression
  /** A name or a call of one (upstream's parser also lets `| f(a).b` through; the compiler refuses it). */
  filter: Expression
  /** Where `| name` starts, so a failing filter is placed at it rather than at its whole operand. */
  pipeStart: number
}
export interface TestExpression extends At<'TestExpression'> {
  operand: Expression
  negate: boolean
  test: Identifier
}
/** `lhs if test` without `else` (a for loop's filter). */
export interface SelectExpression extends At<'SelectExpression'> {
  lhs: Expression
  test: Expression
}
export interface Ternary extends At<'Ternary'> {
  condition: Expression
  trueExpr: Expression
  falseExpr: Expression
}
export interface KeywordArgumentExpression extends At<'KeywordArgumentExpression'> {
  key: Identifier
  value: Expression
}
export interface SpreadExpression extends At<'SpreadExpression'> {
  argument: Expression
}
export interface KeywordSpreadExpression extends At<'KeywordSpreadExpression'> {
  argument: Expression
}
export interface SliceExpression extends At<'SliceExpression'> {
  start: Expression | undefined
  stop: Expression | undefined
  step: Expression | undefined
}
export type Expression =
  | Identifier
  | StringLiteral
  | IntegerLiteral
  | FloatLiteral
  | ArrayLiteral
  | TupleLiteral
  | ObjectLiteral
  | MemberExpression
  | CallExpression
  | BinaryExpression
  | UnaryExpression
  | FilterExpression
  | TestExpression
  | SelectExpression
  | Ternary
  | KeywordArgumentExpression
  | SpreadExpression
  | KeywordSpreadExpression
  | SliceExpression

export interface If extends At<'If'> {
  test: Expression
  body: Statement[]
  /** The else branch; an `elif` is one nested If here. */
  alternate: Statement[]
}
export interface For extends At<'For'> {
  loopvar: Identifier | TupleLiteral
  iterable: Expression
  body: Statement[]
  /** `{% else %}`: rendered when the loop ran no iteration. */
  defaultBlock: Statement[]
}
/** `{% set x = v %}` (value) or `{% set x %}…{% endset %}` (body). */
export interface SetStatement extends At<'Set'> {
  assignee: Expression
  value: Expression | null
  body: Statement[]
}
export interface Macro extends At<'Macro'> {
  name: Identifier
  args: Expression[]
  body: Statement[]
}
export interface CallStatement extends At<'CallStatement'> {
  call: CallExpression
  callerArgs: Expression[] | null
  body: Statement[]
}
export interface FilterStatement extends At<'FilterStatement'> {
  filter: Expression
  body: Statement[]
}
export type Break = At<'Break'>
export type Continue = At<'Continue'>
export interface Comment extends At<'Comment'> {
  value: string
}
/** What a template body holds: block statements, text (StringLiteral) and `{{ … }}` output expressions. */
export type Statement = If | For | SetStatement | Macro | CallStatement | FilterStatement | Break | Continue | Comment | Expression
export type Node = Statement
export type NodeType = Node['type']
type NodeOf<T extends NodeType> = Extract<Node, { type: T }>

/**
 * How deeply blocks and expressions may nest. jinja2's own parser hits Python's recursion limit well before
 * this (around 100 nested brackets); without a limit a hostile template overflows the JavaScript stack.
 */
export const MAX_NESTING = 200

const BLOCK_END: Record<string, string> = { if: 'endif', for: 'endfor', macro: 'endmacro', call: 'endcall', filter: 'endfilter', set: 'endset' }

/** The tree of a token list: `{ type: 'Program', body }`. Throws TemplateSyntaxError with a span. */
export function parseTokens(tokens: Token[]): { type: 'Program'; body: Statement[] } {
  let current = 0
  // Open blocks and the tag being read, to say which one an early end or a stray end tag concerns.
  const blocks: { name: string; tag: Span }[] = []
  let tagStart = -1

  const spanFrom = (first: number, last = current - 1): Span => ({ start: tokens[first].start, end: tokens[Math.max(first, last)].end })
  // Not `start`/`end` on the node itself: SliceExpression already has a field named `start`.
  const node = <T extends NodeType>(type: T, fields: Omit<NodeOf<T>, 'type' | 'span'>, at: Span): NodeOf<T> => ({ type, ...fields, span: { start: at.start, end: at.end } }) as NodeOf<T>
  /** The tag that starts at token `open`, up to its closing %} or }} when there is one. */
  const tagAt = (open: number): Span => {
    let k = open
    while (k + 1 < tokens.length && tokens[k].type !== 'CloseStatement' && tokens[k].type !== 'CloseExpression') k++
    return spanFrom(open, k)
  }
  function fail(message: string, at: number | Span): never {
    const span = typeof at === 'number' ? spanFrom(Math.min(at, tokens.length - 1), Math.min(at, tokens.length - 1)) : at
    throw new TemplateSyntaxError(message, span)
  }
  /** Upstream reads past the last token here (and fails with a TypeError); say what was left open. */
  const endOfTemplate = (): never => {
    const open = blocks[blocks.length - 1]
    if (tagStart >= 0) {
      const what = tokens[tagStart].type === 'OpenExpression' ? '{{ … }}' : '{% … %}'
      fail(`Unexpected end of template: this ${what} is never closed`, tagAt(tagStart))
    }
    if (open) fail(`Unexpected end of template: {% ${open.name} %} is never closed (missing {% ${BLOCK_END[open.name]} %})`, open.tag)
    return fail('Unexpected end of template', tokens.length - 1)
  }
  const tok = (i: number): Token => tokens[i] ?? endOfTemplate()
  let depth = 0
  /** Runs one nested parse, failing at the current token when nesting goes past MAX_NESTING. */
  function nested<T>(parse: () => T): T {
    if (++depth > MAX_NESTING) fail(`the template nests blocks or expressions more than ${MAX_NESTING} levels deep`, current)
    try {
      return parse()
    } finally {
      depth--
    }
  }

  function expect(type: TokenType, error: string): Token {
    const prev = tok(current++)
    if (prev.type !== type) fail(`Parser Error: ${error}. ${prev.type} !== ${type}.`, current - 1)
    return prev
  }
  function expectIdentifier(name: string): void {
    if (!isIdentifier(name)) fail(`Expected ${name}`, current)
    ++current
  }
  function is(...types: TokenType[]): boolean {
    return current + types.length <= tokens.length && types.every((type, i) => type === tokens[current + i].type)
  }
  function isStatement(...names: string[]): boolean {
    return tokens[current]?.type === 'OpenStatement' && tokens[current + 1]?.type === 'Identifier' && names.includes(tokens[current + 1]?.value)
  }
  function isIdentifier(...names: string[]): boolean {
    return current + names.length <= tokens.length && names.every((name, i) => tokens[current + i].type === 'Identifier' && name === tokens[current + i].value)
  }
  /** The statements of a block body, up to one of `ends` (the caller consumes it). */
  function bodyUntil(...ends: string[]): Statement[] {
    const body: Statement[] = []
    while (!isStatement(...ends)) body.push(parseAny())
    return body
  }

  function parseAny(): Statement {
    const t = tok(current)
    switch (t.type) {
      case 'Comment':
        return node('Comment', { value: tokens[current++].value }, t)
      case 'Text':
        return node('StringLiteral', { value: expect('Text', 'Expected text token').value }, t)
      case 'OpenStatement':
        return nested(parseJinjaStatement)
      case 'OpenExpression':
        return parseJinjaExpression()
      default:
        return fail(`Unexpected token type: ${t.type}`, current)
    }
  }

  /** A stray or mismatched end / middle tag, explained by the innermost open block. */
  function unknownStatement(name: string, open: number): never {
    const tag = tagAt(open)
    const top = blocks[blocks.length - 1]
    if (name.startsWith('end') && name.slice(3) in BLOCK_END) {
      if (!top) fail(`{% ${name} %} has no matching {% ${name.slice(3)} %} before it`, tag)
      else fail(`{% ${name} %} closes {% ${top.name} %}, which expects {% ${BLOCK_END[top.name]} %}`, tag)
    }
    if (name === 'elif' || name === 'else') {
      const where = name === 'elif' ? '{% if %}' : '{% if %} or {% for %}'
      fail(`{% ${name} %} is outside any ${where} block${top ? ` (the innermost open block is {% ${top.name} %})` : ''}`, tag)
    }
    return fail(`Unknown statement type: ${name}`, tag)
  }

  function parseJinjaStatement(): Statement {
    const open = current
    const outerTag = tagStart
    tagStart = open
    expect('OpenStatement', 'Expected opening statement token')
    if (tok(current).type !== 'Identifier') fail(`Unknown statement, got ${tokens[current].type}`, current)
    const name = tokens[current].value
    // A block's own node spans its opening tag; the tag ends at the first %} after it.
    const block = (): Span => tagAt(open)
    let result: Statement
    const enter = (): void => void blocks.push({ name, tag: block() })
    const closeWith = (end: string): void => {
      expect('OpenStatement', 'Expected {% token')
      expectIdentifier(end)
      expect('CloseStatement', 'Expected %} token')
    }
    switch (name) {
      case 'set':
        ++current
        result = parseSetStatement(open)
        break
      case 'if':
        ++current
        enter()
        result = parseIfStatement(open)
        tagStart = -1
        closeWith('endif')
        blocks.pop()
        break
      case 'macro':
        ++current
        enter()
        result = parseMacroStatement(open)
        tagStart = -1
        closeWith('endmacro')
        blocks.pop()
        break
      case 'for':
        ++current
        enter()
        result = parseForStatement(open)
        tagStart = -1
        closeWith('endfor')
        blocks.pop()
        break
      case 'call': {
        ++current
        let callerArgs: Expression[] | null = null
        if (is('OpenParen')) callerArgs = parseArgs('parameters')
        const calleeAt = current
        const callee = parsePrimaryExpression()
        if (callee.type !== 'Identifier') fail('Expected identifier following call statement', spanFrom(calleeAt))
        const callArgs = parseArgs('call')
        const callEnd = tokens[current - 1].end
        expect('CloseStatement', 'Expected closing statement token')
        tagStart = -1
        enter()
        const body = bodyUntil('endcall')
        expect('OpenStatement', "Expected '{%'")
        expectIdentifier('endcall')
        expect('CloseStatement', 'Expected closing statement token')
        blocks.pop()
        const callExpr = node('CallExpression', { callee, args: callArgs }, { start: callee.span.start, end: callEnd })
        result = node('CallStatement', { call: callExpr, callerArgs, body }, block())
        break
      }
      case 'break':
      case 'continue':
        ++current
        expect('CloseStatement', 'Expected closing statement token')
        result = node(name === 'break' ? 'Break' : 'Continue', {}, block())
        break
      case 'filter': {
        ++current
        const filterAt = current
        let filterNode = parsePrimaryExpression()
        if (filterNode.type === 'Identifier' && is('OpenParen')) filterNode = parseCallExpression(filterNode, filterAt)
        expect('CloseStatement', 'Expected closing statement token')
        tagStart = -1
        enter()
        const filterBody = bodyUntil('endfilter')
        expect('OpenStatement', "Expected '{%'")
        expectIdentifier('endfilter')
        expect('CloseStatement', "Expected '%}'")
        blocks.pop()
        result = node('FilterStatement', { filter: filterNode, body: filterBody }, block())
        break
      }
      default:
        return unknownStatement(name, open)
    }
    tagStart = outerTag
    return result
  }

  function parseJinjaExpression(): Expression {
    const outerTag = tagStart
    tagStart = current
    expect('OpenExpression', 'Expected opening expression token')
    const result = parseExpression()
    expect('CloseExpression', 'Expected closing expression token')
    tagStart = outerTag
    return result
  }

  function parseSetStatement(open: number): Statement {
    const left = parseExpressionSequence()
    let value: Expression | null = null
    const body: Statement[] = []
    if (is('Equals')) {
      ++current
      value = parseExpressionSequence()
    } else {
      expect('CloseStatement', 'Expected %} token')
      tagStart = -1
      blocks.push({ name: 'set', tag: tagAt(open) })
      body.push(...bodyUntil('endset'))
      expect('OpenStatement', 'Expected {% token')
      expectIdentifier('endset')
      blocks.pop()
    }
    expect('CloseStatement', 'Expected closing statement token')
    return node('Set', { assignee: left, value, body }, tagAt(open))
  }

  function parseIfStatement(open: number): Statement {
    const test = parseExpression()
    expect('CloseStatement', 'Expected closing statement token')
    tagStart = -1
    const body = bodyUntil('elif', 'else', 'endif')
    const alternate: Statement[] = []
    if (isStatement('elif')) {
      const elif = current
      ++current
      ++current
      tagStart = elif
      alternate.push(parseIfStatement(elif))
    } else if (isStatement('else')) {
      ++current
      ++current
      expect('CloseStatement', 'Expected closing statement token')
      tagStart = -1
      alternate.push(...bodyUntil('endif'))
    }
    return node('If', { test, body, alternate }, tagAt(open))
  }

  function parseMacroStatement(open: number): Statement {
    const nameAt = current
    const name = parsePrimaryExpression()
    if (name.type !== 'Identifier') fail('Expected identifier following macro statement', spanFrom(nameAt))
    const args = parseArgs('parameters')
    expect('CloseStatement', 'Expected closing statement token')
    tagStart = -1
    const body = bodyUntil('endmacro')
    return node('Macro', { name, args, body }, tagAt(open))
  }

  function parseExpressionSequence(primary = false): Expression {
    const first = current
    const fn = primary ? parsePrimaryExpression : parseExpression
    const expressions = [fn()]
    const isTuple = is('Comma')
    while (isTuple) {
      ++current
      expressions.push(fn())
      if (!is('Comma')) break
    }
    return isTuple ? node('TupleLiteral', { value: expressions }, spanFrom(first)) : expressions[0]
  }

  function parseForStatement(open: number): Statement {
    const varAt = current
    const loopVariable = parseExpressionSequence(true)
    if (!(loopVariable.type === 'Identifier' || loopVariable.type === 'TupleLiteral')) {
      fail(`Expected identifier/tuple for the loop variable, got ${loopVariable.type} instead`, spanFrom(varAt))
    }
    if (!isIdentifier('in')) fail('Expected `in` keyword following loop variable', current)
    ++current
    const iterable = parseExpression()
    expect('CloseStatement', 'Expected closing statement token')
    tagStart = -1
    const body = bodyUntil('endfor', 'else')
    const alternative: Statement[] = []
    if (isStatement('else')) {
      ++current
      ++current
      expect('CloseStatement', 'Expected closing statement token')
      alternative.push(...bodyUntil('endfor'))
    }
    return node('For', { loopvar: loopVariable, iterable, body, defaultBlock: alternative }, tagAt(open))
  }

  function parseExpression(): Expression {
    return nested(parseIfExpression)
  }

  function parseIfExpression(): Expression {
    const first = current
    const a = parseLogicalOrExpression()
    if (isIdentifier('if')) {
      ++current
      const test = parseLogicalOrExpression()
      if (isIdentifier('else')) {
        ++current
        const falseExpr = nested(parseIfExpression)
        return node('Ternary', { condition: test, trueExpr: a, falseExpr }, spanFrom(first))
      }
      return node('SelectExpression', { lhs: a, test }, spanFrom(first))
    }
    return a
  }

  function binaryChain(next: () => Expression, operatorAt: () => boolean): Expression {
    const first = current
    let left = next()
    while (operatorAt()) {
      const operator = tokens[current++]
      const right = next()
      left = node('BinaryExpression', { operator, left, right }, spanFrom(first))
    }
    return left
  }

  function parseLogicalOrExpression(): Expression {
    return binaryChain(parseLogicalAndExpression, () => isIdentifier('or'))
  }

  function parseLogicalAndExpression(): Expression {
    return binaryChain(parseLogicalNegationExpression, () => isIdentifier('and'))
  }

  function parseLogicalNegationExpression(): Expression {
    let right: Expression | undefined
    while (isIdentifier('not')) {
      const first = current
      const operator = tokens[current]
      ++current
      const arg = nested(parseLogicalNegationExpression)
      right = node('UnaryExpression', { operator, argument: arg }, spanFrom(first))
    }
    return right ?? parseComparisonExpression()
  }

  function parseComparisonExpression(): Expression {
    const first = current
    let left = parseAdditiveExpression()
    for (;;) {
      let operator: Token
      if (isIdentifier('not', 'in')) {
        operator = { value: 'not in', type: 'Identifier', start: tokens[current].start, end: tokens[current + 1].end }
        current += 2
      } else if (isIdentifier('in')) operator = tokens[current++]
      else if (is('ComparisonBinaryOperator')) operator = tokens[current++]
      else break
      const right = parseAdditiveExpression()
      left = node('BinaryExpression', { operator, left, right }, spanFrom(first))
    }
    return left
  }

  function parseAdditiveExpression(): Expression {
    return binaryChain(parseMultiplicativeExpression, () => is('AdditiveBinaryOperator'))
  }

  function parseCallMemberExpression(): Expression {
    const first = current
    const member = parseMemberExpression(parsePrimaryExpression(), first)
    if (is('OpenParen')) return parseCallExpression(member, first)
    return member
  }

  function parseCallExpression(callee: Expression, first: number): Expression {
    const args = parseArgs('call')
    let expression: Expression = node('CallExpression', { callee, args }, spanFrom(first))
    expression = parseMemberExpression(expression, first)
    if (is('OpenParen')) expression = nested(() => parseCallExpression(expression, first))
    return expression
  }

  function parseArgs(mode: 'call' | 'parameters'): Expression[] {
    expect('OpenParen', 'Expected opening parenthesis for arguments list')
    const args = parseArgumentsList(mode)
    expect('CloseParen', 'Expected closing parenthesis for arguments list')
    return args
  }

  function parseArgumentsList(mode: 'call' | 'parameters'): Expression[] {
    const args: Expression[] = []
    const parameterNames = new Set<string>()
    let sawKeywordOrDefault = false
    let sawSpreadArgument = false
    while (!is('CloseParen')) {
      const first = current
      const isKeywordSpread = is('ExponentiationBinaryOperator')
      const isPositionalSpread = is('MultiplicativeBinaryOperator') && tokens[current].value === '*'
      if (mode === 'parameters' && (isKeywordSpread || isPositionalSpread)) fail('Argument unpacking is not allowed in parameter declarations', current)
      if (isKeywordSpread) {
        ++current
        args.push(node('KeywordSpreadExpression', { argument: parseExpression() }, spanFrom(first)))
        if (is('Comma')) ++current
        if (!is('CloseParen')) fail('Expected closing parenthesis: `**` must be applied to the final argument', current)
        break
      }
      let argument: Expression
      if (isPositionalSpread) {
        if (sawSpreadArgument) fail('Only one `*` argument unpacking is allowed', current)
        sawSpreadArgument = true
        ++current
        argument = node('SpreadExpression', { argument: parseExpression() }, spanFrom(first))
      } else {
        argument = parseExpression()
        if (is('Equals')) {
          ++current
          if (argument.type !== 'Identifier') {
            fail(mode === 'parameters' ? 'Expected identifier for parameter declaration' : 'Expected identifier for keyword argument', spanFrom(first))
          }
          const value = parseExpression()
          argument = node('KeywordArgumentExpression', { key: argument, value }, spanFrom(first))
        }
        if (mode === 'parameters') {
          if (!(argument.type === 'Identifier' || argument.type === 'KeywordArgumentExpression')) fail('Expected identifier for parameter declaration', spanFrom(first))
          const parameterName: string = argument.type === 'Identifier' ? argument.value : argument.key.value
          if (parameterNames.has(parameterName)) fail(`Duplicate parameter name: ${parameterName}`, spanFrom(first))
          parameterNames.add(parameterName)
        }
        if (argument.type === 'KeywordArgumentExpression') sawKeywordOrDefault = true
        else if (sawKeywordOrDefault) {
          fail(mode === 'call' ? 'Positional arguments must come before keyword arguments' : 'Non-default argument follows default argument', spanFrom(first))
        } else if (sawSpreadArgument) fail('Positional arguments must not follow `*` argument unpacking', spanFrom(first))
      }
      args.push(argument)
      if (is('Comma')) ++current
    }
    return args
  }

  function parseMemberExpressionArgumentsList(): Expression {
    const first = current
    const slices: (Expression | undefined)[] = []
    let isSlice = false
    while (!is('CloseSquareBracket')) {
      if (current >= tokens.length) endOfTemplate()
      if (is('Colon')) {
        slices.push(undefined)
        ++current
        isSlice = true
      } else {
        slices.push(parseExpression())
        if (is('Colon')) {
          ++current
          isSlice = true
        }
      }
    }
    if (slices.length === 0) fail('Expected at least one argument for member/slice expression', current)
    if (isSlice) {
      if (slices.length > 3) fail('Expected 0-3 arguments for slice expression', spanFrom(first))
      const [start, stop, step] = slices
      return node('SliceExpression', { start, stop, step }, spanFrom(first))
    }
    return slices[0] as Expression
  }

  function parseMemberExpression(object: Expression, first: number): Expression {
    while (is('Dot') || is('OpenSquareBracket')) {
      const operator = tokens[current]
      ++current
      let property: Expression
      const computed = operator.type === 'OpenSquareBracket'
      if (computed) {
        property = parseMemberExpressionArgumentsList()
        expect('CloseSquareBracket', 'Expected closing square bracket')
      } else {
        property = parsePrimaryExpression()
        if (property.type !== 'Identifier' && property.type !== 'IntegerLiteral') fail('Expected identifier or integer following dot operator', current - 1)
      }
      object = node('MemberExpression', { object, property, computed }, spanFrom(first))
    }
    return object
  }

  function parseMultiplicativeExpression(): Expression {
    return binaryChain(parsePowerExpression, () => is('MultiplicativeBinaryOperator'))
  }

  function parsePowerExpression(): Expression {
    return binaryChain(parseTestExpression, () => is('ExponentiationBinaryOperator'))
  }

  function parseTestExpression(): Expression {
    const first = current
    let operand = parseFilterExpression()
    while (isIdentifier('is')) {
      ++current
      const negate = isIdentifier('not')
      if (negate) ++current
      const filter = parsePrimaryExpression()
      if (filter.type !== 'Identifier') fail('Expected identifier for the test', current - 1)
      operand = node('TestExpression', { operand, negate, test: filter }, spanFrom(first))
    }
    return operand
  }

  function parseFilterExpression(): Expression {
    const first = current
    let operand = parseUnarySignExpression()
    while (is('Pipe')) {
      const pipe = current
      ++current
      const filterAt = current
      let filter = parsePrimaryExpression()
      if (filter.type !== 'Identifier') fail('Expected identifier for the filter', spanFrom(filterAt))
      if (is('OpenParen')) filter = parseCallExpression(filter, filterAt)
      // `pipeStart` lets a failing filter be placed at `| name(…)` rather than at its whole operand.
      operand = node('FilterExpression', { operand, filter, pipeStart: tokens[pipe].start }, spanFrom(first))
    }
    return operand
  }

  function parseUnarySignExpression(): Expression {
    const token = tokens[current]
    if (token && (token.type === 'UnaryOperator' || token.type === 'AdditiveBinaryOperator') && (token.value === '-' || token.value === '+')) {
      const first = current
      const operator = tokens[current++]
      const argument = nested(parseUnarySignExpression)
      return node('UnaryExpression', { operator, argument }, spanFrom(first))
    }
    return parseCallMemberExpression()
  }

  function parsePrimaryExpression(): Expression {
    const first = current
    const token = tok(current++)
    switch (token.type) {
      case 'NumericLiteral': {
        const num = token.value
        return node(num.includes('.') ? 'FloatLiteral' : 'IntegerLiteral', { value: Number(num) }, token)
      }
      case 'StringLiteral': {
        let value = token.value
        while (is('StringLiteral')) value += tokens[current++].value
        return node('StringLiteral', { value }, spanFrom(first))
      }
      case 'Identifier':
        return node('Identifier', { value: token.value }, token)
      case 'OpenParen': {
        const expression = parseExpressionSequence()
        expect('CloseParen', 'Expected closing parenthesis, got ${tokens[current].type} instead.')
        return expression
      }
      case 'OpenSquareBracket': {
        const values: Expression[] = []
        while (!is('CloseSquareBracket')) {
          if (current >= tokens.length) endOfTemplate()
          values.push(parseExpression())
          if (is('Comma')) ++current
        }
        ++current
        return node('ArrayLiteral', { value: values }, spanFrom(first))
      }
      case 'OpenCurlyBracket': {
        const values = new Map<Expression, Expression>()
        while (!is('CloseCurlyBracket')) {
          if (current >= tokens.length) endOfTemplate()
          const key = parseExpression()
          expect('Colon', 'Expected colon between key and value in object literal')
          const value = parseExpression()
          values.set(key, value)
          if (is('Comma')) ++current
        }
        ++current
        return node('ObjectLiteral', { value: values }, spanFrom(first))
      }
      default:
        return fail(`Unexpected token: ${token.type}`, first)
    }
  }

  const body: Statement[] = []
  while (current < tokens.length) body.push(parseAny())
  return { type: 'Program', body }
}
