CREATE TABLE "authorizations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"id_transaccion" text NOT NULL,
	"member_id" uuid NOT NULL,
	"factor" integer NOT NULL,
	"cells" jsonb,
	"status" text DEFAULT 'pending' NOT NULL,
	"amount" integer NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone,
	CONSTRAINT "authorizations_factor_chk" CHECK ("authorizations"."factor" in (1, 2)),
	CONSTRAINT "authorizations_status_chk" CHECK ("authorizations"."status" in ('pending','approved','rejected','used','expired'))
);
--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "login_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "authorizations" ADD CONSTRAINT "authorizations_id_transaccion_transactions_id_transaccion_fk" FOREIGN KEY ("id_transaccion") REFERENCES "public"."transactions"("id_transaccion") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "authorizations" ADD CONSTRAINT "authorizations_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "authorizations_trx_idx" ON "authorizations" USING btree ("id_transaccion","created_at");--> statement-breakpoint
CREATE INDEX "authorizations_member_idx" ON "authorizations" USING btree ("member_id","status");