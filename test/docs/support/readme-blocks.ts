/**
 * @module The code blocks of README and the guides under `docs/` for the docs tests, found by the `<!-- readme-test: name -->` marker on the
 * line before each fence (not by wording around them, which other sections change), plus the running BFF
 * those blocks talk to: the compiled server (`npm run start:prod`'s command) in its own process.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

export const REPO = resolve(import.meta.dirname, '../../..')

export interface ReadmeBlock {
  name: string
  lang: string
  code: string
}

/**
 * The documents whose code a publisher, operator or partner copies: README and every page under `docs/`
 * but the two interface documents (prose about the upstream and the partners) and the package READMEs
 * (shipped in the tarballs, checked by test/package/package-readmes.test.ts).
 */
export function documentFiles(): string[] {
  const docs = readdirSync(join(REPO, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.md') && !file.startsWith('packages'))
    .filter((file) => !['offer-search-api.md', 'partner-interface.md'].includes(file))
    .map((file) => join('docs', file))
  return ['README.md', ...docs.sort()]
}

export function readmeBlocks(files = documentFiles()): {
  blocks: Map<string, ReadmeBlock>
  /** Fences with no marker before them (each is a block no test runs). */
  unmarked: string[]
} {
  const blocks = new Map<string, ReadmeBlock>()
  const unmarked: string[] = []
  for (const file of files) {
    const lines = readFileSync(join(REPO, file), 'utf8').split('\n')
    for (let i = 0; i < lines.length; i++) {
      const open = /^```(\w+)\s*$/.exec(lines[i] as string)
      if (!open) continue
      const end = lines.indexOf('```', i + 1)
      const code = lines.slice(i + 1, end).join('\n')
      const marker = /^<!-- readme-test: ([\w-]+) -->$/.exec(lines[i - 1] ?? '')
      if (!marker) unmarked.push(`${file} line ${i + 1}: ${lines[i + 1]}`)
      else if (blocks.has(marker[1] as string)) unmarked.push(`${file} line ${i}: a second ${marker[1]}`)
      else blocks.set(marker[1] as string, { name: marker[1] as string, lang: open[1] as string, code })
      i = end
    }
  }
  return { blocks, unmarked }
}

/** The text of every document in {@link documentFiles}, joined (for statements checked against code). */
export function documentsText(): string {
  return documentFiles()
    .map((file) => readFileSync(join(REPO, file), 'utf8'))
    .join('\n')
}

export function block(name: string): ReadmeBlock {
  const found = readmeBlocks().blocks.get(name)
  if (!found) throw new Error(`No document has a block marked <!-- readme-test: ${name} -->`)
  return found
}

/** README text with `…` (spaces around it included) and `<hash>` placeholders as a pattern the output must match. */
export function templatePattern(text: string): RegExp {
  const escaped = text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  return new RegExp(`^${escaped.replace(/ ?… ?/g, '.+?').replace(/<hash>/g, '[0-9a-f]+')}$`)
}

/**
 * Writes a block's code to a module file for `import()`: under node_modules/.cache (ignored by git and
 * lint, and inside the project root, which vitest's jsdom environment resolves `/…` imports against).
 */
export function moduleFile(code: string, extension: string): string {
  const cache = join(REPO, 'node_modules/.cache/readme-blocks')
  mkdirSync(cache, { recursive: true })
  const file = join(mkdtempSync(join(cache, 'block-')), `block.${extension}`)
  writeFileSync(file, code)
  return file
}

export interface RunningBff {
  url: string
  output: () => string
  stop(): Promise<void>
}

/** `npm run start:prod` read as the shell runs it: the variables it sets first, then its command's words. */
export function startProdScript(): { env: Record<string, string>; command: string[] } {
  const script = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')).scripts['start:prod'] as string
  const command = script.split(' ')
  const env: Record<string, string> = {}
  while (/^[A-Z_]+=/.test(command[0] ?? '')) {
    const [name, value] = (command.shift() as string).split('=') as [string, string]
    env[name] = value
  }
  return { env, command }
}

/** `npm run start:prod`'s command (the compiled BFF, after `npm run build`), in sandbox mode, on port 0. */
export async function startCompiledBff(env: Record<string, string> = {}): Promise<RunningBff> {
  const { env: scriptEnv, command } = startProdScript()
  const [node, ...args] = command
  let output = ''
  // In a directory of its own, so no `.env` of the developer's applies: the compiled server's path made absolute.
  const argv = args.map((arg) => (arg.startsWith('-') ? arg : join(REPO, arg)))
  const child: ChildProcess = spawn(node === 'node' ? process.execPath : (node as string), argv, {
    cwd: mkdtempSync(join(tmpdir(), 'readme-bff-cwd-')),
    env: {
      ...scriptEnv,
      PATH: process.env.PATH,
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'info',
      DATA_DIR: mkdtempSync(join(tmpdir(), 'readme-bff-data-')),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const url = await new Promise<string>((resolveUrl, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      const match = /BFF listening on (http:\/\/[^"\s]+)/.exec(output)
      if (match) resolveUrl(match[1] as string)
    }
    child.stdout?.on('data', onData)
    child.stderr?.on('data', onData)
    child.once('exit', (code) => reject(new Error(`start:prod exited with ${code}:\n${output}`)))
  })
  return {
    url,
    output: () => output,
    stop: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null) return done()
        child.once('exit', () => done())
        child.kill('SIGTERM')
      }),
  }
}
