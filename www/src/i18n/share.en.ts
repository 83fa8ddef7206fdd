// English text for links (URL state), the Share / Embed dialog and embed mode (zh twin: share.zh.ts).
export const shareEn = {
  "url.notice": "Parts of this link could not be used; the page used its defaults instead:",
  "url.dismiss": "Dismiss",
  "url.ignored": "{field} = “{value}”: {rule}",
  "url.rule.number": "must be a number from {min} to {max}",
  "url.rule.integer": "must be a whole number from {min} to {max}",
  "url.rule.oneOf": "must be one of {options}",
  "url.rule.tooLong": "longer than {max} characters",
  "url.rule.tokens": "must be token ids like 12.34f.56 (f = forced)",
  "url.rule.unknown": "not known to this page",
  "url.token": "token {n}",
  "url.path": "path {n}",
  "url.badToken": "{at} (“{token}”) cannot be appended here; the path stops before it",
  "url.pastStop": "{at}: generation had already stopped; the rest of the path is left out",
  "url.badBranch": "{at} does not fit the paths before it; it and later paths are left out",
  "url.noModel": "the embedded model is not loaded, so the hand-made logits are used",
} as const;
