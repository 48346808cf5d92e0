// A value a caller supplied breaks an input rule. Core's readers and parsers throw it with the parameter's
// name; the server answers it as a 400 with meta.param (server/http/errors.ts apiErrorOf), the CSV importer
// reports it as the row's error. Core knows nothing of HTTP, so it is not the server's BadRequest.
export class InputError extends Error {
  constructor(
    readonly param: string,
    message: string,
  ) {
    super(message);
    this.name = 'InputError';
  }
}
