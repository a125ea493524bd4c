/**
 * @module The widget package's dependencies as a host shares them (`sharedDependencyProblems`, run by
 * `npm run pack`): a caret range each, and query-core's the same as React Query's, so a host on a newer React
 * Query gets one query-core, not a second beside it (issue 45's packaging defect).
 */
import { describe, expect, it } from 'vitest'
import root from '../../package.json' with { type: 'json' }
import { sharedDependencyProblems } from '../../scripts/pack.ts'

describe('the widget package dependencies a host shares', () => {
  it("are this repository's: caret ranges, query-core's the same as React Query's", () => {
    const widget = {
      '@tanstack/query-core': root.dependencies['@tanstack/query-core'],
      '@tanstack/react-query': root.dependencies['@tanstack/react-query'],
      zod: root.dependencies.zod,
    }
    expect(sharedDependencyProblems(widget)).toEqual([])
  })

  it('refuse an exact pin, naming the package and the range to give it', () => {
    expect(
      sharedDependencyProblems({ '@tanstack/query-core': '5.108.0', '@tanstack/react-query': '^5.108.0' }),
    ).toEqual([
      '@tanstack/query-core is "5.108.0": give it a caret range (^5.108.0)',
      '@tanstack/query-core is "5.108.0" and @tanstack/react-query "^5.108.0": give them the same range',
    ])
    expect(sharedDependencyProblems({ zod: '~4.6.7' })).toEqual([
      'zod is "~4.6.7": give it a caret range (^4.6.7)',
    ])
  })

  it('refuse a query-core on another caret than React Query', () => {
    expect(
      sharedDependencyProblems({ '@tanstack/query-core': '^5.100.0', '@tanstack/react-query': '^5.108.0' }),
    ).toEqual([
      '@tanstack/query-core is "^5.100.0" and @tanstack/react-query "^5.108.0": give them the same range',
    ])
  })
})
