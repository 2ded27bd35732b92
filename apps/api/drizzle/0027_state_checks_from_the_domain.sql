ALTER TABLE "operator_changes" DROP CONSTRAINT "operator_changes_status_chk";--> statement-breakpoint
ALTER TABLE "webpay_attempts" DROP CONSTRAINT "webpay_attempts_status_chk";--> statement-breakpoint
ALTER TABLE "operator_changes" ADD CONSTRAINT "operator_changes_status_chk" CHECK ("operator_changes"."status" in ('pendiente','aprobado','rechazado','vencido'));--> statement-breakpoint
ALTER TABLE "transaction_items" ADD CONSTRAINT "transaction_items_status_chk" CHECK ("transaction_items"."status" in ('pending','paid','rejected'));--> statement-breakpoint
ALTER TABLE "webpay_attempts" ADD CONSTRAINT "webpay_attempts_status_chk" CHECK ("webpay_attempts"."status" in ('pending','cancelled','refund_due','committed','rejected','expired','refunded','set_aside'));