/**
 * @module The pixel sink: impression pixel URLs point back at the sandbox, which answers a 1x1 GIF and
 * counts every hit per URL, so tests can check "fire every URL ... when the offer is rendered" exactly.
 */

/** The smallest transparent 1x1 GIF. */
export const TRANSPARENT_GIF = Uint8Array.from(
  atob('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7'),
  (char) => char.charCodeAt(0),
)

export interface PixelSink {
  hit(url: string): void
  hits(): Record<string, number>
  reset(): void
}

/** Counts hits per URL; past `maxUrls` distinct URLs new ones are dropped, so a load run stays bounded. */
export function createPixelSink(maxUrls = 100_000): PixelSink {
  const counts = new Map<string, number>()
  return {
    hit(url) {
      const count = counts.get(url)
      if (count !== undefined) counts.set(url, count + 1)
      else if (counts.size < maxUrls) counts.set(url, 1)
    },
    hits: () => Object.fromEntries(counts),
    reset: () => counts.clear(),
  }
}
