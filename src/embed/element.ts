/**
 * @module `<offer-widget>`: the widget as a custom element, for pages built with anything but React
 * (WordPress, Vue, Svelte, plain HTML). Attributes are the option names in kebab-case (`zip-code`,
 * `endpoint`, `theme`, `form`, `source`...), read by the same strict readers as the script tag's `data-*`;
 * options that are not text (`lead`, callbacks) go through the `options` property. Callbacks are DOM events
 * (`offer-click`, `complete`, `error`, `search-created`, `offers-shown`, and `event` for every event of
 * docs/events.md; they bubble, `detail` is the callback's argument). A changed attribute re-renders; removal from the page unmounts (a move within the
 * page does not). Server HTML from `renderWidgetHtml({ tag: 'offer-widget' })` is adopted and hydrated in
 * place. Defined by the script-tag bundle; from the package, `defineOfferWidgetElement()`.
 */
import type { DetailedHTMLProps, HTMLAttributes } from 'react'
import type { QueueEntry } from './command-queue.ts'
import { OPTION_ATTRIBUTES, parseElementAttributes } from './data-attributes.ts'
import type { OfferWidgetApi } from './global-api.ts'
import { mount, withEvents } from './mount.tsx'
import { EMBED_EVENTS, type EmbedCallback, type EmbedOptions, type MountHandle } from './options.ts'

export const ELEMENT_TAG = 'offer-widget'

/** The element's events: each `EMBED_EVENTS` name without its `offer-widget:` prefix. */
export const ELEMENT_EVENTS = Object.fromEntries(
  Object.entries(EMBED_EVENTS).map(([callback, type]) => [callback, type.replace(/^offer-widget:/, '')]),
) as { [K in EmbedCallback]: (typeof EMBED_EVENTS)[K] extends `offer-widget:${infer Name}` ? Name : never }

type Detail<K extends EmbedCallback> = Parameters<NonNullable<EmbedOptions[K]>>[0]

/** `addEventListener('offer-click', (event) => event.detail.uuid)` is typed through this map. */
export type OfferWidgetElementEventMap = {
  [K in EmbedCallback as (typeof ELEMENT_EVENTS)[K]]: CustomEvent<Detail<K>>
}

/** The attributes `<offer-widget>` reads (all text, as in HTML); anything else is the element's own. */
export interface OfferWidgetElementAttributes {
  endpoint?: string
  source?: 'offer-search' | 'second-look'
  'zip-code'?: string
  'date-of-birth'?: string
  'current-issuer'?: string
  'number-of-vehicles'?: string | number
  'is-home-owner'?: string | boolean
  'is-military'?: string | boolean
  'sub-id'?: string
  form?: 'auto' | 'always' | 'never'
  preview?: string | boolean
  theme?: 'light' | 'dark'
  'theme-variables'?: string
  labels?: string
  'empty-state'?: 'message' | 'hide'
  'heading-level'?: string | number
  attach?: string
  analytics?: 'dataLayer'
  placement?: string
  nonce?: string
  'class-name'?: string
}

export interface DefineOptions {
  /** Tag to define (default `offer-widget`). */
  tagName?: string
  /** The BFF when the element has no `endpoint` attribute; default `''`, the page's own origin. */
  defaultEndpoint?: string
}

// On the server (no DOM) the module still loads, so a server-rendered page can import it; only
// `defineOfferWidgetElement()` needs a browser.
const Base = (typeof HTMLElement === 'undefined' ? class {} : HTMLElement) as typeof HTMLElement

