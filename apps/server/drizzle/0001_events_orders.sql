CREATE TABLE "events" (
	"id" serial PRIMARY KEY NOT NULL,
	"creator_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text NOT NULL,
	"image" text,
	"price_cents" integer NOT NULL,
	"max_tickets" integer NOT NULL,
	"sold" integer DEFAULT 0 NOT NULL,
	"date" timestamp with time zone NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "events_price_cents_check" CHECK ("events"."price_cents" >= 0),
	CONSTRAINT "events_max_tickets_check" CHECK ("events"."max_tickets" >= 1),
	CONSTRAINT "events_sold_check" CHECK ("events"."sold" >= 0 AND "events"."sold" <= "events"."max_tickets")
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"event_id" integer NOT NULL,
	"quantity" integer NOT NULL,
	"unit_price_cents" integer NOT NULL,
	"total_cents" bigint NOT NULL,
	"status" text DEFAULT 'completed' NOT NULL,
	"idempotency_key" text,
	"request_hash" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "orders_quantity_check" CHECK ("orders"."quantity" > 0)
);
--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_creator_id_accounts_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "events_is_active_date_index" ON "events" USING btree ("is_active","date");--> statement-breakpoint
CREATE INDEX "events_creator_id_index" ON "events" USING btree ("creator_id");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_account_id_idempotency_key_unique" ON "orders" USING btree ("account_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "orders_account_id_created_at_index" ON "orders" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "orders_event_id_index" ON "orders" USING btree ("event_id");