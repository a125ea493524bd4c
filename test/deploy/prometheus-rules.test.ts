/**
 * @module Issue 33, the files under `deploy/`: promtool checks the alert rules and the example Prometheus
 * configuration and runs the rules' unit tests (`deploy/prometheus/alerts.test.yml`: an upstream outage, a
 * partner that times out, ... fire; healthy series and short blips do not), and a broken rule makes those
 * unit tests fail. Every alert carries its summary, description, runbook and a `runbook_url` whose anchor
 * is a heading of docs/operating.md; every dashboard target has a query; every metric the dashboard and
 * the alerts name is one a real BFF exposes on `/metrics` (so a typo fails here), and docs/operating.md's
 * catalogue lists each of them.
 *
 * promtool comes with Debian's `prometheus` package (.ci/run installs it). Without it the promtool tests
 * are skipped with a notice, except in CI (`CI` set), where its absence fails.
 */
import { spawnSync } from 'node:child_process'
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/server/config.ts'
import { type RunningServer, startServer } from '../../src/server/start-server.ts'
import { announceSkip } from '../support/skip-notice.ts'
import {
  ALERTS_FILE,
  catalogueOf,
  dashboardQueries,
  dataPanels,
  metricNamesIn,
  REPO,
  readAlertRules,
  readDashboard,
} from './support/deploy-files.ts'

const PROMETHEUS_DIR = join(REPO, 'deploy/prometheus')
const OPERATING_DOC = readFileSync(join(REPO, 'docs/operating.md'), 'utf8')

/** `PROMTOOL` names another binary (or, set to a missing path, shows the skip and the CI failure). */
const PROMTOOL = process.env.PROMTOOL ?? 'promtool'

function promtool(...args: string[]) {
  const run = spawnSync(PROMTOOL, args, { cwd: REPO, encoding: 'utf8', timeout: 30_000 })
  return { status: run.status, output: `${run.stdout ?? ''}${run.stderr ?? ''}`, error: run.error }
}

const promtoolMissing = promtool('--version').error !== undefined
const requirePromtool = Boolean(process.env.CI)
if (promtoolMissing && !requirePromtool)
  announceSkip(
    'the promtool checks of deploy/prometheus',
    `${PROMTOOL} is not on PATH (apt-get install prometheus; .ci/run installs it)`,
  )

