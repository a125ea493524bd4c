/**
 * @module The monthly payment of a fixed-rate loan repaid in equal instalments (the amortisation formula),
 * rounded to the cent: what a representative example's payment is judged against (loan-terms-example.ts)
 * and what the reference partner quotes. In the contract so the marketplace and the partner kit share it.
 */

/** `principal` USD at `aprPercent` a year over `months` months; with no interest, the principal split evenly. */
export function monthlyPayment(principal: number, aprPercent: number, months: number): number {
  const rate = aprPercent / 100 / 12
  const payment = rate === 0 ? principal / months : (principal * rate) / (1 - (1 + rate) ** -months)
  return Math.round(payment * 100) / 100
}
