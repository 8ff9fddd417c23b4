CREATE TABLE "waitlist_entries" (
	"id" serial PRIMARY KEY NOT NULL,
	"event_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"quantity" integer NOT NULL,
	"joined_at" timestamp with time zone DEFAULT now() NOT NULL,
	"order_id" integer,
	CONSTRAINT "waitlist_entries_quantity_check" CHECK ("waitlist_entries"."quantity" > 0)
);
--> statement-breakpoint
ALTER TABLE "waitlist_entries" ADD CONSTRAINT "waitlist_entries_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waitlist_entries" ADD CONSTRAINT "waitlist_entries_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waitlist_entries" ADD CONSTRAINT "waitlist_entries_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "waitlist_entries_waiting_unique" ON "waitlist_entries" USING btree ("event_id","account_id") WHERE "waitlist_entries"."order_id" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "waitlist_entries_order_id_unique" ON "waitlist_entries" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "waitlist_entries_line_index" ON "waitlist_entries" USING btree ("event_id","joined_at","id") WHERE "waitlist_entries"."order_id" is null;