// A source's own refusal, already worded for the page (a model server that never listed a token):
// the Playground shows it as the source's failure, never as the decoding core's rejection.
export class SourceError extends Error {
  override readonly name = "SourceError";
}
