// English text for the lessons feature (merged into en.ts; zh twin in lessons.zh.ts).
export const lessonsEn = {
} as const;
