/**
 * @module `npm run bench`: runs every `bench/*.bench.ts` in its own process, one after another, so one
 * benchmark's load never skews another's figures. Each prints its own table. Arguments name the files to
 * run (any part of the name); those after `--` go to each file (`npm run bench -- phone -- --runs 7`).
 */
import { spawnSync } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))
const args = process.argv.slice(2)
const split = args.indexOf('--')
const only = split < 0 ? args : args.slice(0, split)
const passed = split < 0 ? [] : args.slice(split + 1)
const files = readdirSync(here)
  .filter((name) => name.endsWith('.bench.ts'))
  .filter((name) => only.length === 0 || only.some((o) => name.includes(o)))
  .sort()

if (files.length === 0) console.log('bench: no benchmarks matched')
let failed = 0
for (const file of files) {
  console.log(`\n## ${file}\n`)
  const result = spawnSync(process.execPath, ['--import', 'tsx', join(here, file), ...passed], {
    stdio: 'inherit',
  })
  if (result.status !== 0) failed++
}
process.exit(failed === 0 ? 0 : 1)
