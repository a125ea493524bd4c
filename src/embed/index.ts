/**
 * @module What the playground takes from the embed (importing it defines no global and mounts nothing).
 * The embed's published doors are their own entries: `auto.ts` (the script tag), `element.ts`
 * (`offer-widget/element`) and `load-offer-widget.ts` (`offer-widget/loader`).
 */

export { loaderScript } from './loader-snippet.ts'
export { mount } from './mount.tsx'
export type { EmbedCallback, EmbedOptions, MountHandle } from './options.ts'
export { EMBED_EVENTS } from './options.ts'
