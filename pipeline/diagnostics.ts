// Messages that ride on the document, in the manner of vfile messages: every stage reports here
// instead of printing, and the runner/CLI decides what a person sees.
export type Severity = 'error' | 'warning' | 'info';

export interface Diagnostic {
  severity: Severity;
  /** Short machine-readable rule name, e.g. `segment/sequence-gap`. */
  rule: string;
  message: string;
  /** File name of the paper the message is about. */
  file: string;
  page?: number;
  /** Question id or number the message is about, where there is one. */
  item?: string;
  stage?: string;
}

export class Diagnostics {
  readonly list: Diagnostic[] = [];
  constructor(private readonly file: string) {}
  private add(severity: Severity, rule: string, message: string, at: { page?: number; item?: string; stage?: string } = {}): Diagnostic {
    const d: Diagnostic = { severity, rule, message, file: this.file, ...at };
    this.list.push(d);
    return d;
  }
  error(rule: string, message: string, at?: { page?: number; item?: string; stage?: string }) { return this.add('error', rule, message, at); }
  warn(rule: string, message: string, at?: { page?: number; item?: string; stage?: string }) { return this.add('warning', rule, message, at); }
  info(rule: string, message: string, at?: { page?: number; item?: string; stage?: string }) { return this.add('info', rule, message, at); }
  get errors(): Diagnostic[] { return this.list.filter(d => d.severity === 'error'); }
}

export function formatDiagnostic(d: Diagnostic): string {
  const where = [d.file, d.page !== undefined ? `page ${d.page}` : '', d.item ? `item ${d.item}` : ''].filter(Boolean).join(', ');
  return `${d.severity}: ${where}: ${d.message} [${d.rule}]`;
}

/** A failure that makes one document unusable; the runner records it and goes on with the batch. */
export class DocumentError extends Error {
  constructor(readonly rule: string, message: string, readonly page?: number) {
    super(message);
    this.name = 'DocumentError';
  }
}
