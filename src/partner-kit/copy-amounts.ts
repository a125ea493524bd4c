/**
 * @module The loan amounts an offer's copy (`offer_details`) names: every dollar figure ("$12,000", "$9.6K",
 * "$1.5 million") except payments (a figure followed by "a month", "/mo", "per month" or "monthly") and $0 (a
 * fee that is not charged). What the conformance checker compares with the offer's `amount_usd`.
 */

const DOLLARS = /\$\s?(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?\s?(k|m|million|thousand)?\b/gi
const PAYMENT_AFTER =
  /^\s*(?:\/\s?mo\b|\/\s?month\b|a month\b|per month\b|monthly\b|each month\b|every month\b)/i
const SCALE: Readonly<Record<string, number>> = {
  k: 1_000,
  thousand: 1_000,
  m: 1_000_000,
  million: 1_000_000,
}

/** The amounts `copy` names, in USD, in the order it names them. */
export function amountsInCopy(copy: string): number[] {
  const amounts: number[] = []
  for (const match of copy.matchAll(DOLLARS)) {
    const after = copy.slice((match.index ?? 0) + match[0].length)
    if (PAYMENT_AFTER.test(after)) continue
    const [, whole = '0', fraction = '', scale] = match
    const amount =
      Number(`${whole.replaceAll(',', '')}${fraction}`) * (scale ? (SCALE[scale.toLowerCase()] ?? 1) : 1)
    if (amount > 0) amounts.push(amount)
  }
  return amounts
}
