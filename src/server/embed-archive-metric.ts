/**
 * @module `bff_embed_archive_writable`: whether this replica could write the archive of served bundles
 * (embed-archive.ts) the last time it tried. A gauge, not a `/readyz` failure: a full or read-only
 * `DATA_DIR` does not stop the BFF serving its current bundle, and a shared volume filling up must not take
 * every replica out of the load balancer at once. docs/operating.md.
 */
import { Gauge, type Registry } from 'prom-client'
import type { EmbedArchive } from './embed-archive.ts'

export function registerEmbedArchiveMetric(registry: Registry, archive: EmbedArchive): void {
  new Gauge({
    name: 'bff_embed_archive_writable',
    help: 'Whether the last attempt to archive the served script-tag bundle under DATA_DIR/embed worked (1) or not (0: full, read-only; see the warning log)',
    registers: [registry],
    collect() {
      this.set(archive.degraded() === undefined ? 1 : 0)
    },
  })
}
