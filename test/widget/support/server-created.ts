/**
 * @module A search "created on the publisher's server" against the msw fake BFF: one offer already in the
 * create's answer, a second from a partner answering at 2 s. What `createServerSearch` hands the page.
 */
import { createdSearchSchema } from '../../../src/contract/bff.ts'
import { createFakeBff } from '../../../src/playground/scenarios/fake-bff.ts'
import { makeOffer, makePartner } from '../../../src/playground/scenarios/fixtures.ts'
import { ENDPOINT, server } from './widget-tests.ts'

export const early = makeOffer({ rank: 1, financialInstitutionDisplayName: 'Early Mutual' })
export const late = makeOffer({ rank: 2, financialInstitutionDisplayName: 'Late Casualty' })

export async function serverCreatedSearch() {
  const bff = createFakeBff({
    initialOffers: [early],
    partners: [{ partner: makePartner({ name: 'Late Casualty' }), answersAfterMs: 2000, offers: [late] }],
  })
  server.use(...bff.handlers)
  const res = await fetch(`${ENDPOINT}/api/offer-searches`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-offer-widget': 'server/1' },
    body: JSON.stringify({ personalInformation: { zipCode: '94107' } }),
  })
  const created = createdSearchSchema.parse(await res.json())
  const attach = {
    uuid: created.rateTable.uuid,
    accessToken: created.accessToken,
    rateTable: created.rateTable,
  }
  return { bff, attach }
}
