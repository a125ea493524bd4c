/**
 * @module The docs site's link check: every relative link of every page must reach a page of the site, and
 * its `#fragment` an element of that page with that id. Links that leave the site (`https:`, `mailto:`) are
 * not followed: CI has no network. `npm run docs:build` fails on what this finds.
 */
import { posix } from 'node:path'

/** A built page: its path in the site (`guides/react.html`) and its HTML. */
export interface SitePage {
  path: string
  html: string
}

export interface BrokenLink {
  page: string
  href: string
  why: string
}

const HREF = /\bhref="([^"]*)"/g
const ID = /\bid="([^"]*)"/g

function decode(text: string): string {
  return text
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
}

/** The links of `pages` that lead nowhere in the site, each with why. */
export function brokenLinks(pages: readonly SitePage[]): BrokenLink[] {
  const ids = new Map(pages.map((page) => [page.path, new Set([...page.html.matchAll(ID)].map((m) => m[1]))]))
  const broken: BrokenLink[] = []
  for (const page of pages) {
    for (const match of page.html.matchAll(HREF)) {
      const href = decode(match[1] as string)
      if (href === '' || /^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('//')) continue
      const [pathPart = '', fragment] = href.split('#', 2)
      const target =
        pathPart === '' ? page.path : posix.normalize(posix.join(posix.dirname(page.path), pathPart))
      const targetIds = ids.get(target)
      if (!targetIds) {
        broken.push({ page: page.path, href, why: `no page ${target}` })
      } else if (fragment && !targetIds.has(fragment)) {
        broken.push({ page: page.path, href, why: `${target} has no #${fragment}` })
      }
    }
  }
  return broken
}
