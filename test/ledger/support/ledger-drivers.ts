/**
 * @module The ledgers every ledger and marketplace test runs on: PGlite in memory always, and PostgreSQL
 * in a throwaway schema (dropped on close) when DATABASE_URL is set. A skip is announced, never silent.
 * `openFaulty` gives a ledger whose database a test can take away and give back: PostgreSQL behind a TCP
 * proxy that is cut; PGlite (no socket to cut) held by a transaction that never ends, so every call waits
 * past its timeout.
 */
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll } from 'vitest'
import { type Ledger, type OpenLedgerOptions, openLedger } from '../../../src/ledger/index.ts'
import { announceSkip, unsetVariable } from '../../support/skip-notice.ts'
import { startTcpProxy } from '../../support/tcp-fault-proxy.ts'

type Options = Pick<OpenLedgerOptions, 'timers' | 'timeoutMs'>

export interface FaultyLedger {
  ledger: Ledger
  /**
   * The database stops answering. PostgreSQL: `cut` resets every connection and every new one, `hang` (a
   * partition that drops what is sent) forwards nothing. PGlite is held either way.
   */
  down(mode?: 'cut' | 'hang'): Promise<void>
  up(): Promise<void>
  close(): Promise<void>
}

export interface LedgerDriver {
  name: 'pglite' | 'postgres'
  open(options?: Options): Promise<Ledger>
  openFaulty(options?: Options): Promise<FaultyLedger>
}

const databaseUrl = process.env.DATABASE_URL

const postgresOptions = (url: string) => ({
  databaseUrl: url,
  schema: `test_${randomBytes(6).toString('hex')}`,
  dropSchemaOnClose: true,
  maxConnections: 4,
})

export const LEDGER_DRIVERS: LedgerDriver[] = [
  {
    name: 'pglite',
    open: (options) => openLedger({ inMemory: true, ...options }),
    async openFaulty(options) {
      const ledger = await openLedger({ inMemory: true, ...options })
      let release: (() => void) | undefined
      let holding: Promise<unknown> | undefined
      return {
        ledger,
        async down() {
          let held!: () => void
          const acquired = new Promise<void>((resolve) => {
            held = resolve
          })
          const gate = new Promise<void>((resolve) => {
            release = resolve
          })
          holding = ledger.db.transaction(async () => {
            held()
            await gate
          })
          await acquired
        },
        async up() {
          release?.()
          await holding
        },
        close: () => ledger.close(),
      }
    },
  },
  ...(databaseUrl
    ? [
        {
          name: 'postgres' as const,
          open: (options?: Options) => openLedger({ ...postgresOptions(databaseUrl), ...options }),
          async openFaulty(options?: Options) {
            const target = new URL(databaseUrl)
            const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) })
            const ledger = await openLedger({ ...postgresOptions(proxy.urlFor(databaseUrl)), ...options })
            return {
              ledger,
              async down(mode: 'cut' | 'hang' = 'cut') {
                if (mode === 'cut') proxy.cut()
                else proxy.partition({ drop: true })
              },
              async up() {
                proxy.restore()
              },
              async close() {
                proxy.restore()
                await ledger.close()
                await proxy.close()
              },
            }
          },
        },
      ]
    : []),
]

if (!databaseUrl) {
  announceSkip(
    'the PostgreSQL ledger tests',
    unsetVariable('DATABASE_URL', 'postgres://postgres@127.0.0.1:5432/test'),
  )
}

/** Opens the driver's ledger before the calling suite's tests (handing it to `use`) and closes it after. */
export function openLedgerAround(driver: Pick<LedgerDriver, 'open'>, use: (ledger: Ledger) => void): void {
  let opened: Ledger | undefined
  beforeAll(async () => {
    opened = await driver.open()
    use(opened)
  }, 30_000)
  afterAll(async () => {
    await opened?.close()
  })
}

/**
 * PGlite in its own thread, as the server runs it (`thread: 'worker'`): the store's tests run on it too. Not
 * in `LEDGER_DRIVERS`: a statement there answers on real time (a message to the thread and back), which the
 * fake-clock tests cannot wait for, and it has no `openFaulty` (a transaction cannot hold the thread).
 */
export const PGLITE_THREAD_DRIVER = {
  name: 'pglite-thread',
  open: (options?: Options) => openLedger({ inMemory: true, thread: 'worker', ...options }),
} as const
