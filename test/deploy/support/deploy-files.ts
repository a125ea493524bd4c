/**
 * @module The operations files under `deploy/` as a test reads them: the Grafana dashboard's panel targets
 * (with Grafana's variables substituted so Prometheus can run them), the alert rules, the metric names a
 * PromQL expression uses, and the metric catalogue of a running BFF's `/metrics` text.
 */
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { parse } from 'yaml'

export const REPO = resolve(import.meta.dirname, '../../..')
const DASHBOARD_FILE = join(REPO, 'deploy/grafana/offer-widget-bff.json')
export const ALERTS_FILE = join(REPO, 'deploy/prometheus/alerts.yml')

interface DashboardTarget {
  refId?: string
  expr?: string
  datasource?: { type?: string; uid?: string }
}
export interface DashboardPanel {
  id: number
  type: string
  title: string
  datasource?: { type?: string; uid?: string }
  targets?: DashboardTarget[]
}
export interface Dashboard {
  schemaVersion: number
  templating: { list: Array<{ name: string; type: string; query?: unknown; multi?: boolean }> }
  panels: DashboardPanel[]
}

export function readDashboard(): Dashboard {
  return JSON.parse(readFileSync(DASHBOARD_FILE, 'utf8')) as Dashboard
}

/** Panels that draw something (rows only group them). */
export function dataPanels(dashboard = readDashboard()): DashboardPanel[] {
  return dashboard.panels.filter((panel) => panel.type !== 'row')
}

/**
 * What Grafana puts in place of its variables: a 1 m rate window (Grafana's `$__rate_interval` is at least four
 * scrape intervals; a minute holds a whole e2e run's requests), every partner.
 */
function substituteGrafanaVariables(expr: string): string {
  return expr
    .replaceAll('$__rate_interval', '1m')
    .replaceAll('$__interval', '1m')
    .replace(/\$\{partner\}|\$partner\b/g, '.*')
}

export interface DashboardQuery {
  /** `panel title / refId`, for failure messages. */
  name: string
  /** As written in the dashboard. */
  raw: string
  /** Runnable by Prometheus. */
  expr: string
}

/** Every panel target's query; a target with no `expr` is returned with `expr: ''` so a test can name it. */
export function dashboardQueries(dashboard = readDashboard()): DashboardQuery[] {
  return dataPanels(dashboard).flatMap((panel) =>
    (panel.targets ?? []).map((target) => ({
      name: `${panel.title} / ${target.refId ?? '?'}`,
      raw: target.expr ?? '',
      expr: substituteGrafanaVariables(target.expr ?? ''),
    })),
  )
}

export interface AlertRule {
  alert: string
  expr: string
  for?: string
  labels?: Record<string, string>
  annotations?: Record<string, string>
}

export function readAlertRules(): AlertRule[] {
  const file = parse(readFileSync(ALERTS_FILE, 'utf8')) as { groups: Array<{ rules: AlertRule[] }> }
  return file.groups.flatMap((group) => group.rules)
}

const PROMQL_WORDS = new Set([
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'and',
  'or',
  'unless',
  'bool',
  'offset',
  'inf',
  'nan',
])

/**
 * The metric names a PromQL expression selects: string literals, label matchers, range windows and the
 * label lists of `by (...)`/`on (...)` are dropped; what is left that is neither a function call, a keyword
 * nor a number is a metric name.
 */
export function metricNamesIn(expr: string): string[] {
  const stripped = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ')
  const names = new Set<string>()
  for (const match of stripped.matchAll(/(?<![\w$.])([a-zA-Z_:][\w:]*)(\s*\()?/g)) {
    const [, name, call] = match
    if (call || !name || PROMQL_WORDS.has(name.toLowerCase())) continue
    names.add(name)
  }
  return [...names]
}

/**
 * Metric names exposed by a `/metrics` text: every `# TYPE` line (present even before a labelled metric has
 * a sample), a histogram's and a summary's series names with them. Plus `up`, Prometheus's own per target.
 */
export function catalogueOf(metricsText: string): Map<string, string> {
  const catalogue = new Map<string, string>([['up', 'prometheus']])
  for (const [, name, type] of metricsText.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    if (!name || !type) continue
    catalogue.set(name, type)
    if (type === 'histogram')
      for (const suffix of ['_bucket', '_sum', '_count']) catalogue.set(name + suffix, type)
    if (type === 'summary') for (const suffix of ['_sum', '_count']) catalogue.set(name + suffix, type)
  }
  return catalogue
}
