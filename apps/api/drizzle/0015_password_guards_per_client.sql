CREATE TABLE "password_client_guards" (
	"rut" text NOT NULL,
	"client" text NOT NULL,
	"password_failures" integer DEFAULT 0 NOT NULL,
	"password_blocked_at" timestamp with time zone,
	"password_locked_until" timestamp with time zone,
	"password_locks" integer DEFAULT 0 NOT NULL,
	"last_failure_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "password_client_guards_rut_client_pk" PRIMARY KEY("rut","client")
);
--> statement-breakpoint
CREATE INDEX "password_client_guards_client_idx" ON "password_client_guards" USING btree ("client","last_failure_at");
