CREATE TABLE "unknown_payer_attempts" (
	"rut" text PRIMARY KEY NOT NULL,
	"password_failures" integer DEFAULT 0 NOT NULL,
	"password_blocked_at" timestamp with time zone,
	"password_locked_until" timestamp with time zone,
	"password_locks" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "members" ADD COLUMN "password_locked_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "members" ADD COLUMN "password_locks" integer DEFAULT 0 NOT NULL;