/** Builds the element class; `defineOfferWidgetElement` registers it. */
export function createOfferWidgetElement({
  defaultEndpoint = '',
}: Pick<DefineOptions, 'defaultEndpoint'> = {}) {
  return class OfferWidgetElement extends Base {
    static readonly observedAttributes = [...OPTION_ATTRIBUTES.keys()]
    #handle: MountHandle | undefined
    #extra: EmbedOptions = {}
    /** Option keys the last render set from attributes: a removed attribute clears its option. */
    #fromAttributes = new Set<string>()
    #scheduled = false

    /** Options that are not text (`lead`, `search`, `labels` as an object, callbacks); merged over the attributes. */
    get options(): EmbedOptions {
      return this.#extra
    }
    set options(value: EmbedOptions) {
      this.#extra = { ...value }
      this.#schedule()
    }

    connectedCallback(): void {
      if (this.#handle) return
      this.#handle = mount(this, this.#read())
    }

    disconnectedCallback(): void {
      // A move (remove then insert in the same task) keeps the widget; a removal unmounts it.
      queueMicrotask(() => {
        if (this.isConnected || !this.#handle) return
        this.#handle.unmount()
        this.#handle = undefined
      })
    }

    attributeChangedCallback(): void {
      this.#schedule()
    }

    /** Several attribute changes in one task re-render once. */
    #schedule(): void {
      if (!this.#handle || this.#scheduled) return
      this.#scheduled = true
      queueMicrotask(() => {
        this.#scheduled = false
        if (!this.#handle) return
        const previous = this.#fromAttributes
        const next: Record<string, unknown> = this.#read()
        for (const key of previous) if (!(key in next)) next[key] = undefined
        this.#handle.update(next as EmbedOptions)
      })
    }

    #read(): EmbedOptions {
      const { options, warnings } = parseElementAttributes(this)
      for (const warning of warnings) console.warn(warning)
      // Browsers hide a `nonce` attribute's value once the element is in the page; the property keeps it.
      if (this.nonce) options.nonce = this.nonce
      this.#fromAttributes = new Set(Object.keys(options))
      // Callbacks come from `options` only (attributes are text), so each wraps the page's own.
      return withEvents(this, { endpoint: defaultEndpoint, ...options, ...this.#extra }, ELEMENT_EVENTS)
    }
  }
}

/** The element: its typed events first, so `addEventListener('offer-click', ...)` has a typed `detail`. */
export type OfferWidgetElement = {
  addEventListener<K extends keyof OfferWidgetElementEventMap>(
    type: K,
    listener: (this: OfferWidgetElement, event: OfferWidgetElementEventMap[K]) => unknown,
    options?: boolean | AddEventListenerOptions,
  ): void
  addEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject,
    options?: boolean | AddEventListenerOptions,
  ): void
} & InstanceType<ReturnType<typeof createOfferWidgetElement>>

/**
 * Registers `<offer-widget>` (once; a second call, or the script-tag bundle on the same page, leaves the
 * first definition in place) and returns its class. Elements already in the page upgrade and mount.
 */
export function defineOfferWidgetElement(options: DefineOptions = {}): CustomElementConstructor {
  const tagName = options.tagName ?? ELEMENT_TAG
  const registry = globalThis.customElements
  if (!registry) throw new Error('defineOfferWidgetElement: no customElements here; call it in a browser')
  const existing = registry.get(tagName)
  if (existing) return existing
  const element = createOfferWidgetElement(options)
  registry.define(tagName, element)
  return element
}

/** The React props of `<offer-widget>` in JSX: its attributes, `options`, and the element's own. */
export type OfferWidgetElementProps = DetailedHTMLProps<
  HTMLAttributes<OfferWidgetElement>,
  OfferWidgetElement
> &
  OfferWidgetElementAttributes & { options?: EmbedOptions }

// Types of the script tag's globals and of the element, for pages and apps that use them without React's
// component: `import type {} from 'offer-widget/element'` (or any import from it) brings them in.
declare global {
  interface Window {
    /** The script-tag API once the bundle ran; before, the snippet's command queue. */
    OfferWidget?: OfferWidgetApi | { q?: QueueEntry[] }
  }
  interface HTMLElementTagNameMap {
    'offer-widget': OfferWidgetElement
  }
}

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      'offer-widget': OfferWidgetElementProps
    }
  }
}
