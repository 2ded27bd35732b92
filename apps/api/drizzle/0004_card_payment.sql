CREATE TABLE "webpay_attempts" (
	"token" text PRIMARY KEY NOT NULL,
	"id_transaccion" text NOT NULL,
	"buy_order" text NOT NULL,
	"stores" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"checked_at" timestamp with time zone,
	"settled_at" timestamp with time zone,
	CONSTRAINT "webpay_attempts_buy_order_unique" UNIQUE("buy_order"),
	CONSTRAINT "webpay_attempts_status_chk" CHECK ("webpay_attempts"."status" in ('pending','committed','rejected','cancelled','expired','refunded'))
);
--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "host_token_hash" text;--> statement-breakpoint
ALTER TABLE "webpay_attempts" ADD CONSTRAINT "webpay_attempts_id_transaccion_transactions_id_transaccion_fk" FOREIGN KEY ("id_transaccion") REFERENCES "public"."transactions"("id_transaccion") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webpay_attempts_trx_idx" ON "webpay_attempts" USING btree ("id_transaccion");--> statement-breakpoint
CREATE INDEX "webpay_attempts_pending_idx" ON "webpay_attempts" USING btree ("status","created_at");--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_host_token_hash_unique" UNIQUE("host_token_hash");