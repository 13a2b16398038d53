// `make worker QUEUE=redis://host:port`: a worker process for `make ingest QUEUE=…`. Start any
// number, on any machine that sees the same input and output folders; stop one with Ctrl-C (the
// paper in hand is finished first) or kill it (its paper is taken over after QUEUE_STALL_MS).
import { resolveConfig } from '../config.ts';
import { startWorker } from './worker.ts';

const config = resolveConfig({ progress: false });
if (!config.queue) {
  process.stderr.write('worker: QUEUE is not set: make worker QUEUE=redis://host:port\n');
  process.exit(2);
}
const { close, worker } = startWorker({ ...config, queue: config.queue }, r => {
  process.stdout.write(`${r.outcome.status.padEnd(7)} ${r.outcome.file}: ${r.outcome.questions} questions\n`);
});
worker.on('error', e => process.stderr.write(`worker: ${e.message}\n`));
await worker.waitUntilReady();
process.stdout.write(`worker ${process.pid}: waiting for papers on ${config.queue}\n`);
let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    void close().then(() => process.exit(0));
  });
}
