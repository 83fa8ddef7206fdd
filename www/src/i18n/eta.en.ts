// English text for HF's eta_cutoff stage (the zh twin is eta.zh.ts): shown when a trace has it.
export const etaEn = {
  "stage.eta_cutoff.title": "Eta cutoff",
  "stage.eta_cutoff.explain": "Remove tokens with p < min(η, √η·e^(−H)) = {cut}, η = {e}, H the entropy.",
} as const;
