/**
 * @module The sandbox's carriers: fictional insurers that serve as the issuers list (valid values of
 * `autoInsuranceInformation.currentIssuer`) and as the financial institutions behind offers.
 */

export interface Carrier {
  /** Issuer id, the value a client sends as `currentIssuer`. */
  id: string
  /** `financialInstitutionUuid` of the carrier's offers. */
  uuid: string
  name: string
  /** Logo colour, so the generated SVGs tell carriers apart at a glance. */
  color: string
}

/** Fictional names on purpose: a demo page must never suggest a real carrier quoted the visitor. */
export const CARRIERS: readonly Carrier[] = [
  {
    id: 'granite-mutual',
    uuid: '3f1c2a9e-6b4d-4e21-9a7f-0c5d8e2b1a01',
    name: 'Granite Mutual',
    color: '#4a5568',
  },
  {
    id: 'lakeshore-auto',
    uuid: '3f1c2a9e-6b4d-4e21-9a7f-0c5d8e2b1a02',
    name: 'Lakeshore Auto Insurance',
    color: '#2b6cb0',
  },
  {
    id: 'bluepeak',
    uuid: '3f1c2a9e-6b4d-4e21-9a7f-0c5d8e2b1a03',
    name: 'BluePeak Insurance',
    color: '#3182ce',
  },
  {
    id: 'harborview-casualty',
    uuid: '3f1c2a9e-6b4d-4e21-9a7f-0c5d8e2b1a04',
    name: 'Harborview Casualty',
    color: '#2c7a7b',
  },
  {
    id: 'summit-state',
    uuid: '3f1c2a9e-6b4d-4e21-9a7f-0c5d8e2b1a05',
    name: 'Summit State Insurance',
    color: '#c05621',
  },
  {
    id: 'redwood-general',
    uuid: '3f1c2a9e-6b4d-4e21-9a7f-0c5d8e2b1a06',
    name: 'Redwood General',
    color: '#9b2c2c',
  },
  {
    id: 'prairie-farm',
    uuid: '3f1c2a9e-6b4d-4e21-9a7f-0c5d8e2b1a07',
    name: 'Prairie Farm Mutual',
    color: '#b7791f',
  },
  {
    id: 'coastal-shield',
    uuid: '3f1c2a9e-6b4d-4e21-9a7f-0c5d8e2b1a08',
    name: 'Coastal Shield',
    color: '#0987a0',
  },
  {
    id: 'ironbridge-indemnity',
    uuid: '3f1c2a9e-6b4d-4e21-9a7f-0c5d8e2b1a09',
    name: 'Ironbridge Indemnity',
    color: '#553c9a',
  },
  {
    id: 'evergreen-direct',
    uuid: '3f1c2a9e-6b4d-4e21-9a7f-0c5d8e2b1a10',
    name: 'Evergreen Direct',
    color: '#276749',
  },
]

const byId = new Map(CARRIERS.map((carrier) => [carrier.id, carrier]))

export function carrierById(id: string): Carrier | undefined {
  return byId.get(id)
}

/** Looks a carrier up by id; for the scenario tables, where a typo is a programming error. */
export function carrier(id: string): Carrier {
  const found = byId.get(id)
  if (!found) throw new Error(`sandbox: no carrier with id "${id}"`)
  return found
}
