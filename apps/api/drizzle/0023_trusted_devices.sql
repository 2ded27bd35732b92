CREATE TABLE "trusted_devices" (
	"device_hash" text NOT NULL,
	"rut" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "trusted_devices_device_hash_rut_pk" PRIMARY KEY("device_hash","rut")
);
--> statement-breakpoint
CREATE INDEX "trusted_devices_seen_idx" ON "trusted_devices" USING btree ("last_seen_at");