// A PDF's objects read straight from its bytes, as far as marked content needs them: pdf.js gives a
// page's text but not the properties its writer attached to spans of it (`/ActualText`), so the
// page tree and the pages' content streams are read here. Objects are found by scanning for
// `n g obj` (the last of a number wins, as an incremental update writes it) and inside object
// streams; streams are decoded where they are Flate-compressed or not compressed at all. Anything
// else (an encrypted file, another filter) reads as nothing: the caller keeps pdf.js's text.
import zlib from 'node:zlib';

export class PdfName { constructor(readonly name: string) {} }
export class PdfRef { constructor(readonly num: number, readonly gen: number) {} }
export class PdfStream { constructor(readonly dict: Map<string, PdfValue>, readonly raw: Uint8Array) {} }
/** A string as its bytes, one character per byte (latin1). */
export class PdfString { constructor(readonly bytes: string) {} }
export type PdfValue = number | boolean | null | PdfName | PdfRef | PdfString | PdfValue[] | Map<string, PdfValue> | PdfStream;

const WHITE = /[\0\t\n\f\r ]/;
const DELIM = /[()<>[\]{}/%]/;

/** Reads PDF tokens and values from a latin1 string (a file, an object stream, a content stream). */
export class PdfLexer {
  constructor(readonly s: string, public pos = 0) {}

  private skip(): void {
    const s = this.s;
    while (this.pos < s.length) {
      const c = s[this.pos];
      if (WHITE.test(c)) this.pos++;
      else if (c === '%') while (this.pos < s.length && s[this.pos] !== '\n' && s[this.pos] !== '\r') this.pos++;
      else break;
    }
  }

  /** The next token: a value, a delimiter (`[`, `]`, `<<`, `>>`) as a string, or a keyword as `{ op }`; null at the end. */
  token(): PdfValue | string | { op: string } | undefined {
    this.skip();
    const s = this.s;
    if (this.pos >= s.length) return undefined;
    const c = s[this.pos];
    if (c === '[' || c === ']') { this.pos++; return c; }
    if (c === '<' && s[this.pos + 1] === '<') { this.pos += 2; return '<<'; }
    if (c === '>' && s[this.pos + 1] === '>') { this.pos += 2; return '>>'; }
    if (c === '<') return this.hex();
    if (c === '(') return this.literal();
    if (c === '/') {
      let end = ++this.pos;
      while (end < s.length && !WHITE.test(s[end]) && !DELIM.test(s[end])) end++;
      const name = s.slice(this.pos, end).replace(/#([0-9a-fA-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
      this.pos = end;
      return new PdfName(name);
    }
    let end = this.pos;
    while (end < s.length && !WHITE.test(s[end]) && !DELIM.test(s[end])) end++;
    if (end === this.pos) { this.pos++; return { op: c }; }
    const word = s.slice(this.pos, end);
    this.pos = end;
    if (/^[+-]?(\d+\.?\d*|\.\d+)$/.test(word)) return Number(word);
    if (word === 'true' || word === 'false') return word === 'true';
    if (word === 'null') return null;
    return { op: word };
  }

  private hex(): PdfString {
    const end = this.s.indexOf('>', this.pos);
    const digits = this.s.slice(this.pos + 1, end < 0 ? this.s.length : end).replace(/[^0-9a-fA-F]/g, '');
    this.pos = end < 0 ? this.s.length : end + 1;
    let out = '';
    for (let i = 0; i < digits.length; i += 2) out += String.fromCharCode(parseInt((digits.slice(i, i + 2) + '0').slice(0, 2), 16));
    return new PdfString(out);
  }

  private literal(): PdfString {
    const s = this.s;
    let depth = 0, out = '';
    for (this.pos++; this.pos < s.length; this.pos++) {
      const c = s[this.pos];
      if (c === '(') depth++;
      else if (c === ')') { if (depth-- === 0) { this.pos++; break; } }
      else if (c === '\\') {
        const n = s[++this.pos];
        const esc: Record<string, string> = { n: '\n', r: '\r', t: '\t', b: '\b', f: '\f' };
        if (n in esc) out += esc[n];
        else if (/[0-7]/.test(n)) {
          const oct = /^[0-7]{1,3}/.exec(s.slice(this.pos, this.pos + 3))![0];
          out += String.fromCharCode(parseInt(oct, 8) & 0xff);
          this.pos += oct.length - 1;
        } else if (n === '\r') { if (s[this.pos + 1] === '\n') this.pos++; }
        else if (n !== '\n') out += n;
        continue;
      }
      out += c;
    }
    return new PdfString(out);
  }

  /** The next value (a reference `n g R` read as one); a keyword or a stray delimiter reads as undefined. */
  value(): PdfValue | undefined {
    const t = this.token();
    if (t === '[') {
      const arr: PdfValue[] = [];
      for (;;) {
        const at = this.pos;
        const next = this.token();
        if (next === ']' || next === undefined) return arr;
        this.pos = at;
        const v = this.value();
        if (v === undefined) return arr;
        arr.push(v);
      }
    }
    if (t === '<<') {
      const dict = new Map<string, PdfValue>();
      for (;;) {
        const key = this.token();
        if (!(key instanceof PdfName)) return dict;
        const v = this.value();
        if (v === undefined) return dict;
        dict.set(key.name, v);
      }
    }
    if (typeof t === 'number' && Number.isInteger(t)) {
      const at = this.pos;
      const gen = this.token(), r = this.token();
      if (typeof gen === 'number' && typeof r === 'object' && r !== null && 'op' in r && r.op === 'R') return new PdfRef(t, gen);
      this.pos = at;
      return t;
    }
    if (t === undefined || typeof t === 'string' || (typeof t === 'object' && t !== null && 'op' in t)) return undefined;
    return t;
  }
}

/** A text string's characters: UTF-16BE after its byte-order mark, else one per byte (PDFDocEncoding's printable range is latin1's). */
export function textString(s: PdfString): string {
  const b = s.bytes;
  if (b.startsWith('\xfe\xff')) {
    let out = '';
    for (let i = 2; i + 1 < b.length; i += 2) out += String.fromCharCode((b.charCodeAt(i) << 8) | b.charCodeAt(i + 1));
    return out;
  }
  return b;
}

/** A stream's bytes, decoded: null where a filter is not one read here. */
export function streamData(stream: PdfStream): Uint8Array | null {
  const filter = stream.dict.get('Filter');
  const filters = filter === undefined ? [] : Array.isArray(filter) ? filter : [filter];
  let data = stream.raw;
  for (const f of filters) {
    if (!(f instanceof PdfName) || (f.name !== 'FlateDecode' && f.name !== 'Fl')) return null;
    try {
      data = zlib.inflateSync(data, { finishFlush: zlib.constants.Z_SYNC_FLUSH });
    } catch {
      return null;
    }
  }
  return data;
}

const latin1 = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');

/** A file's objects by number, read on demand. */
export class PdfObjects {
  private readonly text: string;
  private readonly at = new Map<number, number>();
  private packed: Map<number, PdfValue> | null = null;

