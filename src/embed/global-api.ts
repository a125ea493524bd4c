/**
 * @module `window.OfferWidget` once the bundle runs: mount and unmount by element, auto-mount every
 * `[data-offer-widget]`, and `ready(callback)`. Built by a factory so tests and the bundle get fresh ones.
 */
import { WIDGET_VERSION } from '../widget/version.ts'
import { MOUNT_ATTRIBUTE, parseDataAttributes } from './data-attributes.ts'
import { isMounted, mount, unmount } from './mount.tsx'
import type { EmbedOptions, MountHandle } from './options.ts'

export interface OfferWidgetApi {
  version: string
  /** Mounts on an element (or the first match of a selector). A second mount on it warns and does nothing. */
  mount(target: Element | string, options?: EmbedOptions): MountHandle
  /** Mounts every `[data-offer-widget]` under `root` not mounted yet, options from its data attributes. */
  mountAll(root?: ParentNode): MountHandle[]
  unmount(target: Element | string): boolean
  /** Calls back with the API (at once when loaded; queued by the snippet before). */
  ready(callback: (api: OfferWidgetApi) => void): void
}

export interface ApiOptions {
  /** Used when a mount gives no endpoint: the origin the bundle was loaded from. */
  defaultEndpoint?: string
}

export function createOfferWidgetApi({ defaultEndpoint = '' }: ApiOptions = {}): OfferWidgetApi {
  const withDefaults = (options: EmbedOptions = {}): EmbedOptions =>
    options.endpoint === undefined ? { ...options, endpoint: defaultEndpoint } : options
  const api: OfferWidgetApi = {
    version: WIDGET_VERSION,
    mount: (target, options) => mount(target, withDefaults(options)),
    mountAll(root = document) {
      const handles: MountHandle[] = []
      for (const element of root.querySelectorAll(`[${MOUNT_ATTRIBUTE}]`)) {
        if (isMounted(element)) continue
        const { options, warnings } = parseDataAttributes(element)
        for (const warning of warnings) console.warn(warning)
        try {
          handles.push(mount(element, withDefaults(options)))
        } catch (error) {
          console.error(error)
        }
      }
      return handles
    },
    unmount,
    ready(callback) {
      callback(api)
    },
  }
  return api
}
