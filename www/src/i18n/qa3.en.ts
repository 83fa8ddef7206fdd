// English text for the third QA pass's fixes (the zh twin is qa3.zh.ts): a link made with a model
// server, waiting for Connect; the prompt box's shortcut.
export const qa3En = {
  "serverLink.waiting": "This link was made with the model server at {url}. Click Connect to continue it there; until then the page shows the embedded model.",
  "serverLink.lesson": "This lesson link was made with the model server at {url}. Click Connect to continue the lesson there; until then the page shows the embedded model.",
  "serverLink.connect": "Connect",
  "serverLink.connectName": "Connect to the model server at {url}",
  "help.prompt": "Edit the prompt (projector mode: the prompt box; pauses Play)",
} as const;
