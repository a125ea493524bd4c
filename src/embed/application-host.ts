/**
 * @module The hand-over between the script-tag bundle and its loan-application chunk: the chunk is its own
 * IIFE file (fetched only where a second look shows the application) that renders with the bundle's React,
 * never a second copy. The bundle puts this object on `window` just before it adds the chunk's `<script>`,
 * the chunk reads `react` and `jsx` from it as it runs and hands its component to `ready`, and the bundle
 * removes the object once the script has run: the only global the bundle keeps is `window.OfferWidget`.
 * Names only, so config/vite.embed.config.ts, the loader and the chunk's entry share them.
 */
export const APPLICATION_HOST = '__offerWidgetApplication'

/** The chunk's file name: `offer-widget-application.<version>-<content hash>.js`, cacheable forever. */
export function applicationFileName(version: string, contentHash: string): string {
  return `offer-widget-application.${version}-${contentHash}.js`
}

/** Only a name `applicationFileName` gives. */
export const APPLICATION_NAME =
  /^offer-widget-application\.\d+\.\d+\.\d+(?:-[0-9A-Za-z.]+)?-[0-9a-f]{8,}\.js$/
