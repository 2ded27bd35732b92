CREATE TABLE "accounts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"member_id" uuid NOT NULL,
	"numero_cuenta" text NOT NULL,
	"saldo" integer NOT NULL,
	CONSTRAINT "accounts_numero_cuenta_unique" UNIQUE("numero_cuenta"),
	CONSTRAINT "accounts_saldo_chk" CHECK ("accounts"."saldo" >= 0)
);
--> statement-breakpoint
CREATE TABLE "audit_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"kind" text NOT NULL,
	"rut_masked" text,
	"request_id" text,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "authoriser_enrolments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"member_id" uuid NOT NULL,
	"device_name" text NOT NULL,
	"blocked_at" timestamp with time zone,
	"enrolled_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "authoriser_enrolments_member_id_unique" UNIQUE("member_id")
);
--> statement-breakpoint
CREATE TABLE "coordinate_cards" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"member_id" uuid NOT NULL,
	"serial" text NOT NULL,
	"cells" jsonb NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"blocked_at" timestamp with time zone,
	CONSTRAINT "coordinate_cards_member_id_unique" UNIQUE("member_id"),
	CONSTRAINT "coordinate_cards_serial_unique" UNIQUE("serial")
);
--> statement-breakpoint
CREATE TABLE "instalments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"product_id" uuid NOT NULL,
	"numero_cuota" integer NOT NULL,
	"monto_original" integer NOT NULL,
	"monto_pendiente" integer NOT NULL,
	"pago_minimo" integer DEFAULT 0 NOT NULL,
	"fecha_vencimiento" date NOT NULL,
	"medio_pago" text,
	"paid_at" timestamp with time zone,
	CONSTRAINT "instalments_pendiente_chk" CHECK ("instalments"."monto_pendiente" >= 0 and "instalments"."monto_pendiente" <= "instalments"."monto_original")
);
--> statement-breakpoint
CREATE TABLE "members" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"rut" text NOT NULL,
	"name" text NOT NULL,
	"email" text,
	"password_hash" text,
	"password_failures" integer DEFAULT 0 NOT NULL,
	"password_blocked_at" timestamp with time zone,
	"list_notice_code" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "members_rut_unique" UNIQUE("rut")
);
--> statement-breakpoint
CREATE TABLE "parameters" (
	"nombre" text PRIMARY KEY NOT NULL,
	"valor" text NOT NULL,
	"tipo" text DEFAULT 'PE' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "products" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"member_id" uuid NOT NULL,
	"family" text NOT NULL,
	"numero_producto" text NOT NULL,
	"permite_abono" boolean DEFAULT false NOT NULL,
	"permite_multiple_abono" boolean DEFAULT false NOT NULL,
	"monto_minimo_abono_multiple" integer DEFAULT 0 NOT NULL,
	"fecha_vigencia_abono" date,
	"fecha_facturacion" date,
	"deuda_total" integer DEFAULT 0 NOT NULL,
	"deuda_total_internacional" integer DEFAULT 0 NOT NULL,
	"cupo_total" integer DEFAULT 0 NOT NULL,
	"numero_cuotas_pactadas" integer DEFAULT 0 NOT NULL,
	"saldo" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "products_numero_producto_unique" UNIQUE("numero_producto"),
	CONSTRAINT "products_family_chk" CHECK ("products"."family" in ('PC','CP','HI','TC','PM','AH')),
	CONSTRAINT "products_saldo_chk" CHECK ("products"."saldo" >= 0)
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"token_hash" text NOT NULL,
	"rut" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "sessions_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "transaction_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"id_transaccion" text NOT NULL,
	"product_id" uuid NOT NULL,
	"instalment_id" uuid,
	"numero_cuota" integer NOT NULL,
	"monto" integer NOT NULL,
	"fecha_vencimiento" date,
	"store_buy_order" text,
	"authorization_code" text,
	"status" text DEFAULT 'pending' NOT NULL,
	CONSTRAINT "transaction_items_monto_chk" CHECK ("transaction_items"."monto" > 0)
);
--> statement-breakpoint
CREATE TABLE "transactions" (
	"id_transaccion" text PRIMARY KEY NOT NULL,
	"session_id" uuid NOT NULL,
	"member_id" uuid NOT NULL,
	"family" text NOT NULL,
	"total" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"medio_pago" text,
	"payer_rut" text,
	"account_id" uuid,
	"webpay_token" text,
	"buy_order" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"settled_at" timestamp with time zone,
	CONSTRAINT "transactions_webpay_token_unique" UNIQUE("webpay_token"),
	CONSTRAINT "transactions_buy_order_unique" UNIQUE("buy_order"),
	CONSTRAINT "transactions_status_chk" CHECK ("transactions"."status" in ('pending','paid','rejected','cancelled','expired')),
	CONSTRAINT "transactions_total_chk" CHECK ("transactions"."total" > 0)
);
--> statement-breakpoint
CREATE TABLE "vouchers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"id_transaccion" text NOT NULL,
	"payload" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "vouchers_id_transaccion_unique" UNIQUE("id_transaccion")
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "authoriser_enrolments" ADD CONSTRAINT "authoriser_enrolments_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coordinate_cards" ADD CONSTRAINT "coordinate_cards_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "instalments" ADD CONSTRAINT "instalments_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transaction_items" ADD CONSTRAINT "transaction_items_id_transaccion_transactions_id_transaccion_fk" FOREIGN KEY ("id_transaccion") REFERENCES "public"."transactions"("id_transaccion") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transaction_items" ADD CONSTRAINT "transaction_items_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transaction_items" ADD CONSTRAINT "transaction_items_instalment_id_instalments_id_fk" FOREIGN KEY ("instalment_id") REFERENCES "public"."instalments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vouchers" ADD CONSTRAINT "vouchers_id_transaccion_transactions_id_transaccion_fk" FOREIGN KEY ("id_transaccion") REFERENCES "public"."transactions"("id_transaccion") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "accounts_member_idx" ON "accounts" USING btree ("member_id");--> statement-breakpoint
CREATE INDEX "audit_log_at_idx" ON "audit_log" USING btree ("at");--> statement-breakpoint
CREATE UNIQUE INDEX "instalments_product_cuota_uq" ON "instalments" USING btree ("product_id","numero_cuota");--> statement-breakpoint
CREATE INDEX "products_member_idx" ON "products" USING btree ("member_id");--> statement-breakpoint
CREATE INDEX "sessions_rut_idx" ON "sessions" USING btree ("rut");--> statement-breakpoint
CREATE INDEX "transaction_items_trx_idx" ON "transaction_items" USING btree ("id_transaccion");--> statement-breakpoint
CREATE INDEX "transactions_member_idx" ON "transactions" USING btree ("member_id");--> statement-breakpoint
CREATE INDEX "transactions_status_idx" ON "transactions" USING btree ("status","created_at");