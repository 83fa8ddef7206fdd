// English text for a link made with a model server, waiting for Connect (the zh twin is
// server-link.zh.ts): the notice, long and short, and its button.
export const serverLinkEn = {
  "serverLink.waiting": "This link was made with the model server at {url}. Click Connect to continue it there; until then the page shows the embedded model.",
  "serverLink.lesson": "This lesson link was made with the model server at {url}. Click Connect to continue the lesson there; until then the page shows the embedded model.",
  "serverLink.connect": "Connect",
  "serverLink.connectName": "Connect to the model server at {url}",
  "serverLink.short": "Made with the model server at {url}.",
  "serverLink.lessonShort": "A lesson made with the model server at {url}.",
} as const;
