/** @module The version order a line's stable URL uses to pick its highest bundle: semver's, not strings'. */
import { describe, expect, it } from 'vitest'
import { compareVersions } from '../../src/server/compare-versions.ts'

describe('compareVersions', () => {
  it.each([
    ['0.1.10', '0.1.9', 1],
    ['1.10.0', '1.9.9', 1],
    ['2.0.0', '10.0.0', -1],
    ['1.0.0', '1.0.0', 0],
    ['1.0.0', '1.0.0-rc.2', 1],
    ['1.0.0-rc.10', '1.0.0-rc.9', 1],
    ['1.0.0-rc.1', '1.0.0-rc', 1],
    ['1.0.0-1', '1.0.0-alpha', -1],
    ['1.0.0-beta', '1.0.0-alpha', 1],
  ])('%s against %s is %i', (a, b, expected) => {
    expect(compareVersions(a, b)).toBe(expected)
    expect(compareVersions(b, a)).toBe(-expected || 0)
  })
})
