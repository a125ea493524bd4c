CREATE TABLE "marketplace_conversions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"partner_id" text NOT NULL,
	"partner_lead_id" text NOT NULL,
	"lead_id" uuid NOT NULL,
	"request_id" uuid NOT NULL,
	"converted_at" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	"amount" double precision
);
--> statement-breakpoint
CREATE TABLE "marketplace_impressions" (
	"offer_id" uuid PRIMARY KEY NOT NULL,
	"lead_id" uuid NOT NULL,
	"partner_id" text NOT NULL,
	"impressed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "marketplace_conversions_partner_lead" ON "marketplace_conversions" USING btree ("partner_id","partner_lead_id");--> statement-breakpoint
CREATE INDEX "marketplace_conversions_request" ON "marketplace_conversions" USING btree ("request_id");--> statement-breakpoint
CREATE INDEX "marketplace_impressions_partner" ON "marketplace_impressions" USING btree ("partner_id","impressed_at");--> statement-breakpoint
CREATE INDEX "marketplace_clicks_lead" ON "marketplace_clicks" USING btree ("lead_id","partner_id");--> statement-breakpoint
CREATE INDEX "marketplace_partner_requests_partner_lead_id" ON "marketplace_partner_requests" USING btree ("partner_id","partner_lead_id");