// Pages read by OCR a few at a time: the next page is taken out and cut into bands (this thread's
// and libvips's work) while the recogniser's workers still read the last one, so the recogniser
// does not wait between pages. A page at OCR resolution holds some 20 MB of pixels, hence a bound.

/** Pages in flight at once. */
export const OCR_AHEAD = 3;

export class Ahead {
  private inFlight: Promise<unknown>[] = [];
  constructor(private readonly limit = OCR_AHEAD) {}

  /**
   * Starts a reading once fewer than `limit` are in flight, and gives its promise back (to be
   * awaited in page order) as soon as it has started. A reading's failure is thrown where it is awaited.
   */
  async start<T>(read: () => Promise<T>): Promise<{ reading: Promise<T> }> {
    while (this.inFlight.length >= this.limit) await this.inFlight.shift();
    const reading = read();
    this.inFlight.push(reading.catch(() => {}));
    return { reading };
  }
}
