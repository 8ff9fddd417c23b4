CREATE TABLE "stray_payments" (
	"payment_id" text PRIMARY KEY NOT NULL,
	"checkout_session_id" text NOT NULL,
	"order_id" integer,
	"reason" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"processor_fee_cents" integer NOT NULL,
	"provider_refund_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ledger_entries" ALTER COLUMN "creator_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "ledger_transactions" ALTER COLUMN "creator_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "stray_payments" ADD CONSTRAINT "stray_payments_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;