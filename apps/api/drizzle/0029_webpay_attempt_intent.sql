-- Call 10 records its intent before asking Webpay (decision 044): the attempt is named by our buy order from the
-- start, and Webpay's token comes later (none while `creating`, none when the form was never opened).
ALTER TABLE "webpay_attempts" DROP CONSTRAINT "webpay_attempts_pkey";--> statement-breakpoint
ALTER TABLE "webpay_attempts" DROP CONSTRAINT "webpay_attempts_buy_order_unique";--> statement-breakpoint
ALTER TABLE "webpay_attempts" ADD PRIMARY KEY ("buy_order");--> statement-breakpoint
ALTER TABLE "webpay_attempts" ALTER COLUMN "token" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "webpay_attempts" ADD CONSTRAINT "webpay_attempts_token_unique" UNIQUE("token");--> statement-breakpoint
ALTER TABLE "webpay_attempts" ALTER COLUMN "status" SET DEFAULT 'creating';--> statement-breakpoint
ALTER TABLE "webpay_attempts" DROP CONSTRAINT "webpay_attempts_status_chk";--> statement-breakpoint
ALTER TABLE "webpay_attempts" ADD CONSTRAINT "webpay_attempts_status_chk" CHECK ("webpay_attempts"."status" in ('creating','pending','cancelled','refund_due','committed','rejected','expired','refunded','not_opened','set_aside'));
--> statement-breakpoint
-- What a manual refund set off after its approval can fail (Webpay refused it): the change says so (issue 50).
ALTER TABLE "operator_changes" DROP CONSTRAINT "operator_changes_status_chk";--> statement-breakpoint
ALTER TABLE "operator_changes" ADD CONSTRAINT "operator_changes_status_chk" CHECK ("operator_changes"."status" in ('pendiente','aprobado','fallido','rechazado','vencido'));
