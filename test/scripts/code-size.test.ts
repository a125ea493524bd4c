/**
 * @module Sizes in `src/` as a reader meets them (issue 45): no file over 400 lines and no function over 80
 * lines, counted by span (first line to last, closing brackets included: Biome's own rule skips some lines,
 * so it counts fewer). An exception is named where it stands, with its reason: a comment
 * `// long-function: <why>` (or Biome's `biome-ignore lint/complexity/noExcessiveLinesPerFunction: <why>`)
 * just above the function, or `long-file: <why>` in the file's module comment. A function inside a longer
 * one is the longer one's business: only the outermost long function is judged.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

const ROOT = join(import.meta.dirname, '../..')
const MAX_FILE_LINES = 400
const MAX_FUNCTION_LINES = 80
const FUNCTION_EXCEPTION =
  /\/\/ (?:long-function|biome-ignore lint\/complexity\/noExcessiveLinesPerFunction): \S/
const FILE_EXCEPTION = /long-file: \S/

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : []
  })
}

type FunctionNode = ts.FunctionLikeDeclaration

function isFunction(node: ts.Node): node is FunctionNode {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isFunctionExpression(node) ||
    ts.isArrowFunction(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isConstructorDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node)
  )
}

/** The statement a function stands in (`const f = () => ...`, `export function f`), whose comments name it. */
function holder(node: FunctionNode): ts.Node {
  let at: ts.Node = node
  while (
    at.parent &&
    (ts.isVariableDeclaration(at.parent) ||
      ts.isVariableDeclarationList(at.parent) ||
      ts.isVariableStatement(at.parent) ||
      ts.isPropertyAssignment(at.parent) ||
      ts.isCallExpression(at.parent) ||
      ts.isExportAssignment(at.parent))
  ) {
    at = at.parent
  }
  return at
}

function nameOf(node: FunctionNode, file: ts.SourceFile): string {
  if (node.name) return node.name.getText(file)
  const parent = node.parent
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) return parent.name.getText(file)
  return '(anonymous)'
}

interface Finding {
  where: string
  lines: number
}

function longFunctions(path: string): Finding[] {
  const text = readFileSync(path, 'utf8')
  const kind = path.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, kind)
  const found: Finding[] = []
  const lineOf = (position: number) => file.getLineAndCharacterOfPosition(position).line
  const visit = (node: ts.Node): void => {
    if (isFunction(node)) {
      const lines = lineOf(node.getEnd()) - lineOf(node.getStart(file)) + 1
      if (lines > MAX_FUNCTION_LINES) {
        const leading = text.slice(holder(node).getFullStart(), holder(node).getStart(file))
        if (!FUNCTION_EXCEPTION.test(leading)) {
          const where = `${relative(ROOT, path)}:${lineOf(node.getStart(file)) + 1} ${nameOf(node, file)}`
          found.push({ where, lines })
        }
        return
      }
    }
    ts.forEachChild(node, visit)
  }
  visit(file)
  return found
}

const files = sourceFiles(join(ROOT, 'src'))

describe('code size in src/', () => {
  it(`has no file over ${MAX_FILE_LINES} lines but those that say why`, () => {
    const long = files.flatMap((path) => {
      const text = readFileSync(path, 'utf8')
      const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0)
      return lines > MAX_FILE_LINES && !FILE_EXCEPTION.test(text.slice(0, 2000))
        ? [`${relative(ROOT, path)}: ${lines} lines`]
        : []
    })
    expect(long).toEqual([])
  })

  it(`has no function over ${MAX_FUNCTION_LINES} lines by span but those that say why`, () => {
    const long = files.flatMap(longFunctions).map(({ where, lines }) => `${where}: ${lines} lines`)
    expect(long).toEqual([])
  })
})
