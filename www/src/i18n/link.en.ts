// English text for reading links beyond single fields: absurd links and long notices (zh twin: link.zh.ts).
export const linkEn = {
  "url.linkTooLong": "this link is longer than {max} characters, so none of it was used",
  "url.more": "and {count} more parts of the link could not be used either",
  "url.rule.tokensCut": "must be token ids like 12.34f.56 (f = forced); the first {kept} were used",
  "url.rule.repeated": "given more than once; the last value, “{used}”, was used",
} as const;
