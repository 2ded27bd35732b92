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
