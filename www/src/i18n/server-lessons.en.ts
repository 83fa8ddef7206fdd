// English text for Compare and the lessons over a model server (zh twin: server-lessons.zh.ts).
export const serverLessonsEn = {
  "srv.compare.manual":
    "Comparison needs a model that writes: the embedded model or a connected model server. The hand-made tables are a lookup of a few tokens. Switch the logits source to the embedded model or the model server.",
  "srv.compare.stop": "Stop comparison",
  "srv.compare.running": "Generating over the server: {done} of up to {total} tokens…",
  "srv.compare.done": "Generated over the model server, one request per token.",
  "srv.compare.stopped": "Stopped before the end (Stop comparison): the columns show the tokens made so far.",
  "srv.compare.changed": "Stopped before the end: the prompt, the settings or the source changed. Run it again for the new ones.",
  "srv.compare.failed": "Stopped: the server did not answer (see the column). Nothing more is asked; run it again once the server is back.",
} as const;
