CREATE TABLE "core_operations" (
	"key" text PRIMARY KEY NOT NULL,
	"id_transaccion" text NOT NULL,
	"kind" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"amount" bigint NOT NULL,
	"lines" jsonb NOT NULL,
	"source_account" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_error" text,
	"core_refs" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"booked_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "core_operations_kind_chk" CHECK ("core_operations"."kind" in ('cuenta_vista','abono_webpay')),
	CONSTRAINT "core_operations_status_chk" CHECK ("core_operations"."status" in ('pending','booked','refused')),
	CONSTRAINT "core_operations_amount_chk" CHECK ("core_operations"."amount" > 0)
);
--> statement-breakpoint
ALTER TABLE "transactions" DROP CONSTRAINT "transactions_status_chk";--> statement-breakpoint
ALTER TABLE "webpay_attempts" DROP CONSTRAINT "webpay_attempts_status_chk";--> statement-breakpoint
ALTER TABLE "core_operations" ADD CONSTRAINT "core_operations_id_transaccion_transactions_id_transaccion_fk" FOREIGN KEY ("id_transaccion") REFERENCES "public"."transactions"("id_transaccion") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "core_operations_trx_idx" ON "core_operations" USING btree ("id_transaccion");--> statement-breakpoint
CREATE INDEX "core_operations_due_idx" ON "core_operations" USING btree ("status","next_attempt_at");--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_status_chk" CHECK ("transactions"."status" in ('pending','posting','paid','rejected','cancelled','expired'));--> statement-breakpoint
ALTER TABLE "webpay_attempts" ADD CONSTRAINT "webpay_attempts_status_chk" CHECK ("webpay_attempts"."status" in ('pending','committed','rejected','cancelled','expired','refund_due','refunded','set_aside'));