ALTER TABLE "transactions" DROP CONSTRAINT "transactions_webpay_token_unique";--> statement-breakpoint
ALTER TABLE "transactions" DROP CONSTRAINT "transactions_buy_order_unique";--> statement-breakpoint
ALTER TABLE "transaction_items" DROP COLUMN "store_buy_order";--> statement-breakpoint
ALTER TABLE "transactions" DROP COLUMN "webpay_token";--> statement-breakpoint
ALTER TABLE "transactions" DROP COLUMN "buy_order";