/** @module The version the widget sends in `X-Offer-Widget`. */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { WIDGET_VERSION } from '../../src/widget/version.ts'

describe('WIDGET_VERSION', () => {
  test('X-Offer-Widget carries the package version', () => {
    const pkg = JSON.parse(readFileSync(join(process.cwd(), 'package.json'), 'utf8')) as { version: string }
    expect(WIDGET_VERSION).toBe(pkg.version)
  })
})
