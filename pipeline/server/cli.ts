// `make serve [HOST=127.0.0.1] [PORT=8730]` → `tsx pipeline/server/cli.ts`: starts the review
// server with settings from the environment (HOST, PORT, REVIEW_TOKEN, UPLOAD_LIMIT_MB, OUT, YEAR).
import { resolveServerSettings } from './settings.ts';
import { startReviewServer } from './server.ts';

async function main(): Promise<void> {
  const settings = resolveServerSettings();
  const server = await startReviewServer(settings);
  process.stdout.write(`review server: ${server.url}/ (sets in ${settings.setsDir}; uploads up to ${Math.round(settings.uploadLimitBytes / 1048576)} MB${settings.token ? '; REVIEW_TOKEN required: open /?token=…' : ''})\n`);
  const stop = () => void server.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch(e => {
  process.stderr.write(`${(e as Error).message}\n`);
  process.exitCode = 2;
});
