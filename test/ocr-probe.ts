// Run by test/ocr.test.ts in a child process with the network guard preloaded: OCR of a real
// page region and of a key image, printed as JSON.
import { closeOcr, ocrPool } from '../pipeline/providers/ocr.ts';

const [image] = process.argv.slice(2);
const kor = await ocrPool('kor+eng').recognize(image, { mode: 'auto' });
console.log(JSON.stringify({ text: kor.text, words: kor.words.length }));
await closeOcr();
