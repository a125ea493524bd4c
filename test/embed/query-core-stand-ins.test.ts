/**
 * @module The script-tag bundle swaps query-core's MutationCache and infiniteQueryBehavior for stand-ins
 * (vite.embed.config.ts). A real QueryClient must run the widget's kind of work on them: mount, queries,
 * focus and reconnect (which resume paused mutations), isMutating, clear, unmount.
 */
import {
  focusManager,
  onlineManager,
  QueryClient,
  type MutationCache as RealMutationCache,
} from '@tanstack/query-core'
import { afterEach, describe, expect, it } from 'vitest'
import { infiniteQueryBehavior, MutationCache } from '../../src/embed/query-core-stand-ins.ts'

afterEach(() => {
  focusManager.setFocused(undefined)
  onlineManager.setOnline(true)
})

describe('query-core stand-ins', () => {
  it('carry a QueryClient through mount, a query, focus and reconnect, isMutating, clear and unmount', async () => {
    const client = new QueryClient({ mutationCache: new MutationCache() as unknown as RealMutationCache })
    client.mount()
    await expect(client.fetchQuery({ queryKey: ['k'], queryFn: () => 42 })).resolves.toBe(42)
    focusManager.setFocused(false)
    focusManager.setFocused(true)
    onlineManager.setOnline(false)
    onlineManager.setOnline(true)
    await expect(client.resumePausedMutations()).resolves.toBeUndefined()
    expect(client.isMutating()).toBe(0)
    expect(client.getQueryData(['k'])).toBe(42)
    client.clear()
    expect(client.getQueryData(['k'])).toBeUndefined()
    client.unmount()
  })

  it('refuse infinite queries with an error that says why', () => {
    expect(() => infiniteQueryBehavior()).toThrow(/not part of the script-tag bundle/)
  })
})
