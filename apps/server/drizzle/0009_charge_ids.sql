ALTER TABLE "orders" ADD COLUMN "charge_id" text;--> statement-breakpoint
ALTER TABLE "stray_payments" ADD COLUMN "charge_id" text;