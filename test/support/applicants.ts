/**
 * @module A distinct applicant for each lead the tests, benches and e2e suites send: the second look sends
 * an applicant (SSN and date of birth) to partners once per duplicate window (docs/second-look.md,
 * "Duplicate applicants"), and the SSNs must stay in the 987-65-4320..4329 range reserved for advertising,
 * so each lead gets a date of birth of its own. Counted from a random day of 1950-1959 per process, so two
 * processes sharing one ledger do not meet either.
 */
const DAY_MS = 24 * 60 * 60 * 1000
const FIRST = Date.UTC(1950, 0, 1) + Math.floor(Math.random() * 3650) * DAY_MS
let next = 0

/** A date of birth (`yyyy-mm-dd`, an adult's) no other call of this process returns. */
export function distinctDateOfBirth(): string {
  const day = new Date(FIRST + next++ * DAY_MS)
  return day.toISOString().slice(0, 10)
}

/**
 * An SSN the SSA issues (area 001-665, group 01-99, serial 0001-9999), a new one each call: for a server in
 * production mode, which refuses the advertising range (docs/partner-interface.md), and for the per-SSN cap.
 */
export function issuedSsn(): string {
  const pad = (n: number, width: number) => String(n).padStart(width, '0')
  const n = next++
  return `${pad(1 + (n % 665), 3)}-${pad(1 + (Math.floor(n / 665) % 99), 2)}-${pad(1 + Math.floor(Math.random() * 9999), 4)}`
}
