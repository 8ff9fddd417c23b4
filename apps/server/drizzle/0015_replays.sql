CREATE TABLE "replay_segments" (
	"event_id" integer NOT NULL,
	"key" text NOT NULL,
	"source" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"chunks" integer DEFAULT 0 NOT NULL,
	"bytes" bigint DEFAULT 0 NOT NULL,
	"starts_at_ms" integer,
	"duration_ms" integer,
	CONSTRAINT "replay_segments_event_id_key_pk" PRIMARY KEY("event_id","key"),
	CONSTRAINT "replay_segments_chunks_check" CHECK ("replay_segments"."chunks" >= 0)
);
--> statement-breakpoint
CREATE TABLE "replays" (
	"event_id" integer PRIMARY KEY NOT NULL,
	"status" text NOT NULL,
	"opened_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	"recorded_bytes" bigint DEFAULT 0 NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"lease_token" text,
	"last_error" text,
	"file" text,
	"duration_ms" integer,
	"size_bytes" bigint,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "replay_enabled" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "replay_segments" ADD CONSTRAINT "replay_segments_event_id_replays_event_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."replays"("event_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "replays" ADD CONSTRAINT "replays_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "replays_status_next_attempt_at_index" ON "replays" USING btree ("status","next_attempt_at");