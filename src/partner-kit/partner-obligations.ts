/**
 * @module What a partner owes the leads and the operator beyond the wire format (docs/partner-interface.md),
 * printed by `check-partner` with every run, pass or fail, and carried in its `--json` report: no check can
 * test them from outside, so the checker states them.
 */
export const PARTNER_OBLIGATIONS: readonly string[] = [
  'No remarketing: you must not remarket to any lead that did not click your offer (docs/partner-interface.md). ' +
    'Download the leads to suppress from GET /api/reports/partners/<your id>/suppression?from=&to= ' +
    '(JSON, or CSV with ?format=csv), with your own reports token, and suppress every lead_id on it.',
  'Conversions: if your contract pays on conversion, post each one once to POST /api/conversions ' +
    'with { "lead_id": "<your lead_id>", "converted_at"?: "<ISO 8601>", "amount"?: <number> } and ' +
    'Authorization: Bearer <your reports token>; a repeat of the same lead_id changes nothing.',
  'Keep the lead out of lead_id, click_url and reason: no SSN, email, phone, date of birth or name ' +
    '(the marketplace masks what it finds, and the reason is shown in your reports).',
]
