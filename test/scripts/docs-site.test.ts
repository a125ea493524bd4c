/**
 * @module The docs site (`npm run docs:build`, scripts/docs-site.ts): its link check finds a missing page and
 * a missing anchor, and the site as built has no problem and a reference page for every widget prop,
 * attribute, event and environment variable the code declares.
 */
import { describe, expect, it } from 'vitest'
import { brokenLinks } from '../../scripts/docs-links.ts'
import { buildDocsSite } from '../../scripts/docs-site.ts'
import { ATTRIBUTE_OPTIONS } from '../../src/embed/attribute-options.ts'
import { attributeOf } from '../../src/embed/data-attributes.ts'
import { envSchema } from '../../src/server/config-env.ts'

describe('brokenLinks', () => {
  const pages = [
    {
      path: 'index.html',
      html: '<h1 id="top">x</h1><a href="guides/a.html#setup">a</a><a href="https://example.com/x">out</a>',
    },
    {
      path: 'guides/a.html',
      html: '<h2 id="setup">Setup</h2><a href="../index.html#top">home</a><a href="#setup">here</a>',
    },
  ]

  it('passes links to pages and anchors that exist, and leaves other sites alone', () => {
    expect(brokenLinks(pages)).toEqual([])
  })

  it('names a link to a missing page and one to a missing anchor', () => {
    const withBroken = [
      ...pages,
      {
        path: 'guides/b.html',
        html: '<a href="c.html">c</a><a href="a.html#install">a</a><a href="#nowhere">n</a>',
      },
    ]
    expect(brokenLinks(withBroken)).toEqual([
      { page: 'guides/b.html', href: 'c.html', why: 'no page guides/c.html' },
      { page: 'guides/b.html', href: 'a.html#install', why: 'guides/a.html has no #install' },
      { page: 'guides/b.html', href: '#nowhere', why: 'guides/b.html has no #nowhere' },
    ])
  })
})

describe('the docs site as built', () => {
  const site = buildDocsSite()
  const paths = new Set(site.pages.map((page) => page.path))

  it('has no broken link and no drift between the code and the docs', () => {
    expect(site.problems).toEqual([])
  })

  it('has a reference page for every environment variable the server reads', () => {
    const missing = Object.keys(envSchema.shape).filter(
      (name) => !paths.has(`reference/variables/${name}.html`),
    )
    expect(missing).toEqual([])
  })

  it('has a reference page for every attribute the script tag and <offer-widget> read', () => {
    const missing = Object.keys(ATTRIBUTE_OPTIONS)
      .map((path) => `reference/attributes/data-${attributeOf(path)}.html`)
      .filter((page) => !paths.has(page))
    expect(Object.keys(ATTRIBUTE_OPTIONS).length).toBeGreaterThan(20)
    expect(missing).toEqual([])
  })

  it('has reference pages for the widget props and events, the guides and the search', () => {
    for (const path of [
      'index.html',
      'guides/react.html',
      'reference/index.html',
      'reference/props/placement.html',
      'reference/events/offer_click.html',
      'search.html',
    ]) {
      expect(paths.has(path), path).toBe(true)
    }
  })
})
