-- The day's close (decision 049): signed by two finance operators, reopened by any later change of the day's payments.
CREATE TABLE "day_closes" (
	"fecha" date PRIMARY KEY NOT NULL,
	"status" text DEFAULT 'cerrado' NOT NULL,
	"proposed_by" text NOT NULL,
	"closed_by" text NOT NULL,
	"closed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"change_id" uuid NOT NULL,
	"totals" jsonb NOT NULL,
	"reopened_at" timestamp with time zone,
	"reopen_reason" text,
	CONSTRAINT "day_closes_status_chk" CHECK ("day_closes"."status" in ('cerrado','reabierto'))
);
--> statement-breakpoint
ALTER TABLE "operator_changes" DROP CONSTRAINT "operator_changes_kind_chk";--> statement-breakpoint
ALTER TABLE "operator_changes" ADD CONSTRAINT "operator_changes_kind_chk" CHECK ("operator_changes"."kind" in ('parametro','reposteo_core','devolucion_webpay','token','roles_operador','codigo_autorizador','cierre_dia'));