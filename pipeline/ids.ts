// Stable ids: the paper's content hash, then section and question number. The same id names the
// record in SQLite, in items.jsonl, in HTML anchors and in crop file names, so it uses only [a-z0-9-].
export function paperKey(sha256: string): string {
  return sha256.slice(0, 16);
}

export function slug(s: string): string {
  return s.toLowerCase().normalize('NFKC').replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-|-$/g, '') || 'none';
}

export function questionId(sha256: string, section: string | null, number: number): string {
  return `${paperKey(sha256)}-${slug(section ?? 'main')}-${number}`;
}

export function pageImageName(sha256: string, page: number, dpi: number): string {
  return `${paperKey(sha256)}-p${String(page).padStart(3, '0')}-${dpi}dpi.png`;
}

export function figureName(questionIdValue: string, index: number): string {
  return `${questionIdValue}-fig${index + 1}.png`;
}

/** The crop of an option's printed cell (index from 0), carried where OCR could not read it. */
export function optionImageName(questionIdValue: string, index: number): string {
  return `${questionIdValue}-opt${index + 1}.png`;
}
