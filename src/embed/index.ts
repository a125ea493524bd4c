/**
 * @module Side-effect-free entry of the embed: importing it defines no global and mounts nothing.
 * `auto.ts` is the auto-mounting script-tag entry.
 */

export type { ParsedAttributes } from './data-attributes.ts'
export { parseDataAttributes } from './data-attributes.ts'
export type {
  DefineOptions,
  OfferWidgetElement,
  OfferWidgetElementAttributes,
  OfferWidgetElementEventMap,
  OfferWidgetElementProps,
} from './element.ts'
export { createOfferWidgetElement, defineOfferWidgetElement, ELEMENT_EVENTS, ELEMENT_TAG } from './element.ts'
export type { ApiOptions, OfferWidgetApi } from './global-api.ts'
export { createOfferWidgetApi } from './global-api.ts'
export type { LoadOptions } from './load-offer-widget.ts'
export { loadOfferWidget } from './load-offer-widget.ts'
export type { SnippetOptions } from './loader-snippet.ts'
export { loaderScript, loaderSnippet } from './loader-snippet.ts'
export { mount, unmount } from './mount.tsx'
export type { EmbedCallback, EmbedOptions, MountHandle } from './options.ts'
export { EMBED_EVENTS } from './options.ts'
