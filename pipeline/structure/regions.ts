// Regions: the boxes a question covers, one per page and column it runs through.
import type { Line, Region } from '../document.ts';
import { bboxUnion } from '../document.ts';

export function regionsOf(lines: Line[]): Region[] {
  const groups = new Map<string, Line[]>();
  for (const l of lines) {
    const k = `${l.page}:${l.column}`;
    if (!groups.has(k)) groups.set(k, []);
    groups.get(k)!.push(l);
  }
  return [...groups.values()].map(ls => ({ page: ls[0].page, column: ls[0].column, bbox: bboxUnion(ls.map(l => l.bbox)) }));
}

