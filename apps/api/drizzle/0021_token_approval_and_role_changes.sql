ALTER TABLE "operator_changes" DROP CONSTRAINT "operator_changes_kind_chk";--> statement-breakpoint
ALTER TABLE "machine_tokens" ADD COLUMN "issuer_subject" text;--> statement-breakpoint
ALTER TABLE "machine_tokens" ADD COLUMN "approved_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "machine_tokens" ADD COLUMN "approved_by" text;--> statement-breakpoint
ALTER TABLE "operator_changes" ADD CONSTRAINT "operator_changes_kind_chk" CHECK ("operator_changes"."kind" in ('parametro','reposteo_core','devolucion_webpay','token','roles_operador'));--> statement-breakpoint
-- Tokens written by the CLI straight into the database stay usable; one issued through the API by a single person
-- was never seen by a second and must be asked for again (decision 039).
UPDATE "machine_tokens" SET "approved_at" = "created_at", "approved_by" = "created_by" WHERE "created_by" = 'línea de comandos (base de datos)' AND "revoked_at" IS NULL;
