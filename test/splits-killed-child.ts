// Run by test/splits.test.ts as a child process: a refresh that kills itself (SIGKILL, nothing
// cleaned up) once every file of the new split is written, just before the folder is renamed into place.
import { resolveRefreshConfig } from '../pipeline/config.ts';
import { refresh } from '../pipeline/splits/refresh.ts';

const [inbox, out, cutoff, dpi] = process.argv.slice(2);
refresh(resolveRefreshConfig({ inDir: inbox, outDir: out, cutoff, dpi, progress: false }, {}), {
  onWritten: file => { if (file === 'manifest.json') process.kill(process.pid, 'SIGKILL'); },
}).then(() => { process.stderr.write('the refresh ended without writing a split\n'); process.exitCode = 3; });
