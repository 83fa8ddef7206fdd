// The lessons' ids, in the order the panel lists them (keys 1–9 open the first nine, 0 the tenth: the self-test).
export const LESSON_IDS = ["exp1", "exp2", "exp3", "myth1", "myth2", "myth3", "myth4", "myth5", "myth6", "quiz"] as const;
export type LessonId = (typeof LESSON_IDS)[number];

export function isLessonId(id: string): id is LessonId {
  return (LESSON_IDS as readonly string[]).includes(id);
}
