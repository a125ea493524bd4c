/**
 * @module Keeps the latest value (a publisher's callback) in a ref, so listeners and effects are not
 * re-bound on every render (react-stripe-js `useAttachEvent`).
 */
import { useEffect, useLayoutEffect, useRef } from 'react'

// useLayoutEffect so the ref is fresh before any effect reads it; plain useEffect where there is no DOM.
const useIsomorphicLayoutEffect = typeof document === 'undefined' ? useEffect : useLayoutEffect

export function useLatestRef<T>(value: T): { readonly current: T } {
  const ref = useRef(value)
  useIsomorphicLayoutEffect(() => {
    ref.current = value
  })
  return ref
}
