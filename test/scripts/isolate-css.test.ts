/**
 * @module The package's stylesheet made from src/widget/styles.css (scripts/isolate-css.ts): theme defaults
 * keep their own specificity (a page still themes with `.ow-root { --ow-* }`), the reset weighs one ID,
 * and every rule of the widget's weighs one ID more than it did, on its subject, before any pseudo-element.
 * Chromium checks the effect against Tailwind's preflight and Bootstrap's reboot (test/e2e/next-app.e2e.ts).
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ISOLATION_ID, isolateCss } from '../../scripts/isolate-css.ts'

const SOURCE = readFileSync(join(import.meta.dirname, '../../src/widget/styles.css'), 'utf8')
const css = isolateCss(SOURCE)
const reset = css.indexOf('Page CSS stops here')
const defaults = css.slice(0, reset)
const widget = css.slice(css.indexOf('{ all: revert; }') + '{ all: revert; }'.length)

/** Top-level selectors of minified CSS, at-rule preludes and keyframe steps left out. */
function selectors(text: string): string[] {
  const out: string[] = []
  for (const match of text.matchAll(/(?:^|[{}])([^{}@]+)\{/g)) {
    const prelude = (match[1] as string).trim()
    if (/^(from|to|[\d.]+%)(,|$)/.test(prelude) || prelude === '') continue
    out.push(...prelude.split(/,(?![^(]*\))/).map((part) => part.trim()))
  }
  return out
}

describe('isolateCss', () => {
  it('keeps every custom property default at its own selector, and only there', () => {
    expect(defaults).toMatch(/^\.ow-root\{--ow-color-bg:/)
    expect(defaults).not.toContain(ISOLATION_ID)
    expect(widget).not.toMatch(/[{;]--ow-[a-z-]+:/)
    for (const name of SOURCE.matchAll(/^\s+(--ow-[a-z-]+):/gm)) expect(defaults).toContain(`${name[1]}:`)
  })

  it('resets the root to initial and every element in it to the browser’s styles, at one ID', () => {
    expect(css).toContain(`:where(.ow-root):not(#${ISOLATION_ID}) { all: initial; display: block; }`)
    expect(css).toContain(`:where(.ow-root *):not(#${ISOLATION_ID})::before`)
    expect(css).toMatch(/\{ all: revert; \}/)
  })

  it('gives every rule of the widget the ID on its subject, before a pseudo-element', () => {
    const found = selectors(widget)
    expect(found.length).toBeGreaterThan(50)
    for (const selector of found) {
      expect(selector).toMatch(new RegExp(`:not\\(#${ISOLATION_ID}\\)(:{1,2}[a-z-]+)?$`))
    }
    expect(widget).toContain(`.ow-root:not(#${ISOLATION_ID}){`)
  })

  it('keeps the declarations lightningcss does not know (it files them as custom) with the widget’s rules', () => {
    for (const declaration of [
      'content:""',
      'object-fit:contain',
      'outline-offset:2px',
      '-webkit-line-clamp:3',
    ])
      expect(widget, declaration).toContain(declaration)
    expect(defaults).not.toMatch(/[{;](content|object-fit|outline-offset|clip):/)
  })

  it('keeps the widget’s keyframes once', () => {
    const names = [...SOURCE.matchAll(/@keyframes ([\w-]+)/g)].map((m) => m[1])
    for (const name of names) expect(css.split(`@keyframes ${name}`).length - 1).toBe(1)
  })
})
