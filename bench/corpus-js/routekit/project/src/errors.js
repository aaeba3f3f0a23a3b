export class HttpError extends Error {
  constructor(status, message, { headers = {}, expose = status < 500 } = {}) {
    super(message);
    this.name = 'HttpError';
    this.status = status;
    this.headers = headers;
    this.expose = expose;
  }
}
