/**
 * @module A vitest plugin (vitest.config.ts) that turns the skip notices of `skip-notice.ts` into one line
 * per run: each file that skips announces it as it loads (a dozen files share one reason), so the notices
 * are taken out of the files' output and printed once, after the run's summary, saying what was skipped
 * and why. Installed from `configureVitest` so a `--reporter` given on the command line keeps it.
 */
import type { Reporter, TestCase, TestModule, TestSuite, Vite, Vitest } from 'vitest/node'
import { parseSkipNotice } from './skip-notice.ts'

// The hook runs once per test project, all on the same Vitest.
const INSTALLED = Symbol.for('offer-widget.skip-summary')

/** A skip the config itself knows of (a project left out), printed in the same line as the tests' own. */
export interface ConfigSkip {
  tests: string
  reason: string
  /** Said only in a run that has files of this project (the one the skipped project stands beside). */
  beside: string
}

export function skipSummary(configSkips: readonly ConfigSkip[] = []): Vite.Plugin {
  return {
    name: 'offer-widget:skip-summary',
    configureVitest({ vitest }) {
      const config = vitest.config as typeof vitest.config & { [INSTALLED]?: true }
      if (config[INSTALLED]) return
      config[INSTALLED] = true
      const collector = createCollector(configSkips)
      const before = config.onConsoleLog
      config.onConsoleLog = (log, type, entity) =>
        collector.take(log, entity) ? false : before?.(log, type, entity)
      config.reporters.push(collector.reporter(vitest))
    },
  }
}

type Entity = TestModule | TestCase | TestSuite | undefined

function createCollector(configSkips: readonly ConfigSkip[]) {
  // reason -> what is skipped -> the files that said so
  const reasons = new Map<string, Map<string, Set<string>>>()
  return {
    /** Keeps a skip notice (true: not to be printed where it was logged). */
    take(log: string, entity: Entity): boolean {
      const notice = parseSkipNotice(log)
      if (!notice) return false
      const tests = reasons.get(notice.reason) ?? new Map<string, Set<string>>()
      reasons.set(notice.reason, tests)
      const files = tests.get(notice.tests) ?? new Set<string>()
      tests.set(notice.tests, files)
      const file = entity?.type === 'module' ? entity.moduleId : entity?.module.moduleId
      if (file) files.add(file)
      return true
    },
    reporter(vitest: Vitest): Reporter {
      return {
        onTestRunStart(specifications) {
          reasons.clear()
          const projects = new Set(specifications.map((specification) => specification.project.name))
          for (const skip of configSkips) {
            if (projects.has(skip.beside))
              reasons.set(skip.reason, new Map([[skip.tests, new Set<string>()]]))
          }
        },
        onTestRunEnd() {
          if (reasons.size > 0) vitest.logger.log(summaryLine(reasons))
        },
      }
    },
  }
}

function summaryLine(reasons: Map<string, Map<string, Set<string>>>): string {
  const parts = [...reasons].map(([reason, tests]) => {
    const what = [...tests].map(([name, files]) => (files.size > 1 ? `${name} (${files.size} files)` : name))
    return `${what.join(', ')}, because ${reason}`
  })
  return `Skipped: ${parts.join('; ')}`
}
