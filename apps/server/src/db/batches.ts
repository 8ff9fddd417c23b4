/** Rows one INSERT writes at most: a statement takes at most 65,535 parameters, one per value. */
const BATCH_ROWS = 1000;

/** Writes `rows` a thousand to a statement (rows of a few columns each), one statement after the other. */
export async function inBatches<Row>(rows: Row[], write: (batch: Row[]) => Promise<unknown>): Promise<void> {
  for (let start = 0; start < rows.length; start += BATCH_ROWS) {
    await write(rows.slice(start, start + BATCH_ROWS));
  }
}
