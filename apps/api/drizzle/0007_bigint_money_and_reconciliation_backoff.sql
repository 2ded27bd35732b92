ALTER TABLE "webpay_attempts" DROP CONSTRAINT "webpay_attempts_status_chk";--> statement-breakpoint
ALTER TABLE "accounts" ALTER COLUMN "saldo" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "authorizations" ALTER COLUMN "amount" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "instalments" ALTER COLUMN "monto_original" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "instalments" ALTER COLUMN "monto_pendiente" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "instalments" ALTER COLUMN "pago_minimo" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "products" ALTER COLUMN "monto_minimo_abono_multiple" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "products" ALTER COLUMN "deuda_total" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "products" ALTER COLUMN "deuda_total_internacional" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "products" ALTER COLUMN "cupo_total" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "products" ALTER COLUMN "saldo" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "transaction_items" ALTER COLUMN "monto" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "transactions" ALTER COLUMN "total" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "webpay_attempts" ADD COLUMN "next_check_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "webpay_attempts" ADD COLUMN "failures" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "webpay_attempts" ADD CONSTRAINT "webpay_attempts_status_chk" CHECK ("webpay_attempts"."status" in ('pending','committed','rejected','cancelled','expired','refunded','set_aside'));