CREATE TABLE "deployment" (
	"id" text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "leased_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "destination_payment_id" text;--> statement-breakpoint
ALTER TABLE "payouts" ADD COLUMN "transferred_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "payouts_destination_payment_id_unique" ON "payouts" USING btree ("destination_payment_id");--> statement-breakpoint
INSERT INTO "deployment" ("id") VALUES (replace(gen_random_uuid()::text, '-', ''));--> statement-breakpoint
-- A payout not yet transferred now sits in creator_due, no longer in creator_paid_out.
UPDATE "ledger_entries" SET "account" = 'creator_due'
WHERE "account" = 'creator_paid_out' AND "transaction_id" IN (
  SELECT t."id" FROM "ledger_transactions" t JOIN "payouts" p ON p."id" = t."payout_id"
  WHERE t."kind" = 'payout' AND p."status" IN ('due', 'pending')
);--> statement-breakpoint
UPDATE "payouts" SET "status" = 'due' WHERE "status" = 'pending';--> statement-breakpoint
-- 'paid' meant the transfer existed: in the creator's Stripe balance, not known to be at their bank.
UPDATE "payouts" SET "status" = 'in_transit', "transferred_at" = "paid_at", "paid_at" = NULL WHERE "status" = 'paid';
