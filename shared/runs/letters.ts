/**
 * What names and colours the runs of a comparison (at most MAX_COMPARED, compare/compare.ts): the
 * letters A–D (A the baseline) and one colour per run, in pick order. Below every feature folder
 * of shared/runs, so the comparison, the distributions (summary/) and the report all take them
 * from here.
 */
export const LETTERS = ['A', 'B', 'C', 'D'] as const;

/** One colour per compared run, in pick order (distinct from each other on the dark theme). */
export const RUN_COLORS = ['#22d3ee', '#ffb020', '#b48cff', '#ff6b9a'] as const;
