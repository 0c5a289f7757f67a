/**
 * Which committed writes a tab's in-memory index reflects, by the number each write gives its
 * database (a counter bumped in the write's own transaction): all up to `at`, and some past it
 * (other tabs' announcements may arrive out of order). A write never announced (its worker died
 * between commit and announcement) leaves a gap that the next read notices.
 */
export class Seen {
  private at = 0;
  private readonly ahead = new Set<number>();

  /** The index was just loaded from the database as of `version`. */
  reset(version: number): void {
    this.at = version;
    this.ahead.clear();
  }

  /** The index reflects write `version`. */
  saw(version: number): void {
    if (version <= this.at) return;
    this.ahead.add(version);
    while (this.ahead.delete(this.at + 1)) this.at++;
  }

  /** Whether every write up to `version` is reflected. */
  covers(version: number): boolean {
    return this.at >= version;
  }
}
