// Token text for a model server's tokens: each token's exact bytes (from the answer's `bytes`, or
// its text's UTF-8), decoded the way the embedded model's tokenizer does, holding back an
// unfinished character as pending bytes, so a byte token shows as <E4> on its chip like today.

/** The length of the longest prefix of `bytes` that ends on a character boundary. */
export function completePrefix(bytes: readonly number[]): number {
  const n = bytes.length;
  // look back at most 3 bytes for the lead byte of an unfinished character
  for (let back = 1; back <= Math.min(3, n); back++) {
    const b = bytes[n - back] ?? 0;
    if ((b & 0xc0) === 0x80) continue; // continuation byte
    // 0xF8–0xFF never start a character: nothing to wait for (the decoder shows U+FFFD)
    const need = b >= 0xf8 ? 1 : b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return need > back ? n - back : n;
  }
  return n;
}

const decoder = new TextDecoder("utf-8");

/** Appending `bytes` after `pending`: the text completed now and the bytes left unfinished. */
export function appendBytes(pending: readonly number[], bytes: readonly number[]): { piece: string; pending: number[] } {
  const all = [...pending, ...bytes];
  const cut = completePrefix(all);
  return { piece: decoder.decode(new Uint8Array(all.slice(0, cut))), pending: all.slice(cut) };
}

/** A token's display label: its text, or `<E4>`-style bytes when they are not whole characters. */
export function tokenLabelOf(text: string, bytes: readonly number[] | null): string {
  if (bytes === null || bytes.length === 0) return text;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(new Uint8Array(bytes));
  } catch {
    return bytes.map((b) => `<${b.toString(16).toUpperCase().padStart(2, "0")}>`).join("");
  }
}
