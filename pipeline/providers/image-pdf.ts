// A PDF made of page images and nothing else (no text layer): what a scanner produces. Used to
// turn rendered pages back into an image-only paper, e.g. to test the OCR path on real pages.
import { sharp } from './lazy.ts';

/**
 * The image as a baseline JPEG of one (grey) or three channels. A JPEG that already is one goes in as
 * it is: a scan (or a rasteriser's output) is not decoded and compressed a second time.
 */
async function asJpeg(image: Buffer): Promise<{ data: Buffer; info: { width: number; height: number; channels: number } }> {
  const meta = await sharp(image).metadata();
  if (meta.format === 'jpeg' && (meta.channels === 1 || meta.channels === 3) && !meta.isProgressive && meta.width && meta.height) {
    return { data: image, info: { width: meta.width, height: meta.height, channels: meta.channels } };
  }
  const grey = meta.channels !== undefined && meta.channels <= 2;
  const { data, info } = await (grey ? sharp(image).flatten({ background: '#ffffff' }).toColourspace('b-w') : sharp(image).flatten({ background: '#ffffff' })).jpeg({ quality: 90 }).toBuffer({ resolveWithObject: true });
  return { data, info: { width: info.width, height: info.height, channels: info.channels } };
}

/** One page per image, each image filling a page of the given size in points. */
export async function imagesToPdf(pages: { image: Buffer; width: number; height: number }[]): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const offsets: number[] = [];
  let size = 0;
  const push = (b: Buffer | string) => { const buf = typeof b === 'string' ? Buffer.from(b, 'latin1') : b; chunks.push(buf); size += buf.length; };
  const object = (n: number, body: (Buffer | string)[]) => { offsets[n] = size; push(`${n} 0 obj\n`); body.forEach(push); push('\nendobj\n'); };
  push('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n');
  const n = pages.length;
  // Objects: 1 catalog, 2 page tree, then per page: page, content, image.
  const kids = pages.map((_, i) => `${3 + i * 3} 0 R`).join(' ');
  object(1, ['<< /Type /Catalog /Pages 2 0 R >>']);
  object(2, [`<< /Type /Pages /Kids [${kids}] /Count ${n} >>`]);
  for (const [i, p] of pages.entries()) {
    const { data, info } = await asJpeg(p.image);
    const [pg, content, img] = [3 + i * 3, 4 + i * 3, 5 + i * 3];
    const draw = `q ${p.width} 0 0 ${p.height} 0 0 cm /Im0 Do Q`;
    object(pg, [`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${p.width} ${p.height}] /Resources << /XObject << /Im0 ${img} 0 R >> >> /Contents ${content} 0 R >>`]);
    object(content, [`<< /Length ${draw.length} >>\nstream\n${draw}\nendstream`]);
    object(img, [`<< /Type /XObject /Subtype /Image /Width ${info.width} /Height ${info.height} /ColorSpace ${info.channels === 1 ? '/DeviceGray' : '/DeviceRGB'} /BitsPerComponent 8 /Filter /DCTDecode /Length ${data.length} >>\nstream\n`, data, '\nendstream']);
  }
  const xref = size;
  const count = 3 + n * 3;
  push(`xref\n0 ${count}\n0000000000 65535 f \n`);
  for (let i = 1; i < count; i++) push(`${String(offsets[i]).padStart(10, '0')} 00000 n \n`);
  push(`trailer\n<< /Size ${count} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  return Buffer.concat(chunks);
}
