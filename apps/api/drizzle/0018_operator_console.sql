CREATE TABLE "machine_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"token_hash" text NOT NULL,
	"scopes" text[] NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"revoked_by" text,
	CONSTRAINT "machine_tokens_name_unique" UNIQUE("name"),
	CONSTRAINT "machine_tokens_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "operator_changes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"target" text NOT NULL,
	"payload" jsonb NOT NULL,
	"status" text DEFAULT 'pendiente' NOT NULL,
	"maker_subject" text NOT NULL,
	"maker_name" text NOT NULL,
	"checker_subject" text,
	"checker_name" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"decided_at" timestamp with time zone,
	"result" jsonb,
	CONSTRAINT "operator_changes_kind_chk" CHECK ("operator_changes"."kind" in ('parametro','reposteo_core')),
	CONSTRAINT "operator_changes_status_chk" CHECK ("operator_changes"."status" in ('pendiente','aprobado','rechazado','vencido','fallido'))
);
--> statement-breakpoint
CREATE TABLE "operator_logins" (
	"state_hash" text PRIMARY KEY NOT NULL,
	"code_verifier" text NOT NULL,
	"nonce" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "operator_roles" (
	"subject" text PRIMARY KEY NOT NULL,
	"roles" text[] NOT NULL,
	"updated_by" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "operator_sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"token_hash" text NOT NULL,
	"csrf_token" text NOT NULL,
	"subject" text NOT NULL,
	"name" text NOT NULL,
	"roles" text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	CONSTRAINT "operator_sessions_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE UNIQUE INDEX "operator_changes_pending_target_idx" ON "operator_changes" USING btree ("kind","target") WHERE "operator_changes"."status" = 'pendiente';--> statement-breakpoint
CREATE INDEX "operator_changes_status_idx" ON "operator_changes" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "operator_sessions_subject_idx" ON "operator_sessions" USING btree ("subject");