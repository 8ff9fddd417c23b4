CREATE TABLE "ledger_entries" (
	"id" serial PRIMARY KEY NOT NULL,
	"transaction_id" integer NOT NULL,
	"account" text NOT NULL,
	"line" text NOT NULL,
	"creator_id" integer NOT NULL,
	"event_id" integer,
	"amount_cents" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ledger_transactions" (
	"id" serial PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"kind" text NOT NULL,
	"creator_id" integer NOT NULL,
	"event_id" integer,
	"order_id" integer,
	"payout_id" integer,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payouts" (
	"id" serial PRIMARY KEY NOT NULL,
	"creator_id" integer NOT NULL,
	"amount_cents" bigint NOT NULL,
	"status" text NOT NULL,
	"transfer_id" text,
	"failure_reason" text,
	"created_at" timestamp with time zone NOT NULL,
	"paid_at" timestamp with time zone,
	CONSTRAINT "payouts_amount_check" CHECK ("payouts"."amount_cents" > 0)
);
--> statement-breakpoint
CREATE TABLE "stripe_events" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "status" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "founding_partner" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "stripe_account_id" text;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "stripe_payouts_enabled" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "max_per_buyer" integer;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "cancelled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "checkout_session_id" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "checkout_url" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "payment_id" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "processor_fee_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "completed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "refunded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "refund_reason" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "provider_refund_id" text;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_transaction_id_ledger_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."ledger_transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_creator_id_accounts_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_transactions" ADD CONSTRAINT "ledger_transactions_creator_id_accounts_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_transactions" ADD CONSTRAINT "ledger_transactions_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_transactions" ADD CONSTRAINT "ledger_transactions_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_transactions" ADD CONSTRAINT "ledger_transactions_payout_id_payouts_id_fk" FOREIGN KEY ("payout_id") REFERENCES "public"."payouts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_creator_id_accounts_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ledger_entries_transaction_id_index" ON "ledger_entries" USING btree ("transaction_id");--> statement-breakpoint
CREATE INDEX "ledger_entries_creator_id_account_index" ON "ledger_entries" USING btree ("creator_id","account");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_transactions_key_unique" ON "ledger_transactions" USING btree ("key");--> statement-breakpoint
CREATE INDEX "ledger_transactions_creator_id_index" ON "ledger_transactions" USING btree ("creator_id");--> statement-breakpoint
CREATE INDEX "payouts_creator_id_index" ON "payouts" USING btree ("creator_id");--> statement-breakpoint
CREATE INDEX "payouts_status_index" ON "payouts" USING btree ("status");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_checkout_session_id_unique" ON "orders" USING btree ("checkout_session_id");--> statement-breakpoint
CREATE INDEX "orders_status_expires_at_index" ON "orders" USING btree ("status","expires_at");--> statement-breakpoint
CREATE INDEX "orders_account_id_event_id_index" ON "orders" USING btree ("account_id","event_id");--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_max_per_buyer_check" CHECK ("events"."max_per_buyer" IS NULL OR ("events"."max_per_buyer" >= 1 AND "events"."max_per_buyer" <= "events"."max_tickets"));--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_status_check" CHECK ("orders"."status" IN ('pending', 'completed', 'expired', 'refunded'));--> statement-breakpoint
-- Sales made before the ledger existed: completed, with the Terms' 10 % platform fee and no processor fee.
UPDATE "orders" SET "completed_at" = "created_at" WHERE "status" = 'completed';--> statement-breakpoint
INSERT INTO "ledger_transactions" ("key", "kind", "creator_id", "event_id", "order_id", "at")
SELECT 'sale:order:' || o."id", 'sale', e."creator_id", e."id", o."id", o."created_at"
FROM "orders" o JOIN "events" e ON e."id" = o."event_id" WHERE o."status" = 'completed';--> statement-breakpoint
INSERT INTO "ledger_entries" ("transaction_id", "account", "line", "creator_id", "event_id", "amount_cents")
SELECT t."id", v."account", v."line", t."creator_id", t."event_id", v."amount"
FROM "ledger_transactions" t
JOIN "orders" o ON o."id" = t."order_id"
CROSS JOIN LATERAL (VALUES
  ('buyers', 'gross', -o."total_cents"),
  ('platform', 'platform_fee', round(o."total_cents" / 10.0)::bigint),
  ('creator_pending', 'net', o."total_cents" - round(o."total_cents" / 10.0)::bigint)
) AS v("account", "line", "amount")
WHERE t."kind" = 'sale' AND v."amount" <> 0;
