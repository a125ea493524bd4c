/**
 * @module The Code panel: the React element and the script-tag page for the current story and controls,
 * each with a copy button. The args shown are the object the preview frame mounts, so the code is what
 * runs on screen. The loader snippet is src/embed's, for the bundle the BFF serves (`/embed/manifest.json`).
 */
import { useEffect, useState } from 'react'
import { z } from 'zod/mini'
import { loaderScript } from '../embed/index.ts'
import { reactCode, scriptTagCode } from './code-snippets.ts'
import { useCopy } from './useCopy.ts'
import type { WidgetArgs } from './widget-args.ts'

const manifestSchema = z.object({
  src: z.string(),
  stableSrc: z.optional(z.string()),
  integrity: z.optional(z.string()),
})

type Loader = { ok: true; script: string } | { ok: false; reason: string } | undefined

function useLoaderScript(): Loader {
  const [loader, setLoader] = useState<Loader>()
  useEffect(() => {
    fetch('/embed/manifest.json')
      .then(async (response) => {
        if (!response.ok) throw new Error(`HTTP ${response.status}`)
        const parsed = manifestSchema.safeParse(await response.json())
        if (!parsed.success) throw new Error('the manifest has no src')
        // The manifest names the bundle by path; a page elsewhere needs this origin in front of it. As
        // `npm run snippet` does, the code names the line's stable URL, which follows upgrades
        // (docs/upgrading.md); a BFF without one gets the hashed bundle with its SRI hash.
        const { src, stableSrc, integrity } = parsed.data
        const absolute = (path: string) => new URL(path, window.location.origin).href
        setLoader({
          ok: true,
          script: stableSrc
            ? loaderScript({ src: absolute(stableSrc) })
            : loaderScript({ src: absolute(src), integrity }),
        })
      })
      .catch((error: unknown) =>
        setLoader({
          ok: false,
          reason: `The script-tag bundle is not served here (${String(error)}): run npm run build, then npm start.`,
        }),
      )
  }, [])
  return loader
}

export function CodePanel({ args }: { args: WidgetArgs }) {
  const loader = useLoaderScript()
  const [status, copy] = useCopy()
  const react = reactCode(args)
  const script = loader?.ok ? scriptTagCode(args, loader.script) : undefined
  return (
    <div className="pg-code">
      <section aria-labelledby="pg-code-react">
        <div className="pg-code-head">
          <h3 id="pg-code-react">React</h3>
          <button type="button" onClick={() => copy(react, 'the React code')}>
            Copy React code
          </button>
        </div>
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard */}
        <pre tabIndex={0} data-code="react">
          <code>{react}</code>
        </pre>
      </section>
      <section aria-labelledby="pg-code-script">
        <div className="pg-code-head">
          <h3 id="pg-code-script">Script tag</h3>
          <button
            type="button"
            disabled={!script}
            onClick={() => script && copy(script, 'the script-tag code')}
          >
            Copy script-tag code
          </button>
        </div>
        {script ? (
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
          <pre tabIndex={0} data-code="script">
            <code>{script}</code>
          </pre>
        ) : (
          <p className="pg-muted">{loader && !loader.ok ? loader.reason : 'Loading the loader snippet…'}</p>
        )}
      </section>
      <p role="status" className="pg-status">
        {status}
      </p>
    </div>
  )
}
