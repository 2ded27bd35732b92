import { fileURLToPath } from 'node:url';
import { bundleServer } from '../../scripts/bundle-node.mjs';

await bundleServer(fileURLToPath(new URL('.', import.meta.url)));
