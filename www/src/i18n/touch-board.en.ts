// English text for a touch screen without a keyboard or mouse (a classroom touch board, a tablet):
// what a tap on a bar does, and projector mode's prompt box's Return (zh twin: touch-board.zh.ts).
export const touchBoardEn = {
  "inspector.forceHintTouch": "Tap a bar for its numbers; tap it again to force that token at this step.",
  "pjPrompt.keysTouch": "Return: apply the prompt (no step) · Step: the next token",
};
