ALTER TABLE "orders" DROP CONSTRAINT "orders_status_check";--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "refund_status" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "refund_failure" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "dispute_id" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "dispute_status" text;--> statement-breakpoint
ALTER TABLE "stray_payments" ADD COLUMN "refund_status" text;--> statement-breakpoint
CREATE UNIQUE INDEX "orders_payment_id_unique" ON "orders" USING btree ("payment_id");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_provider_refund_id_unique" ON "orders" USING btree ("provider_refund_id");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_status_check" CHECK ("orders"."status" IN ('pending', 'completed', 'expired', 'refunded', 'disputed'));--> statement-breakpoint
-- Refunds made before refunds had a status: free orders and refunds Stripe accepted were taken as done
-- (the money report compares them with Stripe); a paid order's refund not yet sent is on its way.
UPDATE "orders" SET "refund_status" = CASE
  WHEN "payment_id" IS NOT NULL AND "provider_refund_id" IS NULL THEN 'pending'
  ELSE 'succeeded'
END WHERE "status" = 'refunded';
