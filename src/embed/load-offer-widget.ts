/**
 * @module `loadOfferWidget({ src, integrity })`, in the manner of stripe-js's `loadStripe`: one memoized
 * promise per page, cleared on failure so a retry works; resolves to `null` on the server; reuses a
 * `<script>` of the same `src` already on the page, or the bundle already loaded by the snippet.
 * Published as `offer-widget/loader` for bundled apps without React (Vue, Angular, Svelte): importing it has
 * no side effect, and it imports only types, so the script-tag bundle (React inside) stays the one download.
 * A tag is reused only with the integrity asked for (else the promise rejects naming both: reusing it would
 * run code nobody checked, and a second tag would run the bundle twice). A tag that already settled fires
 * no event again, so its outcome is kept on it (`data-offer-widget-state`, the snippet sets it too), and a
 * tag that never settles is given up on after {@link LOAD_TIMEOUT_MS}: the promise always settles.
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

/** Far above the bundle's download on a slow phone; past it a tag that fired nothing is given up on. */
const LOAD_TIMEOUT_MS = 30_000
/** Where a tag's outcome is kept: `loaded` or `failed` (loader-snippet.ts writes the same). */
const STATE = 'data-offer-widget-state'

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
    const existing = [...document.scripts].find((s) => s.src === wanted)
    // The attribute, not the property: what the page wrote, in every engine.
    const existingIntegrity = existing?.getAttribute('integrity') ?? ''
    if (existing && options.integrity && existingIntegrity !== options.integrity) {
      return reject(
        new Error(
          `offer-widget: a <script src="${options.src}"> already on the page has integrity ` +
            `"${existingIntegrity || 'none'}", not the "${options.integrity}" asked for; give both the ` +
            "manifest's integrity, or remove that tag",
        ),
      )
    }
    const noBundle = () =>
      new Error(`offer-widget: ${options.src} loaded but defined no window.OfferWidget; is it the bundle?`)
    const failed = () =>
      new Error(
        `offer-widget: could not load ${options.src}; check the URL, the network and the integrity hash`,
      )
    // Settled before we looked: its events will not fire again. A failed tag never loads again either.
    const state = existing?.getAttribute(STATE)
    if (existing && state === 'failed') {
      existing.remove()
      return reject(failed())
    }
    if (existing && state === 'loaded') return reject(noBundle())
    const tag = existing ?? document.createElement('script')
    if (!existing) {
      tag.async = true
      tag.src = options.src
      if (options.integrity) {
        tag.setAttribute('integrity', options.integrity)
        tag.crossOrigin = 'anonymous'
      }
    }
    const timer = setTimeout(() => {
      reject(
        new Error(
          `offer-widget: ${options.src} neither loaded nor failed within ${LOAD_TIMEOUT_MS / 1000} s`,
        ),
      )
    }, LOAD_TIMEOUT_MS)
    tag.addEventListener('load', () => {
      clearTimeout(timer)
      tag.setAttribute(STATE, 'loaded')
      const api = loaded()
      if (api) resolve(api)
      else reject(noBundle())
    })
    tag.addEventListener('error', () => {
      clearTimeout(timer)
      // A failed tag never loads again: drop it so a retry adds a fresh one.
      tag.remove()
      reject(failed())
    })
    if (!existing) (document.head ?? document.documentElement).appendChild(tag)
  }).catch((error: unknown) => {
    pending = undefined
    throw error
  })
  return pending
}
