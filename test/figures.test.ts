// figures: what counts as a figure (drawings, images, tables) and what does not (frames, rules).
import { describe, expect, it } from 'vitest';
import type { BBox, Shape } from '../pipeline/document.ts';
import { classify } from '../pipeline/stages/figures.ts';

const shape = (kind: Shape['kind'], bbox: BBox): Shape => ({ page: 1, kind, bbox, visible: true });
const frame = (x0: number, y0: number, x1: number, y1: number, gap = false): Shape[] => [
  ...(gap ? [shape('line', [x0, y0, x0 + 100, y0]), shape('line', [x0 + 150, y0, x1, y0])] : [shape('line', [x0, y0, x1, y0])]),
  shape('line', [x0, y1, x1, y1]), shape('line', [x0, y0, x0, y1]), shape('line', [x1, y0, x1, y1]),
];

describe('figures', () => {
  it('does not take a box around conditions for a figure, even with a gap for its title', () => {
    expect(classify(frame(448, 321, 753, 439))).toBeNull();
    expect(classify(frame(448, 321, 753, 439, true))).toBeNull();
    expect(classify([shape('rect', [448, 321, 753, 439])])).toBeNull();
  });

  it('takes ruled grids for tables, curves and diagonals for drawings, images for images', () => {
    const grid = [...frame(100, 100, 400, 160), shape('line', [100, 130, 400, 130]), shape('line', [200, 100, 200, 160]), shape('line', [300, 100, 300, 160])];
    expect(classify(grid)).toBe('table');
    expect(classify([shape('path', [100, 100, 300, 250]), shape('line', [100, 250, 320, 250])])).toBe('drawing');
    expect(classify([shape('line', [100, 100, 300, 250]), shape('line', [100, 250, 320, 250])])).toBe('drawing');
    expect(classify([shape('image', [100, 100, 300, 230])])).toBe('image');
  });

  it('ignores rules and bars too small to be a figure', () => {
    expect(classify([shape('line', [100, 100, 160, 100])])).toBeNull();
    expect(classify([shape('path', [100, 100, 110, 112])])).toBeNull();
  });
});
