import type { Options } from '@node-rs/argon2';

// OWASP's argon2id baseline (19 MiB, 2 passes, 1 lane): ~30 ms here, enough to make offline guessing costly
// without making the login slow.
export const PASSWORD_HASH_OPTIONS: Options = { memoryCost: 19_456, timeCost: 2, parallelism: 1 };
