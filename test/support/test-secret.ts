/**
 * @module Secrets for tests that pass the server's strength rule (src/http/server-secret.ts): 64 hex digits,
 * the same for the same label (so a failure reproduces), different for different labels.
 */
import { createHash } from 'node:crypto'

export function testSecret(label: string, length = 64): string {
  return createHash('sha256').update(`offer-widget test secret: ${label}`).digest('hex').slice(0, length)
}
