/**
 * @module The `Idempotency-Key` of a second-look lead: one per submitted lead for this page view. A
 * publisher's double-click (or a re-mount with the same lead) sends the same key, so the BFF answers the
 * search it already created instead of sending the lead (and its SSN) to every partner twice; a lead with
 * different data is a new submission and gets a new key.
 */
const keys = new Map<string, string>()

export function idempotencyKeyFor(endpoint: string, lead: unknown): string {
  // The page already holds the lead; only this page view's memory keeps the pairing.
  const id = `${endpoint}\n${JSON.stringify(lead)}`
  let key = keys.get(id)
  if (!key) {
    key = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join(
      '',
    )
    keys.set(id, key)
  }
  return key
}
