CREATE TABLE "marketplace_lead_handoffs" (
	"lead_id" uuid PRIMARY KEY NOT NULL,
	"sealed" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "marketplace_leads" ADD COLUMN "owner" text;--> statement-breakpoint
ALTER TABLE "marketplace_leads" ADD COLUMN "lease_until" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "marketplace_leads_pending_lease" ON "marketplace_leads" USING btree ("lease_until") WHERE status = 'pending';