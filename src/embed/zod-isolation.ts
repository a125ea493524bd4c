/**
 * @module Imported first by the bundle entry, before zod runs: zod keeps its config on
 * `globalThis.__zod_globalConfig`, shared by every copy on the page. The bundle's copy gets a private
 * object instead (with `jitless`, since probing for `new Function` trips a strict CSP without
 * 'unsafe-eval'), and {@link restoreHostZodConfig} puts back what the page had, so the only global the
 * bundle leaves is `window.OfferWidget` and a page's own zod is never reconfigured.
 */
type ZodGlobal = { __zod_globalConfig?: object }
const g = globalThis as ZodGlobal
const hadHostConfig = '__zod_globalConfig' in g
const hostConfig = g.__zod_globalConfig

g.__zod_globalConfig = { jitless: true }

export function restoreHostZodConfig(): void {
  if (hadHostConfig) g.__zod_globalConfig = hostConfig
  else delete g.__zod_globalConfig
}
