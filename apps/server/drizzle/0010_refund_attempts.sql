ALTER TABLE "orders" ADD COLUMN "refund_attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "stray_payments" ADD COLUMN "refund_attempts" integer DEFAULT 0 NOT NULL;