describe('promtool on deploy/prometheus', () => {
  // In CI a missing promtool fails every check below with this message, never a skip.
  describe.skipIf(promtoolMissing && !requirePromtool)('with promtool', () => {
    beforeAll(() => {
      if (promtoolMissing) {
        throw new Error(
          `${PROMTOOL} is not on PATH: apt-get install prometheus (.ci/run installs it when missing)`,
        )
      }
    })

    it('check rules: alerts.yml is valid and holds every rule', () => {
      const run = promtool('check', 'rules', 'deploy/prometheus/alerts.yml')
      expect(run.status, run.output).toBe(0)
      expect(run.output).toContain(`SUCCESS: ${readAlertRules().length} rules found`)
    })

    it('check config: the example prometheus.yml is valid and loads alerts.yml', () => {
      const run = promtool('check', 'config', 'deploy/prometheus/prometheus.yml')
      expect(run.status, run.output).toBe(0)
      expect(run.output).toMatch(/SUCCESS: deploy\/prometheus\/prometheus\.yml is valid prometheus config/)
      expect(run.output).toContain('SUCCESS: 1 rule files found')
      expect(run.output).toContain(`SUCCESS: ${readAlertRules().length} rules found`)
    })

    it('test rules: every case of alerts.test.yml passes, and every alert is tested', () => {
      const run = promtool('test', 'rules', 'deploy/prometheus/alerts.test.yml')
      expect(run.status, run.output).toBe(0)
      expect(run.output).toMatch(/^\s*SUCCESS\s*$/m)
      expect(run.output).not.toContain('FAILED')
      const tests = readFileSync(join(PROMETHEUS_DIR, 'alerts.test.yml'), 'utf8')
      const fired = new Set([...tests.matchAll(/alertname: (\w+)\n\s+exp_alerts:\n/g)].map((m) => m[1]))
      const quiet = new Set([...tests.matchAll(/alertname: (\w+)\n\s+exp_alerts: \[\]/g)].map((m) => m[1]))
      for (const { alert } of readAlertRules()) {
        expect(fired, `${alert} is never shown firing`).toContain(alert)
        expect(quiet, `${alert} is never shown quiet`).toContain(alert)
      }
    })

    // The unit tests are not vacuous: each of these breaks one rule the way a careless edit might, and
    // `promtool test rules` must then fail on that alert.
    it.each([
      ['SecondLookPartnerTimeouts', 'the timeout share threshold raised past 100%', ') > 0.2\n', ') > 2\n'],
      [
        'BffUpstreamOutage',
        'connection errors no longer counted',
        'rate(bff_upstream_requests_total{status=~"5..|timeout|connection|malformed"}[5m]))\n            /\n            (sum by (job) (rate(bff_upstream_requests_total[5m])) > 0)\n          ) >= 0.9',
        'rate(bff_upstream_requests_total{status=~"5.."}[5m]))\n            /\n            (sum by (job) (rate(bff_upstream_requests_total[5m])) > 0)\n          ) >= 0.9',
      ],
      [
        'BffDegraded',
        'no `for`, so a 1-minute blip fires',
        'expr: bff_ready == 0\n        for: 5m',
        'expr: bff_ready == 0',
      ],
    ])('test rules fails on a broken %s (%s)', (alert, _how, from, to) => {
      const dir = mkdtempSync(join(tmpdir(), 'alerts-mutant-'))
      try {
        const rules = readFileSync(ALERTS_FILE, 'utf8')
        expect(rules, 'the text to break is in alerts.yml').toContain(from)
        writeFileSync(join(dir, 'alerts.yml'), rules.replace(from, to))
        copyFileSync(join(PROMETHEUS_DIR, 'alerts.test.yml'), join(dir, 'alerts.test.yml'))
        const run = promtool('test', 'rules', join(dir, 'alerts.test.yml'))
        expect(run.status, run.output).not.toBe(0)
        expect(run.output).toContain(`alertname: ${alert}`)
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    })
  })
})

/** GitHub's anchor for a Markdown heading. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-')
}
const DOC_ANCHORS = new Set(
  [...OPERATING_DOC.matchAll(/^#{1,6} (.+)$/gm)].map((match) => anchorOf(match[1] as string)),
)

describe('alerts.yml', () => {
  const rules = readAlertRules()

  it('every alert has a severity, summary, description, runbook and a runbook_url to a heading of docs/operating.md', () => {
    expect(rules.length).toBeGreaterThan(0)
    for (const rule of rules) {
      expect(rule.labels?.severity, rule.alert).toMatch(/^(critical|warning)$/)
      expect(rule.for, `${rule.alert}: for`).toMatch(/^\d+[smh]$/)
      for (const key of ['summary', 'description', 'runbook', 'runbook_url']) {
        expect(rule.annotations?.[key]?.trim(), `${rule.alert}: ${key}`).toBeTruthy()
      }
      expect(rule.annotations?.runbook, `${rule.alert}: runbook`).toMatch(/Means:[\s\S]*Check:[\s\S]*Do:/)
      const [file, anchor] = (rule.annotations?.runbook_url ?? '').split('#')
      expect(file, `${rule.alert}: runbook_url`).toBe('docs/operating.md')
      expect([...DOC_ANCHORS], `${rule.alert}: #${anchor} is a heading of docs/operating.md`).toContain(
        anchor,
      )
    }
  })

  it('every ratio divides by a denominator filtered to > 0', () => {
    for (const rule of rules.filter((r) => /\)\s*\/\s*\(/.test(r.expr) || /\n\s*\/\s*\n/.test(r.expr))) {
      expect(rule.expr, rule.alert).toMatch(/\/\s*\(\s*sum[\s\S]*?\)\s*>\s*0\s*\)/)
    }
  })
})

/** Grafana's `${datasource}` variable. */
const DATASOURCE = /^\$\{datasource\}$/

describe('the Grafana dashboard', () => {
  const dashboard = readDashboard()

  it('has a Prometheus datasource variable and a multi-value partner variable; every target has a query on it', () => {
    const variables = new Map(dashboard.templating.list.map((v) => [v.name, v]))
    expect(variables.get('datasource')).toMatchObject({ type: 'datasource', query: 'prometheus' })
    expect(variables.get('partner')).toMatchObject({ type: 'query', multi: true })
    expect(JSON.stringify(variables.get('partner')?.query)).toContain(
      'label_values(second_look_partner_requests_total, partner)',
    )
    const panels = dataPanels(dashboard)
    expect(panels.length).toBeGreaterThan(10)
    const problems: string[] = []
    for (const panel of panels) {
      if (!DATASOURCE.test(panel.datasource?.uid ?? '')) problems.push(`${panel.title}: datasource`)
      if (!panel.targets?.length) problems.push(`${panel.title}: no targets`)
      for (const target of panel.targets ?? []) {
        if (!target.expr?.trim()) problems.push(`${panel.title} / ${target.refId}: no expr`)
        if (!DATASOURCE.test(target.datasource?.uid ?? ''))
          problems.push(`${panel.title} / ${target.refId}: datasource`)
        if (/\brate\(|increase\(/.test(target.expr ?? '') && !target.expr?.includes('[$__rate_interval]'))
          problems.push(`${panel.title} / ${target.refId}: a rate window other than $__rate_interval`)
      }
    }
    expect(problems).toEqual([])
  })
})

describe('metric names in the dashboard, the alerts and docs/operating.md', () => {
  let running: RunningServer
  let catalogue: Map<string, string>
  beforeAll(async () => {
    running = await startServer(loadConfig({ PORT: '0', LOG_LEVEL: 'silent' }), {
      staticRoot: '/nonexistent',
      secondLook: { inMemoryLedger: true },
    })
    catalogue = catalogueOf(await (await fetch(`${running.url}/metrics`)).text())
  }, 30_000)
  afterAll(() => running?.close())

  it('finds metric names in PromQL, so a misspelt one is caught', () => {
    expect(
      metricNamesIn(
        'histogram_quantile(0.99, sum by (le, partner) (rate(second_look_partner_request_duration_seconds_bucket{partner=~".*", x="a b"}[30s]))) / on (job) group_left (y) (bff_upstream_requests_total > 0) and bff_upstream_requests_totl',
      ).sort(),
    ).toEqual([
      'bff_upstream_requests_total',
      'bff_upstream_requests_totl',
      'second_look_partner_request_duration_seconds_bucket',
    ])
    expect(catalogue.has('bff_upstream_requests_total')).toBe(true)
    expect(catalogue.has('bff_upstream_requests_totl')).toBe(false)
  })

  it('every metric a dashboard query or an alert names is on a real BFF’s /metrics', () => {
    const used = [
      ...dashboardQueries().map((query) => ({ where: `dashboard: ${query.name}`, expr: query.expr })),
      ...readAlertRules().map((rule) => ({ where: `alert ${rule.alert}`, expr: rule.expr })),
    ]
    const unknown = used.flatMap(({ where, expr }) => {
      const names = metricNamesIn(expr)
      if (names.length === 0) return [`${where}: no metric name found in ${expr}`]
      return names.filter((name) => !catalogue.has(name)).map((name) => `${where}: ${name}`)
    })
    expect(unknown).toEqual([])
  })

  it('docs/operating.md’s metric catalogue lists every metric the BFF exposes (bar the default process metrics)', () => {
    const own = [...catalogue.keys()].filter(
      (name) => name !== 'up' && !/^(process|nodejs)_/.test(name) && !isHistogramSeries(name, catalogue),
    )
    const missing = own.filter((name) => !OPERATING_DOC.includes(`\`${name}\``))
    expect(own.length).toBeGreaterThan(10)
    expect(missing).toEqual([])
  })
})

/** `x_bucket`, `x_sum`, `x_count` of a histogram or summary `x`. */
function isHistogramSeries(name: string, catalogue: Map<string, string>): boolean {
  const base = name.replace(/_(bucket|sum|count)$/, '')
  return base !== name && ['histogram', 'summary'].includes(catalogue.get(base) ?? '')
}
