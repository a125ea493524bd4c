CREATE TABLE "marketplace_applicant_claims" (
	"applicant_key" text PRIMARY KEY NOT NULL,
	"lead_id" uuid NOT NULL,
	"claimed_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "marketplace_consent_records" (
	"lead_id" uuid PRIMARY KEY NOT NULL,
	"recorded_at" timestamp with time zone NOT NULL,
	"fcra_text_id" text NOT NULL,
	"fcra_checked" boolean NOT NULL,
	"tcpa_text_id" text,
	"tcpa_checked" boolean,
	"page_url" text,
	"ip_address" text NOT NULL,
	"user_agent" text NOT NULL,
	"widget_version" text,
	"trusted_form_cert_url" text,
	"leadid_token" text
);
--> statement-breakpoint
CREATE TABLE "marketplace_consent_texts" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"version" text NOT NULL,
	"text" text NOT NULL,
	"first_stored_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "marketplace_duplicate_applications" (
	"id" uuid PRIMARY KEY NOT NULL,
	"first_lead_id" uuid,
	"received_at" timestamp with time zone NOT NULL,
	"shown" boolean NOT NULL
);
--> statement-breakpoint
ALTER TABLE "marketplace_leads" ADD COLUMN "applicant_key" text;--> statement-breakpoint
CREATE INDEX "marketplace_applicant_claims_expires_at" ON "marketplace_applicant_claims" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "marketplace_consent_records_recorded_at" ON "marketplace_consent_records" USING btree ("recorded_at");--> statement-breakpoint
CREATE INDEX "marketplace_duplicate_applications_received_at" ON "marketplace_duplicate_applications" USING btree ("received_at");--> statement-breakpoint
CREATE INDEX "marketplace_leads_applicant_key" ON "marketplace_leads" USING btree ("applicant_key","created_at");