CREATE TABLE "promo_codes" (
	"id" serial PRIMARY KEY NOT NULL,
	"event_id" integer NOT NULL,
	"code" text NOT NULL,
	"percent_off" integer,
	"amount_off_cents" integer,
	"max_uses" integer,
	"uses" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone,
	"ticket_type_ids" integer[],
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "promo_codes_uses_check" CHECK ("promo_codes"."uses" >= 0 AND ("promo_codes"."max_uses" IS NULL OR "promo_codes"."uses" <= "promo_codes"."max_uses")),
	CONSTRAINT "promo_codes_discount_check" CHECK (("promo_codes"."percent_off" BETWEEN 1 AND 100 AND "promo_codes"."amount_off_cents" IS NULL) OR ("promo_codes"."percent_off" IS NULL AND "promo_codes"."amount_off_cents" > 0))
);
--> statement-breakpoint
CREATE TABLE "ticket_types" (
	"id" serial PRIMARY KEY NOT NULL,
	"event_id" integer NOT NULL,
	"position" integer NOT NULL,
	"name" text NOT NULL,
	"price_cents" integer NOT NULL,
	"max_tickets" integer NOT NULL,
	"sold" integer DEFAULT 0 NOT NULL,
	"sales_start" timestamp with time zone,
	"sales_end" timestamp with time zone,
	"suggested_cents" integer,
	CONSTRAINT "ticket_types_price_cents_check" CHECK ("ticket_types"."price_cents" >= 0),
	CONSTRAINT "ticket_types_sold_check" CHECK ("ticket_types"."sold" >= 0 AND "ticket_types"."sold" <= "ticket_types"."max_tickets")
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "ticket_type_id" integer;--> statement-breakpoint
-- Every event so far sold one kind of ticket: it becomes its first type, with its price, stock and sales.
INSERT INTO "ticket_types" ("event_id", "position", "name", "price_cents", "max_tickets", "sold")
SELECT "id", 0, 'General admission', "price_cents", "max_tickets", "sold" FROM "events";--> statement-breakpoint
UPDATE "orders" SET "ticket_type_id" = "ticket_types"."id" FROM "ticket_types"
WHERE "ticket_types"."event_id" = "orders"."event_id" AND "ticket_types"."position" = 0;--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "ticket_type_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "promo_code_id" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "discount_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "promo_codes" ADD CONSTRAINT "promo_codes_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_types" ADD CONSTRAINT "ticket_types_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "promo_codes_event_id_code_unique" ON "promo_codes" USING btree ("event_id","code");--> statement-breakpoint
CREATE INDEX "ticket_types_event_id_index" ON "ticket_types" USING btree ("event_id");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_ticket_type_id_ticket_types_id_fk" FOREIGN KEY ("ticket_type_id") REFERENCES "public"."ticket_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_promo_code_id_promo_codes_id_fk" FOREIGN KEY ("promo_code_id") REFERENCES "public"."promo_codes"("id") ON DELETE no action ON UPDATE no action;