// A full garbage collection on demand, for a page process between two stretches of pages. V8
// collects its old space when the heap has grown a few times past what is live: pdf.js's objects
// let go of at a document's clean-up stayed until then, some 200–300 MB a process on a long paper
// (README, "Speed"). `gc` is exposed by flag at run time, in a context of its own, so no command
// needs `node --expose-gc` and the global scope gets no `gc`.
import v8 from 'node:v8';
import vm from 'node:vm';

let gc: (() => void) | null | undefined;

/** Collects now; false where this V8 would not expose its collector (nothing is done then). */
export function collectGarbage(): boolean {
  if (gc === undefined) {
    gc = (globalThis as { gc?: () => void }).gc ?? null;
    if (!gc) {
      try {
        v8.setFlagsFromString('--expose-gc');
        gc = vm.runInNewContext('gc') as () => void;
      } catch {
        gc = null;
      }
    }
  }
  gc?.();
  return gc !== null;
}
