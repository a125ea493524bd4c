/**
 * @module The lead sealed for a takeover: AES-256-GCM under a key derived from the server secret
 * (`SESSION_SECRET`, which every replica shares already for access tokens), so the ledger row that lets
 * another replica ask a dead replica's partners again never holds the lead's PII in the clear. The key is
 * HMAC(secret, purpose), as the token signer derives its keys; a replica with another secret cannot open
 * it, and the takeover then settles on what was recorded.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'
import { type Lead, leadSchema } from '../../contract/partner.ts'
import { purposeKey, requireLongSecret } from '../../http/server-secret.ts'

const PURPOSE = 'offer-widget lead handoff v1'
const VERSION = 'v1'
const IV_BYTES = 12
const TAG_BYTES = 16

export interface LeadSealer {
  seal(lead: Lead): string
  /** The lead, or undefined when the text was not sealed by this secret or is not a lead. */
  open(sealed: string): Lead | undefined
}

export function createLeadSealer(secret: string): LeadSealer {
  requireLongSecret(secret, 'lead sealer')
  const key = purposeKey(secret, PURPOSE)
  return {
    seal(lead) {
      const iv = randomBytes(IV_BYTES)
      const cipher = createCipheriv('aes-256-gcm', key, iv)
      const body = Buffer.concat([cipher.update(JSON.stringify(lead), 'utf8'), cipher.final()])
      return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`
    },
    open(sealed) {
      const [version, data] = sealed.split('.')
      if (version !== VERSION || data === undefined) return undefined
      const bytes = Buffer.from(data, 'base64url')
      if (bytes.length <= IV_BYTES + TAG_BYTES) return undefined
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES))
        decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES))
        const text = Buffer.concat([
          decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)),
          decipher.final(),
        ]).toString('utf8')
        const parsed = leadSchema.safeParse(JSON.parse(text))
        return parsed.success ? parsed.data : undefined
      } catch {
        return undefined
      }
    },
  }
}
