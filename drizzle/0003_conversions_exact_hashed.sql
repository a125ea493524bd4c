DROP INDEX "marketplace_partner_requests_partner_lead_id";--> statement-breakpoint
DROP INDEX "marketplace_conversions_partner_lead";--> statement-breakpoint
ALTER TABLE "marketplace_conversions" ADD COLUMN "partner_lead_id_hash" text;--> statement-breakpoint
ALTER TABLE "marketplace_conversions" ADD COLUMN "amount_cents" bigint;--> statement-breakpoint
ALTER TABLE "marketplace_partner_requests" ADD COLUMN "partner_lead_id_hash" text;--> statement-breakpoint
ALTER TABLE "marketplace_partner_requests" ADD COLUMN "offers_dropped" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "marketplace_conversions_partner_lead_hash" ON "marketplace_conversions" USING btree ("partner_id","partner_lead_id_hash");--> statement-breakpoint
CREATE INDEX "marketplace_partner_requests_partner_lead_id_hash" ON "marketplace_partner_requests" USING btree ("partner_id","partner_lead_id_hash");--> statement-breakpoint
CREATE INDEX "marketplace_conversions_partner_lead" ON "marketplace_conversions" USING btree ("partner_id","partner_lead_id");--> statement-breakpoint
-- Amounts recorded before: kept when they fit the new bounds (0.01 to 1 000 000.00, rounded to the cent); a 1e308, a 1e-9, NaN or Infinity becomes no amount.
UPDATE "marketplace_conversions" SET "amount_cents" = round("amount"::numeric * 100)::bigint WHERE "amount" >= 0.01 AND "amount" <= 1000000;--> statement-breakpoint
ALTER TABLE "marketplace_conversions" DROP COLUMN "amount";