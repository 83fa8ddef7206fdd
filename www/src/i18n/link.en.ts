// English text for reading links beyond single fields: absurd links, long notices, a step's own
// settings (zh twin: link.zh.ts).
export const linkEn = {
  "url.linkTooLong": "this link is longer than {max} characters, so none of it was used",
  "url.more": "and {count} more parts of the link could not be used either",
  "url.rule.promptCut": "longer than {max} characters, far more than the model reads (the message under the prompt names its limit in tokens); the prompt box holds the first {max}",
  "url.rule.tokensCut": "must be token ids like 12.34f.56 (f = forced); the first {kept} were used",
  "url.rule.notText": "holds percent-escapes that are not UTF-8 text (cut or mis-encoded on its way?); each such run is shown as �, the rest as written",
  "url.rule.repeated": "given more than once; only the last value, “{used}”, is read",
  "url.rule.cut": "the link was cut off here on its way (it is shorter than the page wrote it): this field and everything after it are missing; ask for the whole link",
  "url.rule.cutTokens": "the link was cut off here on its way (it is shorter than the page wrote it): the first {kept} tokens were used, the rest and everything after them are missing; ask for the whole link",
  "url.projectorList": "The list is shown outside projector mode (P).",
  "url.rule.settings": "must be a path, a token and settings like 0_3_temperature:0.8,seed:7 (keys a step reads, each in its range; each place once)",
  // a lesson link that also names settings: the link's are used over the lesson's own, and said so
  "url.lessonNotice": "This link changes settings the lesson sets itself:",
  "url.lessonOwn": "{field} = “{value}”: used in place of {lesson}'s own {own}, which the lesson's text is written for (“{again}” sets it back)",
} as const;
