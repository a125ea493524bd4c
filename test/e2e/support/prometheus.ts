/**
 * @module A real Prometheus (Debian's `/usr/bin/prometheus`, or `PROMETHEUS`) on a free loopback port with
 * its data in a temporary directory, scraping one target's `/metrics` every second and evaluating the alert
 * rules of `deploy/prometheus/alerts.yml`; queries go through its HTTP API. `dashboardQueries()` gives the
 * Grafana dashboard's queries with Grafana's variables filled in, ready for `query()`.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { vi } from 'vitest'
import { ALERTS_FILE } from '../../deploy/support/deploy-files.ts'

export { type DashboardQuery, dashboardQueries } from '../../deploy/support/deploy-files.ts'

const PROMETHEUS_BIN = process.env.PROMETHEUS ?? '/usr/bin/prometheus'
const SCRAPE_JOB = 'offer-widget-bff'

/** One series of an instant query's answer. */
interface PromSample {
  metric: Record<string, string>
  value: [number, string]
}

interface RuleGroup {
  rules: Array<{ name: string; type: string; health: string; lastError?: string }>
}

export interface RunningPrometheus {
  url: string
  /** Instant query (`/api/v1/query`); throws with Prometheus's error when the query is refused. */
  query(expr: string): Promise<PromSample[]>
  /** Successful scrapes of the target in the last 5 minutes. */
  scrapes(): Promise<number>
  /** Waits until the target has been scraped successfully at least `n` times (bounded by `timeoutMs`). */
  waitForScrapes(n: number, timeoutMs?: number): Promise<void>
  /** The loaded rules with their evaluation health (`ok`, `err`, `unknown`). */
  rules(): Promise<RuleGroup['rules']>
  /** Prometheus's output so far, for failure messages. */
  log(): string
  stop(): Promise<void>
}

async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

/** Starts Prometheus scraping `targetUrl` (`http://host:port`) at `/metrics` every second. */
export async function startPrometheus(
  targetUrl: string,
  options: { ruleFiles?: string[] } = {},
): Promise<RunningPrometheus> {
  if (!existsSync(PROMETHEUS_BIN)) {
    throw new Error(`${PROMETHEUS_BIN} is missing: apt-get install prometheus (.ci/run installs it)`)
  }
  const dir = mkdtempSync(join(tmpdir(), 'prometheus-e2e-'))
  const target = new URL(targetUrl)
  const ruleFiles = options.ruleFiles ?? [ALERTS_FILE]
  const config = [
    'global:',
    '  scrape_interval: 1s',
    '  scrape_timeout: 1s',
    '  evaluation_interval: 1s',
    'rule_files:',
    ...ruleFiles.map((file) => `  - ${JSON.stringify(file)}`),
    'scrape_configs:',
    `  - job_name: ${SCRAPE_JOB}`,
    '    metrics_path: /metrics',
    `    scheme: ${target.protocol.replace(':', '')}`,
    '    static_configs:',
    `      - targets: [${JSON.stringify(target.host)}]`,
    '',
  ].join('\n')
  writeFileSync(join(dir, 'prometheus.yml'), config)

  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  let output = ''
  const child: ChildProcess = spawn(
    PROMETHEUS_BIN,
    [
      `--config.file=${join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      // Debian's package points these at /usr/share; nothing here uses the consoles.
      `--web.console.templates=${dir}`,
      `--web.console.libraries=${dir}`,
      '--log.level=warn',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  )
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  let exitCode: number | null | undefined
  void exited.then((code) => {
    exitCode = code
  })
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString()
  })
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString()
  })

  async function stop() {
    if (exitCode === undefined) {
      child.kill('SIGTERM')
      const killer = setTimeout(() => child.kill('SIGKILL'), 5_000)
      await exited
      clearTimeout(killer)
    }
    rmSync(dir, { recursive: true, force: true })
  }

  async function api<T>(path: string): Promise<T> {
    const response = await fetch(`${url}${path}`)
    const body = (await response.json()) as { status: string; data: T; error?: string }
    if (body.status !== 'success') throw new Error(`Prometheus ${path}: ${body.error ?? response.status}`)
    return body.data
  }

  const running: RunningPrometheus = {
    url,
    async query(expr) {
      const data = await api<{ resultType: string; result: PromSample[] }>(
        `/api/v1/query?query=${encodeURIComponent(expr)}`,
      )
      return data.resultType === 'vector' ? data.result : []
    },
    async scrapes() {
      const [sample] = await running.query(`sum_over_time(up{job="${SCRAPE_JOB}"}[5m])`)
      return Number(sample?.value[1] ?? 0)
    },
    async waitForScrapes(n, timeoutMs = 30_000) {
      await vi.waitFor(
        async () => {
          const scrapes = await running.scrapes()
          if (scrapes < n) throw new Error(`${scrapes} successful scrapes of ${targetUrl}, waiting for ${n}`)
        },
        { timeout: timeoutMs, interval: 250 },
      )
    },
    async rules() {
      const data = await api<{ groups: RuleGroup[] }>('/api/v1/rules')
      return data.groups.flatMap((group) => group.rules)
    },
    log: () => output,
    stop,
  }

  try {
    await vi.waitFor(
      async () => {
        if (exitCode !== undefined) throw new Error(`prometheus exited (${exitCode}): ${output}`)
        const response = await fetch(`${url}/-/ready`)
        if (!response.ok) throw new Error(`/-/ready: ${response.status}`)
      },
      { timeout: 30_000, interval: 100 },
    )
  } catch (error) {
    await stop()
    throw error
  }
  return running
}
