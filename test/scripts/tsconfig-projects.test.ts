/**
 * @module The two type-checking projects of `src/` (issue 45): browser code is checked with the DOM and
 * without Node's types (`config/tsconfig.browser.json`), server code with Node's types and without the DOM
 * (`config/tsconfig.node.json`); `npm run typecheck` runs both. Every file of `src/` is in one of them, and
 * each project's options refuse the other world's globals (a probe using them fails to type-check).
 */
import { readdirSync } from 'node:fs'
import { join, relative } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

const ROOT = join(import.meta.dirname, '../..')

function project(name: string): ts.ParsedCommandLine {
  const path = join(ROOT, 'config', name)
  const parsed = ts.getParsedCommandLineOfConfigFile(
    path,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'))
      },
    },
  )
  if (!parsed) throw new Error(`${name} could not be read`)
  return parsed
}

const browser = project('tsconfig.browser.json')
const node = project('tsconfig.node.json')

/** The diagnostics of one probe file type-checked with a project's options. */
function probe(options: ts.CompilerOptions, source: string): string[] {
  const file = join(ROOT, 'src', '__probe__.ts')
  const host = ts.createCompilerHost(options)
  const readFile = host.readFile
  host.readFile = (path) => (path === file ? source : readFile(path))
  host.fileExists = (path) => path === file || ts.sys.fileExists(path)
  const program = ts.createProgram({ rootNames: [file], options: { ...options, noEmit: true }, host })
  return ts
    .getPreEmitDiagnostics(program, program.getSourceFile(file))
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return /\.tsx?$/.test(entry.name) ? [relative(ROOT, path)] : []
  })
}

// Each probe builds a TypeScript program with the whole of its libs: seconds, and more under a loaded CI run.
describe('type-checking projects of src/', { timeout: 60_000 }, () => {
  it('puts every file of src/ in the browser project or the node project', () => {
    const covered = new Set([...browser.fileNames, ...node.fileNames].map((path) => relative(ROOT, path)))
    expect(sourceFiles(join(ROOT, 'src')).filter((path) => !covered.has(path))).toEqual([])
  })

  it('lets browser code use the DOM and refuses Node globals', () => {
    expect(probe(browser.options, 'export const title = document.title\n')).toEqual([])
    const problems = probe(browser.options, "export const bytes = Buffer.from('a')\n")
    expect(problems.join('\n')).toMatch(/Cannot find name 'Buffer'/)
  })

  it('lets server code use Node and refuses the DOM', () => {
    expect(probe(node.options, "export const bytes = Buffer.from('a')\n")).toEqual([])
    const problems = probe(node.options, 'export const title = document.title\n')
    expect(problems.join('\n')).toMatch(/Cannot find name 'document'/)
  })
})
