ALTER TABLE "marketplace_leads" ADD COLUMN "credit_band" text;--> statement-breakpoint
ALTER TABLE "marketplace_leads" ADD COLUMN "loan_purpose" text;--> statement-breakpoint
ALTER TABLE "marketplace_leads" ADD COLUMN "amount_band" text;--> statement-breakpoint
ALTER TABLE "marketplace_offers" ADD COLUMN "outcome" text;--> statement-breakpoint
ALTER TABLE "marketplace_offers" ADD COLUMN "bid_rank" integer;--> statement-breakpoint
ALTER TABLE "marketplace_offers" ADD COLUMN "gap_cents" integer;