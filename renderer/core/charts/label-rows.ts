/**
 * Labels along the top of a plot (a band's name, a marker line's name) laid out so they never
 * overlap: each keeps its wanted place when it can, is shifted inside the plot, and drops to the
 * next row down when it would touch a label already placed in its row. Widths are estimated from
 * the text (11-px labels), with a margin, so a layout computed here holds in the browser.
 */

export interface TopLabel {
  id: string;
  text: string;
  /** The pixel the label hangs from, and which side of it the text goes. */
  x: number;
  align: 'start' | 'middle' | 'end';
}

export interface PlacedLabel {
  id: string;
  text: string;
  /** Left edge of the text, px. */
  left: number;
  width: number;
  row: number;
}

/** An 11-px sans-serif label's width (px): generous, so estimates err towards more room. @internal exported for its tests */
export function labelWidth(text: string, px = 11): number {
  return Math.ceil(text.length * px * 0.6) + 4;
}

/** Places `labels` (in priority order) inside [left, right], `gap` px apart within a row. */
export function labelRows(
  labels: readonly TopLabel[],
  plot: { left: number; right: number },
  gap = 8,
): PlacedLabel[] {
  const rows: { l: number; r: number }[][] = [];
  return labels.map((lab) => {
    const width = labelWidth(lab.text);
    let l = lab.align === 'start' ? lab.x : lab.align === 'end' ? lab.x - width : lab.x - width / 2;
    l = Math.max(plot.left, Math.min(l, plot.right - width));
    const r = l + width;
    let row = 0;
    while (rows[row]?.some((o) => l < o.r + gap && o.l < r + gap)) row++;
    (rows[row] ??= []).push({ l, r });
    return { id: lab.id, text: lab.text, left: l, width, row };
  });
}
