// Columns of an OCR page before there is any text: split at the column rule found in the raster, or one column.
import type { Column } from '../document.ts';

export function findColumnsFromShapes(size: { width: number }, ruleX: number | null): Column[] {
  const margin = size.width * 0.06;
  if (ruleX === null) return [{ x0: margin, x1: size.width - margin }];
  return [{ x0: margin, x1: ruleX - 2 }, { x0: ruleX + 2, x1: size.width - margin }];
}
