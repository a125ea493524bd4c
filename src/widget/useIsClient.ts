/**
 * @module False on the server and during hydration, true after: the widget renders a placeholder until
 * it runs in a browser, so server HTML and the first client render always match.
 */
import { useSyncExternalStore } from 'react'

const subscribe = () => () => {}

export function useIsClient(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  )
}
