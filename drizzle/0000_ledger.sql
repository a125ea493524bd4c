CREATE TABLE "marketplace_clicks" (
	"offer_id" uuid PRIMARY KEY NOT NULL,
	"lead_id" uuid NOT NULL,
	"partner_id" text NOT NULL,
	"clicked_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "marketplace_leads" (
	"id" uuid PRIMARY KEY NOT NULL,
	"search_uuid" uuid NOT NULL,
	"state" text NOT NULL,
	"zip" text NOT NULL,
	"idempotency_key" text,
	"body_hash" text,
	"status" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"deadline_at" timestamp with time zone NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "marketplace_offers" (
	"id" uuid PRIMARY KEY NOT NULL,
	"lead_id" uuid NOT NULL,
	"request_id" uuid NOT NULL,
	"partner_id" text NOT NULL,
	"position" integer NOT NULL,
	"rate" double precision NOT NULL,
	"product_type" text NOT NULL,
	"recommendation_score" double precision NOT NULL,
	"click_url" text NOT NULL,
	"name" text,
	"display_name" text,
	"offer_details" text,
	"logo_src" text,
	"displayed" boolean DEFAULT false NOT NULL,
	"rank" integer,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "marketplace_partner_requests" (
	"id" uuid PRIMARY KEY NOT NULL,
	"lead_id" uuid NOT NULL,
	"partner_id" text NOT NULL,
	"tier" text NOT NULL,
	"sent_at" timestamp with time zone NOT NULL,
	"status" text NOT NULL,
	"reason" text,
	"http_status" integer,
	"partner_lead_id" text,
	"latency_ms" integer,
	"offer_count" integer DEFAULT 0 NOT NULL,
	"replied_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "marketplace_clicks_partner" ON "marketplace_clicks" USING btree ("partner_id","clicked_at");--> statement-breakpoint
CREATE UNIQUE INDEX "marketplace_leads_search_uuid" ON "marketplace_leads" USING btree ("search_uuid");--> statement-breakpoint
CREATE UNIQUE INDEX "marketplace_leads_idempotency_key" ON "marketplace_leads" USING btree ("idempotency_key");--> statement-breakpoint
CREATE INDEX "marketplace_leads_created_at" ON "marketplace_leads" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "marketplace_offers_lead" ON "marketplace_offers" USING btree ("lead_id");--> statement-breakpoint
CREATE INDEX "marketplace_offers_partner" ON "marketplace_offers" USING btree ("partner_id");--> statement-breakpoint
CREATE UNIQUE INDEX "marketplace_partner_requests_lead_partner" ON "marketplace_partner_requests" USING btree ("lead_id","partner_id");--> statement-breakpoint
CREATE INDEX "marketplace_partner_requests_partner_sent" ON "marketplace_partner_requests" USING btree ("partner_id","sent_at");