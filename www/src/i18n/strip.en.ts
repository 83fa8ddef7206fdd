// English text for the final 0–1 strip and the draw: the rest band, the strip's accessible name,
// why u fell where it did, and the first-visit seed (zh twin: strip.zh.ts).
export const stripEn = {
  "strip.rest": "rest: {n} · {p}",
  "strip.restTitle": "{n} other kept tokens, {p} of the final probability together",
  "strip.name": "u = {u} falls in the band of “{token}”, {from} to {to}",
  "strip.nameGreedy": "Greedy: no random number; “{token}”, the most likely token, is chosen",
  "strip.why": "u = {u} is draw {draw} of seed {seed} (one draw per new token, counted from 0). u is uniform on [0, 1), so a band is hit by as many draws as it is wide: “{token}” by {share} of draws.",
  "seed.firstVisit": "Seed {seed} is the first seed whose first {n} draws all fall below {below}: the opening steps show typical picks, not rare ones. New seed gives any other.",
} as const;
