CREATE TABLE "page_views" (
	"event_id" integer NOT NULL,
	"page" text NOT NULL,
	"day" date NOT NULL,
	"views" integer NOT NULL,
	CONSTRAINT "page_views_event_id_page_day_pk" PRIMARY KEY("event_id","page","day"),
	CONSTRAINT "page_views_page_check" CHECK ("page_views"."page" IN ('event', 'checkout'))
);
--> statement-breakpoint
CREATE TABLE "viewer_samples" (
	"event_id" integer NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"viewers" integer NOT NULL,
	CONSTRAINT "viewer_samples_event_id_at_pk" PRIMARY KEY("event_id","at")
);
--> statement-breakpoint
ALTER TABLE "page_views" ADD CONSTRAINT "page_views_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "viewer_samples" ADD CONSTRAINT "viewer_samples_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;