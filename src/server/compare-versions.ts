/**
 * @module Orders bundle versions (`1.10.0` after `1.9.2`, `1.0.0` after `1.0.0-rc.2`) the way semver does,
 * so a line's stable URL serves its highest version whichever replica wrote last (embed-archive.ts). A
 * string comparison would put `0.1.10` before `0.1.9`.
 */

const VERSION = /^(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.]+))?$/

/** Negative when `a` is lower than `b`, positive when higher, 0 when equal or either is no version. */
export function compareVersions(a: string, b: string): number {
  const left = VERSION.exec(a)
  const right = VERSION.exec(b)
  if (!left || !right) return 0
  for (const part of [1, 2, 3]) {
    const difference = Number(left[part]) - Number(right[part])
    if (difference !== 0) return Math.sign(difference)
  }
  return comparePrereleases(left[4], right[4])
}

/** A release is higher than its prereleases; identifiers compare numerically when both are numbers. */
function comparePrereleases(a: string | undefined, b: string | undefined): number {
  if (a === b) return 0
  if (a === undefined) return 1
  if (b === undefined) return -1
  const left = a.split('.')
  const right = b.split('.')
  for (let i = 0; i < Math.max(left.length, right.length); i++) {
    const x = left[i]
    const y = right[i]
    if (x === undefined) return -1
    if (y === undefined) return 1
    if (x === y) continue
    const numeric = /^\d+$/.test(x) && /^\d+$/.test(y)
    if (numeric) return Math.sign(Number(x) - Number(y))
    // A numeric identifier is lower than an alphanumeric one.
    if (/^\d+$/.test(x)) return -1
    if (/^\d+$/.test(y)) return 1
    return x < y ? -1 : 1
  }
  return 0
}
