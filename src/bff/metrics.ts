/**
 * @module Prometheus metrics of one BFF instance, on its own registry so several apps (tests, replicas in
 * one process) never collide: requests by route and status with latency, upstream calls by status,
 * coalesced polls, rate-limited requests, rate-table items dropped, the placements report's search events and
 * the offers the widget measured.
 */
import { Counter, Histogram, Registry } from 'prom-client'

export interface BffMetrics {
  registry: Registry
  httpRequests: Counter<'method' | 'route' | 'status'>
  httpDuration: Histogram<'method' | 'route' | 'status'>
  upstreamRequests: Counter<'operation' | 'status'>
  upstreamDuration: Histogram<'operation'>
  coalescedPolls: Counter<'source'>
  rateLimited: Counter<'route'>
  droppedRateTableItems: Counter<'item' | 'reason'>
  /**
   * docs/placements.md: search events by kind and outcome (`queued`, `failed`: the ledger refused them,
   * `dropped`: the ledger's search-event queue was full, `unrecorded`: no ledger).
   */
  searchEvents: Counter<'kind' | 'outcome'>
  /**
   * docs/placements.md: offers named by the widget's measures, by kind (`shown`, `clicked`) and outcome
   * (`counted`, `repeat`: already counted by this process, `unserved`: not in a rate table served for the search).
   */
  measuredOffers: Counter<'kind' | 'outcome'>
}

export function createMetrics(registry: Registry = new Registry()): BffMetrics {
  // Sub-millisecond buckets: the BFF's own overhead is the number worth watching.
  const buckets = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
  return {
    registry,
    httpRequests: new Counter({
      name: 'bff_http_requests_total',
      help: 'Requests answered by the BFF, by route pattern and status',
      labelNames: ['method', 'route', 'status'],
      registers: [registry],
    }),
    httpDuration: new Histogram({
      name: 'bff_http_request_duration_seconds',
      help: 'Time to answer a request, by route pattern and status',
      labelNames: ['method', 'route', 'status'],
      buckets,
      registers: [registry],
    }),
    upstreamRequests: new Counter({
      name: 'bff_upstream_requests_total',
      help: 'Upstream attempts by operation and HTTP status (or error kind: timeout, connection, malformed)',
      labelNames: ['operation', 'status'],
      registers: [registry],
    }),
    upstreamDuration: new Histogram({
      name: 'bff_upstream_request_duration_seconds',
      help: 'Upstream attempt latency by operation',
      labelNames: ['operation'],
      buckets,
      registers: [registry],
    }),
    coalescedPolls: new Counter({
      name: 'bff_coalesced_polls_total',
      help: 'Polls answered without their own upstream call (shared in-flight call or a snapshot < 1 s old)',
      labelNames: ['source'],
      registers: [registry],
    }),
    rateLimited: new Counter({
      name: 'bff_rate_limited_total',
      help: 'Requests refused with 429 by the per-IP limiter',
      labelNames: ['route'],
      registers: [registry],
    }),
    droppedRateTableItems: new Counter({
      name: 'bff_rate_table_items_dropped_total',
      help: "Upstream offers (or pending partners' fields) dropped for breaking the contract, once per rate table and item",
      labelNames: ['item', 'reason'],
      registers: [registry],
    }),
    searchEvents: new Counter({
      name: 'bff_search_events_total',
      help: "Offer search events for the placements report (created, completed, shown, clicked) by outcome: queued, failed (ledger refused; the search went on), dropped (the ledger's search-event queue was full), unrecorded (no ledger)",
      labelNames: ['kind', 'outcome'],
      registers: [registry],
    }),
    measuredOffers: new Counter({
      name: 'bff_measured_offers_total',
      help: "Offers named by the widget's measures, by kind (shown, clicked) and outcome: counted, repeat (already counted), unserved (not in a rate table the BFF served for the search; dropped)",
      labelNames: ['kind', 'outcome'],
      registers: [registry],
    }),
  }
}
