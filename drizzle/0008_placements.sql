CREATE TABLE "placement_search_offers" (
	"search_uuid" uuid NOT NULL,
	"offer_id" text NOT NULL,
	"shown_at" timestamp with time zone,
	"clicked_at" timestamp with time zone,
	CONSTRAINT "placement_search_offers_search_uuid_offer_id_pk" PRIMARY KEY("search_uuid","offer_id")
);
--> statement-breakpoint
CREATE TABLE "placement_searches" (
	"search_uuid" uuid PRIMARY KEY NOT NULL,
	"placement" text,
	"created_at" timestamp with time zone NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "marketplace_leads" ADD COLUMN "placement" text;--> statement-breakpoint
CREATE INDEX "placement_searches_created_at" ON "placement_searches" USING btree ("created_at");