  constructor(private readonly bytes: Uint8Array) {
    this.text = latin1(bytes);
    for (const m of this.text.matchAll(/(?<![\d])(\d+)\s+(\d+)\s+obj\b/g)) this.at.set(Number(m[1]), m.index! + m[0].length);
  }

  /** The object a value refers to (followed through references), or the value itself. */
  resolve(v: PdfValue | undefined, depth = 0): PdfValue | undefined {
    if (!(v instanceof PdfRef) || depth > 8) return v;
    return this.resolve(this.object(v.num), depth + 1);
  }

  private object(num: number): PdfValue | undefined {
    const pos = this.at.get(num);
    if (pos === undefined) return this.inStreams().get(num);
    const lex = new PdfLexer(this.text, pos);
    const v = lex.value();
    if (!(v instanceof Map)) return v;
    const after = new PdfLexer(this.text, lex.pos);
    const kw = after.token();
    if (!(typeof kw === 'object' && kw !== null && 'op' in kw && kw.op === 'stream')) return v;
    let start = after.pos;
    if (this.text[start] === '\r') start++;
    if (this.text[start] === '\n') start++;
    const length = this.resolve(v.get('Length'));
    const end = typeof length === 'number' && this.text.startsWith('endstream', this.skipWhite(start + length)) ? start + length : this.text.indexOf('endstream', start);
    return new PdfStream(v, this.bytes.subarray(start, end < 0 ? this.text.length : end));
  }

  private skipWhite(i: number): number {
    while (i < this.text.length && WHITE.test(this.text[i])) i++;
    return i;
  }

  /** The objects packed in object streams (PDF 1.5), read once at the first object not found by its `obj`. */
  private inStreams(): Map<number, PdfValue> {
    if (this.packed) return this.packed;
    this.packed = new Map();
    for (const num of this.at.keys()) {
      const v = this.object(num);
      if (!(v instanceof PdfStream) || (v.dict.get('Type') as PdfName | undefined)?.name !== 'ObjStm') continue;
      const data = streamData(v);
      const n = v.dict.get('N'), first = v.dict.get('First');
      if (!data || typeof n !== 'number' || typeof first !== 'number') continue;
      const s = latin1(data);
      const head = new PdfLexer(s);
      const pairs: [number, number][] = [];
      for (let k = 0; k < n; k++) {
        const a = head.value(), b = head.value();
        if (typeof a === 'number' && typeof b === 'number') pairs.push([a, b]);
      }
      for (const [obj, off] of pairs) if (!this.packed.has(obj)) this.packed.set(obj, new PdfLexer(s, first + off).value() ?? null);
    }
    return this.packed;
  }

  /** The document catalog's page objects, in page order. */
  pages(): Map<string, PdfValue>[] {
    const roots = [...this.text.matchAll(/\/Root\s+(\d+)\s+(\d+)\s+R/g)];
    const root = roots.length ? this.resolve(new PdfRef(Number(roots[roots.length - 1][1]), 0)) : undefined;
    if (!(root instanceof Map)) return [];
    const out: Map<string, PdfValue>[] = [];
    const walk = (node: PdfValue | undefined, depth: number) => {
      const n = this.resolve(node);
      if (!(n instanceof Map) || depth > 32) return;
      const kids = this.resolve(n.get('Kids'));
      if (Array.isArray(kids)) for (const k of kids) walk(k, depth + 1);
      else out.push(n);
    };
    walk(root.get('Pages'), 0);
    return out;
  }

  /** A page's content, its streams decoded and joined; null where one cannot be read. */
  content(page: Map<string, PdfValue>): string | null {
    const c = this.resolve(page.get('Contents'));
    const parts = Array.isArray(c) ? c.map(x => this.resolve(x)) : c === undefined ? [] : [c];
    let out = '';
    for (const p of parts) {
      if (!(p instanceof PdfStream)) return null;
      const data = streamData(p);
      if (!data) return null;
      out += `${latin1(data)}\n`;
    }
    return out;
  }
}
