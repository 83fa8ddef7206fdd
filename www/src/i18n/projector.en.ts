// English text for the projector feature (merged into en.ts; zh twin in projector.zh.ts).
export const projectorEn = {
} as const;
