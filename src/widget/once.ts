/**
 * @module "Has this event already been reported?" scoped to one widget instance (its QueryClient), so
 * callbacks fire once per event through StrictMode double effects, re-renders and inner remounts.
 */
const registry = new WeakMap<object, Set<unknown>>()

/** True the first time `(scope, token)` is seen, false after. */
export function firstTime(scope: object, token: unknown): boolean {
  let seen = registry.get(scope)
  if (!seen) {
    seen = new Set()
    registry.set(scope, seen)
  }
  if (seen.has(token)) return false
  seen.add(token)
  return true
}
