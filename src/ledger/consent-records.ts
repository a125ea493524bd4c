/**
 * @module Reads and retention of the consent records (docs/decisions/0105-consent-records.md): one lead's
 * record with the texts it points at, for the operator by lead id or for a partner by the request id it was
 * sent (its `Idempotency-Key`); and the sweep's deletes, of records past their retention and of applicant
 * claims past their window.
 */
import { and, eq, lt } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import type { LedgerDb } from './ledger-db.ts'
import { applicantClaims, consentRecords, consentTexts, partnerRequests } from './schema.ts'
import type { ConsentRecord } from './types.ts'

const fcraText = alias(consentTexts, 'fcra_text')
const tcpaText = alias(consentTexts, 'tcpa_text')

/** Which record: the operator names the lead, a partner the request it received (and itself). */
export type ConsentRecordQuery = { leadId: string } | { partnerId: string; requestId: string }

export async function readConsentRecord(
  db: LedgerDb,
  query: ConsentRecordQuery,
): Promise<ConsentRecord | undefined> {
  const base = db
    .select({ record: consentRecords, fcra: fcraText, tcpa: tcpaText })
    .from(consentRecords)
    .innerJoin(fcraText, eq(fcraText.id, consentRecords.fcraTextId))
    .leftJoin(tcpaText, eq(tcpaText.id, consentRecords.tcpaTextId))
  const [row] =
    'leadId' in query
      ? await base.where(eq(consentRecords.leadId, query.leadId))
      : await base
          .innerJoin(partnerRequests, eq(partnerRequests.leadId, consentRecords.leadId))
          .where(and(eq(partnerRequests.id, query.requestId), eq(partnerRequests.partnerId, query.partnerId)))
  if (row === undefined) return undefined
  const { record, fcra, tcpa } = row
  const certificate = {
    ...(record.trustedFormCertUrl === null ? {} : { trustedFormCertUrl: record.trustedFormCertUrl }),
    ...(record.leadiDToken === null ? {} : { leadiDToken: record.leadiDToken }),
  }
  return {
    leadId: record.leadId,
    recordedAt: record.recordedAt.toISOString(),
    pageUrl: record.pageUrl,
    ipAddress: record.ipAddress,
    userAgent: record.userAgent,
    widgetVersion: record.widgetVersion,
    certificate: Object.keys(certificate).length > 0 ? certificate : null,
    fcra: { version: fcra.version, textId: fcra.id, text: fcra.text, checked: true },
    tcpa:
      tcpa === null && record.tcpaChecked === null
        ? null
        : {
            version: tcpa?.version ?? null,
            textId: tcpa?.id ?? null,
            text: tcpa?.text ?? null,
            checked: record.tcpaChecked,
          },
  }
}

/** Deletes consent records made before `before`; how many. The texts stay: they are the operator's. */
export async function purgeConsentRecords(db: LedgerDb, before: Date): Promise<number> {
  const deleted = await db
    .delete(consentRecords)
    .where(lt(consentRecords.recordedAt, before))
    .returning({ leadId: consentRecords.leadId })
  return deleted.length
}

/** Deletes applicant claims whose window ended before `now`: a new application would take them over anyway. */
export async function purgeApplicantClaims(db: LedgerDb, now: Date): Promise<number> {
  const deleted = await db
    .delete(applicantClaims)
    .where(lt(applicantClaims.expiresAt, now))
    .returning({ key: applicantClaims.applicantKey })
  return deleted.length
}
