/**
 * @module A loan offer's figures on its card, as a visitor compares loans on NerdWallet or Credit Karma:
 * each a label over its value ("APR" over "8.99%–35.99%"), in a grid that wraps at any width. The
 * figures come from the partner's `loan_terms` (docs/partner-interface.md, "Loan terms"); never clamped.
 */
import type { LoanTerms as Terms } from '../contract/rate-table.ts'
import type { Labels } from './labels.ts'
import { loanFigures } from './loan-figures.ts'

export function LoanTerms({ terms, labels }: { terms: Terms; labels: Labels }) {
  const figures = loanFigures(terms, labels)
  if (figures.length === 0) return null
  return (
    <dl className="ow-terms">
      {figures.map((figure) => (
        <div key={figure.label}>
          <dt className="ow-muted">{figure.label}</dt>
          <dd>{figure.value}</dd>
        </div>
      ))}
    </dl>
  )
}
