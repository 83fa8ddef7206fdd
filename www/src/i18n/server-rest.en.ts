// English text for what a model server's top N leaves out (issue 12): the "rest of the vocabulary"
// bar and strip box, the honest kept count and entropy, and the server source's own errors
// (zh twin: server-rest.zh.ts).
export const serverRestEn = {
  "rest.tick": "unlisted",
  "rest.label": "rest of the vocabulary",
  "rest.barName":
    "Rest of the vocabulary: {p} together, the {n} tokens the server did not list. Not a token, so it cannot be chosen or forced.",
  "rest.removedNote": "✕ {stage}",
  "rest.removedName":
    "Rest of the vocabulary ({p}): removed by {stage}. Every token the server did not list is less likely than the last listed one, so this cut removes them all.",
  "rest.stageListed": "This stage sees the {n} listed tokens only: the server did not list the rest of the vocabulary ({p}).",
  "rest.strip.box": "not drawn",
  "rest.strip.removed": "removed by {stage}",
  "rest.strip.name": "Rest of the vocabulary, {p}: not part of the draw. u falls among the listed tokens only.",
  "rest.strip.whyExact":
    "The rest of the vocabulary ({p}, the tokens the server did not list) was removed by {stage}, as it would be over the whole vocabulary: u falls among the listed tokens, and these bands are exact.",
  "rest.strip.whyInexact":
    "The rest of the vocabulary ({p}, the tokens the server did not list) is not part of the draw: the core draws u over the {n} listed tokens only, so the bands above add up to 1 over those tokens. Over the whole vocabulary their probabilities would be lower (not exact).",
  "rest.kept": "{k} of the {n} listed (the other {m} not known)",
  "rest.keptExact": "{k} of {n} (exact: {stage} removed every unlisted token)",
  "rest.entropy": "{h} bits over the listed tokens (raw, whole vocabulary: {lo}–{hi} bits)",
  "rest.entropyExact": "{h} bits (raw, whole vocabulary: {lo}–{hi} bits)",
  "rest.pjKept": "{k} / {n} listed",
  "rest.error.unknownToken": "Token {id} is not in any of the server's answers for this text, so the page cannot append it. Step instead, or force a token the server listed.",
  "rest.error.rewind": "Cannot go back {n} tokens over the server: only {have} were appended.",
} as const;
