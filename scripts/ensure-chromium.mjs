// The end-to-end tests drive Debian's Chromium; install it when it is missing (root on these machines).
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(path)) {
  console.log(`${path} not found: installing Debian's chromium`);
  try {
    execSync('apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium', { stdio: 'inherit' });
  } catch {
    console.error('Could not install chromium. Install it with: apt-get install -y chromium (or set CHROMIUM_PATH).');
    process.exit(1);
  }
}
