/**
 * @module `npm run build` (build:server): writes the embedded ledger's template, a ready PGlite database with
 * the migrations applied, beside the compiled server (`dist/server/ledger/pglite-template.tar.gz`), so a
 * first start unpacks it instead of running initdb (src/ledger/pglite-template.ts).
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { MIGRATIONS_FOLDER } from '../src/ledger/open-ledger.ts'
import { createPgliteTemplate, PGLITE_TEMPLATE_FILE } from '../src/ledger/pglite-template.ts'

const template = await createPgliteTemplate(MIGRATIONS_FOLDER)
mkdirSync(dirname(PGLITE_TEMPLATE_FILE), { recursive: true })
// Written whole or not at all: a server never reads a half-written template.
const partial = `${PGLITE_TEMPLATE_FILE}.${process.pid}.tmp`
writeFileSync(partial, template)
renameSync(partial, PGLITE_TEMPLATE_FILE)
console.log(`ledger template: ${PGLITE_TEMPLATE_FILE} (${(template.length / 1024 / 1024).toFixed(1)} MiB)`)
