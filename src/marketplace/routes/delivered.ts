/**
 * @module A ledger call on a delivery path (an impression, a click, a conversion): when the ledger fails
 * it is counted as `failed` under that path's metric, and the error goes on to the route's error handler.
 */
import type { MarketplaceContext } from '../marketplace-context.ts'

export async function delivered<T>(
  ctx: Pick<MarketplaceContext, 'metrics'>,
  path: 'impression' | 'click' | 'conversion',
  call: () => Promise<T> | T,
): Promise<T> {
  try {
    return await call()
  } catch (error) {
    ctx.metrics[path]('failed')
    throw error
  }
}
