/**
 * @module The ledgers every ledger and marketplace test runs on: PGlite in memory always, and PostgreSQL
 * in a throwaway schema (dropped on close) when DATABASE_URL is set. A skip is announced, never silent.
 */
import { randomBytes } from 'node:crypto'
import { type Ledger, openLedger } from '../../src/ledger/index.ts'

export interface LedgerDriver {
  name: 'pglite' | 'postgres'
  open(): Promise<Ledger>
}

const databaseUrl = process.env.DATABASE_URL

export const LEDGER_DRIVERS: LedgerDriver[] = [
  { name: 'pglite', open: () => openLedger({ inMemory: true }) },
  ...(databaseUrl
    ? [
        {
          name: 'postgres' as const,
          open: () =>
            openLedger({
              databaseUrl,
              schema: `test_${randomBytes(6).toString('hex')}`,
              dropSchemaOnClose: true,
              maxConnections: 4,
            }),
        },
      ]
    : []),
]

if (!databaseUrl) {
  console.warn(
    'PostgreSQL ledger tests not run: DATABASE_URL is unset (e.g. DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm test; .ci/run sets it)',
  )
}
