// Realistic ("peaked") logits, generated identically here and in tests/bench/step.rs: a bulk of
// approximately normal scores (σ ≈ 2.5) plus 30 strong candidates, as a language model's output
// looks after a clear context (the top token about a third of the mass at T = 1, the top ten 0.97).
export function peakedLogits(n) {
  return logitsWithHead(n, 18);
}

// The same bulk with its 30 candidates 4 lower: an open context (the top token about a fifth of the
// mass, the top ten two thirds; top-p 0.9 keeps ~10,000 of 151,936). tests/support's uncertain_logits.
export function uncertainLogits(n) {
  return logitsWithHead(n, 14);
}

function logitsWithHead(n, top) {
  let state = 0x9e3779b9 >>> 0;
  const next = () => {
    state ^= state << 13; state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5; state >>>= 0;
    return state / 4294967296;
  };
  const logits = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const g = (next() + next() + next() + next() - 2) * Math.sqrt(3);
    logits[i] = Math.fround(2.5 * g);
  }
  for (let i = 0; i < Math.min(30, n); i++) logits[(i * 7919) % n] = Math.fround(top - 0.4 * i);
  return logits;
}
