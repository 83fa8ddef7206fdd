// Keyboard shortcuts for the classroom (placeholder until they land).
import type { Actions } from "./actions";

export interface Commands {
  toggleProjector(): void;
  toggleFullscreen(): void;
  /** Open the lesson at this 0-based index (keys 1–9). */
  openLesson(index: number): void;
}

export function installShortcuts(_actions: Actions, _commands: Commands): void {}
