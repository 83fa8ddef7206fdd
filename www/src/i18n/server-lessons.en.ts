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
  "srv.lesson.loading": "Asking the model server…",
  "srv.lesson.onServer": "Running over the model server ({model}): every token and number in this lesson is that model's.",
  "srv.lesson.writtenFor":
    "This lesson's text is about the embedded model (or the chapter's table), and the page is on the model server ({model}) now: its numbers may not match the text.",
  "srv.lesson.rerun": "Run it on the embedded model",
  "srv.lesson.offModel":
    "This runs on the embedded model: what it shows depends on that model's own weights (a real model may answer correctly and have nothing to show). The model server ({model}) stays connected.",
  "srv.lesson.offManual": "This uses the chapter's hand-made table, not a model. The model server ({model}) stays connected.",
  "srv.lesson.onServer.short": "Model server: {model}",
  "srv.lesson.writtenFor.short": "Text about the embedded model",
  "srv.lesson.offModel.short": "Embedded model · server still connected",
  "srv.lesson.offManual.short": "Hand-made table · server still connected",
  "srv.lesson.back": "Back to the model server",
  "srv.exp1.after1": "The context is now “{context}”: a new distribution, computed again from the whole context.",
  "srv.exp1.wrap": "Greedy never planned “{text}”: it chose the most likely token at each step, one at a time.",
  "srv.exp2.keep": "Keep drawing: “{token}” ({p}) is the most likely first token, but not every draw picks it.",
  "srv.exp2.found": "“{token}” came up instead of the most likely “{top}”: just another path. Sampling lets several good continuations compete.",
  "srv.myth3.wrap":
    "At T = 2, “{token}” keeps {p2} of the probability (at T = 1: {p1}; at T = 0.5: {p05}); the rest goes to other tokens. The model knows no more at T = 2: its answer only gets less sure. The page is set to T = 2: sample 1,000 times and count.",
  "srv.myth4.intro":
    "The most likely token at each step does not add up to the best text: greedy's text is often bland or repeats itself. Run greedy and sampling on this model and look at how each one ends.",
} as const;
