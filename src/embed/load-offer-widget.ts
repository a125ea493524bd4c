/**
 * @module `loadOfferWidget({ src, integrity })`, in the manner of stripe-js's `loadStripe`: one memoized
 * promise per page, cleared on failure so a retry works; resolves to `null` on the server; reuses a
 * `<script>` of the same `src` already on the page, or the bundle already loaded by the snippet.
 * Published as `offer-widget/loader` for bundled apps without React (Vue, Angular, Svelte): importing it has
 * no side effect, and it imports only types, so the script-tag bundle (React inside) stays the one download.
 */
import type { OfferWidgetApi } from './global-api.ts'

export type { OfferWidgetApi } from './global-api.ts'
export type { EmbedCallback, EmbedOptions, MountHandle } from './options.ts'

export interface LoadOptions {
  /** The versioned bundle URL (from the build's manifest.json). */
  src: string
  /** SRI hash of the bundle; the script is then fetched with CORS. */
  integrity?: string
}

let pending: Promise<OfferWidgetApi | null> | undefined

function loaded(): OfferWidgetApi | undefined {
  const api = window.OfferWidget
  return api && 'version' in api ? api : undefined
}

export function loadOfferWidget(options: LoadOptions): Promise<OfferWidgetApi | null> {
  if (typeof window === 'undefined' || typeof document === 'undefined') return Promise.resolve(null)
  pending ??= new Promise<OfferWidgetApi | null>((resolve, reject) => {
    const ready = loaded()
    if (ready) return resolve(ready)
    const wanted = new URL(options.src, document.baseURI).href
    let script = [...document.scripts].find((s) => s.src === wanted) ?? null
    const created = !script
    if (!script) {
      script = document.createElement('script')
      script.async = true
      script.src = options.src
      if (options.integrity) {
        script.integrity = options.integrity
        script.crossOrigin = 'anonymous'
      }
    }
    const tag = script
    tag.addEventListener('load', () => {
      const api = loaded()
      if (api) resolve(api)
      else
        reject(
          new Error(
            `offer-widget: ${options.src} loaded but defined no window.OfferWidget; is it the bundle?`,
          ),
        )
    })
    tag.addEventListener('error', () => {
      // A failed tag never loads again: drop ours so a retry adds a fresh one.
      if (created) tag.remove()
      reject(
        new Error(
          `offer-widget: could not load ${options.src}; check the URL, the network and the integrity hash`,
        ),
      )
    })
    if (created) (document.head ?? document.documentElement).appendChild(tag)
  }).catch((error: unknown) => {
    pending = undefined
    throw error
  })
  return pending
}
