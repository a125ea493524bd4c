CREATE TABLE "marketplace_held_applications" (
	"id" uuid PRIMARY KEY NOT NULL,
	"search_uuid" uuid NOT NULL,
	"applicant_key" text NOT NULL,
	"ssn_key" text,
	"first_lead_id" uuid,
	"reason" text NOT NULL,
	"state" text NOT NULL,
	"zip" text NOT NULL,
	"ip_address" text NOT NULL,
	"user_agent" text NOT NULL,
	"requests" jsonb NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	"answer_at" timestamp with time zone NOT NULL,
	"released_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "marketplace_withdrawn_leads" (
	"lead_id" uuid PRIMARY KEY NOT NULL,
	"withdrawn_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "marketplace_applicant_claims" ADD COLUMN "contact_key" text;--> statement-breakpoint
ALTER TABLE "marketplace_applicant_claims" ADD COLUMN "ssn_key" text;--> statement-breakpoint
ALTER TABLE "marketplace_duplicate_applications" ADD COLUMN "search_uuid" uuid;--> statement-breakpoint
CREATE UNIQUE INDEX "marketplace_held_applications_search_uuid" ON "marketplace_held_applications" USING btree ("search_uuid");--> statement-breakpoint
CREATE INDEX "marketplace_held_applications_received_at" ON "marketplace_held_applications" USING btree ("received_at");--> statement-breakpoint
CREATE INDEX "marketplace_applicant_claims_ssn_key" ON "marketplace_applicant_claims" USING btree ("ssn_key");--> statement-breakpoint
CREATE UNIQUE INDEX "marketplace_duplicate_applications_search_uuid" ON "marketplace_duplicate_applications" USING btree ("search_uuid");