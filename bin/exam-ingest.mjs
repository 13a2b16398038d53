#!/usr/bin/env node
// `exam-ingest`: the command line (pipeline/cli.ts) as the package's bin, so `npx exam-ingest …`
// (or the command itself, once the package is installed or linked) runs it in this one process
// with tsx's loader registered, and exits with the documented status: 0 done, 1 a paper failed or
// the disk is full, 2 bad usage, 3 partial (README, "Exit status").
import { register } from 'tsx/esm/api';

register();
await import('../pipeline/cli.ts');
