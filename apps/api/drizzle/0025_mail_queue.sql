CREATE TABLE "mail_queue" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"to" text NOT NULL,
	"subject" text NOT NULL,
	"text" text NOT NULL,
	"html" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "mail_queue_due_idx" ON "mail_queue" USING btree ("next_attempt_at") WHERE "mail_queue"."sent_at" is null;--> statement-breakpoint
-- Loads no longer carry enrolment codes: the unused ones loads wrote stop working (the console issues new ones), and
-- the trail says how many.
WITH "voided" AS (
	UPDATE "authoriser_enrolment_codes" SET "expires_at" = now()
	WHERE "issued_by" = 'importacion' AND "used_at" IS NULL AND "expires_at" > now()
	RETURNING 1
)
INSERT INTO "audit_log" ("kind", "detail")
SELECT 'autorizador.codigo.anulado', jsonb_build_object('emisor', 'importacion', 'codigos', count(*), 'motivo', 'la carga ya no entrega códigos')
FROM "voided" HAVING count(*) > 0;
