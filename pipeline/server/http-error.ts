// A request that cannot be served, with the status it is answered with and a message for the page.
export class HttpError extends Error {
  constructor(readonly status: number, message: string, readonly body?: Record<string, unknown>) {
    super(message);
    this.name = 'HttpError';
  }
}
