// English text for reading links beyond single fields: absurd links and long notices (zh twin: link.zh.ts).
export const linkEn = {
  "url.linkTooLong": "this link is longer than {max} characters, so none of it was used",
  "url.more": "and {count} more parts of the link could not be used either",
} as const;
