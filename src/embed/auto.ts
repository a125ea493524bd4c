/**
 * @module The script-tag bundle's entry (built to one IIFE). Installs `window.OfferWidget` (its only
 * global), defines `<offer-widget>`, replays what the snippet queued, and mounts every `[data-offer-widget]`
 * once the DOM is parsed.
 * Loading it twice is harmless: the second copy warns and does nothing.
 */
// First, as a bare import (never reordered): zod must find its private config when it loads.
import './zod-isolation.ts'
// Then the libraries, as bare imports, in this order: the bundle lays modules out in import order, and with
// the libraries first our own code sits together (and zod beside our schemas) inside gzip's 32 KB window,
// which saves ~0.8 kB gzip against our modules scattered between React DOM and React Query. Our data layer
// (the search hook and core, their client and schemas) next, beside the React Query and zod code it calls:
// ~0.1 kB more; then the element and the component it mounts. The libraries' order (JSX runtime, React DOM,
// zod, React Query) measured 0.14 kB gzip -9 less than React DOM, JSX runtime, React Query, zod (issue 34).
import 'react/jsx-runtime'
import 'react-dom/client'
import 'zod/mini'
import '@tanstack/react-query'
import '../widget/useOfferSearch.ts'
import './element.ts'
import { adoptSentSearches } from '../widget/bff-client.ts'
import { replayQueue } from './command-queue.ts'
import { defineOfferWidgetElement } from './element.ts'
import { createOfferWidgetApi } from './global-api.ts'
import { restoreHostZodConfig } from './zod-isolation.ts'

restoreHostZodConfig()

function scriptOrigin(): string {
  const script = document.currentScript
  if (script instanceof HTMLScriptElement && script.src) return new URL(script.src).origin
  return ''
}

const existing = window.OfferWidget
if (existing && 'version' in existing) {
  console.warn(
    `offer-widget: the bundle ran twice (version ${existing.version} is already loaded); remove the extra <script>`,
  )
} else {
  // Searches the snippet already sent (loader-snippet.ts), before any widget could send its own.
  const early = (existing as { e?: unknown } | undefined)?.e
  adoptSentSearches(Array.isArray(early) ? early : [])
  const defaultEndpoint = scriptOrigin()
  const api = createOfferWidgetApi({ defaultEndpoint })
  window.OfferWidget = api
  // `<offer-widget>` elements already parsed upgrade (and mount) here; later ones as they are added.
  defineOfferWidgetElement({ defaultEndpoint })
  replayQueue(existing?.q ?? [], api)
  if (document.readyState === 'loading') {
    document.addEventListener('DOMContentLoaded', () => api.mountAll(), { once: true })
  } else {
    api.mountAll()
  }
}
