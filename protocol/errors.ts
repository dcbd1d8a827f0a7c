// The one error type of the service. Anything thrown as an ApiError becomes `{"error": message}` with its status
// (daemon/http/error-handler.ts); anything else is a bug and becomes a 500 without details.

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const missingField = (field: string): ApiError => new ApiError(400, `missing field: ${field}`);

export const invalidField = (field: string, why?: string): ApiError =>
  new ApiError(400, why ? `invalid field: ${field} (${why})` : `invalid field: ${field}`);

export const fieldTooLarge = (field: string, maxBytes: number): ApiError =>
  new ApiError(413, `${field} is too large (at most ${maxBytes} bytes)`);

export const notFound = (what: string): ApiError => new ApiError(404, what);
