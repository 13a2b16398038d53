// The store as the commands open it: each record read out carries its tags and cluster (the corpus
// passes), its translations and the reviewer's decision, in that order (a reviewer's edit of the tags
// overrides the tagger's). The store below knows none of these; this is where they are put together.
import { corpusOverlay } from './corpus/overlay.ts';
import { reviewOverlay } from './review/overlay.ts';
import { Store } from './store/db.ts';
import type { RecordOverlay } from './store/overlay.ts';
import { translationOverlay } from './translate/overlay.ts';

export const RECORD_OVERLAYS: readonly RecordOverlay[] = Object.freeze([corpusOverlay, translationOverlay, reviewOverlay]);

export function openStore(file: string): Store {
  return new Store(file, RECORD_OVERLAYS);
}
