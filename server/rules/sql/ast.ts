// The parsed rule SQL, shaped like rulesql's parse tree (emqx_rule_sqlparser's #select{}) with source
// positions added for error messages and editors.
import type { Position } from './lexer.ts'

export type ArithOp = '+' | '-' | '*' | '/' | 'div' | 'mod'
export type CompareOp = '=' | '=~' | '~=' | '!=' | '<>' | '<' | '>' | '<=' | '>='

/** One step into a map or list: `.key` / `.'key'` / `."key"`, or `[n]` (1-based; 0 head, -0 tail, negative from the end) / `[path]`. */
export type Segment =
  | { key: string }
  | { index: number | 'head' | 'tail' }
  | { indexOf: PathExpr }

export interface PathExpr { type: 'path'; segments: Segment[]; pos: Position }

export type Expr =
  | PathExpr
  | { type: 'const'; value: string | number | boolean; float?: boolean; pos: Position }
  | { type: 'range'; begin: number; end: number; pos: Position }
  | { type: 'get_range'; begin: number; end: number; of: PathExpr; pos: Position }
  | { type: 'list'; items: Expr[]; pos: Position }
  | { type: 'unary'; op: '+' | '-'; arg: Expr; pos: Position }
  | { type: 'arith'; op: ArithOp; left: Expr; right: Expr; pos: Position }
  | { type: 'compare'; op: CompareOp; left: Expr; right: Expr; pos: Position }
  | { type: 'and' | 'or'; left: Expr; right: Expr; pos: Position }
  | { type: 'not'; arg: Expr; pos: Position }
  | { type: 'in'; arg: Expr; list: Expr[]; pos: Position }
  | { type: 'case'; on?: Expr; clauses: { when: Expr; then: Expr }[]; else?: Expr; pos: Position }
  | { type: 'call'; name: string; args: Expr[]; pos: Position }

export type Field =
  | { type: 'star'; pos: Position }
  | { type: 'field'; expr: Expr; alias?: PathExpr; pos: Position }

export interface Statement {
  kind: 'select' | 'foreach'
  fields: Field[]
  /** FOREACH's DO fields; empty when there is no DO. */
  doEach: Field[]
  incase?: Expr
  from: string[]
  where?: Expr
}
