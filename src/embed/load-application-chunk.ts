/**
 * @module The script-tag bundle's `loadApplication` (config/vite.embed.config.ts puts it in place of
 * src/widget/load-application.ts): adds the loan-application chunk's `<script>` once, with the integrity
 * the build recorded, from `/embed/` on the origin the bundle came from (its hashed URL or its line's
 * stable one alike), and resolves to the component it hands over (application-host.ts). One memoized
 * promise, forgotten on failure so the next try loads again.
 */

import * as React from 'react'
import * as jsx from 'react/jsx-runtime'
import type { ApplicationFlow } from '../widget/loan-application/ApplicationFlow.tsx'
import { APPLICATION_HOST } from './application-host.ts'
import { EMBED_PATH } from './manifest.ts'

/** The chunk as the build recorded it (config/vite.embed.config.ts defines it). */
declare const __OFFER_WIDGET_APPLICATION__: { file: string; integrity: string }

type Chunk = { ApplicationFlow: typeof ApplicationFlow }

// Read while the bundle runs: `currentScript` is null once it has.
const bundleSrc = (document.currentScript as HTMLScriptElement | null)?.src
let loading: Promise<Chunk> | undefined

export function loadApplication(): Promise<Chunk> {
  loading ??= new Promise<Chunk>((resolve, reject) => {
    const host = window as unknown as Record<string, unknown>
    const script = document.createElement('script')
    host[APPLICATION_HOST] = {
      react: React,
      jsx,
      ready(flow: typeof ApplicationFlow) {
        delete host[APPLICATION_HOST]
        resolve({ ApplicationFlow: flow })
      },
    }
    script.src = new URL(EMBED_PATH + __OFFER_WIDGET_APPLICATION__.file, bundleSrc || location.href).href
    script.integrity = __OFFER_WIDGET_APPLICATION__.integrity
    script.crossOrigin = 'anonymous'
    script.onerror = () => {
      loading = undefined
      script.remove()
      reject(new Error(`offer-widget: the loan application did not load from ${script.src}`))
    }
    document.head.append(script)
  })
  return loading
}
