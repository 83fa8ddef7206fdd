// English text for the fifth QA pass's fixes (zh twin: qa5.zh.ts): a link's per-step settings.
export const qa5En = {
  "url.rule.settings": "must be a path, a token and settings like 0_3_temperature:0.8,seed:7 (keys a step reads, each in its range; each place once)",
};
