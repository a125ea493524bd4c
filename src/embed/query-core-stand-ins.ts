/**
 * @module Stand-ins for the two parts of TanStack query-core that the widget never runs: mutations and
 * infinite queries. `QueryClient` imports `MutationCache` and `query.js` imports `infiniteQueryBehavior`
 * unconditionally, so a bundler cannot drop them (about 1.6 kB gzip); the script-tag build
 * (vite.embed.config.ts) resolves those two imports here instead. Lint forbids the widget's code from
 * importing mutations or infinite queries, and test/embed/query-core-stand-ins.test.ts runs a real
 * QueryClient on these.
 */

const NOT_BUNDLED = 'offer-widget: mutations and infinite queries are not part of the script-tag bundle'

/** What `QueryClient` calls on its mutation cache: nothing is ever cached, so nothing is ever found. */
export class MutationCache {
  findAll(): [] {
    return []
  }
  resumePausedMutations(): Promise<void> {
    return Promise.resolve()
  }
  clear(): void {}
}

export function infiniteQueryBehavior(): never {
  throw new Error(NOT_BUNDLED)
}
