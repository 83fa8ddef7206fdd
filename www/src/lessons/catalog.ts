// The lessons' ids, in the order the panel lists them (keys 1–9 open the first nine, 0 the tenth: the self-test).
import { textIn } from "../i18n/index";
import type { MessageKey } from "../i18n/index";

export const LESSON_IDS = ["exp1", "exp2", "exp3", "myth1", "myth2", "myth3", "myth4", "myth5", "myth6", "quiz"] as const;
export type LessonId = (typeof LESSON_IDS)[number];

export function isLessonId(id: string): id is LessonId {
  return (LESSON_IDS as readonly string[]).includes(id);
}

/**
 * The lesson a link or an element names by its button's name, in either language (`实验二`,
 * `Myth 3`, `自测题`: a teacher writes what the page shows), or undefined.
 */
export function lessonByName(name: string): LessonId | undefined {
  const plain = (text: string): string => text.replace(/[\s.]/g, "").toLowerCase();
  const wanted = plain(name);
  return LESSON_IDS.find((id) => (["zh", "en"] as const).some((language) => plain(textIn(language, `lesson.${id}.short` as MessageKey)) === wanted));
}
