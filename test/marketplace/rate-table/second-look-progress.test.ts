/**
 * @module The rate table's `secondLook` progress, pure: which partners count as asked while each tier runs,
 * and when the last window that can still run closes.
 */
import { describe, expect, it } from 'vitest'
import type { RequestProgress, SearchSnapshot } from '../../../src/ledger/index.ts'
import type { PartnerRegistryEntry } from '../../../src/marketplace/index.ts'
import { secondLookProgress } from '../../../src/marketplace/rate-table/second-look-progress.ts'

const T0 = Date.parse('2026-03-02T10:00:00Z')
const at = (ms: number) => new Date(T0 + ms)
const iso = (ms: number) => at(ms).toISOString()

const entry = (id: string, tier: 'first' | 'second', timeoutMs: number, enabled = true) =>
  ({ id, tier, timeoutMs, enabled }) as PartnerRegistryEntry
const REGISTRY = new Map(
  [
    entry('f1', 'first', 8_000),
    entry('f2', 'first', 12_000),
    entry('s1', 'second', 6_000),
    entry('s2', 'second', 12_000),
    entry('s-off', 'second', 12_000, false),
  ].map((e) => [e.id, e]),
)
const WINDOWS = { windowMs: 12_000, firstLookDeadlineMs: 10_000 }

function snapshot(requests: RequestProgress[], over?: { completedMs: number }): SearchSnapshot {
  return {
    lead: {
      id: 'lead',
      searchUuid: 'search',
      state: 'CA',
      zip: '94105',
      bodyHash: null,
      status: over ? 'complete' : 'pending',
      createdAt: at(0),
      deadlineAt: at(22_000),
      completedAt: over ? at(over.completedMs) : null,
      failureReason: null,
    },
    pending: [],
    requests,
    displayed: [],
  }
}
const request = (
  partnerId: string,
  tier: 'first' | 'second',
  status: RequestProgress['status'],
  sentMs: number,
  offerCount = 0,
): RequestProgress => ({ partnerId, tier, status, sentAt: at(sentMs), offerCount })

describe('secondLookProgress', () => {
  it.each([
    [
      "first look running, second look still possible: both tiers asked, until first look's deadline plus the longest second-look window",
      [request('f1', 'first', 'rejected', 0), request('f2', 'first', 'pending', 0)],
      { partnersAsked: 4, partnersAnswered: 1, answerBy: iso(10_000 + 12_000) },
    ],
    [
      'a first-look partner already offered: second look cannot run, so only first look is asked, until it closes',
      [request('f1', 'first', 'approved', 0, 2), request('f2', 'first', 'pending', 0)],
      { partnersAsked: 2, partnersAnswered: 1, answerBy: iso(10_000) },
    ],
    [
      'second look running: every partner sent, until the longest second-look window from its send',
      [
        request('f1', 'first', 'rejected', 0),
        request('f2', 'first', 'timeout', 0),
        request('s1', 'second', 'approved', 10_000, 1),
        request('s2', 'second', 'pending', 10_000),
      ],
      { partnersAsked: 4, partnersAnswered: 3, answerBy: iso(10_000 + 12_000) },
    ],
  ])('%s', (_, requests, expected) => {
    expect(secondLookProgress(snapshot(requests), REGISTRY, WINDOWS, false)).toEqual(expected)
  })

  it('once over: every partner asked counts as answered, and answerBy is when it ended', () => {
    const requests = [request('f1', 'first', 'rejected', 0), request('s1', 'second', 'approved', 500, 1)]
    expect(secondLookProgress(snapshot(requests, { completedMs: 700 }), REGISTRY, WINDOWS, true)).toEqual({
      partnersAsked: 2,
      partnersAnswered: 2,
      answerBy: iso(700),
    })
  })

  it('a pending lead with no request says nobody is asked, never an invalid time', () => {
    expect(secondLookProgress(snapshot([]), REGISTRY, WINDOWS, false)).toEqual({
      partnersAsked: 0,
      partnersAnswered: 0,
      answerBy: iso(22_000),
    })
  })
})
