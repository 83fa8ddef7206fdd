// The lessons panel (placeholder until the lessons land): guided versions of the chapter's experiments,
// misconceptions and self-test questions, each one click that sets every parameter and the seed.
import type { Actions } from "../actions";
import type { LessonId } from "../lessons/catalog";

export interface Lessons {
  /** Open a lesson (null closes the panel); `setUp` false keeps the page's state (a link restores it). */
  open(id: LessonId | null, setUp?: boolean): void;
  current(): LessonId | null;
}

export function createLessons(_actions: Actions, handlers: { onLesson(id: LessonId | null): void }): Lessons {
  let current: LessonId | null = null;
  return {
    open(id) {
      current = id;
      handlers.onLesson(id);
    },
    current: () => current,
  };
}
